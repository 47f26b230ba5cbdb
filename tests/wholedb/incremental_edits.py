#!/usr/bin/env python3
"""tests/wholedb/incremental_edits.py — an edit re-analyzes a program only when it can change its
findings, and what a warm cache reports after any edit is exactly a full analysis's. For several
corpus multi-file projects and a generated project, each in a database of its own with a warm
cache, one file is edited in turn (edits kept until restored):

  inert        a new function that reaches no API call: the findings come from the analysis
               before the edit (TAGCHECK_STATS says so), no analysis runs
  bug          a new function with a bug: analyzed in full, the new finding reported
  bug removed  the bug taken out again and the inert function changed: the program equals the
               first edit's but for that inert function, so the findings come from it
  global       an otherwise inert function that writes a new global: analyzed in full (the
               globals written after their initializers are part of what the analysis reads)
  address      an otherwise inert function that takes the address of a function of the file:
               analyzed in full where no one took it before (an indirect call may reach a
               function whose address is taken; at least one project must show it)
  effect       a callee's effect changed (the first dt_cpu() of the project becomes dt_sim(0))

After every edit the warm run's text report and JSON report must equal those of a run without
the cache, byte for byte.

usage: incremental_edits.py TAGCHECK SOURCE_DIR RUNTIME_INCLUDE WORK"""
import json
import os
import re
import shutil
import subprocess
import sys

TAGCHECK, SRC, INC, WORK = sys.argv[1:5]
PROJECTS = ["field3_globals_init_bug", "field4_optim_global_state_bug", "field6_statics_bug",
            "field_trainer_fnptr_clean", "global_device_bug", "pipeline_stages_bug",
            "field_inline_header_helper_bug", "mlp_trainer"]
failures = []
address_full = []  # projects where taking a function's address was analyzed in full

INERT = "\nint tc_probe_inert(int x) { return x * %d + 1; }\n"
BUG = """
#include <dt/dt.h>
void tc_probe_bug(void) {
  dt_tensor *a = dt_ones(dt_cpu(), DT_FLOAT, 1, (const int64_t[]){1});
  dt_tensor *b = dt_ones(dt_sim(0), DT_FLOAT, 1, (const int64_t[]){1});
  dt_free(dt_add(a, b));
}
"""
GLOBAL = "\nint tc_probe_counter;\nvoid tc_probe_bump(void) { tc_probe_counter++; }\n"
ADDRESS = "\nvoid *tc_probe_address(void) { return (void *)&%s; }\n"
REUSED = re.compile(r"programs changed since their cached analysis: (\d+) taken from an analysis "
                    r"that differed only in functions reaching no API call, (\d+) analyzed in full")


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def write_db(root, files):
    cmds = [{"directory": os.path.dirname(f), "file": f,
             "arguments": ["cc", "-std=c11", "-I" + os.path.dirname(f), "-I" + INC, "-c", f]}
            for f in files]
    with open(os.path.join(root, "compile_commands.json"), "w") as out:
        json.dump(cmds, out)


def run(db, fmt, cache=True):
    args = [TAGCHECK, "-p", db, "-q", "--format", fmt] + ([] if cache else ["--no-cache"])
    env = dict(os.environ, TAGCHECK_STATS="1")
    p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600)
    if p.returncode not in (0, 1):
        check(False, f"{db}: {' '.join(args)} exited {p.returncode}: {p.stderr[-2000:]}")
    m = REUSED.search(p.stderr)
    return p.stdout, (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def compare(name, db, expect=None):
    """The warm run's reports equal the uncached run's; expect: 'reused' or 'full' (what the warm
    run must have done), None when either is right. Returns the JSON report."""
    text, how = run(db, "text")
    js, _ = run(db, "json")  # the warm run stored its findings: this one reads them back
    text_full, _ = run(db, "text", cache=False)
    js_full, _ = run(db, "json", cache=False)
    check(text == text_full, f"{name}: the warm text report differs from a full analysis's")
    check(js == js_full, f"{name}: the warm JSON report differs from a full analysis's")
    if expect == "reused":
        check(how == (1, 0), f"{name}: expected the findings of the analysis before the edit, got {how}")
    elif expect == "full":
        check(how == (0, 1), f"{name}: expected a full analysis, got {how}")
    return js_full, how


def findings(js):
    return [(os.path.basename(f["file"]), f["line"], f["rule"]) for f in json.loads(js)["findings"]]


def a_function_of(path):
    """A function defined in path (not main), or None."""
    with open(path) as f:
        for line in f:
            m = re.match(r"^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;]*$", line)
            if m and m.group(1) not in ("main", "if", "for", "while", "switch", "return"):
                return m.group(1)
    return None


def edit_project(name, root, files, target):
    with open(target) as f:
        original = f.read()

    def put(text):
        with open(target, "w") as f:
            f.write(text)

    before = compare(f"{name}: as it is", root)[0]
    put(original + INERT % 2)
    after_inert = compare(f"{name}: inert", root, "reused")[0]
    check(findings(after_inert) == findings(before), f"{name}: an inert function changed the findings")
    put(original + INERT % 2 + BUG)
    with_bug = compare(f"{name}: bug", root, "full")[0]
    check(len(findings(with_bug)) > len(findings(before)), f"{name}: the new bug was not reported")
    put(original + INERT % 3)
    compare(f"{name}: bug removed", root, "reused")
    put(original + GLOBAL)
    compare(f"{name}: global", root, "full")
    fn = a_function_of(target)
    check(fn is not None, f"{name}: no function found in {target}")
    if fn:
        put(original + ADDRESS % fn)
        if compare(f"{name}: address of {fn}", root)[1] == (0, 1):
            address_full.append(name)
    put(original)
    for f in files:
        with open(f) as src:
            text = src.read()
        if "dt_cpu()" in text:
            with open(f, "w") as out:
                out.write(text.replace("dt_cpu()", "dt_sim(0)", 1))
            compare(f"{name}: effect ({os.path.basename(f)})", root)
            with open(f, "w") as out:
                out.write(text)
            break


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    for p in PROJECTS:
        root = os.path.join(WORK, p)
        shutil.copytree(os.path.join(SRC, "corpus", "multi", p), root)
        files = sorted(os.path.join(root, f) for f in os.listdir(root) if f.endswith(".c"))
        write_db(root, files)
        target = next((f for f in files if os.path.basename(f) != "main.c"), files[0])
        edit_project(p, root, files, target)
    gen = os.path.join(WORK, "generated")
    subprocess.run([sys.executable, os.path.join(SRC, "bench", "analyzer", "gen_project.py"), gen,
                    "--units", "12", "--include", INC], check=True, capture_output=True)
    files = sorted(os.path.join(gen, "src", f) for f in os.listdir(os.path.join(gen, "src"))
                   if f.endswith(".c"))
    edit_project("generated", gen, files, files[len(files) // 2])
    check(len(address_full) >= 3, f"taking a function's address was analyzed in full only in {address_full}")
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("incremental edits: every warm report equals a full analysis's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
