"""tests/fresh/doc_blocks.py — the commands of the user documentation, as the documentation
writes them: every fenced block right after a marker comment

    <!-- fresh-root: KIND [in DIR] [exit N,M] [build] [open FILE] -->

(invisible when the Markdown is rendered) is one Block, so a doc edit changes what the test runs.
KIND says how fresh_root_test.py runs it:
  quickstart  the README's quick start: its commands in order, the demo's story checked
  sh          each command (backslash continuations joined), one after another, in DIR
  transcript  `$ COMMAND` lines, each followed by the output the docs promise
  c           a C program, built with `pkg-config --cflags --libs dt` and run as nobody
  workflow    a GitHub Actions workflow: its `run:` steps in order, in DIR as the checkout
  hook        a git pre-commit hook, installed in a git repository made of DIR
  nvim        a Neovim init.lua; FILE (`open`) is opened and its diagnostics awaited
DIR is relative to the checkout (default `.`, the checkout itself, run in place); any other
folder runs in a fresh copy of its own. `build` configures and builds DIR with CMake and a
compilation database first; `exit` lists the statuses each command may end with (default 0)."""
import re

MARKER = re.compile(r"^<!-- fresh-root: (?P<spec>[^>]*?) -->\s*$")
FENCE = re.compile(r"^(?P<indent>\s*)```")
KINDS = ("quickstart", "sh", "transcript", "c", "workflow", "hook", "nvim")


class Block:
    def __init__(self, doc, line, spec, text):
        self.doc, self.line, self.text = doc, line, text
        words = spec.split()
        if not words or words[0] not in KINDS:
            raise ValueError("%s:%d: unknown fresh-root kind in '%s'" % (doc, line, spec))
        self.kind = words[0]
        self.dir, self.exits, self.build, self.open = ".", {0}, False, None
        rest = words[1:]
        while rest:
            key = rest.pop(0)
            if key == "in" and rest:
                self.dir = rest.pop(0)
            elif key == "exit" and rest:
                self.exits = {int(s) for s in rest.pop(0).split(",")}
            elif key == "build":
                self.build = True
            elif key == "open" and rest:
                self.open = rest.pop(0)
            else:
                raise ValueError("%s:%d: bad fresh-root option '%s'" % (doc, line, key))

    def where(self):
        return "%s:%d (%s)" % (self.doc, self.line, self.kind)

    def commands(self):
        """The block's shell commands: lines joined on a trailing backslash; blank lines and
        lines holding only a comment dropped (the shell would ignore them)."""
        out, cur = [], ""
        for line in self.text.splitlines():
            if not cur and (not line.strip() or line.lstrip().startswith("#")):
                continue
            cur += line
            if cur.endswith("\\"):
                cur = cur[:-1] + " "
                continue
            out.append(cur.strip())
            cur = ""
        if cur:
            out.append(cur.strip())
        return out


def blocks(path, name):
    """Every marked block of the Markdown file PATH (NAME is how messages name it)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    found, i = [], 0
    while i < len(lines):
        m = MARKER.match(lines[i])
        if not m:
            i += 1
            continue
        marker_line = i + 1
        i += 1
        fence = FENCE.match(lines[i]) if i < len(lines) else None
        if not fence:
            raise ValueError("%s:%d: a fresh-root marker not followed by a fenced block"
                             % (name, marker_line))
        indent = len(fence.group("indent"))
        body = []
        i += 1
        while i < len(lines) and not FENCE.match(lines[i]):
            body.append(lines[i][indent:] if lines[i][:indent].isspace() else lines[i])
            i += 1
        found.append(Block(name, marker_line, m.group("spec"), "\n".join(body) + "\n"))
        i += 1
    return found
