#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Plot a steady-state sweep of `dfly repro steady` (CBAR Fig. 5, thesis Fig. 4.6) with gnuplot:
# two panels sharing the offered-load axis, average latency on top and accepted load below (with
# the line accepted = offered, dashed), one line per mechanism in the order of the CSV. The CSV
# is the averaged one the command writes (steady-PATTERN.csv: mechanism,offered,seeds,accepted,
# lat_avg,...). Latency past saturation grows without bound: the latency axis stops at --lat-max
# cycles (default: 2.5 x the lowest latency of the file). Uses pngcairo when gnuplot has it.
#
#   scripts/plot-steady.sh [--lat-max N] CSV OUT.png [TITLE]
#   e.g. scripts/plot-steady.sh docs/data/steady-adv+1.csv out/adv1.png "h4: ADV+1"
set -euo pipefail

usage() {
	echo "usage: $0 [--lat-max N] CSV OUT.png [TITLE]" >&2
	exit 2
}

lat_max=""
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help)
		sed -n '3,11p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
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
command -v gnuplot >/dev/null || {
	echo "$0: gnuplot not found (apt-get install gnuplot-nox)" >&2
	exit 1
}
[ -r "$csv" ] || {
	echo "$0: $csv: cannot read" >&2
	exit 1
}
head -1 "$csv" | grep -q '^mechanism,offered,seeds,accepted,lat_avg' || {
	echo "$0: $csv: not a steady-state CSV of dfly repro steady" >&2
	exit 1
}
case "$csv$out$title" in *\'*)
	echo "$0: quotes in CSV, OUT or TITLE are not supported" >&2
	exit 2
	;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# one data file per mechanism, in the order of first appearance
mechs=$(awk -F, 'NR > 1 && !seen[$1]++ { print $1 }' "$csv")
[ -n "$mechs" ] || {
	echo "$0: $csv: no data" >&2
	exit 1
}
for m in $mechs; do
	awk -F, -v m="$m" 'NR > 1 && $1 == m { print $2, $4, $5 }' "$csv" >"$tmp/$m.dat"
done
if [ -z "$lat_max" ]; then
	lat_max=$(awk -F, 'NR > 1 && (min == "" || $5 < min) { min = $5 } END { printf "%d", 2.5 * min }' "$csv")
fi
xmax=$(awk -F, 'NR > 1 && $2 > x { x = $2 } END { print x }' "$csv")

if gnuplot -e 'set terminal' 2>&1 | grep -qw pngcairo; then
	term="pngcairo size 1000,800 font ',10'"
else
	term="png size 1000,800"
fi
lat_plot=""
acc_plot=""
for m in $mechs; do
	lat_plot+="${lat_plot:+, }'$tmp/$m.dat' using 1:3 with linespoints title '$m'"
	acc_plot+="${acc_plot:+, }'$tmp/$m.dat' using 1:2 with linespoints title '$m'"
done

gnuplot <<GP
set terminal $term
set output '$out'
set key noenhanced top left
set grid
set xrange [0:$xmax * 1.02]
set lmargin at screen 0.09
set rmargin at screen 0.97
set multiplot layout 2,1 title '$title' noenhanced
set ylabel 'average latency (cycles)'
set yrange [0:$lat_max]
set format x ''
plot $lat_plot
set xlabel 'offered load (phits/(node*cycle))'
set format x '%g'
set ylabel 'accepted load (phits/(node*cycle))'
set yrange [0:*]
plot $acc_plot, x with lines dashtype 2 lc rgb 'gray' title 'accepted = offered'
unset multiplot
GP
echo "$out"
