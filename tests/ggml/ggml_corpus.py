#!/usr/bin/env python3
"""tests/ggml/ggml_corpus.py — the ggml corpus drivers (corpus/ggml/, docs/corpus.md).

  analyze PROGRAM   runs tagcheck with rules/ggml.json (and rules/cxx.json for C++) on the
                    program against real ggml's headers and compares its findings with the
                    program's annotations: every annotation matched, no unexpected finding.
  oracle PROGRAM    builds the program against real ggml (CPU backend) and the emulated GPU
                    device (tests/ggml/runtime), runs it, and judges the run against the
                    annotations and against tagcheck's findings, as the dt oracle does: a run
                    that ends cleanly has no error finding; a run that fails fails at a line
                    where a finding has that rule; and an annotated program's run must fail
                    (run-args / run-env pick the failing path).
  oracle-all        every program, with a table and totals.

A failing run is read from the fault trap's report (tests/ggml/runtime/oracle_trap.c): the kind
of failure gives the rule (through rules/ggml.json's rule_ids), the stack (symbolized with
addr2line) gives the line: the first frame in the program's own file.

Annotations, directives, the comparison and the judgement are tests/corpus/corpus.py's.
Standard library only. Exit status 0 pass, 1 fail, 77 not run (`run: no`), 2 bad usage.
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus"))
import corpus  # noqa: E402  (tests/corpus/corpus.py: annotations, directives, judge)

SKIP = 77
REPORT_RE = re.compile(r"^tc-oracle: ([a-z-]+): ?(.*)$")

# What ended the run -> the rule_ids key of rules/ggml.json that names its rule.
# ggml's aborts are told apart by their message (GGML_ASSERT's text, the emulated GPU's).
ABORT_KINDS = (
    (re.compile(r"buffer not set"), "buffer_not_set"),
    (re.compile(r"device mismatch"), "backend_mismatch"),
    (re.compile(r"->type\b|different layouts"), "kind_mismatch"),
)
# A fault inside these functions is a backend's kernels reading memory, not the host program.
COMPUTE_FUNCS = re.compile(r"^(ggml_graph_compute|ggml_compute_forward|ggml_backend_cpu_graph_)")
STD_FUNC = re.compile(r"(^|[\s*&])(std|__gnu_cxx)::")  # a frame of the C++ standard library
NULL_PAGE = 1 << 16  # a fault below this address is a NULL data pointer (plus an offset)


class Driver:
    def __init__(self, manifest_path, check):
        with open(manifest_path, encoding="utf-8") as fh:
            self.m = json.load(fh)
        # One work area per check: ctest runs a program's oracle and the totals in parallel.
        self.work_dir = os.path.join(self.m["work_dir"], check)
        with open(self.m["rules"], encoding="utf-8") as fh:
            rules = json.load(fh)
        self.rule_ids = rules["rule_ids"]
        corpus.TAG_RULES = sorted({r["id"] for r in rules["rules"]} | set(self.rule_ids.values()))
        self._analysis = {}

    # ---- programs ----

    def program_names(self):
        d = self.m["corpus_dir"]
        return sorted(f for f in os.listdir(d) if f.endswith(corpus.SOURCE_EXTS))

    def program(self, name):
        path = os.path.join(self.m["corpus_dir"], os.path.basename(name))
        if not os.path.isfile(path):
            for ext in corpus.SOURCE_EXTS:
                if os.path.isfile(path + ext):
                    path += ext
                    break
            else:
                raise corpus.CorpusError("no ggml corpus program named '%s'" % name)
        return corpus.Program(os.path.basename(path), path, [path])

    def work(self, prog):
        d = os.path.join(self.work_dir, prog.name.replace(".", "_"))
        os.makedirs(d, exist_ok=True)
        return d

    def lang_args(self, prog):
        return ["-std=c++17" if prog.is_cxx else "-std=c11"]

    # ---- the analyzer ----

    def tagcheck_json(self, prog, extra=()):
        """(tagcheck's JSON document, None) or (None, why tagcheck could not say); extra:
        more tagcheck arguments (--fix, --export-fixes FILE)."""
        cmd = [self.m["tagcheck"], "--format", "json", "--no-cache", "-q", "-j", "1",
               "--rules", self.m["rules"]]
        if prog.is_cxx:
            cmd += ["--rules", self.m["cxx_rules"]]
        cmd += list(extra) + prog.tagcheck_args() + prog.sources + ["--"] + \
            self.lang_args(prog) + ["-I" + self.m["ggml_include"]]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            return None, "tagcheck timed out: " + shlex.join(cmd)
        if p.returncode not in (0, 1):
            return None, "tagcheck exited %d: %s\n%s" % (p.returncode, shlex.join(cmd),
                                                         p.stderr.strip()[-3000:])
        try:
            return json.loads(p.stdout), None
        except ValueError as e:
            return None, "cannot read tagcheck's json (%s): %s" % (e, shlex.join(cmd))

    def analyze(self, prog):
        """(findings, None) or (None, why tagcheck could not say)."""
        if prog.name in self._analysis:
            return self._analysis[prog.name]
        doc, err = self.tagcheck_json(prog)
        res = (None, err)
        if doc is not None:
            try:
                res = (corpus.parse_findings(doc, os.path.dirname(prog.sources[0])), None)
            except corpus.CorpusError as e:
                res = (None, "cannot read tagcheck's json (%s)" % e)
        self._analysis[prog.name] = res
        return res

    # ---- the run ----

    def build(self, prog, exe):
        m = self.m
        cc = m["cxx"] if prog.is_cxx else m["cc"]
        cmd = [cc] + self.lang_args(prog) + ["-g", "-O0", "-Wall", "-Wextra", "-Werror",
                                             "-isystem", m["ggml_include"]] + prog.sources + \
            ["-o", exe, "-Wl,--whole-archive"] + m["whole_libs"] + ["-Wl,--no-whole-archive"] + \
            m["libs"] + ["-lstdc++", "-lm", "-lpthread", "-ldl"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        return None if p.returncode == 0 else "%s\n%s" % (shlex.join(cmd), p.stderr[-3000:])

    def run(self, prog):
        work = self.work(prog)
        exe = os.path.join(work, "prog")
        err = self.build(prog, exe)
        if err:
            return {"kind": "build-failed", "detail": err}
        env = dict(os.environ)
        env.update(prog.run_env())
        env["GGML_NO_BACKTRACE"] = "1"
        try:
            p = subprocess.run([exe] + prog.run_args(), capture_output=True, text=True, env=env,
                               cwd=work, timeout=float(self.m.get("run_timeout", 120)))
        except subprocess.TimeoutExpired:
            return {"kind": "timeout", "detail": "no exit within the time limit"}
        report = read_report(p.stderr)
        if report is None:
            if p.returncode == prog.run_exit():
                return {"kind": "clean"}
            return {"kind": "crash" if p.returncode < 0 else "exit",
                    "detail": "exit status %d (expected %d)\n%s" % (
                        p.returncode, prog.run_exit(), p.stderr.strip()[-2000:])}
        return self.failure(prog, exe, report)

    def failure(self, prog, exe, report):
        """The run's failure as corpus.judge reads it: rule, and the program's line."""
        pc = [(a, False) for a in report.get("pc", "").split()]
        own = pc + [(a, True) for a in report.get("frames", "").split()]
        stack = [(a, True) for a in report["main-frames"].split()] if "main-frames" in report \
            else own
        frames = symbolize(self.m["addr2line"], exe, own + stack)
        own_f = [f for inl in frames[:len(own)] for f in inl]
        stack_f = [f for inl in frames[len(own):] for f in inl]
        sources = {os.path.realpath(s) for s in prog.sources}
        # a standard-library template instantiated in the program's unit is library code,
        # whatever file addr2line names for it (it can name the program's own)
        at = next((i for i, f in enumerate(stack_f)
                   if f and f[1] in sources and not STD_FUNC.search(f[0].split("(")[0])), None)
        key = classify(report, [f[0] for f in own_f + stack_f if f])
        message = report.get("message", "")
        if at is None:
            return {"kind": "crash", "detail": "%s (%s) outside the program's files" % (
                message, key or "no rule")}
        _, path, line = stack_f[at]
        # What the program's line was running: the frame under it (tail calls may hide some).
        if at == 0:
            callee = "the program's own code"
        else:
            callee = stack_f[at - 1][0] if stack_f[at - 1] else "a shared library's function"
        failure = {"path": path, "line": line, "op": callee,
                   "message": message, "rule": self.rule_ids.get(key, key or "-")}
        return {"kind": "tag-failure" if key else "other-failure", "failure": failure}


def read_report(stderr):
    report = None
    for line in stderr.split("\n"):
        mm = REPORT_RE.match(line.strip())
        if mm:
            report = report or {}
            report.setdefault(mm.group(1), mm.group(2))
    return report


def classify(report, funcs):
    """The rule_ids key of what ended the run, or None when it is no tag rule's failure."""
    trap, message = report.get("trap"), report.get("message", "")
    if trap == "abort":
        for pattern, key in ABORT_KINDS:
            if pattern.search(message):
                return key
        return None
    if trap != "segv":
        return None
    addr, _, device = report.get("fault", "0x0 device=-1").partition(" device=")
    in_device, near_null = int(device) >= 0, int(addr, 16) < NULL_PAGE
    in_compute = any(COMPUTE_FUNCS.match(f) for f in funcs)
    if in_device:
        return "backend_mismatch" if in_compute else "host_access"
    if near_null:
        return "buffer_not_set" if in_compute else "host_access"
    return None


def symbolize(addr2line, exe, frames):
    """For [(offset or '-', is_return_address)]: per frame, the [(function, realpath, line)] of
    its inlined calls, innermost first (an inlined library template, such as std::copy_n, sits
    above the program's line that called it), or [None] when it has no address."""
    want = [(i, int(a, 16) - (1 if ret else 0)) for i, (a, ret) in enumerate(frames) if a != "-"]
    out = [[None] for _ in frames]
    if not want:
        return out
    p = subprocess.run([addr2line, "-a", "-i", "-f", "-C", "-e", exe] + ["0x%x" % a for _, a in want],
                       capture_output=True, text=True, timeout=60)
    groups = []
    for line in p.stdout.split("\n"):
        if line.startswith("0x"):
            groups.append([])
        elif groups and line:
            groups[-1].append(line)
    for k, (i, _) in enumerate(want):
        g = groups[k] if k < len(groups) else []
        inlined = []
        for func, loc in zip(g[0::2], g[1::2]):
            path, _, line = loc.rpartition(":")
            line = line.split(" ")[0]
            inlined.append((func, os.path.realpath(path) if path and path != "??" else "??",
                            int(line) if line.isdigit() else 0))
        out[i] = inlined or [None]
    return out


# ---------------------------------------------------------------------------------------------


def check_analyze(drv, prog):
    findings, err = drv.analyze(prog)
    if err:
        return False, [err]
    findings = [f for f in findings if not f.suppressed]
    matched, levels, missing, unexpected = corpus.compare(prog.expectations, findings)
    out = ["level: line %d: expected %s [%s], got %s" % (e.line, e.level, e.rule, f.level)
           for e, f in levels]
    out += ["missing: line %d: expected %s [%s]" % (e.line, e.level, e.rule) for e in missing]
    out += ["unexpected: line %d: %s [%s] — %s" % (f.line, f.level, f.rule, f.message)
            for f in unexpected]
    out.append("%d/%d expected findings, %d reported" % (len(matched), len(prog.expectations),
                                                        len(findings)))
    return not (levels or missing or unexpected), out


def describe(run):
    if "failure" in run:
        fl = run["failure"]
        return "%s at line %d (in %s: %s)" % (fl["rule"], fl["line"], fl["op"], fl["message"])
    return run["kind"]


def check_oracle(drv, prog):
    """(ok or None when not run, lines, row)."""
    reason = prog.no_run_reason()
    if reason:
        return None, ["not run: " + reason], ("-", "-", "-")
    run = drv.run(prog)
    out = ["run: " + describe(run)]
    if run["kind"] not in ("clean", "tag-failure"):
        out.append(run.get("detail") or "the run ended in a failure that is no ggml rule's")
        return False, out, (describe(run), "-", "-")
    ok_a, why_a = corpus.judge(run, prog.expectations)
    if ok_a and run["kind"] == "clean" and prog.expectations:
        # Every bug program is run on a path that fails, warned paths included.
        ok_a, why_a = False, ("the program is annotated (%s) but its run failed nowhere: give "
                              "it run-args / run-env that take a failing path" %
                              ", ".join(map(repr, prog.expectations)))
    out.append("annotations vs run: " + why_a)
    findings, err = drv.analyze(prog)
    if err:
        ok_s, why_s = False, err
    else:
        ok_s, why_s = corpus.judge(run, findings)
    out.append("analyzer vs run: " + why_s)
    row = (describe(run).split(" (")[0], "agree" if ok_a else "DISAGREE",
           "agree" if ok_s else "DISAGREE")
    return ok_a and ok_s, out, row


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--manifest", required=True, help="JSON written by tests/ggml/CMakeLists.txt")
    ap.add_argument("command", choices=["list", "analyze", "oracle", "oracle-all"])
    ap.add_argument("program", nargs="?")
    a = ap.parse_args(argv)
    try:
        drv = Driver(a.manifest, a.command)
        if a.command == "list":
            print("\n".join(drv.program_names()))
            return 0
        if a.command == "oracle-all":
            rows, bad, run_n = [], 0, 0
            for name in drv.program_names():
                ok, out, row = check_oracle(drv, drv.program(name))
                rows.append((name,) + row + ("not run" if ok is None else "ok" if ok else "FAIL",))
                run_n += ok is not None
                bad += ok is False
            corpus.print_table(("program", "run", "annotations", "analyzer", ""), rows)
            print("\n%d programs, %d run, %d agree both ways, %d fail" % (
                len(rows), run_n, run_n - bad, bad))
            return 1 if bad else 0
        if not a.program:
            ap.error("%s needs a program" % a.command)
        prog = drv.program(a.program)
        if a.command == "analyze":
            ok, out = check_analyze(drv, prog)
        else:
            ok, out, _ = check_oracle(drv, prog)
        print("%s %s" % ("SKIP" if ok is None else "PASS" if ok else "FAIL", prog.name))
        for line in out:
            print("  " + line.replace("\n", "\n  "))
        return SKIP if ok is None else 0 if ok else 1
    except corpus.CorpusError as e:
        print("ggml corpus: error: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
