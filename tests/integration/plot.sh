#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `dfly plot`, end to end, on short runs of configs/h2.cfg:
#  1. load: dfly sim with two mechanisms, two loads and two seeds; the PNG (magic bytes, size),
#     and the --script data blocks hold, per mechanism, the seeds' averages computed here with
#     awk from the CSV; --metric picks the latency column; several patterns give a row each;
#  2. transient: two dfly transient CSVs, one line each; --labels and --ma;
#  3. routers and bins: dfly sim --capture, dfly trace --csv; the per-router sums of the nodes;
#     bins: the title (bin width, gap rule), the legend's series names (not the file's), and
#     gaps: a bin of fewer than --min-packets (default 10) and a bin the CSV leaves out are NaN
#     in the data block (a break in gnuplot's line; a "missing" value would be joined over);
#  4. errors: a missing file and a missing column exit 1 naming them, no gnuplot exits 1, bad
#     usage exits 2; --help for the command and every kind.
# Skipped (77) without gnuplot. Every file it creates is removed, also on failure.
set -u
dfly="${1:?usage: plot.sh DFLY SOURCE_DIR}"
src="${2:?usage: plot.sh DFLY SOURCE_DIR}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*"; exit 1; }
command -v gnuplot >/dev/null || { echo "SKIP: gnuplot not found"; exit 77; }
cfg="$src/configs/h2.cfg"
short="--set sim.warmup=500 --set sim.measure=1000"

# png FILE W H: FILE is a PNG image of W x H pixels (the IHDR chunk, bytes 16..23)
png() {
    [ -s "$1" ] || fail "$1: no image"
    [ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$1: not a PNG"
    set -- "$1" "$2" "$3" "$(od -An -tu1 -j16 -N8 "$1")"
    # shellcheck disable=SC2086
    wh=$(echo $4 | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 "x" \
        $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }')
    [ "$wh" = "$2x$3" ] || fail "$1: $wh pixels, expected $2x$3"
}

# block SCRIPT NAME: the data lines of the gnuplot data block $NAME
block() {
    awk -v b="\$$2 << EOD" '$0 == b { on = 1; next } on && $0 == "EOD" { exit }
        on && !/^#/ { print }' "$1"
}

# 1. load
# shellcheck disable=SC2086
"$dfly" sim "$cfg" --mechanisms min,ugal --set traffic.pattern=adv+1 --loads 0.1,0.3 --seeds 2 \
    $short --csv "$tmp/sim.csv" --quiet >/dev/null 2>"$tmp/err" ||
    { cat "$tmp/err"; fail "dfly sim"; }
"$dfly" plot load "$tmp/sim.csv" --out "$tmp/load.png" --title "h2 ADV+1" >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; fail "dfly plot load"; }
grep -qx "$tmp/load.png" "$tmp/out" || fail "dfly plot prints the image's path"
png "$tmp/load.png" 1000 420
"$dfly" plot load "$tmp/sim.csv" --out "$tmp/load.png" --script "$tmp/load.gp" >/dev/null ||
    fail "--script"
grep -q '^set output ' "$tmp/load.gp" || fail "no set output in the script"
# the averages of the seeds per (mechanism, offered), in the script's format, by column name
avg() {
    awk -F, -v lat="$1" -v m="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["mechanism"] == m {
            o = $c["offered"]; if (!(o in n)) order[k++] = o
            n[o]++; acc[o] += $c["accepted"]; l[o] += $c[lat]
        }
        END { for (i = 0; i < k; i++) { o = order[i]
            printf "%.4f %.6f %.6f %d\n", o, acc[o] / n[o], l[o] / n[o], n[o] } }' "$tmp/sim.csv"
}
i=0
for m in min ugal; do
    avg lat_avg $m >"$tmp/want"
    [ "$(wc -l <"$tmp/want")" -eq 2 ] || fail "expected 2 loads of $m in the CSV"
    block "$tmp/load.gp" "load_0_$i" >"$tmp/got"
    cmp -s "$tmp/want" "$tmp/got" || { diff "$tmp/want" "$tmp/got"; fail "data block of $m"; }
    grep -q "^# $m adv+1: offered accepted lat_avg runs" "$tmp/load.gp" || fail "comment of $m"
    i=$((i + 1))
done
[ "$(grep -c "using 1:3 with linespoints" "$tmp/load.gp")" -eq 2 ] || fail "2 latency lines"
[ "$(grep -c "using 1:2 with linespoints" "$tmp/load.gp")" -eq 2 ] || fail "2 accepted lines"
grep -q "title 'ugal'" "$tmp/load.gp" || fail "no ugal line"
"$dfly" plot load "$tmp/sim.csv" --out "$tmp/p99.png" --metric lat_p99 --script - >"$tmp/p99.gp" ||
    fail "--metric lat_p99"
avg lat_p99 ugal >"$tmp/want"
block "$tmp/p99.gp" load_0_1 >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || { diff "$tmp/want" "$tmp/got"; fail "--metric lat_p99 block"; }
grep -q "99th percentile latency" "$tmp/p99.gp" || fail "lat_p99 axis label"
# two patterns: a row of panels each, the image twice as high; --size
# shellcheck disable=SC2086
"$dfly" sim "$cfg" --mechanisms min --patterns un,adv+1 --loads 0.1 $short \
    --csv "$tmp/pat.csv" --quiet >/dev/null 2>&1 || fail "dfly sim with two patterns"
"$dfly" plot load "$tmp/pat.csv" --out "$tmp/pat.png" >/dev/null || fail "two patterns"
png "$tmp/pat.png" 1000 840
"$dfly" plot load "$tmp/pat.csv" --out "$tmp/pat.png" --size 640x480 >/dev/null || fail "--size"
png "$tmp/pat.png" 640 480
echo "ok: load: $(wc -l <"$tmp/sim.csv") rows averaged per mechanism and load"

# 2. transient
for m in min ugal; do
    # shellcheck disable=SC2086
    "$dfly" transient "$cfg" --set routing.mechanism=$m --from un --to adv+1 --load 0.2 \
        --pre 100 --post 400 --bin 5 --seeds 1 --set sim.warmup=500 \
        --csv "$tmp/tr-$m.csv" --quiet >/dev/null 2>"$tmp/err" ||
        { cat "$tmp/err"; fail "dfly transient $m"; }
done
"$dfly" plot transient "$tmp/tr-min.csv" "$tmp/tr-ugal.csv" --out "$tmp/tr.png" >/dev/null ||
    fail "dfly plot transient"
png "$tmp/tr.png" 1000 800
"$dfly" plot transient "$tmp/tr-min.csv" "$tmp/tr-ugal.csv" --out "$tmp/tr.png" \
    --script "$tmp/tr.gp" >/dev/null || fail "transient --script"
for l in tr-min tr-ugal; do
    grep -q "title '$l'" "$tmp/tr.gp" || fail "transient label $l (the file name's stem)"
done
# columns cycle, lat_avg, misrouted_pct (1, 3, 5), or misrouted_ma10 (7) with --ma
sed 1d "$tmp/tr-ugal.csv" | cut -d, -f1,3,5 | tr , ' ' >"$tmp/want"
block "$tmp/tr.gp" tr_1 >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "transient data block"
"$dfly" plot transient "$tmp/tr-min.csv" "$tmp/tr-ugal.csv" --out "$tmp/tr.png" --ma \
    --labels "MIN,UGAL's" --script "$tmp/ma.gp" >/dev/null || fail "--ma --labels"
sed 1d "$tmp/tr-ugal.csv" | cut -d, -f1,3,7 | tr , ' ' >"$tmp/want"
block "$tmp/ma.gp" tr_1 >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || fail "--ma data block"
grep -q "title 'UGAL''s'" "$tmp/ma.gp" || fail "--labels (a quote doubled for gnuplot)"
gnuplot "$tmp/ma.gp" 2>"$tmp/err" || { cat "$tmp/err"; fail "gnuplot of a --script file"; }
png "$tmp/tr.png" 1000 800
echo "ok: transient: two files, --labels, --ma"

# 3. routers and bins from a trace
run="--set routing.mechanism=ugal --set traffic.pattern=adv+1"
# shellcheck disable=SC2086
"$dfly" sim "$cfg" $run $short --loads 0.3 --capture "$tmp/c.pcap" --quiet >/dev/null 2>&1 ||
    fail "dfly sim --capture"
# shellcheck disable=SC2086
"$dfly" trace "$tmp/c.pcap" --config "$cfg" $run $short --window 500:1500 --csv "$tmp/t" \
    >/dev/null 2>&1 || fail "dfly trace --csv"
"$dfly" plot routers "$tmp/t-nodes.csv" --out "$tmp/r.png" >/dev/null || fail "plot routers"
png "$tmp/r.png" 1000 500
"$dfly" plot routers "$tmp/t-nodes.csv" --out "$tmp/r.png" --script "$tmp/r.gp" >/dev/null ||
    fail "routers --script"
awk -F, 'NR > 1 { i[$2] += $3; a[$2] += $4; if ($2 + 1 > n) n = $2 + 1 }
    END { for (r = 0; r < n; r++) printf "%d %.6f %.6f\n", r, i[r], a[r] }' \
    "$tmp/t-nodes.csv" >"$tmp/want"
block "$tmp/r.gp" routers >"$tmp/got"
[ "$(wc -l <"$tmp/got")" -eq 36 ] || fail "36 routers"
cmp -s "$tmp/want" "$tmp/got" || { diff "$tmp/want" "$tmp/got"; fail "per-router sums"; }
"$dfly" plot bins "$tmp/t-bins.csv" --out "$tmp/b.png" >/dev/null || fail "plot bins"
png "$tmp/b.png" 1000 500
"$dfly" plot bins "$tmp/t-bins.csv" --out "$tmp/b.png" --script "$tmp/b.gp" >/dev/null ||
    fail "bins --script"
title="set title '% of packets misrouted (nonminimal) per bin of 100 generation cycles'"
title="$title . \"\\n\" . 'gaps: bins of fewer than 10 packets' noenhanced"
grep -qxF "$title" "$tmp/b.gp" || { grep '^set title' "$tmp/b.gp"; fail "bins: title"; }
grep -q "using 1:2 with linespoints .* title '% misrouted (nonminimal)'" "$tmp/b.gp" ||
    fail "bins: legend of the % misrouted line"
grep -q "using 1:3 axes x1y2 with steps .* title 'packets per bin (right axis)'" "$tmp/b.gp" ||
    fail "bins: legend of the packets per bin"
grep -q "title 't-bins'" "$tmp/b.gp" && fail "bins: the legend names the file"
# gaps, in a CSV written here: bin 100 has 3 packets, bin 300 is left out (no packet); the
# last row ends the last bin (where the steps of packets end)
printf 'gen_cycle,packets,misrouted_pct\n0,50,20.000\n100,3,0.000\n200,40,50.000\n400,30,10.000\n' \
    >"$tmp/g-bins.csv"
"$dfly" plot bins "$tmp/g-bins.csv" --out "$tmp/g.png" --script "$tmp/g.gp" >/dev/null ||
    fail "bins of g-bins.csv"
printf '0 20.000 50\n100 NaN 3\n200 50.000 40\n300 NaN 0\n400 10.000 30\n500 NaN 30\n' >"$tmp/want"
block "$tmp/g.gp" bins_0 >"$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || { diff "$tmp/want" "$tmp/got"; fail "bins: the gaps"; }
grep -q 'datafile missing' "$tmp/g.gp" && fail "bins: NaN declared missing (gnuplot joins over it)"
gnuplot "$tmp/g.gp" 2>"$tmp/err" || { cat "$tmp/err"; fail "gnuplot of the bins with gaps"; }
png "$tmp/g.png" 1000 500
"$dfly" plot bins "$tmp/g-bins.csv" --out "$tmp/g.png" --min-packets 3 --script - |
    block /dev/stdin bins_0 | sed -n 2p >"$tmp/got"
[ "$(cat "$tmp/got")" = "100 0.000 3" ] || fail "bins --min-packets 3: bin 100 is $(cat "$tmp/got")"
# two files: each series named by its run (PREFIX of PREFIX-bins.csv), or by --labels
"$dfly" plot bins "$tmp/g-bins.csv" "$tmp/t-bins.csv" --out "$tmp/g.png" --script - \
    >"$tmp/g2.gp" || fail "bins of two files"
for l in g t; do
    grep -q "title '$l' . ': % misrouted'" "$tmp/g2.gp" || fail "bins: legend of run $l"
done
"$dfly" plot bins "$tmp/g-bins.csv" --labels UGAL --out "$tmp/g.png" --script - |
    grep -q "title 'UGAL' . ': packets'" || fail "bins: legend with --labels"
echo "ok: routers and bins"

# 4. errors
"$dfly" plot load "$tmp/none.csv" --out "$tmp/x.png" >/dev/null 2>"$tmp/e"
[ $? -eq 1 ] || fail "a missing file must exit 1"
grep -q "$tmp/none.csv" "$tmp/e" || { cat "$tmp/e"; fail "the missing file is not named"; }
"$dfly" plot load "$tmp/t-nodes.csv" --out "$tmp/x.png" >/dev/null 2>"$tmp/e"
[ $? -eq 1 ] || fail "a missing column must exit 1"
grep -q "t-nodes.csv: no column 'mechanism'" "$tmp/e" || { cat "$tmp/e"; fail "column message"; }
"$dfly" plot transient "$tmp/sim.csv" --out "$tmp/x.png" >/dev/null 2>"$tmp/e"
[ $? -eq 1 ] || fail "transient of a sim CSV must exit 1"
grep -q "sim.csv: no column 'cycle'" "$tmp/e" || { cat "$tmp/e"; fail "transient of a sim CSV"; }
printf 'mechanism,pattern,offered,accepted,lat_avg\nmin,un,0.1,0.1,x\n' >"$tmp/bad.csv"
"$dfly" plot load "$tmp/bad.csv" --out "$tmp/x.png" >/dev/null 2>"$tmp/e"
[ $? -eq 1 ] || fail "a malformed number must exit 1"
grep -q "bad.csv:2: lat_avg 'x' is not a number" "$tmp/e" || { cat "$tmp/e"; fail "bad number"; }
[ ! -e "$tmp/x.png" ] || fail "an image was left by a failed plot"
PATH=/nonexistent "$dfly" plot load "$tmp/sim.csv" --out "$tmp/x.png" >/dev/null 2>"$tmp/e"
[ $? -eq 1 ] || fail "no gnuplot must exit 1"
grep -q "gnuplot not found" "$tmp/e" || { cat "$tmp/e"; fail "no-gnuplot message"; }
[ ! -e "$tmp/x.png" ] || fail "an empty image was left without gnuplot"
"$dfly" plot load "$tmp/sim.csv" --out "$tmp/no/dir/x.png" >"$tmp/o" 2>"$tmp/e"
[ $? -eq 1 ] || fail "an unwritable image must exit 1"
grep -q "$tmp/no/dir/x.png" "$tmp/e" || { cat "$tmp/e"; fail "the unwritable image is not named"; }
[ ! -s "$tmp/o" ] || fail "output on stdout for an unwritable image"
for bad in "load $tmp/sim.csv" "load --out $tmp/x.png" "nosuch $tmp/sim.csv --out $tmp/x.png" \
    "routers $tmp/t-nodes.csv --out $tmp/x.png --ma" "load $tmp/sim.csv --out $tmp/x.png --size 9" \
    "transient $tmp/tr-min.csv --out $tmp/x.png --labels a,b" \
    "load $tmp/sim.csv --out $tmp/x.png --ymax -1" "load $tmp/sim.csv --out $tmp/x.png --bogus" \
    "bins $tmp/t-bins.csv --out $tmp/x.png --min-packets -1" \
    "load $tmp/sim.csv --out $tmp/x.png --min-packets 5"; do
    # shellcheck disable=SC2086
    "$dfly" plot $bad >/dev/null 2>&1
    [ $? -eq 2 ] || fail "dfly plot $bad must exit 2"
done
"$dfly" plot >/dev/null 2>&1
[ $? -eq 2 ] || fail "dfly plot without a kind must exit 2"
"$dfly" plot --help | grep -q '^usage: dfly plot KIND' || fail "dfly plot --help"
for k in load transient routers bins; do
    "$dfly" plot $k --help | grep -q "^usage: dfly plot $k " || fail "dfly plot $k --help"
done
"$dfly" --help | grep -q '^  plot ' || fail "dfly --help does not list plot"
echo "ok: errors"
