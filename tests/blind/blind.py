#!/usr/bin/env python3
"""tests/blind/blind.py — blind rounds: programs written from SPEC alone, labelled by running.

A round is a directory laid out like corpus/ (one program per .c/.cpp file, multi-file projects
under multi/<project>/) with a round.json saying which API it is written against:
{"api": "dt"} (run on libdt) or {"api": "ggml"} (run on real ggml and the emulated GPU). Its
annotations are the truth established by running it; the analyzer's score on it is what the
analyzer does on code nobody tuned it to (docs/corpus.md, "Blind rounds").

  label DIR [NAME]           builds and runs every program (or NAME) and checks each run against
                             the annotations only — never the analyzer: the writer's tool.
  score DIR [--tagcheck T]   analyzes every program and prints precision and recall against the
                             annotations (a finding at the annotated line and rule counts as
                             found whatever its level; the level mismatches are listed).
  check FLOORS [ROUND]       for each round of FLOORS (tests/blind/floors.json): its score with
                             the build's tagcheck must not fall below the recorded floor, and
                             every run must still agree with the annotations.

Standard library only. Exit status 0 pass, 1 fail, 2 bad usage or a malformed round.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "corpus"))
sys.path.insert(0, os.path.join(HERE, "..", "ggml"))
import corpus  # noqa: E402  (annotations, directives, runs of dt programs, judge)
import ggml_corpus  # noqa: E402  (runs of ggml programs)


def round_api(round_dir):
    path = os.path.join(round_dir, "round.json")
    try:
        with open(path, encoding="utf-8") as fh:
            api = json.load(fh)["api"]
    except (OSError, ValueError, KeyError) as e:
        raise corpus.CorpusError("%s: cannot read the round's API (%s)" % (path, e))
    if api not in ("dt", "ggml"):
        raise corpus.CorpusError("%s: api must be \"dt\" or \"ggml\", not %r" % (path, api))
    return api


def work_manifest(manifest, round_dir, work_name, tagcheck):
    """The build's manifest, pointed at the round (and at another tagcheck when asked)."""
    with open(manifest, encoding="utf-8") as fh:
        m = json.load(fh)
    m["corpus_dir"] = os.path.realpath(round_dir)
    m["work_dir"] = os.path.join(m["work_dir"], "..", "blind", work_name)
    if tagcheck:
        m["tagcheck"] = os.path.realpath(tagcheck)
    os.makedirs(m["work_dir"], exist_ok=True)
    path = os.path.join(m["work_dir"], "manifest.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(m, fh, indent=1)
    return path


class Round:
    """One round's programs, run and analyzed through the corpus drivers of its API."""

    def __init__(self, build_dir, round_dir, check, tagcheck=None):
        self.dir = os.path.realpath(round_dir)
        self.api = round_api(self.dir)
        self.name = os.path.basename(self.dir)
        sub = "corpus" if self.api == "dt" else "ggml"
        manifest = os.path.join(build_dir, "tests", sub, "manifest.json")
        if not os.path.isfile(manifest):
            raise corpus.CorpusError("%s is missing: configure the build (with ggml for a ggml "
                                     "round) first" % manifest)
        path = work_manifest(manifest, self.dir, self.name, tagcheck)
        if self.api == "dt":
            self.ctx = corpus.Context(path, check)
            self.programs = self.ctx.programs()
        else:
            self.ctx = ggml_corpus.Driver(path, check)
            self.programs = [self.ctx.program(n) for n in self.ctx.program_names()]
        if not self.programs:
            raise corpus.CorpusError("%s holds no program" % self.dir)

    def run(self, prog):
        return self.ctx.run(prog)

    def findings(self, prog):
        found, err = self.ctx.analyze(prog)
        if err:
            return None, err
        return [f for f in found if not getattr(f, "suppressed", False)], None


def describe(run):
    if "failure" in run:
        fl = run["failure"]
        return "%s at %s:%d (%s)" % (fl["rule"], os.path.basename(fl["path"]), fl["line"], fl["op"])
    return run["kind"]


def return_mode_failures(rnd, prog):
    """dt only: the tag failures of a run in return mode (DT_ON_ERROR=return: every failing call
    returns NULL and the run goes on), read from its DT_REPORT log, as {(path, line, rule)}. A
    failure there that no annotation names is a call the abort-mode run never reached."""
    if rnd.api != "dt" or prog.returns_on_error():
        return set()
    work = rnd.ctx.pwork(prog)
    exe = os.path.join(work, "prog-return")
    extra = ["-I" + os.path.realpath(prog.root)] if prog.is_project else []
    if rnd.ctx.build(prog.sources, exe, extra):
        return set()
    log = os.path.join(work, "return.sarif")
    env = dict(os.environ)
    env.update(prog.run_env())
    env.update(DT_ON_ERROR="return", DT_REPORT=log, ASAN_OPTIONS="detect_leaks=0")
    try:
        subprocess.run([exe] + prog.run_args(), capture_output=True, env=env, cwd=work,
                       timeout=120)
        with open(log, encoding="utf-8") as fh:
            results = json.load(fh)["runs"][0]["results"]
    except (OSError, ValueError, KeyError, IndexError, subprocess.TimeoutExpired):
        return set()
    out = set()
    by_name = {os.path.basename(f): f for f in prog.files}
    for r in results:
        try:
            pl = r["locations"][0]["physicalLocation"]
            name = pl["artifactLocation"]["uri"].split("/")[-1]
            line = pl["region"]["startLine"]
        except (KeyError, IndexError, TypeError):
            continue
        if r.get("ruleId") in corpus.TAG_RULES and name in by_name:
            out.add((by_name[name], line, r["ruleId"]))
    return out


def label_one(rnd, prog):
    """(ok or None when not run, why)."""
    reason = prog.no_run_reason()
    if reason:
        return None, "not run: " + reason
    run = rnd.run(prog)
    if run["kind"] not in ("clean", "tag-failure"):
        return False, "%s: %s" % (describe(run), (run.get("detail") or "")[-1500:])
    ok, why = corpus.judge(run, prog.expectations)
    if ok and run["kind"] == "clean" and prog.expectations:
        ok, why = False, "annotated, but the run failed nowhere (give it run-args / run-env)"
    if ok and run.get("note"):
        ok, why = False, run["note"]
    annotated = {e.key() for e in prog.expectations}
    unlabelled = sorted(f for f in return_mode_failures(rnd, prog) if f not in annotated)
    if unlabelled:
        why += "; in return mode the run also fails at %s: annotate each (or say in LABELS.md " \
               "why not)" % ", ".join("%s:%d [%s]" % (os.path.basename(p), l, r)
                                       for p, l, r in unlabelled)
    return ok, "%s — %s" % (describe(run), why)


def cmd_label(rnd, only):
    bad = 0
    progs = [p for p in rnd.programs if not only or p.name in (only, only + ".c", only + ".cpp")
             or os.path.splitext(p.name)[0] == only]
    if not progs:
        raise corpus.CorpusError("no program named %r in %s" % (only, rnd.dir))
    for prog in progs:
        ok, why = label_one(rnd, prog)
        bad += ok is False
        print("%-5s %s: %s" % ("SKIP" if ok is None else "OK" if ok else "BAD", prog.name, why))
    print("%d programs, %d whose run disagrees with its annotations" % (len(progs), bad))
    return 1 if bad else 0


def score(rnd, verbose=True):
    """{'expected', 'reported', 'matched', 'level', 'precision', 'recall', 'failed'}."""
    tot = dict(expected=0, reported=0, matched=0, level=0, failed=0)
    for prog in rnd.programs:
        found, err = rnd.findings(prog)
        if err:
            tot["failed"] += 1
            tot["expected"] += len(prog.expectations)
            if verbose:
                print("FAILED %s: %s" % (prog.name, err[-800:]))
            continue
        matched, levels, missing, unexpected = corpus.compare(prog.expectations, found)
        tot["expected"] += len(prog.expectations)
        tot["reported"] += len(found)
        tot["matched"] += len(matched) + len(levels)
        tot["level"] += len(levels)
        if verbose and (levels or missing or unexpected):
            print("%s:" % prog.name)
            for e, f in levels:
                print("  level:      line %d: expected %s [%s], reported %s" % (
                    e.line, e.level, e.rule, f.level))
            for e in missing:
                print("  missing:    %s:%d: %s [%s]" % (os.path.basename(e.path), e.line,
                                                        e.level, e.rule))
            for f in unexpected:
                print("  unexpected: %s:%d: %s [%s] %s" % (os.path.basename(f.path), f.line,
                                                           f.level, f.rule, f.message))
    tot["precision"] = tot["matched"] / tot["reported"] if tot["reported"] else 1.0
    tot["recall"] = tot["matched"] / tot["expected"] if tot["expected"] else 1.0
    return tot


def print_score(rnd, tot):
    print("%s: %d programs, %d expected, %d reported, %d found (%d at another level), "
          "%d not analyzed: precision %.3f, recall %.3f" % (
              rnd.name, len(rnd.programs), tot["expected"], tot["reported"], tot["matched"],
              tot["level"], tot["failed"], tot["precision"], tot["recall"]))


def cmd_check(build_dir, floors_path, only):
    with open(floors_path, encoding="utf-8") as fh:
        floors = json.load(fh)
    base = os.path.dirname(os.path.abspath(floors_path))
    rounds = {n: f for n, f in floors["rounds"].items() if not only or n == only}
    if not rounds:
        raise corpus.CorpusError("%s has no round %r" % (floors_path, only))
    bad = []
    for name, floor in sorted(rounds.items()):
        rnd = Round(build_dir, os.path.join(base, "rounds", name), "check")
        tot = score(rnd)
        print_score(rnd, tot)
        if tot["failed"]:
            bad.append("%s: %d programs not analyzed" % (name, tot["failed"]))
        for key in ("precision", "recall"):
            if tot[key] + 1e-9 < floor[key]:
                bad.append("%s: %s %.3f below its floor %.3f" % (name, key, tot[key], floor[key]))
        for prog in rnd.programs:
            ok, why = label_one(rnd, prog)
            if ok is False:
                bad.append("%s/%s: the run disagrees with the annotations: %s" % (
                    name, prog.name, why))
    for b in bad:
        print("FAIL " + b)
    print("%d rounds, %d failures" % (len(rounds), len(bad)))
    return 1 if bad else 0


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(HERE, "..", "..", "build"),
                    help="the build directory (its tests/corpus and tests/ggml manifests)")
    ap.add_argument("--tagcheck", help="score: another tagcheck binary than the build's")
    ap.add_argument("command", choices=["label", "score", "check"])
    ap.add_argument("path", help="the round's directory (check: the floors file)")
    ap.add_argument("name", nargs="?", help="label: one program; check: one round")
    a = ap.parse_args(argv)
    try:
        if a.command == "check":
            return cmd_check(a.build, a.path, a.name)
        rnd = Round(a.build, a.path, a.command, a.tagcheck)
        if a.command == "label":
            return cmd_label(rnd, a.name)
        print_score(rnd, score(rnd))
        return 0
    except corpus.CorpusError as e:
        print("blind: error: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
