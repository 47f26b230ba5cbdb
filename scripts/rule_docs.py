#!/usr/bin/env python3
"""scripts/rule_docs.py — the rule sections of docs/ci.md, written from `tagcheck --explain`.

The text a SARIF rule carries as `help` (and `tagcheck --explain` prints) is the text of its
docs section, where every rule's `helpUri` points: this script writes the `### RULE` sections
between the markers of docs/ci.md from the explanations of every rule of the rules files given
(dt's tag rules and runtime-only rules are built in; rules/ggml.json adds ggml's), so the two
cannot drift apart. With --check it only compares and exits 1 when the file differs (the
test docs.rule_sections).

  rule_docs.py TAGCHECK DOCS_CI_MD [--rules FILE]... [--check]
"""

import argparse
import re
import subprocess
import sys

BEGIN = "<!-- rule sections: written by scripts/rule_docs.py from `tagcheck --explain`; do not edit -->"
END = "<!-- end of rule sections -->"


def tagcheck(exe, rules, *args):
    cmd = [exe]
    for r in rules:
        cmd += ["--rules", r]
    out = subprocess.run(cmd + list(args), capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"rule_docs.py: {' '.join(cmd + list(args))}: exit {out.returncode}\n{out.stderr}")
    return out.stdout


def section(rule_id, explanation):
    """One rule's Markdown from its --explain text: the summary, the help, the examples."""
    paras = explanation.strip("\n").split("\n\n")
    body = paras[1:]  # paras[0]: "ID (Name), default level L"
    out = [f"### {rule_id}", ""]
    for p in body:
        if p.startswith("Suppress one finding:"):
            continue
        if p.startswith("Wrong:"):
            m = re.match(r"Wrong:\n(.*?)\nFixed:\n(.*)", p, re.S)
            if not m:
                sys.exit(f"rule_docs.py: {rule_id}: cannot read its examples")
            for title, code in (("Wrong", m.group(1)), ("Fixed", m.group(2))):
                lines = [l[4:] if l.startswith("    ") else l for l in code.split("\n")]
                out += [f"{title}:", "", "```c", *lines, "```", ""]
            continue
        out += [p, ""]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tagcheck")
    ap.add_argument("doc")
    ap.add_argument("--rules", action="append", default=[])
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    ids = [l.split()[0] for l in tagcheck(a.tagcheck, a.rules, "--list-rules").splitlines() if l.strip()]
    generated = "\n".join(section(i, tagcheck(a.tagcheck, a.rules, "--explain", i)) for i in ids)
    with open(a.doc, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        sys.exit(f"rule_docs.py: {a.doc} has no rule-section markers")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{BEGIN}\n\n{generated}\n{END}{tail}"
    if a.check:
        if new != text:
            print(f"{a.doc}: the rule sections differ from `tagcheck --explain`: "
                  f"run scripts/rule_docs.py {a.tagcheck} {a.doc}"
                  + "".join(f" --rules {r}" for r in a.rules), file=sys.stderr)
            return 1
        print(f"{a.doc}: {len(ids)} rule sections agree with tagcheck --explain")
        return 0
    with open(a.doc, "w", encoding="utf-8") as f:
        f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
