#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The docs point at things that exist and show commands that parse.

- Every relative link and image in README.md and docs/**/*.md (and the other Markdown files of
  the tree) resolves to a file or folder of the repository; a link with an anchor into a
  Markdown file names a heading of that file (GitHub's slugs) or an <a id>; nothing points
  outside the repository.
- Every dfly, dfly-switch and dfly-controld command in a shell code block (```sh) of README.md
  and docs/ parses at the --help level: the command's subcommand words with --help exit 0, and
  every long option the line uses appears in that help text.
- The README's test command is the one .ci/run runs (its `exec` line).

Usage: check_docs.py SOURCE_DIR DFLY DFLY_SWITCH DFLY_CONTROLD. Prints each problem as
file:line: why and exits 1, or prints what it checked.
"""
import glob
import os
import re
import shlex
import subprocess
import sys

SKIP_DIRS = ("build", ".git", "out", "tests/fuzz/corpus", "docs/claims-paper/points")
# The run directory's copy of the claims report: dfly repro claims writes it there and, with
# --docs, as docs/claims.md; the sections of docs/claims-notes.md it embeds link relative to
# docs/, so they resolve in docs/claims.md (checked) and not in this copy.
NO_LINK_CHECK = ("docs/claims-paper/claims.md",)
FENCE = re.compile(r"^\s*(```|~~~)\s*([\w+-]*)")
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ID = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
SHELL = {"sh", "bash", "shell", "console"}
SUBWORD = re.compile(r"^[a-z][a-z0-9-]*$")


def markdown_files(root):
    out = []
    for path in glob.glob(os.path.join(root, "**", "*.md"), recursive=True):
        rel = os.path.relpath(path, root)
        if any(rel == d or rel.startswith(d + os.sep) for d in SKIP_DIRS):
            continue
        if rel.split(os.sep)[0].startswith("build"):  # build/, build-san/, other build trees
            continue
        out.append(rel)
    return sorted(out)


def split_blocks(text):
    """Yield (line number, line, fence info or None) for every line, outside/inside fences."""
    info = None
    for n, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if m:
            if info is None:
                info = m.group(2).lower() or "-"
            else:
                info = None
            yield n, "", "fence"
            continue
        yield n, line, info


def slug(text):
    """GitHub's anchor of a heading: markup dropped, lower case, punctuation out, - for space."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = text.replace("`", "").replace("*", "")
    return "".join(c for c in text.lower() if c.isalnum() or c in " -_").replace(" ", "-")


_anchors = {}


def anchors(path):
    if path not in _anchors:
        seen, out = {}, set()
        text = open(path, encoding="utf-8").read()
        for _, line, info in split_blocks(text):
            if info is not None:
                continue
            out.update(HTML_ID.findall(line))
            m = HEADING.match(line)
            if m:
                s = slug(m.group(2))
                k = seen.get(s, 0)
                seen[s] = k + 1
                out.add(s if k == 0 else "%s-%d" % (s, k))
        _anchors[path] = out
    return _anchors[path]


def check_links(root, rel, bad):
    text = open(os.path.join(root, rel), encoding="utf-8").read()
    n_links = 0
    # the prose, line for line: code blocks blanked, code spans out (links there are not links);
    # a link's text may run over two lines
    prose = "\n".join("" if info is not None else re.sub(r"`[^`]*`", "", line)
                      for _, line, info in split_blocks(text))
    for m in LINK.finditer(prose):
        target = m.group(1)
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        n_links += 1
        where = "%s:%d" % (rel, prose.count("\n", 0, m.start(1)) + 1)
        path, _, anchor = target.partition("#")
        if path:
            full = os.path.normpath(os.path.join(root, os.path.dirname(rel), path))
        else:
            full = os.path.join(root, rel)
        if not (full + os.sep).startswith(os.path.abspath(root) + os.sep):
            bad.append("%s: %s points outside the repository" % (where, target))
            continue
        if not os.path.exists(full):
            bad.append("%s: %s: no such file" % (where, target))
            continue
        if anchor and full.endswith(".md") and anchor not in anchors(full):
            bad.append("%s: %s: no heading or anchor '%s' in %s" %
                       (where, target, anchor, os.path.relpath(full, root)))
    return n_links


def commands(text):
    """(line number, command line) of each shell line of the ```sh blocks, continuations joined."""
    pending, start = "", 0
    for n, line, info in split_blocks(text):
        if info not in SHELL:
            pending = ""
            continue
        if not pending:
            start = n
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        yield start, pending + line
        pending = ""


def segments(line):
    """The simple commands of a shell line, as token lists (quotes and comments read as sh does)."""
    lex = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lex.whitespace_split = True
    lex.commenters = "#"
    seg = []
    for tok in lex:
        if tok and set(tok) <= set(";&|"):
            if seg:
                yield seg
            seg = []
        else:
            seg.append(tok)
    if seg:
        yield seg


_helps = {}


def help_of(argv):
    key = tuple(argv)
    if key not in _helps:
        try:
            p = subprocess.run(argv + ["--help"], capture_output=True, text=True, timeout=30)
            _helps[key] = (p.returncode, p.stdout + p.stderr)
        except (OSError, subprocess.TimeoutExpired) as e:
            _helps[key] = (-1, str(e))
    return _helps[key]


def check_commands(root, rel, bins, bad):
    text = open(os.path.join(root, rel), encoding="utf-8").read()
    n_cmds = 0
    for n, line in commands(text):
        try:
            segs = list(segments(line))
        except ValueError as e:  # unbalanced quotes
            bad.append("%s:%d: cannot parse the shell line: %s" % (rel, n, e))
            continue
        for seg in segs:
            while seg and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", seg[0]):  # VAR=value cmd
                seg = seg[1:]
            if not seg or os.path.basename(seg[0]) not in bins:
                continue
            name = os.path.basename(seg[0])
            argv = [bins[name]]
            if name == "dfly":  # subcommand words: dfly repro claims, dfly plot load, ...
                for tok in seg[1:3]:
                    if not SUBWORD.match(tok):
                        break
                    argv.append(tok)
            n_cmds += 1
            shown = " ".join([name] + argv[1:])
            rc, out = help_of(argv)
            if rc != 0:
                bad.append("%s:%d: '%s --help' exits %d" % (rel, n, shown, rc))
                continue
            for tok in seg[1:]:
                if not tok.startswith("--") or tok == "--":
                    continue
                opt = tok.split("=", 1)[0]
                if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(opt), out):
                    bad.append("%s:%d: %s is not an option of '%s' (not in its --help)" %
                               (rel, n, opt, shown))
    return n_cmds


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: check_docs.py SOURCE_DIR DFLY DFLY_SWITCH DFLY_CONTROLD")
    root = os.path.abspath(sys.argv[1])
    bins = {"dfly": sys.argv[2], "dfly-switch": sys.argv[3], "dfly-controld": sys.argv[4]}
    bad, n_links, n_cmds = [], 0, 0
    files = markdown_files(root)
    for rel in files:
        if rel not in NO_LINK_CHECK:
            n_links += check_links(root, rel, bad)
        if rel == "README.md" or rel.startswith("docs" + os.sep):
            n_cmds += check_commands(root, rel, bins, bad)
    ci = re.search(r"^exec\s+(\S+)", open(os.path.join(root, ".ci/run")).read(), re.M)
    text = open(os.path.join(root, "README.md"), encoding="utf-8").read()
    readme = [line.split("#")[0].strip() for _, line in commands(text)]
    if not ci or ci.group(1) not in readme:
        bad.append("README.md: its test command is not what .ci/run runs (%s)" %
                   (ci.group(1) if ci else ".ci/run has no exec line"))
    for b in bad:
        print("FAIL:", b)
    print("docs: %d Markdown files, %d relative links, %d dfly commands; %d problem(s)" %
          (len(files), n_links, n_cmds, len(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
