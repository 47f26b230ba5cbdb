#!/usr/bin/env python3
"""tests/install/readme_test.py — the README's headline output is what the programs print: the
`$ cd ~/tagcheck && tagcheck …` block against tagcheck run in the checkout (its path written
as ~/tagcheck), and the runtime's block against the headline program built with libdt and run.

usage: readme_test.py TAGCHECK REPO_ROOT LIBDIR CC [CFLAGS] (the sanitizers' flags, when libdt
has them)"""
import os
import subprocess
import sys

tagcheck, root, libdir, cc = sys.argv[1:5]
extra = sys.argv[5].split() if len(sys.argv) > 5 else []
with open(os.path.join(root, "README.md")) as f:
    readme = f.read()


def block_after(marker):
    at = readme.index(marker)
    body = readme[at + len(marker):]
    return body[:body.index("```")]


failed = False
cmd_line = "$ cd ~/tagcheck && tagcheck "
want = block_after(cmd_line)
program = want.split("\n", 1)[0]
want = want.split("\n", 1)[1]
p = subprocess.run([tagcheck, program], cwd=root, capture_output=True, text=True)
got = (p.stdout + p.stderr).replace(os.path.realpath(root) + "/", "~/tagcheck/")
if got != want:
    failed = True
    print("README's tagcheck output differs from the program's:\n--- README\n%s--- tagcheck\n%s"
          % (want, got))

# the block's first line is the program's; the next, the shell's word for the abort
want = block_after("$ cc " + program + " -ldt && ./a.out\n").split("\n")[0] + "\n"
exe = os.path.join(os.environ.get("TMPDIR", "/tmp"), "readme_headline_%d" % os.getpid())
subprocess.run([cc, *extra, "-std=c11", "-I" + os.path.join(root, "runtime", "include"), program, "-o", exe,
                "-L" + libdir, "-Wl,-rpath," + libdir, "-ldt"], cwd=root, check=True)
p = subprocess.run([exe], cwd=root, capture_output=True, text=True, env=dict(os.environ, DT_ON_ERROR="", ASAN_OPTIONS="detect_leaks=0"))
os.unlink(exe)
got = p.stderr.split("\n")[0] + "\n"
if got != want or p.returncode == 0:
    failed = True
    print("README's runtime output differs from the program's:\n--- README\n%s--- program (exit %d)\n%s"
          % (want, p.returncode, p.stderr))
sys.exit(1 if failed else 0)
