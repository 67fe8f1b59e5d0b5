#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Plot the CSVs of `dfly transient` (docs/spec.md §8.6) with gnuplot: two panels sharing the
# cycle axis (cycles relative to the pattern switch at t0, marked by a dashed line), average
# latency on top and % of packets globally misrouted below, one line per CSV, labelled with the
# file's name. Uses the pngcairo terminal when gnuplot has it, else png. With --ma the lower
# panel shows the moving average of % misrouted (the CSV's last column) instead of the raw bins.
#
#   scripts/plot-transient.sh [--ma] CSV... OUT.png [TITLE]
#   e.g. scripts/plot-transient.sh out/transient-pb-un-adv+1.csv out/transient-olm-un-adv+1.csv \
#            out/h13.png "UN -> ADV+1, load 0.2"
set -euo pipefail

usage() {
	echo "usage: $0 [--ma] CSV... OUT.png [TITLE]" >&2
	exit 2
}

csvs=()
out=""
title=""
mis_col=5
mis_label='% globally misrouted'
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help)
		sed -n '3,11p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	--ma)
		mis_col=7
		mis_label='% globally misrouted (moving average)'
		shift
		;;
	*.png)
		out="$1"
		shift
		[ $# -le 1 ] || usage
		title="${1:-}"
		break
		;;
	*)
		csvs+=("$1")
		shift
		;;
	esac
done
if [ -z "$out" ] || [ ${#csvs[@]} -eq 0 ]; then usage; fi
command -v gnuplot >/dev/null || {
	echo "$0: gnuplot not found (apt-get install gnuplot-nox)" >&2
	exit 1
}
for f in "${csvs[@]}"; do
	[ -r "$f" ] || {
		echo "$0: $f: cannot read" >&2
		exit 1
	}
	case "$f" in *\'* | *\"*)
		echo "$0: $f: quotes in file names are not supported" >&2
		exit 2
		;;
	esac
done
case "$out$title" in *\'*)
	echo "$0: quotes in OUT or TITLE are not supported" >&2
	exit 2
	;;
esac

if gnuplot -e 'set terminal' 2>&1 | grep -qw pngcairo; then
	term="pngcairo size 1000,800 font ',10'"
else
	term="png size 1000,800"
fi

# one plot clause per CSV: columns 1 cycle, 3 lat_avg, 5 misrouted_pct, 7 its moving average
lat_plot=""
mis_plot=""
for f in "${csvs[@]}"; do
	label=$(basename "$f" .csv)
	lat_plot+="${lat_plot:+, }'$f' skip 1 using 1:3 with lines title '$label'"
	mis_plot+="${mis_plot:+, }'$f' skip 1 using 1:$mis_col with lines title '$label'"
done

gnuplot <<EOF
set terminal $term
set output '$out'
set datafile separator ','
set key noenhanced top right
set grid
set autoscale xfix
set lmargin at screen 0.09
set rmargin at screen 0.97
set multiplot layout 2,1 title '$title' noenhanced
set arrow 1 from 0, graph 0 to 0, graph 1 nohead dashtype 2
set ylabel 'average latency (cycles)'
set format x ''
plot $lat_plot
set xlabel 'cycle relative to the pattern switch'
set format x '%g'
set ylabel '$mis_label'
set yrange [-2:102]
set key bottom right
plot $mis_plot
unset multiplot
EOF
echo "$out"
