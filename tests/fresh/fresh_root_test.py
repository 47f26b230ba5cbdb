#!/usr/bin/env python3
"""tests/fresh/fresh_root_test.py — the first five minutes of a new user, for real: a fresh
minimal Debian 12 root (debootstrap --variant=minbase, what the debian:12 image is), this checkout
copied to /root/tagcheck in it, and every command of README.md, docs/ci.md and docs/editors.md
that a user would type — the blocks marked `<!-- fresh-root: … -->` (tests/fresh/doc_blocks.py)
— run there as root, in document order after the quick start. Checked on the way: the demo's
story in at most 100 lines (the finding and its trace, the runtime stopping at the same line with
the same rule, the corpus summary, the next steps), no Node.js after the demo, tagcheck on PATH,
dt/fingerprint.h installed, a pkg-config program starting as nobody without ldconfig, and each
transcript's output as the docs print it ($HOME written as ~).

usage: fresh_root_test.py SOURCE_DIR WORK_DIR [CTEST_ARGS]
WORK_DIR keeps the bare root as a tarball (bookworm-minbase.tar) and the apt and npm caches
between runs; the root itself is WORK_DIR/root, removed when the test passes. CTEST_ARGS go to
the quick start's test command (QUICKSTART_CTEST_ARGS); empty runs the whole suite there.
Needs root, debootstrap, chroot and the network to the Debian and npm registries (CMake only
registers the test where they are). To debug the docs' blocks, FRESH_REUSE_ROOT=1 reruns them
(not the quick start) in the root a failed run kept, with the checkout's docs copied in again."""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_blocks  # noqa: E402

DOCS = ("README.md", "docs/ci.md", "docs/editors.md")
MIRROR = "http://deb.debian.org/debian"
HOME = "/root"
CHECKOUT = HOME + "/tagcheck"
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
DEMO_MAX_LINES = 100

src, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
ctest_args = sys.argv[3] if len(sys.argv) > 3 else ""
root = os.path.join(work, "root")
logs = os.path.join(work, "logs")
failures = []
timings = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, flush=True)


def log_path(name):
    return os.path.join(logs, re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:80] + ".log")


def host(*argv, **kw):
    return subprocess.run(list(argv), check=True, **kw)


def make_root():
    """The bare root: untarred from the cache, or debootstrapped (and cached) the first time."""
    tarball = os.path.join(work, "bookworm-minbase.tar")
    if not os.path.exists(tarball):
        fresh = os.path.join(work, "debootstrap")
        shutil.rmtree(fresh, ignore_errors=True)
        with open(os.path.join(logs, "debootstrap.log"), "w") as out:
            host("debootstrap", "--variant=minbase", "bookworm", fresh, MIRROR, stdout=out,
                 stderr=subprocess.STDOUT)
        host("tar", "-C", fresh, "-cf", tarball + ".part", ".")
        os.rename(tarball + ".part", tarball)
        shutil.rmtree(fresh)
    os.makedirs(root)
    host("tar", "-C", root, "-xf", tarball)
    shutil.copy("/etc/resolv.conf", os.path.join(root, "etc", "resolv.conf"))


# This machine's way to the network, which a fresh install on it would be given too: its proxy
# settings, and the extra certificate authorities it gives Node.js (a TLS-inspecting proxy's).
PROXY_VARS = ("http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY")
NETWORK_ENV = {v: os.environ[v] for v in PROXY_VARS if v in os.environ}


def carry_network_settings():
    extra_ca = os.environ.get("NODE_EXTRA_CA_CERTS")
    if extra_ca and os.path.isfile(extra_ca):
        os.makedirs(os.path.join(root, "etc", "ssl"), exist_ok=True)
        shutil.copy(extra_ca, os.path.join(root, "etc", "ssl", "host-extra-ca.crt"))
        NETWORK_ENV["NODE_EXTRA_CA_CERTS"] = "/etc/ssl/host-extra-ca.crt"


def copy_checkout():
    """The working tree as a clone of it holds it: tracked and untracked files that git does not
    ignore (every file outside build folders and node_modules when there is no git)."""
    dest = root + CHECKOUT
    os.makedirs(dest)
    if shutil.which("git") and os.path.exists(os.path.join(src, ".git")):
        names = subprocess.run(["git", "-C", src, "ls-files", "-z", "-co", "--exclude-standard"],
                               check=True, capture_output=True).stdout.split(b"\0")
        names = [n.decode() for n in names if n and os.path.lexists(os.path.join(src, n.decode()))]
    else:
        names = []
        for d, subdirs, files in os.walk(src):
            subdirs[:] = [s for s in subdirs if not s.startswith("build") and s != "node_modules"
                          and s != ".git"]
            names += [os.path.relpath(os.path.join(d, f), src) for f in files]
    listing = os.path.join(work, "checkout-files")
    with open(listing, "w") as f:
        f.write("\n".join(names) + "\n")
    host("tar", "-C", src, "-cf", os.path.join(work, "checkout.tar"), "--no-recursion", "-T", listing)
    host("tar", "-C", dest, "-xf", os.path.join(work, "checkout.tar"))


def mount_all():
    """proc, dev, and the caches kept between runs (apt's downloaded packages, npm's cache)."""
    for kind, what, where in (("proc", "proc", "proc"), ("rbind", "/dev", "dev"),
                              ("bind", os.path.join(work, "cache", "apt"), "var/cache/apt/archives"),
                              ("bind", os.path.join(work, "cache", "npm"), "root/.npm")):
        target = os.path.join(root, where)
        os.makedirs(target, exist_ok=True)
        if kind == "proc":
            host("mount", "-t", "proc", "proc", target)
        else:
            os.makedirs(what, exist_ok=True)
            host("mount", "--" + kind, what, target)


def mounts_under(path):
    """Mount points at or below PATH, deepest first (from /proc/mounts; octal escapes decoded)."""
    with open("/proc/mounts") as f:
        points = [re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), line.split()[1])
                  for line in f]
    return sorted((p for p in points if p == path or p.startswith(path + "/")), reverse=True)


def unmount_all():
    """Every mount under the root, this run's or a killed run's: a root is never deleted while
    /dev is bound into it (that would delete the machine's own /dev)."""
    for target in mounts_under(root):
        if subprocess.run(["umount", target], check=False).returncode != 0:
            subprocess.run(["umount", "-l", target], check=False)
    left = mounts_under(root)
    if left:
        raise SystemExit("cannot unmount %s: the root is kept" % ", ".join(left))


def remove_root():
    unmount_all()
    shutil.rmtree(root, ignore_errors=True)


def chroot(script, cwd=CHECKOUT, user=None, env=None, timeout=3600, name="command"):
    """Runs SCRIPT with sh in the root from CWD (a path inside it); returns (status, output),
    stdout and stderr together, as a terminal shows them. The output is logged under logs/."""
    argv = ["chroot"] + (["--userspec=" + user] if user else []) + [root, "/usr/bin/env", "-i",
            "HOME=" + HOME, "PATH=" + PATH, "TERM=dumb", "USER=" + (user or "root").split(":")[0]]
    argv += ["%s=%s" % kv for kv in dict(NETWORK_ENV, **(env or {})).items()]
    argv += ["/bin/sh", "-c", "cd %s && %s" % (shlex.quote(cwd), script)]
    start = time.time()
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        status, out = p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        status, out = 124, (e.stdout or b"").decode("utf-8", "replace") + "\n(timed out)\n"
    timings.append((name, time.time() - start))
    with open(log_path(name), "w") as f:
        f.write("$ %s\n%s(exit %d, %.0f s)\n" % (script, out, status, time.time() - start))
    return status, out


def shell_script(commands):
    """One shell running COMMANDS in order (cd and variables carry over, as when typed), writing
    each one's exit status to /tmp/fresh-status; a command that exits the shell is recorded by
    the EXIT trap."""
    lines = ["rm -f /tmp/fresh-status",
             "trap 'echo \"exit $?\" >> /tmp/fresh-status' EXIT"]
    for k, c in enumerate(commands):
        lines += ["echo '##fresh-root## %s'" % c.replace("'", "'\\''"), c,
                  "echo \"status %d $?\" >> /tmp/fresh-status" % k]
    return "\n".join(lines) + "\n"


def run_commands(block, commands, cwd, env=None):
    """Runs COMMANDS of BLOCK in one shell from CWD; checks each status against the block's
    `exit` list. Returns the output of each command, in order."""
    with open(root + "/tmp/fresh-script.sh", "w") as f:
        f.write(shell_script(commands))
    status, out = chroot("sh /tmp/fresh-script.sh", cwd=cwd, env=env, name=block.where())
    statuses = {}
    exited = None
    with open(root + "/tmp/fresh-status") as f:
        for line in f:
            words = line.split()
            if words[0] == "status":
                statuses[int(words[1])] = int(words[2])
            else:
                exited = int(words[1])
    for k, c in enumerate(commands):
        if k in statuses:
            if statuses[k] not in block.exits:
                fail("%s: `%s` exited %d (expected %s); log: %s" % (
                    block.where(), c, statuses[k], sorted(block.exits), log_path(block.where())))
                print(out[-3000:])
        elif k == len(statuses):  # the command that ended the shell
            if exited not in block.exits:
                fail("%s: `%s` ended the shell with %s; log: %s" % (
                    block.where(), c, exited, log_path(block.where())))
                print(out[-3000:])
            break
    return re.split(r"^##fresh-root## .*\n", out, flags=re.M)[1:]


def block_dir(block, index):
    """The folder a block runs in: the checkout itself for `.`, else a fresh copy of its folder."""
    if block.dir == ".":
        return CHECKOUT
    copy = "%s/try/%d-%s" % (HOME, index, os.path.basename(block.dir))
    chroot("rm -rf %s && mkdir -p %s/try && cp -r %s %s" % (copy, HOME, shlex.quote(block.dir), copy),
           name="copy %s" % block.dir)
    if block.build:
        status, _ = chroot("cmake -S . -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON && "
                           "cmake --build build", cwd=copy, name="build %s" % copy)
        if status != 0:
            fail("%s: building %s failed; log: %s" % (block.where(), block.dir,
                                                     log_path("build %s" % copy)))
    return copy


def check_demo(out):
    """The demo's story, as issue 24 asks for it, and what the quick start leaves installed."""
    lines = out.rstrip("\n").split("\n")
    if len(lines) > DEMO_MAX_LINES:
        fail("the demo printed %d lines (at most %d)" % (len(lines), DEMO_MAX_LINES))
    finding = next((m for m in (re.match(r"^(\S+):(\d+):\d+: error: .*\[([a-z-]+)\]$", x)
                                for x in lines) if m), None)
    if not finding:
        fail("the demo shows no finding")
    else:
        path, line, rule = finding.groups()
        rel = os.path.relpath(path, CHECKOUT) if path.startswith("/") else path
        if not any(re.match(r"^\S+:\d+:\d+: note: ", x) for x in lines):
            fail("the demo's finding has no trace (no note lines)")
        stop = r"^%s:%s: .*\[%s\]$" % (re.escape(rel), line, re.escape(rule))
        if not any(re.match(stop, x) for x in lines):
            fail("the runtime does not stop at %s:%s with [%s] in the demo" % (rel, line, rule))
    summary = next((x for x in lines if re.search(r"\d+ annotated bugs", x)), None)
    if not summary or not re.search(r" 0 missed; 0 findings no annotation expects", out):
        fail("the demo's corpus summary is missing or disagrees")
    if not re.search(r"^== Next", out, flags=re.M):
        fail("the demo does not say where to go next")
    for what, script in (
            ("Node.js is not installed by the demo", "! command -v node && ! command -v npm"),
            ("tagcheck is on PATH", "command -v tagcheck"),
            ("dt/fingerprint.h is installed", "test -f /usr/local/include/dt/fingerprint.h")):
        status, got = chroot(script, name=what)
        if status != 0:
            fail("after the demo, not true: %s (%s)" % (what, got.strip()))
    program = "#include <dt/dt.h>\nint main(void) { dt_free(dt_zeros(dt_cpu(), DT_FLOAT, 0, 0)); return 0; }\n"
    with open(root + "/tmp/pc.c", "w") as f:
        f.write(program)
    status, got = chroot("cc /tmp/pc.c $(pkg-config --cflags --libs dt) -o /tmp/pc", name="pkg-config build")
    if status == 0:
        status, got = chroot("/tmp/pc", cwd="/tmp", user="nobody:nogroup", name="pkg-config run")
    if status != 0:
        fail("a program built with pkg-config does not start without ldconfig: " + got.strip())


def run_quickstart(block):
    commands = block.commands()
    demo = [c for c in commands if re.search(r"quickstart\.sh demo", c)]
    if not demo:
        fail("%s: the quick start has no demo command" % block.where())
    for c in commands:
        env = {"QUICKSTART_CTEST_ARGS": ctest_args} if "quickstart.sh test" in c else None
        outs = run_commands(block, [c], CHECKOUT, env=env)
        if c in demo and outs:
            print(outs[0], end="", flush=True)
            check_demo(outs[0])


def run_transcript(block, cwd):
    """`$ COMMAND` lines of the block, run from CWD; the lines after each, what it must print."""
    parts = re.split(r"^\$ (.*)\n", block.text, flags=re.M)
    for command, want in zip(parts[1::2], parts[2::2]):
        _, got = chroot(command, cwd=cwd, name="%s %s" % (block.where(), command))
        got = got.replace(HOME + "/", "~/")
        if got != want:
            fail("%s: `$ %s` prints, unlike the docs:\n--- docs\n%s--- program\n%s" % (
                block.where(), command, want, got))


def run_c(block):
    with open(root + "/tmp/doc_program.c", "w") as f:
        f.write(block.text)
    status, got = chroot("cc -std=c11 /tmp/doc_program.c $(pkg-config --cflags --libs dt) -o "
                         "/tmp/doc_program", name=block.where() + " build")
    if status == 0:
        status, got = chroot("/tmp/doc_program", cwd="/tmp", user="nobody:nogroup",
                             name=block.where() + " run")
    if status not in block.exits:
        fail("%s: the program does not build and run (exit %d): %s" % (block.where(), status, got))


def workflow_steps(text):
    """The `run:` scripts of a GitHub Actions workflow, in order, with their `if:` (a YAML subset:
    `run: |` literal blocks and one-line `run:`)."""
    steps, lines, i = [], text.split("\n"), 0
    cond = None
    while i < len(lines):
        m = re.match(r"^(\s*)(- )?(\w[\w-]*): ?(.*)$", lines[i])
        i += 1
        if not m:
            continue
        if m.group(2):
            cond = None
        key, value = m.group(3), m.group(4)
        if key == "if":
            cond = value
        if key != "run":
            continue
        if value.strip() != "|":
            steps.append((cond, value.strip()))
            continue
        body, indent = [], None
        while i < len(lines):
            line = lines[i]
            if line.strip():
                width = len(line) - len(line.lstrip())
                if indent is None:
                    indent = width
                if width < indent:
                    break
            body.append(line[indent or 0:])
            i += 1
        steps.append((cond, "\n".join(body).strip() + "\n"))
    return steps


def run_workflow(block, cwd):
    """Each `run:` step in its own `sh -e` (as Actions runs them), GITHUB_ENV carried over."""
    env = {"GITHUB_WORKSPACE": cwd, "GITHUB_ENV": "/tmp/github-env", "GITHUB_EVENT_NAME": "push"}
    chroot("rm -f /tmp/github-env && touch /tmp/github-env", name="github-env")
    for k, (cond, script) in enumerate(workflow_steps(block.text)):
        if cond and cond != "always()":
            continue
        with open(root + "/tmp/step.sh", "w") as f:
            f.write(script)
        status, out = chroot("sh -e /tmp/step.sh", cwd=cwd, env=env, name="%s step %d" % (block.where(), k))
        if status != 0:
            fail("%s: step %d exited %d:\n%s\n%s" % (block.where(), k, status, script, out[-3000:]))
            return
        with open(root + "/tmp/github-env") as f:
            env.update(line.rstrip("\n").split("=", 1) for line in f if "=" in line)


def run_hook(block, cwd):
    """The hook in a git repository of CWD: committing the folder's sources runs it."""
    with open(root + cwd + "/.pre-commit-hook", "w") as f:
        f.write(block.text)
    setup = ("git init -q . && mv .pre-commit-hook .git/hooks/pre-commit && chmod +x "
             ".git/hooks/pre-commit && git add -A")
    status, out = chroot(setup, cwd=cwd, name=block.where() + " setup")
    if status != 0:
        fail("%s: could not make the repository: %s" % (block.where(), out))
        return
    status, out = chroot("git -c user.name=fresh -c user.email=fresh@example.org commit -q -m try",
                         cwd=cwd, name=block.where() + " commit")
    if status not in block.exits:
        fail("%s: the commit ended with %d (expected %s):\n%s" % (block.where(), status,
                                                                 sorted(block.exits), out))


def run_nvim(block, cwd):
    """The init.lua of the docs ('/path/to/tagcheck' being the checkout), then FILE opened and
    its diagnostics awaited by tests/fresh/nvim_wait.lua."""
    with open(root + "/tmp/init.lua", "w") as f:
        f.write(block.text.replace("/path/to/tagcheck", CHECKOUT))
    shutil.copy(os.path.join(src, "tests", "fresh", "nvim_wait.lua"), root + "/tmp/nvim_wait.lua")
    status, out = chroot("rm -f /tmp/nvim-diagnostics; nvim --headless -n -i NONE -u /tmp/init.lua "
                         "%s -S /tmp/nvim_wait.lua && cat /tmp/nvim-diagnostics"
                         % shlex.quote(block.open), cwd=cwd, timeout=120, name=block.where())
    if status != 0 or not re.search(r"^diagnostics [1-9]", out, flags=re.M):
        fail("%s: Neovim shows no tagcheck diagnostic in %s (exit %d):\n%s" % (
            block.where(), block.open, status, out))


def main():
    # ctest's timeout, ^C: unmount on the way out
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda n, _: sys.exit(128 + n))
    reuse = os.environ.get("FRESH_REUSE_ROOT") == "1" and os.path.isdir(root + CHECKOUT)
    if not reuse:
        remove_root()
    os.makedirs(logs, exist_ok=True)
    for f in os.listdir(logs):
        os.unlink(os.path.join(logs, f))
    all_blocks = []
    for doc in DOCS:
        all_blocks += doc_blocks.blocks(os.path.join(src, doc), doc)
    quick = [b for b in all_blocks if b.kind == "quickstart"]
    if len(quick) != 1:
        sys.exit("README.md must mark exactly one quick start block (found %d)" % len(quick))
    start = time.time()
    if reuse:
        unmount_all()
        for doc in DOCS:
            shutil.copy(os.path.join(src, doc), root + CHECKOUT + "/" + doc)
    else:
        make_root()
        copy_checkout()
    carry_network_settings()
    mount_all()
    try:
        if not reuse:
            run_quickstart(quick[0])
        for index, block in enumerate(all_blocks):
            if block.kind == "quickstart":
                continue
            print("-- %s" % block.where(), flush=True)
            cwd = block_dir(block, index)
            if block.kind == "sh":
                run_commands(block, block.commands(), cwd)
            elif block.kind == "transcript":
                run_transcript(block, cwd)
            elif block.kind == "c":
                run_c(block)
            elif block.kind == "workflow":
                run_workflow(block, cwd)
            elif block.kind == "hook":
                run_hook(block, cwd)
            elif block.kind == "nvim":
                run_nvim(block, cwd)
    finally:
        unmount_all()
    print("%d marked blocks of %s; %.0f s in all; slowest steps:" % (
        len(all_blocks), ", ".join(DOCS), time.time() - start))
    for name, secs in sorted(timings, key=lambda t: -t[1])[:8]:
        print("  %6.0f s  %s" % (secs, name))
    if failures:
        print("%d failure(s); the root is kept in %s, the logs in %s" % (len(failures), root, logs))
        return 1
    remove_root()
    return 0


if __name__ == "__main__":
    sys.exit(main())
