#!/usr/bin/env python3
"""tests/corpus/fixit.py — fix-its checked on the corpus, against the runtime.

For every corpus program whose findings carry fix-its (tagcheck's JSON `fixes`), a copy of the
program is fixed in place (`tagcheck --fix`), then:

  * the JSON `fixes` agree with `--export-fixes` (the same edits, as byte offsets);
  * re-analyzing the copy finds none of the fixed findings again (same file, line and rule);
    a fix may expose the next disagreement downstream (the first operand sets the
    expectation, so a later use of a result can now disagree): those are fixed in further
    rounds, as a user re-running --fix would (at most three);
  * when the last re-run finds nothing at all, the fixed program, built against libdt and run,
    has no run-time tag failure: the runtime agrees.

Prints one line per program with fixes and the totals; exit status 0 when every check held,
1 otherwise, 2 bad usage. Uses corpus.py's programs, analysis and runs (standard library only).

  fixit.py --manifest build/tests/corpus/manifest.json [NAME...]
"""

import argparse
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402


MAX_ROUNDS = 3


class FixingProgram(corpus.Program):
    """A copy of a corpus program whose analysis also passes extra tagcheck arguments."""

    def __init__(self, name, root, files, extra):
        super().__init__(name, root, files)
        self.extra = extra

    def tagcheck_args(self):
        return super().tagcheck_args() + self.extra


def copy_program(prog, dest):
    """The program's files copied under dest; returns (root, files) of the copy."""
    base = os.path.realpath(prog.root) if prog.is_project else os.path.dirname(prog.files[0])
    files = []
    for f in prog.files:
        to = os.path.join(dest, os.path.relpath(f, base))
        os.makedirs(os.path.dirname(to), exist_ok=True)
        shutil.copyfile(f, to)
        files.append(to)
    root = dest if prog.is_project else files[0]
    return root, files


def keyed(doc, with_fix):
    out = set()
    for f in doc.get("findings", []):
        if f.get("suppressed"):
            continue
        if with_fix is None or bool(f.get("fixes")) == with_fix:
            out.add((os.path.basename(f["file"]), f["line"], f["rule"]))
    return out


YAML_REPL = re.compile(r'- FilePath:\s+"(.*)"\n\s+Offset:\s+(\d+)\n\s+Length:\s+(\d+)\n\s+'
                       r'ReplacementText:\s+"(.*)"\n')


def yaml_edits(path):
    """(file, offset, length, text) of each replacement in an --export-fixes file."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    if not text.startswith("---\nMainSourceFile:") or "Diagnostics:" not in text:
        raise ValueError("not clang-tidy's export-fixes YAML")
    unescape = lambda s: s.encode().decode("unicode_escape")  # noqa: E731
    return sorted((os.path.basename(f), int(o), int(n), unescape(t))
                  for f, o, n, t in YAML_REPL.findall(text))


def json_edits(doc):
    return sorted((os.path.basename(x["file"]), x["offset"], x["length"], x["replacement"])
                  for f in doc.get("findings", []) if not f.get("suppressed")
                  for x in f.get("fixes", []))


def check_program(ctx, prog, out):
    """None when the program has no fix-it; else a dict of what held."""
    findings, err = ctx.analyze(prog)
    if err:
        out.append("  analyzer: " + err)
        return {"ok": False, "fixed": 0, "findings": 0, "clean_run": None}
    doc = ctx.docs[prog.name]
    fixable = keyed(doc, True)
    if not fixable:
        return None
    res = {"ok": True, "fixed": len(fixable), "findings": len(keyed(doc, None)),
           "clean_run": None, "rounds": 0}
    work = tempfile.mkdtemp(prefix="fixit-", dir=ctx.work_dir)
    try:
        yaml_path = os.path.join(work, "fixes.yaml")
        root, files = copy_program(prog, os.path.join(work, "src"))
        # Round 1 fixes what the original reports; a fix can move a tensor whose later use
        # then disagrees (the first operand sets the expectation), so later rounds fix those,
        # as a user re-running --fix would (at most MAX_ROUNDS).
        fixed = None
        doc = ctx.docs[prog.name]
        for rnd in range(1, MAX_ROUNDS + 1):
            fixing = FixingProgram("%s.fixing%d" % (prog.name, rnd), root, files,
                                   ["--fix", "--export-fixes", yaml_path])
            _, err = ctx.analyze(fixing)
            if err:
                out.append("  --fix (round %d): %s" % (rnd, err))
                res["ok"] = False
                return res
            if yaml_edits(yaml_path) != json_edits(ctx.docs[fixing.name]):
                out.append("  --export-fixes and the JSON fixes differ (round %d)" % rnd)
                res["ok"] = False
            fixed = corpus.Program("%s.fixed%d" % (prog.name, rnd), root, files)
            _, err = ctx.analyze(fixed)
            if err:
                out.append("  after --fix (round %d): %s" % (rnd, err))
                res["ok"] = False
                return res
            back = keyed(doc, True) & keyed(ctx.docs[fixed.name], None)
            if back:
                out.append("  still reported after --fix (round %d): %s" % (rnd, sorted(back)))
                res["ok"] = False
            doc = ctx.docs[fixed.name]
            res["rounds"] = rnd
            if not keyed(doc, True):
                break
        again = keyed(doc, None)
        if not again and not prog.no_run_reason() \
                and not prog.unavailable() and not prog.run_if():
            run = ctx.run(fixed)
            res["clean_run"] = run["kind"] == "clean"
            if not res["clean_run"]:
                out.append("  the fixed program does not run clean: %s" %
                           (run.get("detail") or corpus.describe_run(ctx, run)))
                res["ok"] = False
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--manifest", required=True)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    ctx = corpus.Context(args.manifest, check="fixit")
    progs = [ctx.program(n) for n in args.names] if args.names else ctx.programs()
    totals = dict(programs=0, fixed=0, findings=0, runs=0, clean=0, bad=0, rounds2=0)
    for prog in progs:
        out = []
        res = check_program(ctx, prog, out)
        if res is None:
            continue
        totals["programs"] += 1
        totals["fixed"] += res["fixed"]
        totals["findings"] += res["findings"]
        if res["clean_run"] is not None:
            totals["runs"] += 1
            totals["clean"] += res["clean_run"]
        totals["bad"] += not res["ok"]
        run = {None: "not run", True: "runs clean", False: "RUN FAILS"}[res["clean_run"]]
        totals["rounds2"] += res["rounds"] > 1
        print("%s %s: %d of %d findings fixed (%d round%s); %s" % (
            "PASS" if res["ok"] else "FAIL", prog.name, res["fixed"], res["findings"],
            res["rounds"], "" if res["rounds"] == 1 else "s", run))
        for line in out:
            print(line)
    print("fixit: %(programs)d programs with fix-its, %(fixed)d of their %(findings)d findings "
          "fixed (%(rounds2)d programs needed a second round); %(clean)d of %(runs)d programs "
          "left with no finding run clean with libdt; "
          "%(bad)d failing" % totals)
    if args.names == [] and totals["programs"] == 0:
        print("fixit: no corpus finding carries a fix-it")
        return 1
    return 1 if totals["bad"] else 0


if __name__ == "__main__":
    sys.exit(main())
