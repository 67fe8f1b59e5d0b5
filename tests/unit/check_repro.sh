#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `dfly repro`: the command lines of the four experiments (--dry-run), usage errors, and a tiny
# run of `steady`, `threshold` and `lia` on h2 (--quick, seed 1): every CSV, the averaged CSVs
# equal to the runs' rows, the tables, the figures (when gnuplot is installed), --report-only
# redoing the same tables. About 30 s.
set -eu
dfly="${1:?usage: check_repro.sh DFLY SOURCE_DIR}"
src="${2:?usage: check_repro.sh DFLY SOURCE_DIR}"
dfly="$(cd "$(dirname "$dfly")" && pwd)/$(basename "$dfly")" # meson passes it relative
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "FAIL: $*"
    exit 1
}
cd "$src" # the printed commands use the tree's relative paths (configs/, scripts/)

# 1. transient: the six runs of the first version unchanged, then the counter mechanisms
"$dfly" repro transient --dry-run --out "$tmp/t" >"$tmp/t.txt"
grep -q '^# dfly repro transient: 13 runs (dry run)' "$tmp/t.txt" || fail "transient: not 13 runs"
n=$(grep -c ' transient configs/h4.cfg ' "$tmp/t.txt")
[ "$n" -eq 13 ] || fail "transient: $n commands, expected 13"
order=$(grep ' transient configs/h4.cfg ' "$tmp/t.txt" | sed 's/.*--csv [^ ]*\/\([^/ ]*\)\.csv.*/\1/' |
    tr '\n' ' ')
[ "$order" = "pb-small olm-small val-small min-small base-small filtered-small hybrid-small \
ectn-small pb-large olm-large base-large ectn-large hybrid-large " ] ||
    fail "transient: runs in order '$order'"
grep -q 'routing.mechanism=ectn --set buffers.local=256 --set buffers.global=2048 .* --post 15000 ' \
    "$tmp/t.txt" || fail "transient: ectn-large is not the large-buffer experiment"
for png in transient-small transient-small-zoom transient-small-all transient-large transient-cc \
    transient-cc-zoom transient-cc-large; do
    grep -q "$tmp/t/$png.png" "$tmp/t.txt" || fail "transient: no figure $png"
done
grep -q "zoom/ectn-small.csv .*$tmp/t/transient-cc-zoom.png" "$tmp/t.txt" ||
    fail "transient: the zoomed counter figure does not use the zoomed CSVs"

# 2. steady and threshold: 24 and 28 commands on h4
"$dfly" repro steady --dry-run --out "$tmp/s" >"$tmp/s.txt"
n=$(grep -c ' sim configs/h4.cfg ' "$tmp/s.txt")
[ "$n" -eq 24 ] || fail "steady: $n commands, expected 24"
for pat in un adv+1 adv+4; do
    for m in min val olm pb base filtered hybrid ectn; do
        grep -q "routing.mechanism=$m .*traffic.pattern=$pat .*--csv $tmp/s/$pat-$m.csv " \
            "$tmp/s.txt" || fail "steady: no run of $m under $pat"
    done
done
grep -q 'routing.mechanism=pb --set routing.val.recompute=true' "$tmp/s.txt" ||
    fail "steady: PB without routing.val.recompute=true"
grep -q -- '--loads 0.05:1:0.05 ' "$tmp/s.txt" || fail "steady: UN loads"
"$dfly" repro steady --dry-run --patterns adv+h --out "$tmp/s1" >"$tmp/s1.txt"
n=$(grep -c ' sim configs/h4.cfg .*traffic.pattern=adv+4 ' "$tmp/s1.txt")
all=$(grep -c ' sim configs/h4.cfg ' "$tmp/s1.txt")
[ "$n" -eq 8 ] || fail "steady --patterns adv+h: $n ADV+4 runs, expected 8"
[ "$all" -eq 8 ] || fail "steady --patterns adv+h: $all runs, expected 8"
grep -q "plot-steady.sh $tmp/s/steady-adv+4.csv $tmp/s/steady-adv+4.png" "$tmp/s.txt" ||
    fail "steady: no ADV+h figure"
[ -x "$tmp/s/commands.sh" ] || fail "steady: commands.sh not written"
"$dfly" repro threshold --dry-run --out "$tmp/h" >"$tmp/h.txt"
n=$(grep -c ' sim configs/h4.cfg ' "$tmp/h.txt")
[ "$n" -eq 28 ] || fail "threshold: $n commands, expected 28"
for th in 2 6 14; do
    grep -q "routing.cc.threshold=$th --set traffic.pattern=un .*--loads 0.7 " "$tmp/h.txt" ||
        fail "threshold: no UN run with th $th"
    grep -q "routing.cc.threshold=$th --set traffic.pattern=adv+1 .*--loads 0.3 " "$tmp/h.txt" ||
        fail "threshold: no ADV+1 run with th $th"
done
grep -q "plot-threshold.sh --rule 6:4 " "$tmp/h.txt" || fail "threshold: rule of h4 not 6:4"

# 3. usage errors: exit 2 and a message naming the problem
usage_err() {
    want="$1"
    shift
    rc=0
    "$dfly" repro "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    [ "$rc" -eq 2 ] || fail "dfly repro $*: exit $rc, expected 2"
    grep -q -- "$want" "$tmp/err" || fail "dfly repro $*: no '$want' in: $(cat "$tmp/err")"
}
usage_err "unknown experiment 'bogus'" bogus
usage_err "expected h2, h4 or cfg-t" steady --scale h8
usage_err "expected a number in 1..10000" steady --seeds 0
usage_err "expected LIST or A:B:STEP" steady --loads-un 0.3:0.1:0.1
usage_err "an option of dfly repro threshold" steady --th 2:8
usage_err "an option of dfly repro steady" threshold --loads-adv 0.1
usage_err "expected a list of un, adv+1, adv+h" steady --patterns un,adv+2
usage_err "expected LO:HI" threshold --th 9:3
usage_err "expected a load in (0, 1]" threshold --load-adv 2
usage_err "exclude each other" threshold --dry-run --report-only
usage_err "unexpected argument 'x'" steady x
usage_err "expected h4 or cfg-t" transient --scale h2
usage_err "expected h4-l, cfg-l or h2" lia --scale h4
usage_err "expected a list of un, adv+1, adv+h, advc" lia --patterns un,adv+2
usage_err "expected LIST or A:B:STEP" lia --loads-advc 0.5,,0.7
usage_err "expected a load in (0, 1]" lia --counters-load 0
usage_err "exclude each other" lia --dry-run --report-only

# 4. a tiny steady sweep on h2 (ADV+h = adv+2): 24 runs of 2-3 loads
plots=0
command -v gnuplot >/dev/null || plots=1 # without gnuplot the figures fail: exit 1
rc=0
"$dfly" repro steady --scale h2 --quick --out "$tmp/sq" >"$tmp/sq.txt" 2>"$tmp/sq.err" || rc=$?
[ "$rc" -eq "$plots" ] || fail "steady --quick: exit $rc: $(cat "$tmp/sq.err")"
for pat in un adv+1 adv+2; do
    [ -r "$tmp/sq/steady-$pat.csv" ] || fail "steady --quick: no steady-$pat.csv"
    loads=3
    [ "$pat" = un ] || loads=2
    rows=$(($(wc -l <"$tmp/sq/steady-$pat.csv") - 1))
    [ "$rows" -eq $((8 * loads)) ] || fail "steady-$pat.csv: $rows rows, expected $((8 * loads))"
    grep -q ',FAILED$' "$tmp/sq/steady-$pat.csv" && fail "steady-$pat.csv: invariants failed"
    [ "$plots" -eq 1 ] || [ -s "$tmp/sq/steady-$pat.png" ] || fail "no steady-$pat.png"
    grep -q "^== $pat: saturation throughput" "$tmp/sq/summary.txt" ||
        fail "summary.txt: no table for $pat"
done
# one seed: the averaged row is the run's row (accepted, lat_avg, misrouted_pct)
want=$(awk -F, 'NR > 1 && $3 == 0.4 { printf "%.6f %.3f %.3f", $4, $5, $8 }' "$tmp/sq/adv+1-olm.csv")
got=$(awk -F, '$1 == "olm" && $2 == 0.4 { printf "%.6f %.3f %.3f", $4, $5, $8 }' \
    "$tmp/sq/steady-adv+1.csv")
[ -n "$want" ] || fail "adv+1-olm.csv: no row at 0.4"
[ "$want" = "$got" ] || fail "steady-adv+1.csv: olm 0.4 is '$got', run '$want'"
grep -q '^# 24/24 runs ok' "$tmp/sq.txt" || fail "steady --quick: not 24/24 runs ok"
sed -n '/^== un/,/^# commands/p' "$tmp/sq/summary.txt" >"$tmp/tables1"
"$dfly" repro steady --scale h2 --quick --out "$tmp/sq" --report-only >/dev/null 2>&1 || true
sed -n '/^== un/,/^# commands/p' "$tmp/sq/summary.txt" >"$tmp/tables2"
cmp -s "$tmp/tables1" "$tmp/tables2" || fail "steady --report-only: different tables"

# 5. a tiny threshold sweep on h2: th 2, 6, 10, 14 and the references
rc=0
"$dfly" repro threshold --scale h2 --quick --out "$tmp/hq" >"$tmp/hq.txt" 2>"$tmp/hq.err" || rc=$?
[ "$rc" -eq "$plots" ] || fail "threshold --quick: exit $rc: $(cat "$tmp/hq.err")"
rows=$(($(wc -l <"$tmp/hq/threshold.csv") - 1))
[ "$rows" -eq 10 ] || fail "threshold.csv: $rows rows, expected 10"
grep -q '^un,0.7000,min,,1,' "$tmp/hq/threshold.csv" || fail "threshold.csv: no MIN reference"
grep -q '^adv+1,0.3000,base,14,1,' "$tmp/hq/threshold.csv" || fail "threshold.csv: no th 14"
grep -q 'th >= 2v = 6 and th <= p = 2: no valid threshold' "$tmp/hq/summary.txt" ||
    fail "threshold summary: not the rule of dfly topo for h2"
"$dfly" topo configs/h2.cfg | grep -F "$(sed -n 's/^  contention/contention/p' "$tmp/hq/summary.txt")" \
    >/dev/null || fail "threshold summary: rule differs from dfly topo's"
grep -q '^  both: th ' "$tmp/hq/summary.txt" || fail "threshold summary: no sweep range"
[ "$plots" -eq 1 ] || [ -s "$tmp/hq/threshold.png" ] || fail "no threshold.png"

# 6. lia: 36 commands on h4-l (8 mechanisms x 4 patterns, LIA w = 0 and 1 under UN and ADV+1)
"$dfly" repro lia --dry-run --out "$tmp/l" >"$tmp/l.txt"
grep -q '^# dfly repro lia: 36 runs (dry run)' "$tmp/l.txt" || fail "lia: not 36 runs"
n=$(grep -c ' sim configs/h4-l.cfg ' "$tmp/l.txt")
[ "$n" -eq 36 ] || fail "lia: $n commands, expected 36"
for pat in un adv+1 adv+4 advc; do
    for m in min vlb val ugal-g pb pb-acor tpr lia; do
        grep -q "traffic.pattern=$pat .*--csv $tmp/l/$pat-$m.csv " "$tmp/l.txt" ||
            fail "lia: no run of $m under $pat"
    done
done
grep -q "routing.mechanism=val --set routing.val.path_a=-g- --set traffic.pattern=adv+1 .*--csv $tmp/l/adv+1-vlb.csv " \
    "$tmp/l.txt" || fail "lia: VLB is not val with path_a -g-"
grep -q "routing.lia.w=0 --set traffic.pattern=un .*--csv $tmp/l/un-lia-w0.csv " "$tmp/l.txt" ||
    fail "lia: no UN run of LIA with w = 0"
grep -q "adv+4-lia-w1" "$tmp/l.txt" && fail "lia: the w variants run under ADV+h"
n=$(grep -c -- "--counters $tmp/l/advc-[a-z-]*.counters " "$tmp/l.txt")
[ "$n" -eq 8 ] || fail "lia: $n runs with --counters, expected the 8 ADVc runs"
grep -q "plot-lia-switch.sh $tmp/l/lia-advc-switch.csv $tmp/l/lia-advc-switch.png" "$tmp/l.txt" ||
    fail "lia: no per-switch figure"

# 7. a tiny lia sweep on h2 (ADV+h = adv+2): 36 runs of 1-2 loads, the ADVc counters at 0.5
rc=0
"$dfly" repro lia --scale h2 --quick --out "$tmp/lq" >"$tmp/lq.txt" 2>"$tmp/lq.err" || rc=$?
[ "$rc" -eq "$plots" ] || fail "lia --quick: exit $rc: $(cat "$tmp/lq.err")"
grep -q '^# 36/36 runs ok' "$tmp/lq.txt" || fail "lia --quick: not 36/36 runs ok"
for f in un:16 adv+1:16 adv+2:16 advc:8 w-un:6 w-adv+1:6; do
    csv="$tmp/lq/lia-${f%%:*}.csv"
    rows=$(($(wc -l <"$csv") - 1))
    [ "$rows" -eq "${f##*:}" ] || fail "$csv: $rows rows, expected ${f##*:}"
    grep -q ',FAILED$' "$csv" && fail "$csv: invariants failed"
    [ "$plots" -eq 1 ] || [ -s "${csv%.csv}.png" ] || fail "no ${csv%.csv}.png"
done
want=$(awk -F, 'NR > 1 && $3 == 0.4 { printf "%.6f %.3f", $4, $5 }' "$tmp/lq/adv+1-vlb.csv")
got=$(awk -F, '$1 == "vlb" && $2 == 0.4 { printf "%.6f %.3f", $4, $5 }' "$tmp/lq/lia-adv+1.csv")
[ -n "$want" ] && [ "$want" = "$got" ] || fail "lia-adv+1.csv: vlb 0.4 is '$got', run '$want'"
# per switch: 4 routers of group 0 x 8 mechanisms; the window's packets are sim.inj_window
rows=$(($(wc -l <"$tmp/lq/lia-advc-switch.csv") - 1))
[ "$rows" -eq 32 ] || fail "lia-advc-switch.csv: $rows rows, expected 32"
want=$(awk '/^# run/ { on = / load 0.5000 / } on && /^router 2 / { r = 1; next }
    on && /^router / { r = 0 } on && r && $1 == "sim.inj_window" { print $2 }' "$tmp/lq/advc-lia.counters")
got=$(awk -F, '$1 == "lia" && $2 == 2 { print $3 }' "$tmp/lq/lia-advc-switch.csv")
[ -n "$want" ] && [ "$want" = "$got" ] || fail "lia-advc-switch.csv: lia router 2 '$got', counters '$want'"
grep -q '^== advc 0.5: load injected per router of group 0' "$tmp/lq/summary.txt" ||
    fail "lia summary: no per-switch table"
[ "$plots" -eq 1 ] || [ -s "$tmp/lq/lia-advc-switch.png" ] || fail "no lia-advc-switch.png"
sed -n '/^== un/,/^# commands/p' "$tmp/lq/summary.txt" >"$tmp/tables1"
"$dfly" repro lia --scale h2 --quick --out "$tmp/lq" --report-only >/dev/null 2>&1 || true
sed -n '/^== un/,/^# commands/p' "$tmp/lq/summary.txt" >"$tmp/tables2"
cmp -s "$tmp/tables1" "$tmp/tables2" || fail "lia --report-only: different tables"

# 8. claims: a claim with an ordering within 2 % on its one-seed runs is judged on its runs on
# 5 seeds (H8 from the stored paper-scale runs: MIN 158.6 against OLM 158.9 on one seed);
# --report-only runs nothing, and gives the committed report's row
mkdir "$tmp/cl"
cp -r docs/claims-paper/points "$tmp/cl/"
"$dfly" repro claims --scale paper --only H8 --report-only --no-plots --out "$tmp/cl" \
    >"$tmp/cl.txt" 2>"$tmp/cl.err" || fail "claims --only H8: $(cat "$tmp/cl.err")"
grep -q '^claims: 1 claim(s) with an ordering within 2 %: 7 runs on more seeds, 0 to run$' \
    "$tmp/cl.err" || fail "claims: H8 not confirmed on 7 runs: $(cat "$tmp/cl.err")"
row=$(grep '^H8,' "$tmp/cl/claims.csv")
case "$row" in *"every run on 5 seeds"*) ;; *) fail "claims: H8's protocol: $row" ;; esac
[ "$row" = "$(grep '^H8,' docs/claims-paper/claims.csv)" ] ||
    fail "claims: H8 differs from docs/claims-paper/claims.csv: $row"
ok=$(grep -l -- '--set routing.mechanism=olm --set traffic.pattern=un --loads 0.4 .* --seeds 5 ' \
    "$tmp"/cl/points/T-olm-un-0.400-*.ok) || fail "claims: no 5-seed run of OLM UN 0.4"
rows=$(($(wc -l <"${ok%.ok}.csv") - 1))
[ "$rows" -eq 5 ] || fail "claims: ${ok%.ok}.csv: $rows rows, expected 5"
echo "dfly repro: dry runs, usage errors, steady, threshold, lia on h2 (seed 1), claims confirmed ok"
