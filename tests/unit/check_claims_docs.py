#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The docs say nothing the generated claims report does not (issue 23).

- docs/claims.md is the report `dfly repro claims --scale paper --report-only --out
  docs/claims-paper --docs docs/claims.md` writes: its counts equal those of
  docs/claims-paper/claims.csv, and every claim's verdict line matches the CSV;
- the README's claims table (between the markers of its section) is the one
  scripts/claims-readme.py derives from that CSV;
- no Markdown file outside the generated ones states a verdict of a claim by hand
  ("H12 holds", "holds: ...", "**holds**"; in claims-notes.md also "(holds)", "still fails",
  "the verdict stays").
"""
import csv, os, re, subprocess, sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
bad = []
rows = list(csv.DictReader(open(os.path.join(root, "docs/claims-paper/claims.csv"))))
assert [r["id"] for r in rows] == ["H%d" % i for i in range(1, 45)], "claims.csv rows"
verd = ["holds", "partly", "fails", "not-run", "not-implemented"]
counts = [sum(r["verdict"] == v for r in rows) for v in verd]
md = open(os.path.join(root, "docs/claims.md")).read()
if "| %d | %d | %d | %d | %d |" % tuple(counts) not in md:
    bad.append("docs/claims.md: counts differ from docs/claims-paper/claims.csv %s" % counts)
for r in rows:
    if "### %s — %s\n" % (r["id"], r["verdict"]) not in md:
        bad.append("docs/claims.md: %s is not '%s' as in claims.csv" % (r["id"], r["verdict"]))
want = subprocess.run([sys.executable, os.path.join(root, "scripts/claims-readme.py"),
                       os.path.join(root, "docs/claims-paper/claims.csv")],
                      capture_output=True, text=True, check=True).stdout
readme = open(os.path.join(root, "README.md")).read()
m = re.search(r"<!-- claims-table -->\n(.*?)<!-- /claims-table -->\n", readme, re.S)
if not m:
    bad.append("README.md: no <!-- claims-table --> section")
elif m.group(1) != want:
    bad.append("README.md: the claims table is not scripts/claims-readme.py's output")
hand = re.compile(r"\bH\d+\b[^|\n]{0,40}\b(holds|hold|does not hold|fails)\b|\*\*(holds|hold)\*\*")
# claims-notes.md, whose every paragraph is about a claim, also may not say it in passing
notes_hand = re.compile(r"\((computed, )?(holds|fails)\)|; (holds|fails)\)|\b[Ss]till (holds|fails)\b"
                        r"|verdict stays")
for dirpath, _, files in os.walk(root):
    if any(x in dirpath for x in ("/build", "/.git", "/docs/claims-paper", "/out")):
        continue
    for f in files:
        if not f.endswith(".md") or f == "claims.md" and dirpath.endswith("docs"):
            continue
        p = os.path.join(dirpath, f)
        for n, line in enumerate(open(p, errors="replace"), 1):
            if (hand.search(line) or f == "claims-notes.md" and notes_hand.search(line)) and \
                    "dfly repro claims" not in line:
                bad.append("%s:%d: a verdict by hand: %s" % (os.path.relpath(p, root), n,
                                                          line.strip()[:100]))
for b in bad:
    print("FAIL:", b)
print("claims docs: %d problem(s)" % len(bad))
sys.exit(1 if bad else 0)
