#!/usr/bin/env python3
"""tests/corpus/corpus.py — the corpus drivers (docs/corpus.md).

Two checks over every program of corpus/ (a .c file, or a corpus/multi/<project>/ directory):

  analyze NAME   runs tagcheck on the program and compares its findings with the program's
                 `// expect-error: RULE` / `// expect-warning: RULE` annotations: every
                 annotation matched (file, line, rule, level) and no unexpected finding.
  oracle NAME    builds the program against libdt, runs it (DT_ON_ERROR=abort, DT_REPORT set)
                 and checks the runtime against the analyzer (and against the annotations):
                 a program the analyzer calls clean runs clean; a program with an error stops
                 with a tag failure; every run-time tag failure was flagged at that line.
  analyze-all, oracle-all   the same over every program, with a table and totals.
  list           program names, one a line (CMake registers one ctest test per name).
  readers-agree DUMP [DIR…]   the C reader of the annotations (annotations.c, as the program
                 DUMP) reads every program's files as this one does (also the programs of DIR).

Standard library only: CI runs it with a bare python3. Exit status 0 pass, 1 fail, 77 skip
(a program whose assumptions this machine does not meet, e.g. it declares cuda unavailable
and the machine has a GPU), 2 bad usage or a malformed program.
"""

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys

SKIP = 77
TAG_RULES = None  # filled from dt/rules.def: the rule ids an annotation may name

ANNOT_RE = re.compile(
    r"expect-(error|warning)(?:@([+-]\d+))?\s*:\s*([a-z][a-z0-9-]*(?:\s*,\s*[a-z][a-z0-9-]*)*)")
DIRECTIVE_RE = re.compile(r"^\s*(?://|/?\*+)?\s*(tagcheck-args|run-args|run-exit|run-env|run-if|run-errors|run)\s*:\s*(.*?)\s*(?:\*/)?\s*$")
RUNTIME_LINE_RE = re.compile(r"^(.+?):(\d+): (dt_\w+): (.*) \[([a-z][a-z0-9-]*)\]\s*$")
RULE_DEF_RE = re.compile(r'DT_RULE\(\s*(DT_ERR_\w+)\s*,\s*"([a-z0-9-]+)"')
LEVELS = ("error", "warning")
FINGERPRINT_KEY = "tagcheckFingerprint/v1"  # dt/fingerprint.h


class CorpusError(Exception):
    """A malformed program or manifest (exit status 2)."""


# ---------------------------------------------------------------------------------------------
# Programs, annotations, directives


class Expectation:
    def __init__(self, path, line, rule, level, src_line):
        self.path, self.line, self.rule, self.level, self.src_line = path, line, rule, level, src_line

    def key(self):
        return (self.path, self.line, self.rule)

    def __repr__(self):
        return "%s:%d: %s [%s]" % (os.path.basename(self.path), self.line, self.level, self.rule)


class Program:
    """One corpus program: its name, sources, expectations and directives."""

    def __init__(self, name, root, files):
        self.name = name
        self.root = root  # the .c file, or the project directory
        self.files = sorted(os.path.realpath(f) for f in files)
        self.sources = [f for f in self.files if f.endswith(SOURCE_EXTS)]
        self.is_cxx = any(f.endswith(CXX_EXTS) for f in self.sources)
        self.is_project = os.path.isdir(root)
        self.expectations = []
        self.directives = {}
        for f in self.files:
            self._read(f)

    def _read(self, path):
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        self._read_directives(path, lines)
        for i, text in enumerate(lines, start=1):
            for m in ANNOT_RE.finditer(text):
                before = text[:m.start()]
                if "//" not in before and "/*" not in before and not before.lstrip().startswith("*"):
                    continue
                level, offset, rules = m.group(1), m.group(2), m.group(3)
                line = i + (int(offset) if offset else 0)
                if line < 1 or line > len(lines):
                    raise CorpusError("%s:%d: annotation points outside the file" % (path, i))
                for rule in (r.strip() for r in rules.split(",")):
                    if rule not in TAG_RULES:
                        raise CorpusError("%s:%d: unknown rule id '%s' (expected one of %s)"
                                          % (path, i, rule, ", ".join(TAG_RULES)))
                    self.expectations.append(Expectation(path, line, rule, level, i))

    def _read_directives(self, path, lines):
        """Directives live in the file's first comment block (the lines before any code)."""
        in_block = False
        for text in lines:
            s = text.strip()
            if not s and not in_block:
                continue
            if in_block:
                if "*/" in s:
                    in_block = False
            elif s.startswith("/*"):
                in_block = "*/" not in s[2:]
            elif not s.startswith("//"):
                break
            m = DIRECTIVE_RE.match(text)
            if not m:
                continue
            key, value = m.group(1), m.group(2)
            if key in self.directives and self.directives[key] != value:
                raise CorpusError("%s: conflicting '%s' directives in %s" % (path, key, self.name))
            self.directives[key] = value

    def tagcheck_args(self):
        return shlex.split(self.directives.get("tagcheck-args", ""))

    def run_args(self):
        return shlex.split(self.directives.get("run-args", ""))

    def run_env(self):
        env = {}
        for item in shlex.split(self.directives.get("run-env", "")):
            if "=" not in item:
                raise CorpusError("%s: run-env item '%s' is not NAME=VALUE" % (self.name, item))
            k, v = item.split("=", 1)
            env[k] = v
        return env

    def run_exit(self):
        try:
            return int(self.directives.get("run-exit", "0"))
        except ValueError:
            raise CorpusError("%s: run-exit must be a number" % self.name)

    def returns_on_error(self):
        """`run-errors: return`: the program sets DT_ERRORS_RETURN itself and handles failures,
        so a run goes on after the first failure and ends with its own exit status."""
        v = self.directives.get("run-errors")
        if v is not None and v != "return":
            raise CorpusError("%s: the only 'run-errors:' directive is 'run-errors: return'" %
                              self.name)
        return v == "return"

    def no_run_reason(self):
        v = self.directives.get("run")
        if v is None:
            return None
        if not v.lower().startswith("no"):
            raise CorpusError("%s: the only 'run:' directive is 'run: no — reason'" % self.name)
        return v

    def run_if(self):
        """[(backend, wanted_available)] from `run-if: !cuda`, `run-if: cuda sim`."""
        out = []
        for item in self.directives.get("run-if", "").split():
            want = not item.startswith("!")
            b = item.lstrip("!")
            if b not in ("cpu", "sim", "cuda"):
                raise CorpusError("%s: run-if names an unknown backend '%s'" % (self.name, b))
            out.append((b, want))
        return out

    def unavailable(self):
        """Backends the program's analyzer options declare unavailable."""
        args, out = self.tagcheck_args(), []
        for i, a in enumerate(args):
            if a == "--unavailable" and i + 1 < len(args):
                out.append(args[i + 1])
            elif a.startswith("--unavailable="):
                out.append(a.split("=", 1)[1])
        return out


# Folders of programs written against another API, checked with that API's rules by their own
# tests (corpus/ggml/: tests/ggml). They are not dt programs: never analyzed with rules/dt.json
# nor run against the dt runtime.
OTHER_API_DIRS = ("ggml",)
# Programs are C (.c) or C++ (.cpp: built with the C++ compiler, analyzed as C++17).
CXX_EXTS = (".cpp",)
SOURCE_EXTS = (".c",) + CXX_EXTS
HEADER_EXTS = (".h", ".hpp")


def discover(corpus_dir):
    """Every program under corpus_dir: each .c file, each multi/<project>/ directory."""
    programs = []
    multi = os.path.join(corpus_dir, "multi")
    for dirpath, dirnames, filenames in os.walk(corpus_dir):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and
                             not (dirpath == corpus_dir and d in OTHER_API_DIRS))
        if os.path.dirname(dirpath) == multi:
            files = []
            for dp, dn, fn in os.walk(dirpath):
                dn[:] = sorted(d for d in dn if not d.startswith("."))
                files += [os.path.join(dp, f) for f in fn if f.endswith(SOURCE_EXTS + HEADER_EXTS)]
            dirnames[:] = []
            if any(f.endswith(SOURCE_EXTS) for f in files):
                programs.append((os.path.relpath(dirpath, corpus_dir), dirpath, files))
            continue
        if dirpath == multi:
            continue
        for f in sorted(filenames):
            if f.endswith(SOURCE_EXTS):
                path = os.path.join(dirpath, f)
                programs.append((os.path.splitext(os.path.relpath(path, corpus_dir))[0], path,
                                 [path]))
    return sorted(programs)


# ---------------------------------------------------------------------------------------------
# The analyzer


class Finding:
    def __init__(self, path, line, rule, level, message, fingerprint=None, col=None,
                 suppressed=False):
        self.path, self.line, self.rule, self.level, self.message = path, line, rule, level, message
        self.fingerprint, self.col, self.suppressed = fingerprint, col, suppressed

    def key(self):
        return (self.path, self.line, self.rule)

    def __repr__(self):
        return "%s:%d: %s [%s]" % (os.path.basename(self.path), self.line, self.level, self.rule)


def _first(d, *names):
    for n in names:
        if n in d:
            return d[n]
    return None


def parse_findings(doc, base_dir):
    """Findings from tagcheck's --format json output (suppressed ones marked)."""
    if isinstance(doc, dict):
        items = _first(doc, "findings", "diagnostics", "results", "diags")
        if items is None:
            raise CorpusError("tagcheck json has no findings array (keys: %s)" % sorted(doc))
    else:
        items = doc
    out = []
    for d in items:
        loc = _first(d, "location", "loc") or d
        path = _first(loc, "file", "path", "uri")
        line = _first(loc, "line", "startLine")
        rule = _first(d, "rule_id", "ruleId", "rule", "id")
        level = _first(d, "level", "severity")
        if path is None or line is None or rule is None or level is None:
            raise CorpusError("tagcheck json finding lacks file/line/rule/level: %s" % json.dumps(d))
        if path.startswith("file://"):
            path = path[len("file://"):]
        if not os.path.isabs(path):
            path = os.path.join(base_dir, path)
        out.append(Finding(os.path.realpath(path), int(line), rule, level,
                           _first(d, "message", "text") or "", d.get("fingerprint"),
                           _first(loc, "col", "column", "startColumn"),
                           bool(_first(d, "suppressed", "is_suppressed"))))
    return out


class Context:
    def __init__(self, manifest_path, check="list"):
        with open(manifest_path, encoding="utf-8") as fh:
            self.m = json.load(fh)
        self.corpus_dir = self.m["corpus_dir"]
        # One work area per check: ctest runs a program's checks and the totals in parallel.
        self.work_dir = os.path.join(self.m["work_dir"], check)
        os.makedirs(self.work_dir, exist_ok=True)
        global TAG_RULES
        TAG_RULES = load_tag_rules(self.m["rules_def"])
        self._programs = None
        self._analysis = {}
        self.docs = {}
        self._available = None

    def programs(self):
        if self._programs is None:
            self._programs = [Program(n, r, f) for n, r, f in discover(self.corpus_dir)]
        return self._programs

    def program(self, name):
        for n, r, f in discover(self.corpus_dir):
            if n == name:
                return Program(n, r, f)
        raise CorpusError("no corpus program named '%s'" % name)

    def pwork(self, prog):
        d = os.path.join(self.work_dir, prog.name.replace("/", "__"))
        os.makedirs(d, exist_ok=True)
        return d

    def compiler(self, prog):
        return (self.m.get("cxx") or "c++") if prog.is_cxx else self.m["cc"]

    def compile_args(self, prog):
        args = ["-std=c++17" if prog.is_cxx else "-std=c11", "-I" + self.m["include_dir"]]
        if prog.is_project:
            args.append("-I" + os.path.realpath(prog.root))
        return args

    def analyze(self, prog):
        """Runs tagcheck once per program; returns (findings, None) or (None, why it failed)."""
        if prog.name in self._analysis:
            return self._analysis[prog.name]
        tool = self.m["tagcheck"]
        if not os.access(tool, os.X_OK):
            res = (None, "the analyzer is not built (%s)" % tool)
            self._analysis[prog.name] = res
            return res
        work = self.pwork(prog)
        cmd = [tool, "--format", "json", "--no-cache", "-j", "1", "--rules", self.m["rules"]]
        if prog.is_cxx and self.m.get("cxx_rules"):  # the C++ standard library, under dt's rules
            cmd += ["--rules", self.m["cxx_rules"]]
        cmd += ["--root", self.m["source_dir"], "-q"] + prog.tagcheck_args()
        if prog.is_project:
            entries = []
            for src in prog.sources:
                rel = os.path.relpath(src, os.path.realpath(prog.root))
                entries.append({
                    "directory": os.path.realpath(prog.root),
                    "file": rel,
                    "arguments": [self.compiler(prog)] + self.compile_args(prog) + ["-c", rel, "-o",
                                                                           os.path.join(work, rel + ".o")],
                })
            with open(os.path.join(work, "compile_commands.json"), "w", encoding="utf-8") as fh:
                json.dump(entries, fh, indent=1)
            cmd += ["-p", work]
        else:
            cmd += prog.sources + ["--"] + self.compile_args(prog)
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                               cwd=os.path.realpath(prog.root) if prog.is_project else
                               os.path.dirname(prog.sources[0]))
        except subprocess.TimeoutExpired:
            res = (None, "tagcheck timed out: %s" % shlex.join(cmd))
            self._analysis[prog.name] = res
            return res
        if p.returncode not in (0, 1):
            res = (None, "tagcheck exited %d: %s\n%s" % (p.returncode, shlex.join(cmd),
                                                        p.stderr.strip()[-4000:]))
        else:
            try:
                doc = json.loads(p.stdout)
                self.docs[prog.name] = doc  # the whole report (fix-its: tests/corpus/fixit.py)
                findings = parse_findings(doc, os.path.dirname(prog.sources[0]))
                res = (findings, None)
                if p.returncode != (1 if findings else 0):
                    res = (None, "tagcheck exited %d with %d findings (SPEC §5: 0 none, 1 findings)"
                           % (p.returncode, len(findings)))
            except (ValueError, CorpusError) as e:
                res = (None, "cannot read tagcheck's json (%s): %s\n%s" % (e, shlex.join(cmd),
                                                                          p.stdout[:2000]))
        self._analysis[prog.name] = res
        return res

    # ---- the runtime ----

    def available_backends(self):
        """Which backends this machine has, asked of libdt itself (a probe program). Tests run
        in parallel: each builds its own probe, and the answer is cached with an atomic rename."""
        if self._available is not None:
            return self._available
        d = os.path.join(self.work_dir, "_probe")
        os.makedirs(d, exist_ok=True)
        cache = os.path.join(d, "available.json")
        libdt_time = os.path.getmtime(self.m["libdt"])
        try:
            with open(cache, encoding="utf-8") as fh:
                cached = json.load(fh)
            if cached.get("libdt_mtime") == libdt_time:
                self._available = cached["available"]
                return self._available
        except (OSError, ValueError, KeyError):
            pass
        tag = "%d" % os.getpid()
        src = os.path.join(d, "probe-%s.c" % tag)
        exe = os.path.join(d, "probe-%s" % tag)
        with open(src, "w", encoding="utf-8") as fh:
            fh.write('#include <stdio.h>\n#include <dt/dt.h>\nint main(void) {\n'
                     '  printf("cpu %d\\nsim %d\\ncuda %d\\n", dt_backend_available(DT_BACKEND_CPU),\n'
                     '         dt_backend_available(DT_BACKEND_SIM), dt_backend_available(DT_BACKEND_CUDA));\n'
                     '  return 0;\n}\n')
        try:
            err = self.build([src], exe, [])
            if err:
                raise CorpusError("cannot build the availability probe: " + err)
            p = subprocess.run([exe], capture_output=True, text=True, timeout=60)
            if p.returncode != 0:
                raise CorpusError("the availability probe failed: " + p.stderr)
        finally:
            for f in (src, exe):
                if os.path.exists(f):
                    os.unlink(f)
        self._available = {k: v == "1" for k, v in (l.split() for l in p.stdout.split("\n") if l)}
        with open(cache + "." + tag, "w", encoding="utf-8") as fh:
            json.dump({"libdt_mtime": libdt_time, "available": self._available}, fh)
        os.replace(cache + "." + tag, cache)
        return self._available

    def build(self, sources, exe, extra):
        m = self.m
        cxx = any(f.endswith(CXX_EXTS) for f in sources)
        flags = [("-std=c++17" if f == "-std=c11" else f) for f in m["cflags"]] if cxx else m["cflags"]
        cmd = [(m.get("cxx") or "c++") if cxx else m["cc"]] + flags + extra + ["-I" + m["include_dir"]] + sources + \
              ["-o", exe] + m["ldflags"] + [m["libdt"], "-Wl,-rpath," + os.path.dirname(m["libdt"])]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            return "%s\n%s" % (shlex.join(cmd), p.stderr.strip()[-4000:])
        return None

    def run(self, prog):
        """Builds and runs the program; returns a dict describing what happened."""
        work = self.pwork(prog)
        exe = os.path.join(work, "prog")
        extra = ["-I" + os.path.realpath(prog.root)] if prog.is_project else []
        err = self.build(prog.sources, exe, extra)
        if err:
            return {"kind": "build-failed", "detail": err}
        sarif = os.path.join(work, "run.sarif")
        if os.path.exists(sarif):
            os.unlink(sarif)
        env = dict(os.environ)
        env.pop("DT_ON_ERROR", None)
        env.update(prog.run_env())
        env["DT_ON_ERROR"] = "abort"
        # Corpus programs are written like real scripts and may leak on purpose-free paths;
        # leak reports (sanitizer builds) are the runtime tests' business, not the oracle's.
        env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
        env["DT_REPORT"] = sarif
        env["DT_REPORT_ROOT"] = self.m["source_dir"]  # as tagcheck's --root: same fingerprints
        try:
            p = subprocess.run([exe] + prog.run_args(), capture_output=True, text=True,
                               timeout=float(self.m.get("run_timeout", 120)), env=env, cwd=work)
        except subprocess.TimeoutExpired:
            return {"kind": "timeout", "detail": "no exit within the time limit"}
        res = {"returncode": p.returncode, "stderr": p.stderr, "sarif": sarif}
        failure = None
        for line in p.stderr.split("\n"):
            mm = RUNTIME_LINE_RE.match(line.strip())
            if mm:
                path = mm.group(1)
                if not os.path.isabs(path):
                    path = os.path.join(work, path)
                failure = {"path": os.path.realpath(path), "line": int(mm.group(2)),
                           "op": mm.group(3), "message": mm.group(4), "rule": mm.group(5)}
                break
        if failure is not None:
            res.update(kind="tag-failure" if failure["rule"] in TAG_RULES else "other-failure",
                       failure=failure)
            if prog.returns_on_error():
                if p.returncode != prog.run_exit():
                    res["note"] = ("exit status %d after the failure (expected %d: run-errors: "
                                   "return)" % (p.returncode, prog.run_exit()))
            elif p.returncode != -signal.SIGABRT:
                res["note"] = "exit status %d after the failure (expected SIGABRT)" % p.returncode
        elif p.returncode == prog.run_exit():
            res["kind"] = "clean"
        else:
            res.update(kind="crash" if p.returncode < 0 else "exit",
                       detail="exit status %d (expected %d)\n%s" % (p.returncode, prog.run_exit(),
                                                                    p.stderr.strip()[-2000:]))
        return res


def load_tag_rules(rules_def):
    with open(rules_def, encoding="utf-8") as fh:
        rules = RULE_DEF_RE.findall(fh.read())
    # The tag rules are the first seven rows (dt/rules.def); the rest are run-time only.
    tag = [r for _, r in rules[:7]]
    if len(tag) != 7:
        raise CorpusError("cannot read the seven tag rules from " + rules_def)
    return tag


# ---------------------------------------------------------------------------------------------
# Check 1: analyzer findings against annotations


def compare(expectations, findings):
    """Returns (matched, level_mismatch, missing, unexpected) lists."""
    exp_by_key, matched, level_mismatch, unexpected = {}, [], [], []
    for e in expectations:
        exp_by_key.setdefault(e.key(), []).append(e)
    used = set()
    for f in findings:
        cands = [e for e in exp_by_key.get(f.key(), []) if id(e) not in used]
        same = [e for e in cands if e.level == f.level]
        if same:
            used.add(id(same[0]))
            matched.append((same[0], f))
        elif cands:
            used.add(id(cands[0]))
            level_mismatch.append((cands[0], f))
        else:
            unexpected.append(f)
    missing = [e for e in expectations if id(e) not in used]
    return matched, level_mismatch, missing, unexpected


def check_analyze(ctx, prog, out):
    findings, err = ctx.analyze(prog)
    if err:
        out.append("  " + err.replace("\n", "\n  "))
        return False, None
    # A suppressed finding is one the user asked not to see: annotations describe what is shown.
    findings = [f for f in findings if not f.suppressed]
    matched, levels, missing, unexpected = compare(prog.expectations, findings)
    for e, f in levels:
        out.append("  level: %s:%d: expected %s [%s], got %s — %s"
                   % (rel(ctx, e.path), e.line, e.level, e.rule, f.level, f.message))
    for e in missing:
        out.append("  missing: %s:%d: expected %s [%s] (annotation on line %d)"
                   % (rel(ctx, e.path), e.line, e.level, e.rule, e.src_line))
    for f in unexpected:
        out.append("  unexpected: %s:%d: %s [%s] — %s"
                   % (rel(ctx, f.path), f.line, f.level, f.rule, f.message))
    stats = {"annotations": len(prog.expectations), "findings": len(findings),
             "matched": len(matched), "level": len(levels), "missing": len(missing),
             "unexpected": len(unexpected)}
    return not (levels or missing or unexpected), stats


def rel(ctx, path):
    try:
        return os.path.relpath(path, os.path.dirname(ctx.corpus_dir))
    except ValueError:
        return path


# ---------------------------------------------------------------------------------------------
# Check 2: the runtime as the oracle


def judge(run, findings):
    """Agreement of one run with a set of static findings (analyzer's or annotations').
    Returns (ok, why)."""
    errors = [f for f in findings if f.level == "error"]
    kind = run["kind"]
    if kind == "clean":
        if errors:
            return False, "ran clean, but statically an error: %s" % ", ".join(map(repr, errors))
        return True, "clean, statically %s" % ("clean" if not findings else
                                              "%d warning(s) not taken" % len(findings))
    if kind == "tag-failure":
        fl = run["failure"]
        hit = [f for f in findings if f.key() == (fl["path"], fl["line"], fl["rule"])]
        if not hit:
            near = [f for f in findings if f.path == fl["path"] and f.line == fl["line"]]
            return False, "run-time %s at %s:%d (%s) not flagged statically%s" % (
                fl["rule"], os.path.basename(fl["path"]), fl["line"], fl["op"],
                (" (flagged there as %s)" % ", ".join(f.rule for f in near)) if near else "")
        return True, "stopped at the flagged line (%s)" % hit[0].level
    return False, "the run did not end cleanly or in a tag failure"


def sarif_agrees(run):
    """The DT_REPORT log: valid JSON, SARIF 2.1.0, and holding the run's failure (if any)."""
    path = run.get("sarif")
    if not path or not os.path.exists(path):
        return False, "DT_REPORT log %s was not written" % path
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        results = doc["runs"][0]["results"]
        if doc.get("version") != "2.1.0":
            return False, "DT_REPORT log is not SARIF 2.1.0"
    except (ValueError, KeyError, IndexError, TypeError) as e:
        return False, "DT_REPORT log unreadable: %s" % e
    if run["kind"] == "clean":
        return (not results), "DT_REPORT log holds %d result(s) for a clean run" % len(results)
    fl = run.get("failure")
    if fl is None:
        return True, ""
    for r in results:
        try:
            pl = r["locations"][0]["physicalLocation"]
            line = pl["region"]["startLine"]
            uri = pl["artifactLocation"]["uri"]
        except (KeyError, IndexError, TypeError):
            continue
        if r.get("ruleId") == fl["rule"] and line == fl["line"] and \
                fl["path"].endswith(uri.split("/")[-1]):
            run["fingerprint"] = (r.get("partialFingerprints") or {}).get(FINGERPRINT_KEY)
            run["column"] = pl["region"].get("startColumn")
            return True, ""
    return False, "DT_REPORT log lacks the run-time failure %s at line %d" % (fl["rule"], fl["line"])


def check_oracle(ctx, prog, out):
    reason = prog.no_run_reason()
    if reason:
        out.append("  not run: " + reason)
        return None, None
    avail = ctx.available_backends()
    for b in prog.unavailable():
        if avail.get(b):
            out.append("  skipped: the program declares %s unavailable and this machine has it" % b)
            return None, None
    for b, want in prog.run_if():
        if bool(avail.get(b)) != want:
            out.append("  skipped: the program runs only where %s is %savailable" %
                       (b, "" if want else "not "))
            return None, None
    run = ctx.run(prog)
    row = {"run": describe_run(ctx, run)}
    if run["kind"] not in ("clean", "tag-failure"):
        out.append("  run: %s: %s" % (run["kind"], run.get("detail") or describe_run(ctx, run)))
        row.update(annotations="-", analyzer="-")
        return False, row
    if run.get("note"):
        out.append("  run: " + run["note"])
    ok_a, why_a = judge(run, prog.expectations)
    row["annotations"] = "agree" if ok_a else "DISAGREE"
    if not ok_a:
        out.append("  corpus annotations vs runtime: " + why_a)
    findings, err = ctx.analyze(prog)
    if err:
        out.append("  analyzer: " + err.replace("\n", "\n  "))
        row["analyzer"] = "n/a"
        ok_s = False
    else:
        ok_s, why_s = judge(run, findings)
        row["analyzer"] = "agree" if ok_s else "DISAGREE"
        if not ok_s:
            out.append("  analyzer vs runtime: " + why_s)
    ok_r, why_r = sarif_agrees(run)
    if not ok_r:
        out.append("  " + why_r)
    ok_f = True
    if ok_s and ok_r and run["kind"] == "tag-failure" and not err:
        # The same bug seen by both halves must carry the same fingerprint (dt/fingerprint.h),
        # so that merged static and run-time reports count it once.
        fl = run["failure"]
        static = [f for f in findings if f.key() == (fl["path"], fl["line"], fl["rule"])]
        if static and static[0].fingerprint and static[0].fingerprint != run.get("fingerprint"):
            ok_f = False
            out.append("  fingerprints differ at %s:%d: analyzer %s, runtime %s" % (
                os.path.basename(fl["path"]), fl["line"], static[0].fingerprint,
                run.get("fingerprint")))
        # `tagcheck merge` counts a bug once when both logs put it at the same place; the
        # runtime gives a column when the call is unambiguous on its line.
        if static and run.get("column") and static[0].col and static[0].col != run["column"]:
            ok_f = False
            out.append("  columns differ at %s:%d: analyzer %s, runtime %s" % (
                os.path.basename(fl["path"]), fl["line"], static[0].col, run["column"]))
    return ok_a and ok_s and ok_r and ok_f and not run.get("note"), row


def describe_run(ctx, run):
    if run["kind"] == "tag-failure" or run["kind"] == "other-failure":
        fl = run["failure"]
        return "%s at %s:%d" % (fl["rule"], os.path.basename(fl["path"]), fl["line"])
    return run["kind"]


# ---------------------------------------------------------------------------------------------
# Commands


def cmd_readers_agree(ctx, dump, extra_dirs):
    """The C reader of the annotations (tests/corpus/annotations.c, run as `dump`) reads every
    file of every program — the corpus's and those of extra_dirs (tests/engine/cases) — as this
    one does: the same (file, line, rule, level) for each expected finding."""
    files, mine = [], set()
    progs = list(ctx.programs())
    for d in extra_dirs:
        progs += [Program(n, r, f) for n, r, f in discover(d)]
    for prog in progs:
        files += prog.files
        mine |= {(e.path, e.line, e.rule, e.level) for e in prog.expectations}
    p = subprocess.run([dump] + files, capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stderr.strip())
        return 1
    theirs = set()
    for line in p.stdout.splitlines():
        path, ln, rule, level = line.split("\t")
        theirs.add((os.path.realpath(path), int(ln), rule, level))
    for what, only in (("only corpus.py reads", mine - theirs), ("only annotations.c reads", theirs - mine)):
        for e in sorted(only):
            print("%s: %s:%d: %s [%s]" % (what, e[0], e[1], e[3], e[2]))
    print("%d files of %d programs, %d annotations: %s" % (len(files), len(progs), len(mine),
          "the two readers agree" if mine == theirs else "the readers DISAGREE"))
    return 0 if mine == theirs else 1


def cmd_one(ctx, name, which):
    prog = ctx.program(name)
    out = []
    if which == "analyze":
        ok, stats = check_analyze(ctx, prog, out)
        summary = ("%(matched)d/%(annotations)d expected findings, %(findings)d reported" % stats
                   if stats else "no analysis")
    else:
        ok, row = check_oracle(ctx, prog, out)
        summary = ("run: %(run)s; annotations %(annotations)s; analyzer %(analyzer)s" % row
                   if row else "not run")
    status = "SKIP" if ok is None else ("PASS" if ok else "FAIL")
    print("%s %s: %s" % (status, prog.name, summary))
    for line in out:
        print(line)
    return SKIP if ok is None else (0 if ok else 1)


def cmd_analyze_all(ctx):
    tot = dict(annotations=0, findings=0, matched=0, level=0, missing=0, unexpected=0)
    bad, rows, details = 0, [], []
    for prog in ctx.programs():
        out = []
        ok, stats = check_analyze(ctx, prog, out)
        if not ok:
            bad += 1
            details.append((prog.name, out))
        if stats:
            for k in tot:
                tot[k] += stats[k]
            rows.append((prog.name, stats["annotations"], stats["findings"], stats["matched"],
                         stats["level"], stats["missing"], stats["unexpected"],
                         "ok" if ok else "FAIL"))
        else:
            rows.append((prog.name, len(prog.expectations), "-", "-", "-", "-", "-", "FAIL"))
    hdr = ("program", "expected", "reported", "matched", "level", "missing", "unexpected", "")
    print_table(hdr, rows)
    tp = tot["matched"] + tot["level"]
    prec = tp / tot["findings"] if tot["findings"] else 1.0
    recall = tp / tot["annotations"] if tot["annotations"] else 1.0
    print("\nprograms: %d, failing: %d" % (len(ctx.programs()), bad))
    print("findings: %d expected, %d reported, %d matched, %d with the wrong level, %d missing, "
          "%d unexpected" % (tot["annotations"], tot["findings"], tot["matched"], tot["level"],
                             tot["missing"], tot["unexpected"]))
    print("precision %.3f  recall %.3f  (a finding at the right line and rule counts; its level "
          "is checked separately)" % (prec, recall))
    for name, out in details:
        print("\n%s:" % name)
        for line in out:
            print(line)
    return 0 if bad == 0 else 1


def cmd_oracle_all(ctx):
    rows, details, agree, total, skipped = [], [], 0, 0, 0
    for prog in ctx.programs():
        out = []
        ok, row = check_oracle(ctx, prog, out)
        if ok is None:
            skipped += 1
            rows.append((prog.name, "-", "-", "-", "not run"))
            details.append((prog.name, out))
            continue
        total += 1
        agree += 1 if ok else 0
        rows.append((prog.name, row["run"], row["annotations"], row["analyzer"],
                     "ok" if ok else "FAIL"))
        if not ok:
            details.append((prog.name, out))
    print_table(("program", "runtime", "annotations", "analyzer", ""), rows)
    pct = 100.0 * agree / total if total else 0.0
    print("\nagreement: %d of %d programs run (%.1f%%); %d not run" % (agree, total, pct, skipped))
    for name, out in details:
        print("\n%s:" % name)
        for line in out:
            print(line)
    return 0 if total and agree == total else 1


def print_table(hdr, rows):
    rows = [tuple(str(c) for c in r) for r in rows]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(hdr)]
    fmt = "  ".join("%%-%ds" % w for w in widths)
    print(fmt % hdr)
    print(fmt % tuple("-" * w for w in widths))
    for r in rows:
        print(fmt % r)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--manifest", required=True, help="JSON written by tests/corpus/CMakeLists.txt")
    ap.add_argument("command", choices=["list", "analyze", "oracle", "analyze-all", "oracle-all",
                                        "readers-agree"])
    ap.add_argument("name", nargs="?")
    ap.add_argument("more", nargs="*", help="readers-agree: more folders of programs")
    a = ap.parse_args(argv)
    try:
        ctx = Context(a.manifest, a.command)
        if a.command == "list":
            for n, _, _ in discover(ctx.corpus_dir):
                print(n)
            return 0
        if a.command in ("analyze", "oracle"):
            if not a.name:
                ap.error("%s needs a program name" % a.command)
            return cmd_one(ctx, a.name, a.command)
        if a.command == "readers-agree":
            if not a.name:
                ap.error("readers-agree needs the annotations_dump program")
            return cmd_readers_agree(ctx, a.name, a.more)
        if a.command == "analyze-all":
            return cmd_analyze_all(ctx)
        return cmd_oracle_all(ctx)
    except CorpusError as e:
        print("corpus: error: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
