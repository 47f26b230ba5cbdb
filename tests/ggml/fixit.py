#!/usr/bin/env python3
"""tests/ggml/fixit.py — fix-its checked on the ggml corpus, against the oracle.

For every ggml corpus program whose findings carry fix-its (tagcheck's JSON `fixes`), a copy
of the program is fixed, then:

  * the JSON `fixes` agree with `--export-fixes` (the same edits, as byte offsets);
  * where clang-apply-replacements is installed, applying that YAML to the program gives the
    very text `--fix` gives;
  * re-analyzing the fixed copy finds none of the fixed findings again, and no new one: every
    finding left was there before, without a fix;
  * a fixed program left with no finding at all, built against real ggml and the emulated GPU
    (tests/ggml/runtime) and run as its oracle test runs it, runs clean.

And where no fix is certainly right, none is offered (WITHHELD: a program whose every marked
line has a host-access finding without a fix: the call's value used, a handle to const, an
offset, no `t->data` to name the tensor by, a macro, both sides on the device, a read from a
file, ggml_get/set_f32_1d, an indexed store).

Prints one line per program with fixes and the totals; exit status 0 when every check held
(and some program had a fix), 1 otherwise, 2 bad usage. Uses ggml_corpus.py's driver and
tests/corpus/fixit.py's readers of the two formats (standard library only).

  fixit.py --manifest build/tests/ggml/manifest.json [PROGRAM...]
"""

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ggml_corpus  # noqa: E402  (it puts tests/corpus on the path)
import corpus  # noqa: E402


def load_corpus_fixit():
    """tests/corpus/fixit.py (keyed, yaml_edits, json_edits), which this file's name hides."""
    spec = importlib.util.spec_from_file_location(
        "corpus_fixit", os.path.join(HERE, "..", "corpus", "fixit.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


corpus_fixit = load_corpus_fixit()

APPLY_REPLACEMENTS = shutil.which("clang-apply-replacements")


def read(path):
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def check_program(drv, prog, out):
    """None when the program has no fix-it; else a dict of what held."""
    doc, err = drv.tagcheck_json(prog)
    if err:
        out.append("analyzer: " + err)
        return {"ok": False, "fixed": 0, "findings": 0, "clean_run": None, "applied": None}
    fixable = corpus_fixit.keyed(doc, True)
    if not fixable:
        return None
    before = corpus_fixit.keyed(doc, None)
    res = {"ok": True, "fixed": len(fixable), "findings": len(before), "clean_run": None,
           "applied": None}
    work = tempfile.mkdtemp(prefix="fixit-", dir=drv.work_dir)
    try:
        os.makedirs(os.path.join(work, "yaml"))
        yaml_path = os.path.join(work, "yaml", "fixes.yaml")
        src = os.path.join(work, os.path.basename(prog.sources[0]))
        shutil.copyfile(prog.sources[0], src)
        copy = corpus.Program(prog.name, src, [src])
        exported, err = drv.tagcheck_json(copy, ["--export-fixes", yaml_path])
        if err:
            out.append("--export-fixes: " + err)
            res["ok"] = False
            return res
        if corpus_fixit.yaml_edits(yaml_path) != corpus_fixit.json_edits(exported):
            out.append("--export-fixes and the JSON fixes differ")
            res["ok"] = False
        if APPLY_REPLACEMENTS:
            p = subprocess.run([APPLY_REPLACEMENTS, os.path.dirname(yaml_path)],
                               capture_output=True, text=True, timeout=120)
            applied = read(src)
            shutil.copyfile(prog.sources[0], src)
            if p.returncode != 0:
                out.append("clang-apply-replacements failed: " + p.stderr.strip()[-2000:])
                res["ok"] = False
                applied = None
        _, err = drv.tagcheck_json(copy, ["--fix"])
        if err:
            out.append("--fix: " + err)
            res["ok"] = False
            return res
        if APPLY_REPLACEMENTS and applied is not None:
            res["applied"] = applied == read(src)
            if not res["applied"]:
                out.append("clang-apply-replacements and --fix give different texts")
                res["ok"] = False
        fixed = corpus.Program(prog.name + ".fixed", src, [src])
        after_doc, err = drv.tagcheck_json(fixed)
        if err:
            out.append("after --fix: " + err)
            res["ok"] = False
            return res
        after = corpus_fixit.keyed(after_doc, None)
        if after & fixable:
            out.append("still reported after --fix: %s" % sorted(after & fixable))
            res["ok"] = False
        if after - before:
            out.append("new findings after --fix: %s" % sorted(after - before))
            res["ok"] = False
        if not after and not prog.no_run_reason():
            run = drv.run(fixed)
            res["clean_run"] = run["kind"] == "clean"
            if not res["clean_run"]:
                out.append("the fixed program does not run clean on the oracle: %s\n%s" % (
                    ggml_corpus.describe(run), run.get("detail", "")))
                res["ok"] = False
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return res


WITHHELD = r"""#include <stdio.h>
#include <string.h>

#include "ggml.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-cuda.h"

#define COPY_IN(t, src, n) memcpy((t)->data, (src), (n))

static void *value_used(struct ggml_tensor *t, const float *src) {
  return memcpy(t->data, src, 4); /* withheld */
}
static void const_handle(const struct ggml_tensor *t, const float *src) {
  memcpy(t->data, src, 4); /* withheld */
}
static void offset(struct ggml_tensor *t, const float *src) {
  memcpy((char *)t->data + 4, src, 4); /* withheld */
}
static void no_handle(struct ggml_tensor *t, const float *src) {
  memcpy(ggml_get_data(t), src, 4); /* withheld */
}
static void in_macro(struct ggml_tensor *t, const float *src) {
  COPY_IN(t, src, 4); /* withheld */
}
static void both_on_device(struct ggml_tensor *a, struct ggml_tensor *b) {
  memcpy(a->data, b->data, 4); /* withheld */
}
static void from_file(struct ggml_tensor *t, FILE *f) {
  if (fread(t->data, 1, 4, f) != 4) return; /* withheld */
}
static float one_element(struct ggml_tensor *t) {
  ggml_set_f32_1d(t, 0, 1.0f); /* withheld */
  return 0.0f;
}
static float get_element(struct ggml_tensor *t) {
  return ggml_get_f32_1d(t, 0); /* withheld */
}
static void indexed(struct ggml_tensor *t) {
  float *p = (float *)t->data;
  p[0] = 0.0f; /* withheld */
}

int main(void) {
  ggml_backend_t gpu = ggml_backend_cuda_init(0);
  struct ggml_init_params params = {ggml_tensor_overhead() * 2, NULL, true};
  struct ggml_context *ctx = ggml_init(params);
  struct ggml_tensor *a = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 4);
  struct ggml_tensor *b = ggml_new_tensor_1d(ctx, GGML_TYPE_F32, 4);
  ggml_backend_buffer_t buf = ggml_backend_alloc_ctx_tensors(ctx, gpu);
  float src[4] = {0};
  (void)value_used(a, src);
  const_handle(a, src);
  offset(a, src);
  no_handle(a, src);
  in_macro(a, src);
  both_on_device(a, b);
  from_file(a, stdin);
  (void)one_element(a);
  (void)get_element(a);
  indexed(a);
  ggml_backend_buffer_free(buf);
  ggml_free(ctx);
  return 0;
}
"""


def check_withheld(drv, out):
    """Whether every marked line of WITHHELD has a host-access finding without a fix, and
    nothing else is found."""
    src = os.path.join(drv.work_dir, "withheld.c")
    with open(src, "w", encoding="utf-8") as fh:
        fh.write(WITHHELD)
    doc, err = drv.tagcheck_json(corpus.Program("withheld.c", src, [src]))
    if err:
        out.append("analyzer: " + err)
        return False
    marked = {i + 1 for i, line in enumerate(WITHHELD.split("\n")) if "/* withheld */" in line}
    found = {f["line"]: f for f in doc.get("findings", [])}
    ok = True
    for line in sorted(marked):
        f = found.get(line)
        if not f or f["rule"] != "ggml-host-access":
            out.append("withheld.c:%d: no ggml-host-access finding" % line)
            ok = False
        elif f.get("fixes"):
            out.append("withheld.c:%d: a fix is offered where none is certain: %s" % (
                line, f["fixes"]))
            ok = False
    for line in sorted(set(found) - marked):
        out.append("withheld.c:%d: unexpected finding: %s" % (line, found[line]["message"]))
        ok = False
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--manifest", required=True)
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args()
    try:
        drv = ggml_corpus.Driver(args.manifest, "fixit")
        os.makedirs(drv.work_dir, exist_ok=True)
        names = args.programs or drv.program_names()
        totals = dict(programs=0, fixed=0, findings=0, runs=0, clean=0, applied=0, bad=0)
        for name in names:
            prog = drv.program(name)
            out = []
            res = check_program(drv, prog, out)
            if res is None:
                continue
            totals["programs"] += 1
            totals["fixed"] += res["fixed"]
            totals["findings"] += res["findings"]
            totals["runs"] += res["clean_run"] is not None
            totals["clean"] += bool(res["clean_run"])
            totals["applied"] += bool(res["applied"])
            totals["bad"] += not res["ok"]
            run = {None: "not run (findings without a fix remain)", True: "runs clean",
                   False: "RUN FAILS"}[res["clean_run"]]
            print("%s %s: %d of %d findings fixed; %s" % (
                "PASS" if res["ok"] else "FAIL", prog.name, res["fixed"], res["findings"], run))
            for line in out:
                print("  " + line.replace("\n", "\n  "))
        out = []
        withheld_ok = check_withheld(drv, out)
        print("%s withheld.c: no fix where none is certainly right" % (
            "PASS" if withheld_ok else "FAIL"))
        for line in out:
            print("  " + line)
        totals["bad"] += not withheld_ok
    except corpus.CorpusError as e:
        print("ggml fixit: error: %s" % e, file=sys.stderr)
        return 2
    print("ggml fixit: %(programs)d programs with fix-its, %(fixed)d of their %(findings)d "
          "findings fixed; %(clean)d of %(runs)d programs left with no finding run clean on the "
          "oracle; clang-apply-replacements matched --fix on %(applied)d; %(bad)d failing" % totals)
    if APPLY_REPLACEMENTS is None:
        print("ggml fixit: clang-apply-replacements is not installed: the YAML was only compared "
              "with the JSON fixes")
    if not totals["programs"]:
        print("ggml fixit: no ggml corpus finding carries a fix-it")
        return 1
    if not args.programs and not totals["clean"]:
        print("ggml fixit: no fixed program was run on the oracle")
        return 1
    return 1 if totals["bad"] else 0


if __name__ == "__main__":
    sys.exit(main())
