#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Plot the per-switch fairness of `dfly repro lia` under ADVc (H35) with gnuplot: one group of
# bars per mechanism, one bar per router of group 0, the packets it injected in the measurement
# window divided by the group's mean (1 = fair); the routers that drew L1 paths (LG-, LGL) carry
# their count above the bar. The CSV is lia-advc-switch.csv (mechanism,router,window_pkts,load,
# rel,run_pkts,l1_paths). Uses pngcairo when gnuplot has it.
#
#   scripts/plot-lia-switch.sh CSV OUT.png [TITLE]
#   e.g. scripts/plot-lia-switch.sh docs/data/lia-advc-switch.csv out/switch.png "h4-l: ADVc"
set -euo pipefail

usage() {
	echo "usage: $0 CSV OUT.png [TITLE]" >&2
	exit 2
}

case "${1:-}" in
-h | --help)
	sed -n '3,10p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac
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
head -1 "$csv" | grep -q '^mechanism,router,window_pkts,load,rel,run_pkts,l1_paths' || {
	echo "$0: $csv: not a per-switch CSV of dfly repro lia" >&2
	exit 1
}
case "$csv$out$title" in *\'*)
	echo "$0: quotes in CSV, OUT or TITLE are not supported" >&2
	exit 2
	;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# x = mechanism index * (routers + 2) + router; colour = router
awk -F, 'NR == 1 { next }
	!($1 in m) { m[$1] = n++; names[m[$1]] = $1 }
	$2 + 1 > a { a = $2 + 1 }
	{ row[NR] = $0 }
	END {
		for (i = 2; i <= NR; i++) {
			split(row[i], f, ",")
			x = m[f[1]] * (a + 2) + f[2]
			printf "%d %s %d %s\n", x, f[5], f[2], f[7] > "'"$tmp"'/bars.dat"
			if (f[7] > 0)
				printf "%d %s %s\n", x, f[5], f[7] > "'"$tmp"'/l1.dat"
		}
		t = ""
		for (i = 0; i < n; i++)
			t = t sprintf("%s\"%s\" %g", i ? ", " : "", names[i], i * (a + 2) + (a - 1) / 2)
		print t > "'"$tmp"'/xtics"
		print n * (a + 2) - 2 > "'"$tmp"'/xmax"
	}' "$csv"
[ -s "$tmp/bars.dat" ] || {
	echo "$0: $csv: no data" >&2
	exit 1
}
[ -e "$tmp/l1.dat" ] || echo "-10 0 0" >"$tmp/l1.dat"
if gnuplot -e 'set terminal' 2>&1 | grep -qw pngcairo; then
	term="pngcairo size 1000,500 font ',10'"
else
	term="png size 1000,500"
fi

gnuplot <<GP
set terminal $term
set output '$out'
set title '$title' noenhanced
set grid ytics
set key off
set xrange [-1:$(cat "$tmp/xmax")]
set xtics ($(cat "$tmp/xtics")) noenhanced
set ylabel 'packets injected in the window / mean of group 0'
set yrange [0:*]
set style fill solid 0.8 border -1
set boxwidth 0.9
plot '$tmp/bars.dat' using 1:2:3 with boxes lc variable, \
     1 with lines dashtype 2 lc rgb 'gray', \
     '$tmp/l1.dat' using 1:(\$2 + 0.03):(sprintf('L1 %d', \$3)) with labels rotate by 90 left font ',8'
GP
echo "$out"
