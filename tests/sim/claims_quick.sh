#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `dfly repro claims --scale quick` (issue 23): every claim of spec §9 meaningful at h = 3 is run
# and judged against the spec's tolerances; the claims listed in claims-quick.holds must hold
# (the list is what the quick scale measured when it was written: a claim that stops holding
# is a change of the model's results, to explain or fix). Also checks the engine: claims.csv
# has one row per claim with a valid verdict and the issue's columns, a second run on the same
# folder is refused without --resume, with --resume it runs nothing, --report-only agrees.
set -euo pipefail
DFLY=$(realpath "${1:?usage: claims_quick.sh DFLY}") # meson passes it relative to the build dir
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d /tmp/dfly-claims.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$src"
holds=$(grep -v '^#' "$here/claims-quick.holds" | tr -s ' \n,' ',' | sed 's/^,//; s/,$//')

"$DFLY" repro claims --scale quick --jobs 2 --no-plots --out "$tmp/q" \
    --expect-holds "$holds" > "$tmp/out.txt"
tail -1 "$tmp/out.txt"

python3 - "$tmp/q/claims.csv" "$holds" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
need = ["id", "config", "scale", "protocol", "measured", "expected", "tolerance", "verdict", "note"]
assert list(rows[0].keys()) == need, rows[0].keys()
ids = [r["id"] for r in rows]
assert ids == ["H%d" % i for i in range(1, 45)], ids
ok = {"holds", "partly", "fails", "not-run", "not-implemented"}
for r in rows:
    assert r["verdict"] in ok, r
    assert r["scale"] == "quick", r
    if r["verdict"] in ("holds", "partly", "fails"):
        assert r["measured"] and r["expected"] and r["tolerance"], r
# H35 reads the points' counter dumps (claims.c read_dump): the per-switch figures must come out
# of them (a dump not read gives 0 and -1), and LIA draws its L1 paths at S_out only
h35 = dict(m.rsplit(" = ", 1) for m in next(r for r in rows if r["id"] == "H35")["measured"]
           .split("; ") if " = " in m)
assert float(h35["LIA ADVc Max/Min injection per switch (the same for all)"]) >= 1.0, h35
assert float(h35["LIA ADVc: LG- and LGL paths drawn at S_out (%, only S_out uses L1)"]) >= 90, h35
# R_out's share (H21 at paper scale) comes from the same dumps: every point with a dump has it,
# and LIA, which gives every switch the same load, gives R_out the others' share
import glob, os
ctrl = glob.glob(os.path.join(os.path.dirname(sys.argv[1]), "points", "*.ctrl"))
assert ctrl, "no counter figures"
for c in ctrl:
    f = dict(l.split() for l in open(c) if not l.startswith("#"))
    assert float(f["rout_ratio"]) > 0, (c, f)
    if os.path.basename(c).startswith("L-lia-advc"):
        assert 0.9 <= float(f["rout_ratio"]) <= 1.1, (c, f)
for h in sys.argv[2].split(","):
    assert next(r for r in rows if r["id"] == h)["verdict"] == "holds", h
print("claims.csv: %d claims, %d hold" % (len(rows), sum(r["verdict"] == "holds" for r in rows)))
PY

# the same folder again: refused without --resume (the runs are kept), nothing to run with it
if "$DFLY" repro claims --scale quick --only H1 --no-plots --out "$tmp/q" > /dev/null 2>&1; then
    echo "FAIL: a second run on a folder with results was not refused"; exit 1
fi
"$DFLY" repro claims --scale quick --only H1,H2 --no-plots --out "$tmp/q" --resume \
    > "$tmp/r.txt" 2> "$tmp/r.err"
grep -q "0 to run" "$tmp/r.err" || { echo "FAIL: --resume ran points again"; cat "$tmp/r.err"; exit 1; }
grep -q "^H1 *holds" "$tmp/r.txt" || { echo "FAIL: H1 after --resume"; exit 1; }
"$DFLY" repro claims --scale quick --report-only --no-plots --out "$tmp/q" > "$tmp/ro.txt"
diff <(grep '^H' "$tmp/out.txt") <(grep '^H' "$tmp/ro.txt") || { echo "FAIL: --report-only differs"; exit 1; }
# every claim a heading of docs/claims-notes.md names before its ':' ("## H13 and H16",
# "## H41: ...") prints that section in the report, and no other claim prints one
python3 - "$src/docs/claims-notes.md" "$tmp/q/claims.md" <<'PY'
import re, sys
named = set()
for line in open(sys.argv[1]):
    if line.startswith("## "):
        named |= set(re.findall(r"\bH\d+\b", line[3:].split(":")[0]))
md = open(sys.argv[2]).read()
for sec in re.split(r"\n### ", md)[1:]:
    cid = sec.split()[0]
    assert ("**Traced**" in sec) == (cid in named), (cid, cid in named)
print("claims.md: the notes of %d claims" % len(named))
PY
echo "claims quick: ok"
