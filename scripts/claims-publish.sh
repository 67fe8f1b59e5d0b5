#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Publish a `dfly repro claims --scale paper` run (issue 23): copy its runs (CSVs, summaries,
# .ok files naming the dfly build, the ECtN frame rates; not the counter dumps) into
# docs/claims-paper/, regenerate the report from them (docs/claims-paper/claims.{csv,md}, the
# figures, and docs/claims.md) with --report-only, and rewrite the README's claims table
# (scripts/claims-readme.py). Run from the source tree after ./scripts/build.sh:
#   scripts/claims-publish.sh [OUT]      (OUT: the run's --out, default out/claims-paper)
set -eu
out=${1:-out/claims-paper}
dst=docs/claims-paper
[ -d "$out/points" ] || { echo "claims-publish: $out/points: no runs" >&2; exit 2; }
mkdir -p "$dst/points"
if [ "$(realpath "$out")" != "$(realpath "$dst")" ]; then
    for f in "$out"/points/*; do
        case "$f" in
        *.counters | *.err) ;; # dumps are megabytes; .ctrl keeps the figure a claim reads
        *) cp -p "$f" "$dst/points/" ;;
        esac
    done
fi
# what a run in place leaves beside the results: not published
printf '*.counters\n*.err\ncommands.sh\n!*.csv\n' > "$dst/.gitignore"
./build/tools/dfly repro claims --scale paper --report-only --out "$dst" --docs docs/claims.md
python3 scripts/claims-readme.py "$dst/claims.csv" > "$dst/readme-table.md"
python3 - "$dst/readme-table.md" <<'PY'
import re, sys
table = open(sys.argv[1]).read()
s = open("README.md").read()
s2, n = re.subn(r"<!-- claims-table -->\n.*?<!-- /claims-table -->\n",
                lambda m: "<!-- claims-table -->\n" + table + "<!-- /claims-table -->\n", s,
                flags=re.S)
if n != 1:
    sys.exit("claims-publish: README.md has no <!-- claims-table --> section")
open("README.md", "w").write(s2)
PY
rm -f "$dst/readme-table.md"
echo "claims-publish: docs/claims.md, $dst/ and the README's table regenerated"
