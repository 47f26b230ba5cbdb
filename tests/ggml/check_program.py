#!/usr/bin/env python3
"""tests/ggml/check_program.py — runs tagcheck with rules/ggml.json on one ggml corpus program
(corpus/ggml/) and compares its findings with the program's `expect-error: RULE` /
`expect-warning: RULE` annotations (the corpus convention, docs/corpus.md). The dt corpus driver
(tests/corpus/corpus.py) skips corpus/ggml/: it loads rules/dt.json and runs programs against
the dt runtime; ggml programs are analyzed only.

usage: check_program.py TAGCHECK RULES INCLUDE_DIR PROGRAM.c   (exit 0: findings == annotations)
"""
import json
import re
import subprocess
import sys

ANNOT_RE = re.compile(r"//.*expect-(error|warning)\s*:\s*([a-z][a-z0-9-]*)")


def expectations(path):
    want = set()
    with open(path, encoding="utf-8") as fh:
        for line, text in enumerate(fh, start=1):
            for m in ANNOT_RE.finditer(text):
                want.add((line, m.group(2), m.group(1)))
    return want


def findings(tool, rules, include, path):
    cmd = [tool, "--format", "json", "--no-cache", "-q", "--rules", rules, path, "--", "-I" + include]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode not in (0, 1):
        sys.exit("tagcheck failed (exit %d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr))
    doc = json.loads(p.stdout)
    return {(f["line"], f["rule"], f["level"]) for f in doc["findings"] if not f.get("suppressed")}


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    tool, rules, include, path = sys.argv[1:]
    want = expectations(path)
    got = findings(tool, rules, include, path)
    ok = True
    for line, rule, level in sorted(want - got):
        print("%s:%d: missed: expected %s %s" % (path, line, level, rule))
        ok = False
    for line, rule, level in sorted(got - want):
        print("%s:%d: unexpected %s %s" % (path, line, level, rule))
        ok = False
    print("%s: %d expected, %d found, %s" % (path, len(want), len(got), "ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
