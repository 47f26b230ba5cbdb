#!/usr/bin/env python3
"""scripts/demo_summary.py — the demo's summary of the bundled corpus: every program of corpus/
(found and read by the corpus driver, tests/corpus/corpus.py) analyzed by tagcheck through
compilation databases — one per set of programs sharing `tagcheck-args` options — and the
findings counted per rule and compared with the programs' `// expect-…` annotations.

usage: demo_summary.py TAGCHECK REPO_ROOT WORK_DIR"""
import collections
import json
import os
import shlex
import subprocess
import sys

tagcheck, root, work = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.join(root, "tests", "corpus"))
import corpus  # noqa: E402  (the corpus driver: discovery, annotations, comparison)

corpus.TAG_RULES = corpus.load_tag_rules(os.path.join(root, "runtime", "include", "dt", "rules.def"))
groups = collections.defaultdict(list)  # (tagcheck-args, C++?) -> programs
for name, proot, files in corpus.discover(os.path.join(root, "corpus")):
    prog = corpus.Program(name, proot, files)
    # C programs are analyzed together, as one project; each C++ program alone: separate C++
    # programs may define one inline function (the same operator+ of their own Tensor class)
    # differently, and one database of them all would be one program breaking the ODR, whose
    # whole-program analysis follows one of the definitions (docs/engine.md, limits).
    key = (prog.directives.get("tagcheck-args", ""), prog.is_cxx, name if prog.is_cxx else "")
    groups[key].append(prog)
expectations, findings, files = [], [], 0
for k, ((args, cxx, _), progs) in enumerate(sorted(groups.items())):
    # as the corpus driver analyzes them: C11, or C++17 with the standard library's rules
    compiler, std = ("c++", "-std=c++17") if cxx else ("cc", "-std=c11")
    rules = ["--rules", os.path.join(root, "rules", "dt.json")]
    if cxx:
        rules += ["--rules", os.path.join(root, "rules", "cxx.json")]
    db_dir = os.path.join(work, "corpus-db-%d" % k)
    os.makedirs(db_dir, exist_ok=True)
    entries = []
    for prog in progs:
        expectations += prog.expectations
        for src in prog.sources:
            d = os.path.dirname(src)
            project = ["-I" + os.path.realpath(prog.root)] if prog.is_project else []
            entries.append({"directory": d, "file": src,
                            "arguments": [compiler, std, "-I" + os.path.join(root, "runtime", "include")]
                            + project + ["-c", src]})
    files += len(entries)
    with open(os.path.join(db_dir, "compile_commands.json"), "w") as f:
        json.dump(entries, f)
    report = os.path.join(db_dir, "report.json")
    p = subprocess.run([tagcheck, "-p", db_dir, "-q", "--root", root, *rules, "--format", "json",
                        "-o", report, *shlex.split(args)], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit("demo_summary: tagcheck exited %d (report: %s): %s" % (p.returncode, report, p.stderr))
    with open(report) as f:
        findings += [x for x in corpus.parse_findings(json.load(f), root) if not x.suppressed]
matched, level_mismatch, missing, unexpected = corpus.compare(expectations, findings)
by_rule = collections.Counter((x.rule, x.level) for x in findings)
print("  %d programs (%d files) in %d run%s of tagcheck -p" % (
    sum(len(v) for v in groups.values()), files, len(groups), "" if len(groups) == 1 else "s"))
print("  %-24s %7s %9s" % ("rule", "errors", "warnings"))
for r in sorted({r for r, _ in by_rule}):
    print("  %-24s %7d %9d" % (r, by_rule[(r, "error")], by_rule[(r, "warning")]))
print("  %d annotated bugs: %d reported at their line with their rule and level, %d with another"
      % (len(expectations), len(matched), len(level_mismatch)))
print("  level, %d missed; %d findings no annotation expects" % (len(missing), len(unexpected)))
