#!/usr/bin/env python3
"""tests/ggml/real_code.py — tagcheck over every unit of real ggml (library, tests, examples).

Real code is written right: the ggml rules must find nothing in ggml's own library, tests and
examples (the examples are applications of the API), analyze every unit, and lower every body
(SPEC §7). The compilation database is ggml's own, made by configuring ggml's CMake project with
its tests and examples into WORK (once; configure is all it needs: no unit is compiled).

  real_code.py --tagcheck T --ggml DIR --rules-dir R --work WORK [--jobs N]

Checks, each a failure when broken: exit status 0; no finding; every unit of the database
analyzed (--stats' unit count); no body too deeply nested to lower; nothing on stderr but the
stats. Prints the stats and the wall time. Exit status 0 pass, 1 fail, 2 cannot set up.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

UNITS_RE = re.compile(r"^tagcheck: stats: (\d+) units, (\d+) function bodies analyzed")
TRUNC_RE = re.compile(r"; (\d+) bodies nested too deeply to lower whole")


def database(ggml, work):
    db = os.path.join(work, "compile_commands.json")
    if not os.path.isfile(db):
        cmd = ["cmake", "-S", ggml, "-B", work, "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
               "-DGGML_BUILD_TESTS=ON", "-DGGML_BUILD_EXAMPLES=ON", "-DGGML_CUDA=OFF",
               "-DGGML_NATIVE=OFF"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if p.returncode != 0 or not os.path.isfile(db):
            print("real_code: cannot configure ggml (%s):\n%s" % (" ".join(cmd), p.stderr[-3000:]),
                  file=sys.stderr)
            return None
    with open(db, encoding="utf-8") as fh:
        return len(json.load(fh))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tagcheck", required=True)
    ap.add_argument("--ggml", required=True, help="ggml's source tree")
    ap.add_argument("--rules-dir", required=True, help="the project's rules/")
    ap.add_argument("--work", required=True, help="where ggml's database is configured")
    ap.add_argument("--jobs", default="2")
    a = ap.parse_args(argv)
    n_units = database(os.path.realpath(a.ggml), os.path.realpath(a.work))
    if n_units is None:
        return 2
    cmd = [a.tagcheck, "-p", a.work, "--rules", os.path.join(a.rules_dir, "ggml.json"),
           "--rules", os.path.join(a.rules_dir, "cxx.json"), "--stats", "--no-cache",
           "--unit-timeout", "0",  # ctest runs it beside other tests: a loaded machine is slow
           "--format", "json", "-q", "-j", a.jobs]
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=3000)
    wall = time.monotonic() - start
    bad = []
    stats = [l for l in p.stderr.split("\n") if l.startswith("tagcheck: stats:")]
    other = [l for l in p.stderr.split("\n") if l.strip() and not l.startswith("tagcheck: stats:")]
    print("\n".join(stats))
    print("real ggml: %d units in the database, %.1f s at -j %s" % (n_units, wall, a.jobs))
    if p.returncode != 0:
        bad.append("exit status %d (0 expected: no finding, no failed unit)" % p.returncode)
    try:
        doc = json.loads(p.stdout)
        findings = doc.get("findings", doc) if isinstance(doc, dict) else doc
        if findings:
            bad.append("%d findings on real ggml (false positives): %s" % (
                len(findings), json.dumps(findings[:5])[:3000]))
    except ValueError as e:
        bad.append("cannot read tagcheck's json: %s" % e)
    m = next((UNITS_RE.match(l) for l in stats if UNITS_RE.match(l)), None)
    if not m:
        bad.append("no unit count in --stats")
    elif int(m.group(1)) != n_units:
        bad.append("%s of %d units analyzed" % (m.group(1), n_units))
    t = next((TRUNC_RE.search(l) for l in stats if TRUNC_RE.search(l)), None)
    if t and int(t.group(1)):
        bad.append("%s bodies too deeply nested to lower whole" % t.group(1))
    if other:
        bad.append("stderr holds more than the stats:\n" + "\n".join(other[:20]))
    for b in bad:
        print("FAIL " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
