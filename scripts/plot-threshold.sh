#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Plot the threshold sweep of `dfly repro threshold` (CBAR Fig. 10, thesis Fig. 4.5) with
# gnuplot: three panels sharing the threshold axis (routing.cc.threshold of Base): average
# latency, accepted load and % globally misrouted, one line per pattern (UN, ADV+1) and the
# references of the CSV (rows with no th: MIN under UN, OLM under ADV+1) as dashed horizontal
# lines. With --rule LO:HI, vertical lines mark the bounds of spec §5.8 (th >= 2v = LO,
# th <= p = HI). The latency axis stops at --lat-max cycles (default 2.5 x the lowest latency of
# the file). The CSV is the one the command writes (threshold.csv).
#
#   scripts/plot-threshold.sh [--rule LO:HI] [--lat-max N] CSV OUT.png [TITLE]
#   e.g. scripts/plot-threshold.sh --rule 6:4 docs/data/threshold.csv out/th.png "h4"
set -euo pipefail

usage() {
	echo "usage: $0 [--rule LO:HI] [--lat-max N] CSV OUT.png [TITLE]" >&2
	exit 2
}

rule=""
lat_max=""
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help)
		sed -n '3,12p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	--rule)
		[ $# -ge 2 ] || usage
		rule="$2"
		shift 2
		;;
	--lat-max)
		[ $# -ge 2 ] || usage
		lat_max="$2"
		shift 2
		;;
	*) break ;;
	esac
done
if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage; fi
csv="$1"
out="$2"
title="${3:-}"
case "$out" in *.png) ;; *) usage ;; esac
case "$rule" in "" | [0-9]*:[0-9]*) ;; *) usage ;; esac
command -v gnuplot >/dev/null || {
	echo "$0: gnuplot not found (apt-get install gnuplot-nox)" >&2
	exit 1
}
[ -r "$csv" ] || {
	echo "$0: $csv: cannot read" >&2
	exit 1
}
head -1 "$csv" | grep -q '^pattern,offered,mechanism,th,seeds,accepted,lat_avg' || {
	echo "$0: $csv: not a threshold CSV of dfly repro threshold" >&2
	exit 1
}
case "$csv$out$title" in *\'*)
	echo "$0: quotes in CSV, OUT or TITLE are not supported" >&2
	exit 2
	;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the sweep: one data file per pattern (th accepted lat misrouted); the references: one line
# each (label accepted lat misrouted)
pats=$(awk -F, 'NR > 1 && $4 != "" && !seen[$1]++ { print $1 }' "$csv")
[ -n "$pats" ] || {
	echo "$0: $csv: no thresholds" >&2
	exit 1
}
for p in $pats; do
	awk -F, -v p="$p" 'NR > 1 && $1 == p && $4 != "" { print $4, $6, $7, $9 }' "$csv" \
		>"$tmp/$p.dat"
done
awk -F, 'NR > 1 && $4 == "" { print $3 "_" $1, $6, $7, $9 }' "$csv" >"$tmp/refs"
if [ -z "$lat_max" ]; then
	lat_max=$(awk -F, 'NR > 1 && (m == "" || $7 < m) { m = $7 } END { printf "%d", 2.5 * m }' "$csv")
fi
xmin=$(awk -F, 'NR > 1 && $4 != "" && (x == "" || $4 < x) { x = $4 } END { print x }' "$csv")
xmax=$(awk -F, 'NR > 1 && $4 != "" && $4 > x { x = $4 } END { print x }' "$csv")

if gnuplot -e 'set terminal' 2>&1 | grep -qw pngcairo; then
	term="pngcairo size 1000,1000 font ',10'"
else
	term="png size 1000,1000"
fi
# plot clauses for column C (2 accepted, 3 latency, 4 misrouted) of the sweep and references
clauses() {
	local c="$1" s="" p label off
	for p in $pats; do
		off=$(awk -F, -v p="$p" 'NR > 1 && $1 == p { print $2 + 0; exit }' "$csv")
		label="base, $p $off"
		s+="${s:+, }'$tmp/$p.dat' using 1:$c with linespoints title '$label'"
	done
	while read -r label acc lat mis; do
		case "$c" in 2) v=$acc ;; 3) v=$lat ;; *) v=$mis ;; esac
		s+=", $v with lines dashtype 2 title '${label/_/, }'"
	done <"$tmp/refs"
	echo "$s"
}
arrows=""
xlabel="routing.cc.threshold (th)"
if [ -n "$rule" ]; then
	lo=${rule%%:*}
	hi=${rule##*:}
	arrows="set arrow 1 from $lo, graph 0 to $lo, graph 1 nohead dashtype 3 lw 2 lc rgb 'dark-green'
set arrow 2 from $hi, graph 0 to $hi, graph 1 nohead dashtype 3 lw 2 lc rgb 'dark-red'"
	xlabel+="; spec 5.8: th >= 2v = $lo (green dotted), th <= p = $hi (red dotted)"
fi

gnuplot <<GP
set terminal $term
set output '$out'
set key noenhanced outside top center horizontal
set grid
set xrange [$xmin - 0.5:$xmax + 0.5]
set xtics 1
set lmargin at screen 0.09
set rmargin at screen 0.97
$arrows
set multiplot layout 3,1
set title '$title' noenhanced
set ylabel 'average latency (cycles)'
set yrange [0:$lat_max]
set format x ''
plot $(clauses 3)
set yrange [*:*]
unset title
set ylabel 'accepted load (phits/(node*cycle))'
unset key
plot $(clauses 2)
set xlabel '$xlabel'
set format x '%g'
set ylabel '% globally misrouted'
set yrange [-2:102]
plot $(clauses 4)
unset multiplot
GP
echo "$out"
