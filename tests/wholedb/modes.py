#!/usr/bin/env python3
"""tests/wholedb/modes.py — whole program in every mode (SPEC §7): a project whose findings
cross files (a tag from another unit, from a header, through a global, through a helper of a
third unit) plus a second program, analyzed in full and then in every partial mode — each file
named alone (the finding's file, the files of its trace, a header), with and without the cache,
shards merged, the language server with each file (a header too) opened alone, the pre-commit
hook of docs/ci.md committing each file alone — each must report exactly the full run's
findings for what it names. Without a database, tagcheck names the functions defined
elsewhere. The full run's findings are the project's annotations, read by tests/corpus/corpus.py.
(More of the language server's whole-program mode — unsaved edits, several open
documents — is tested in tests/lsp, test_lsp_session.c.)

usage: modes.py TAGCHECK SOURCE_DIR RUNTIME_INCLUDE WORK"""
import json
import re
import os
import select
import shutil
import subprocess
import sys
import time

TAGCHECK, SRC, INC, WORK = sys.argv[1:5]
FILES = ["main.c", "weights.c", "config.c", "helpers.c", "other.c"]
failures = []
sys.path.insert(0, os.path.join(SRC, "tests", "corpus"))
import corpus  # noqa: E402  (the corpus driver: the one reader of the annotations)


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args, env=None):
    p = subprocess.run([TAGCHECK, *args], capture_output=True, text=True, env=env, timeout=300)
    return p.returncode, p.stdout, p.stderr


fingerprints = {}  # finding -> its fingerprint in the full run


def findings(out):
    """(file name, line, col, rule) of every finding, and the files of its trace; checks that
    each has the fingerprint the full run gave it."""
    keys = {}
    for f in json.loads(out)["findings"]:
        key = (os.path.basename(f["file"]), f["line"], f["col"], f["rule"])
        keys[key] = {os.path.basename(f["file"])} | {os.path.basename(n["file"]) for n in f["notes"]}
        fp = fingerprints.setdefault(key, f["fingerprint"])
        check(fp == f["fingerprint"], f"{key}: fingerprint {f['fingerprint']} differs from the full run's {fp}")
    return keys


def sarif_results(path):
    with open(path) as f:
        log = json.load(f)
    out = []
    for run_ in log["runs"]:
        for r in run_["results"]:
            loc = r["locations"][0]["physicalLocation"]
            out.append((loc["artifactLocation"]["uri"], loc["region"]["startLine"],
                        loc["region"]["startColumn"], r["ruleId"]))
    return out


shutil.rmtree(WORK, ignore_errors=True)
shutil.copytree(os.path.join(SRC, "tests", "wholedb", "modes"), WORK)
db = [{"directory": WORK, "file": os.path.join(WORK, f),
       "arguments": ["cc", "-std=c11", "-I" + WORK, "-I" + INC, "-c", f]} for f in FILES]
with open(os.path.join(WORK, "compile_commands.json"), "w") as f:
    json.dump(db, f, indent=1)

status, out, err = run("-p", WORK, "--format", "json", "-q", "--no-cache")
check(status == 1, f"full run: exit {status}: {err}")
full = findings(out)
# the full run reports what the project's annotations say (`// expect-error: RULE`)
corpus.TAG_RULES = corpus.load_tag_rules(os.path.join(SRC, "runtime", "include", "dt", "rules.def"))
project = corpus.Program("wholedb/modes", WORK, [os.path.join(WORK, f) for f in FILES + ["model.h"]])
annotated = {(os.path.basename(e.path), e.line, e.rule) for e in project.expectations}
check(len(annotated) == 5, f"the project's annotations: 5 expected, got {sorted(annotated)}")
check({(k[0], k[1], k[3]) for k in full} == annotated,
      f"full run: got {sorted(full)}, the annotations say {sorted(annotated)}")
touching = {}
for key, files in full.items():
    for name in files:
        touching.setdefault(name, set()).add(key)
check(touching.get("model.h"), "a finding should trace through model.h")
check(len(touching.get("weights.c", ())) == 2, "two findings should trace through weights.c")

for cached in (False, True):
    for name in FILES + ["model.h"]:
        args = ["-p", WORK, "--format", "json", "-q", os.path.join(WORK, name)]
        if not cached:
            args.append("--no-cache")
        status, out, err = run(*args)
        got = set(findings(out)) if out else set()
        want = touching.get(name, set())
        check(got == want, f"{name} named ({'cache' if cached else 'no cache'}): "
                           f"got {sorted(got)}, want {sorted(want)}; {err}")
        check(status == (1 if want else 0), f"{name} named: exit {status}")

# two files named: the union
status, out, err = run("-p", WORK, "--format", "json", "-q", os.path.join(WORK, "config.c"),
                       os.path.join(WORK, "other.c"))
check(set(findings(out)) == touching["config.c"] | touching["other.c"], "two files named")

# shards merged report exactly what one run reports
status, _, err = run("-p", WORK, "--no-cache", "--format", "sarif", "-q", "--root", WORK,
                     "-o", os.path.join(WORK, "full.sarif"))
whole = sarif_results(os.path.join(WORK, "full.sarif"))
for n in (2, 3, 7):
    parts = []
    for k in range(1, n + 1):
        path = os.path.join(WORK, f"shard{k}of{n}.sarif")
        status, _, err = run("-p", WORK, "--no-cache", "--format", "sarif", "-q", "--root", WORK,
                             "--shard", f"{k}/{n}", "-o", path)
        check(status in (0, 1), f"shard {k}/{n}: exit {status}: {err}")
        parts.append(path)
    merged = os.path.join(WORK, f"merged{n}.sarif")
    p = subprocess.run([TAGCHECK, "merge", "-o", merged, *parts], capture_output=True, text=True)
    check(p.returncode == 0, f"merge of {n} shards: {p.stderr}")
    got = sarif_results(merged)
    check(sorted(got) == sorted(whole), f"{n} shards merged: {sorted(got)} != {sorted(whole)}")

# no database: say which functions are defined elsewhere — in text, a note at the call in the
# report (where a build running tagcheck as its clang-tidy shows it), else on standard error
status, out, err = run(os.path.join(WORK, "main.c"), "--no-cache", "--", "-I" + WORK, "-I" + INC)
check(re.search(r"^" + re.escape(os.path.join(WORK, "main.c")) + r":\d+:\d+: note: \w*load_weights"
                r" is defined in no file given.*-p DIR", out, re.M) is not None,
      f"one file without a database: {out}")
status, out, err = run(os.path.join(WORK, "main.c"), "--no-cache", "--format", "json", "--",
                       "-I" + WORK, "-I" + INC)
check("load_weights" in err and "-p DIR" in err, f"one file without a database, JSON: {err}")
# a header no unit includes
with open(os.path.join(WORK, "unused.h"), "w") as f:
    f.write("int unused;\n")
status, out, err = run("-p", WORK, "-q", os.path.join(WORK, "unused.h"))
check(status == 0 and "no unit of the compilation database includes it" in err,
      f"unused header: exit {status}: {err}")

# the language server: each file opened alone (a header too) analyzes its whole program and
# publishes every finding of it, each on its own file; what it publishes on the document is
# exactly the full run's findings located in it, and what it publishes in all is exactly the
# full run's findings of the program, which hold every finding the file touches
PROGRAMS = [{"main.c", "weights.c", "config.c", "helpers.c", "model.h"}, {"other.c"}]


class Lsp:
    def __init__(self):
        self.p = subprocess.Popen([TAGCHECK, "--lsp"], cwd=WORK, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buf = b""

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def next(self, deadline):
        while True:
            head, sep, rest = self.buf.partition(b"\r\n\r\n")
            if sep:
                n = int([h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")][0]
                        .split(b":")[1])
                if len(rest) >= n:
                    self.buf = rest[n:]
                    return json.loads(rest[:n])
            left = deadline - time.time()
            if left <= 0 or not select.select([self.p.stdout], [], [], left)[0]:
                return None
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buf += chunk

    def close(self):
        self.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        self.send({"jsonrpc": "2.0", "method": "exit"})
        self.p.stdin.close()
        return self.p.wait(timeout=60)


def lsp_open_alone(name):
    """What the server publishes, by file name, after opening name alone: {file: {finding}}."""
    srv = Lsp()
    srv.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"capabilities": {}, "initializationOptions": {"debounceMs": 0}}})
    srv.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    path = os.path.join(WORK, name)
    with open(path) as f:
        text = f.read()
    srv.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
              "params": {"textDocument": {"uri": "file://" + path, "languageId": "c",
                                          "version": 1, "text": text}}})
    published, deadline = {}, time.time() + 120
    while True:
        m = srv.next(deadline)
        if m is None:
            check(False, f"lsp, {name} opened: no end of its analysis")
            break
        if m.get("method") == "textDocument/publishDiagnostics":
            file = os.path.basename(m["params"]["uri"])
            published[file] = {(file, d["range"]["start"]["line"] + 1,
                                d["range"]["start"]["character"] + 1, d["code"])
                               for d in m["params"]["diagnostics"]}
        # the log line that ends an analysis comes after its publications
        if m.get("method") == "window/logMessage" and "finding(s) in" in m["params"]["message"]:
            break
        if m.get("method") == "window/showMessage" and m["params"]["type"] == 1:
            check(False, f"lsp, {name} opened: {m['params']['message']}")
            break
    check(srv.close() == 0, f"lsp, {name} opened: the server did not exit cleanly")
    return published


for name in FILES + ["model.h"]:
    published = lsp_open_alone(name)
    program = next(p for p in PROGRAMS if name in p)
    want_all = {k for k in full if k[0] in program}
    got_all = set().union(*published.values()) if published else set()
    check(got_all == want_all, f"lsp, {name} opened: published {sorted(got_all)}, "
                               f"want the program's {sorted(want_all)}")
    check(touching.get(name, set()) <= got_all, f"lsp, {name} opened: misses findings it touches")
    check(published.get(name, set()) == {k for k in full if k[0] == name},
          f"lsp, {name} opened: on the document {sorted(published.get(name, set()))}")
    for file, got in published.items():
        check(got == {k for k in full if k[0] == file}, f"lsp, {name} opened: on {file} {sorted(got)}")

# the pre-commit hook of docs/ci.md, as documented: a commit touching only weights.c (or only a
# header) is refused for the findings it causes in main.c and helpers.c
with open(os.path.join(SRC, "docs", "ci.md")) as f:
    doc = f.read()
hook = doc[doc.index("#!/bin/sh\n# .git/hooks/pre-commit"):]
hook = hook[:hook.index("```")]
os.makedirs(os.path.join(WORK, "build"), exist_ok=True)
shutil.copy(os.path.join(WORK, "compile_commands.json"), os.path.join(WORK, "build"))
env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(TAGCHECK)) + ":" + os.environ["PATH"],
           GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
           GIT_COMMITTER_EMAIL="t@t")


def git(*args):
    return subprocess.run(["git", *args], cwd=WORK, env=env, capture_output=True, text=True)


check(git("init", "-q").returncode == 0, "git init")
git("add", "-A")
check(git("commit", "-q", "--no-verify", "-m", "base").returncode == 0, "git commit")
with open(os.path.join(WORK, ".git", "hooks", "pre-commit"), "w") as f:
    f.write(hook)
os.chmod(os.path.join(WORK, ".git", "hooks", "pre-commit"), 0o755)
def hook_findings(out):
    """(file name, line, col, rule) of every finding the hook's text output reports."""
    got = set()
    for line in out.splitlines():
        parts = line.split(":", 4)
        if len(parts) == 5 and parts[3].strip() in ("error", "warning") and line.endswith("]"):
            got.add((os.path.basename(parts[0]), int(parts[1]), int(parts[2]),
                     line[line.rindex("[") + 1:-1]))
    return got


# every file committed alone: refused exactly for the findings that file touches
for name in FILES + ["model.h"]:
    want = touching.get(name, set())
    with open(os.path.join(WORK, name), "a") as f:
        f.write("/* an edit */\n")
    git("add", name)
    p = git("commit", "-q", "-m", "edit " + name)
    out = p.stdout + p.stderr  # git gives the hook's output on stderr
    check((p.returncode != 0) == bool(want), f"hook: a commit of {name} alone: exit {p.returncode}")
    got = hook_findings(out)
    check(got == want, f"hook on {name}: reported {sorted(got)}, want {sorted(want)}: {out}")
    git("reset", "-q", "--hard", "HEAD" if p.returncode != 0 else "HEAD~1")
with open(os.path.join(WORK, "notes.txt"), "w") as f:
    f.write("no code\n")
git("add", "notes.txt")
check(git("commit", "-q", "-m", "notes").returncode == 0, "hook: a commit without code passes")

sys.exit(1 if failures else 0)
