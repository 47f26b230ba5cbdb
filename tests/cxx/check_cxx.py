#!/usr/bin/env python3
"""tests/cxx/check_cxx.py — end-to-end checks of tagcheck on C++ and CUDA units (SPEC §7).

  cuda TAGCHECK RULES SRC_DIR WORK   a `.cu` unit in a compilation database written the way
                                      nvcc's CMake rules write it (-x cu, -arch, -ccbin,
                                      -Xcompiler, --generate-code) is analyzed with no toolkit:
                                      exactly the one finding the file holds, no unit failing
  stats TAGCHECK RULES CXX_RULES FILE INCLUDE   --stats counts the bodies of a C++ unit: its
                                      template instantiations, the pattern never instantiated,
                                      member functions, and no body skipped but the patterns
                                      analyzed through their instantiations
Exit status 0 pass, 1 fail.
"""
import json
import os
import re
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def cuda(tool, rules, src_dir, work):
    os.makedirs(work, exist_ok=True)
    src = os.path.join(src_dir, "kernel_host.cu")
    inc = os.path.join(os.path.dirname(os.path.dirname(src_dir)), "runtime", "include")
    db = [{"directory": work, "file": src,
           "command": "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -I%s -O3 "
                      "-std=c++17 \"--generate-code=arch=compute_80,code=[compute_80,sm_80]\" "
                      "-Xcompiler=-fPIC -x cu -arch sm_80 -ccbin g++ -c %s -o k.o" % (inc, src)}]
    with open(os.path.join(work, "compile_commands.json"), "w") as fh:
        json.dump(db, fh)
    p = subprocess.run([tool, "-p", work, "--no-cache", "--rules", rules, "--format", "json", "-q"],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 1:
        fail("exit status %d (want 1: one finding)\n%s" % (p.returncode, p.stderr))
    doc = json.loads(p.stdout)
    found = [(f["line"], f["rule"]) for f in doc["findings"]]
    if found != [(22, "backend-mismatch")]:
        fail("findings %s, want [(22, 'backend-mismatch')]" % found)
    print("ok: the .cu unit analyzed without a toolkit, one finding at line 22")


def stats(tool, rules, cxx_rules, src, inc):
    p = subprocess.run([tool, "--no-cache", "--rules", rules, "--rules", cxx_rules, "--stats", "-q",
                        src, "--", "-std=c++17", "-I" + inc],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        fail("exit status %d on a clean program\n%s" % (p.returncode, p.stderr))
    nums = {}
    for key, pat in (("bodies", r"(\d+) function bodies analyzed"),
                     ("methods", r"(\d+) member functions"),
                     ("inst", r"(\d+) template instantiations"),
                     ("patterns", r"(\d+) uninstantiated template patterns"),
                     ("skipped", r"(\d+) template patterns \(analyzed through")):
        m = re.search(pat, p.stderr)
        if not m:
            fail("--stats lacks '%s':\n%s" % (pat, p.stderr))
        nums[key] = int(m.group(1))
    # templates_clean.cpp: Holder<float> and Holder<int> (constructor, make) and sum_all<3>
    # instantiated; mix<T> never; main
    want = {"inst": 5, "patterns": 1, "skipped": 3}
    for k, v in want.items():
        if nums[k] != v:
            fail("--stats %s = %d, want %d:\n%s" % (k, nums[k], v, p.stderr))
    if nums["bodies"] != nums["inst"] + nums["patterns"] + 1:
        fail("bodies %d != instantiations + patterns + main\n%s" % (nums["bodies"], p.stderr))
    print("ok: " + ", ".join("%s %d" % kv for kv in sorted(nums.items())))


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "cuda" and len(sys.argv) == 6:
        cuda(*sys.argv[2:])
    elif len(sys.argv) >= 2 and sys.argv[1] == "stats" and len(sys.argv) == 7:
        stats(*sys.argv[2:])
    else:
        print(__doc__)
        sys.exit(2)
