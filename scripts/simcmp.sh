#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# dfly sim against FOGSim and BookSim2 on the same Dragonfly, router and load (issue #8:
# "at least 10x the delivered packets per second of a cycle-accurate phit-level simulator").
#
# Neither simulator is packaged in Debian: build them yourself and name the binaries:
#   FOGSIM=/path/to/fogsim BOOKSIM=/path/to/booksim scripts/simcmp.sh [NETS] [LOADS]
#   THREADS=N: dfly steps its routers on N threads (sim.threads; default 1, as the others)
#   REPS=N: N back-to-back dfly/FOGSim pairs per point (default 3), each pair's ratio and
#     their median printed
#   CLOCK=cpu|wall: per second of CPU time (user + system, default) or of wall time. This
#     machine is a shared VM whose guests steal up to 80 % of a core in some hours; CPU time
#     leaves the stolen time out of both simulators' figures.
# NETS: any of h2 h4 h6 (default "h2 h4 h6"); LOADS: default "0.3 0.8". Either binary may be
# left out. The figures in docs/PERFORMANCE.md were made with FOGSim at github.com/fuentesp/
# fogsim dcdd75f and BookSim2 at github.com/booksim/booksim2 (src/ at 923f1a9/348aedf), both
# unmodified, built with their own Makefiles (g++ 12, -O2 and -O3).
#
# Every simulator runs MIN under uniform traffic on the balanced Dragonfly p = h, a = 2h
# (h2: 36 routers, h4: 264, h6: 876), with dfly's CFG-T router as far as each can express it
# (docs/PERFORMANCE.md lists what each cannot): 8-phit packets, links of 10 (local) and 100
# (global) cycles, speedup 2, a 5-cycle router, 32/256-phit local/global input VCs (BookSim: one
# size for every port, 256), 32-phit output queues, 2/1 VCs.
#
# What is compared: delivered packets per second (of CPU or wall time, CLOCK), set-up excluded.
#  - dfly: `dfly bench sim` (the measured cycles only; --cpu-time with CLOCK=cpu).
#  - FOGSim: two runs of 1,000 + 2,000 and 1,000 + 5,000 cycles; the difference of their
#    delivered packets over the difference of their times.
#  - BookSim2: its own "Total run time" (wall time; the simulation, not the network build) over
#    its simulated cycles, warm-up and drain included; packets = accepted rate x nodes x cycles.
# Each row also prints accepted load and average latency, which should agree.
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/fogsim-router.sh
. scripts/fogsim-router.sh
NETS="${1:-h2 h4 h6}"
LOADS="${2:-0.3 0.8}"
dfly=build/tools/dfly
[ -x "$dfly" ] || { echo "simcmp: build dfly first (scripts/build.sh)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "simcmp: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

hof() { echo "${1#h}"; } # h4 -> 4
wall() { # wall TIME_V_LOG: elapsed seconds
	awk '/Elapsed \(wall clock\)/ { n = split($NF, t, ":"); w = 0;
		for (i = 1; i <= n; i++) w = w * 60 + t[i]; print w }' "$1"
}
rss() { awk '/Maximum resident set size/ { printf "%.1f", $NF / 1024 }' "$1"; }
cpu() { awk '/User time \(seconds\)|System time \(seconds\)/ { c += $NF } END { print c }' "$1"; }
CLOCK="${CLOCK:-cpu}"
REPS="${REPS:-3}"
case "$CLOCK" in cpu | wall) ;; *) echo "simcmp: CLOCK=cpu or wall" >&2; exit 2 ;; esac

fogsim_conf() { # fogsim_conf H LOAD MEASURED FILE
	local h=$1
	cat >"$4" <<EOF
$(fogsim_net "$h" 1000 "$3" "$4.out")
Traffic=UN
Probability=$(python3 -c "print(round($2 * 100))")
$(fogsim_router LRS PrioLRS 2 1)
routing=MIN
deadlock_avoidance=DALLY
PrintCycles=1000
EOF
}

fogsim_run() { # fogsim_run H LOAD MEASURED: "wall packets accepted latency rss"
	local f="$tmp/fog-$1-$2-$3"
	fogsim_conf "$1" "$2" "$3" "$f.conf"
	(cd "$tmp" && /usr/bin/time -v "$FOGSIM" "$f.conf" >"$f.log" 2>"$f.time") ||
		{ echo "simcmp: FOGSim failed, see $f.log" >&2; return 1; }
	local w
	if [ "$CLOCK" = cpu ]; then w=$(cpu "$f.time"); else w=$(wall "$f.time"); fi
	awk -v w="$w" -v r="$(rss "$f.time")" '
		/^Flits Received:/ { gsub(/[()]/, ""); p = $3 + $5 }
		/^Accepted Load:/ { a = $3 }
		/^Average Total Packet Latency:/ { l = $5 }
		END { print w, p, a, l, r }' "$f.conf.out"
}

booksim_run() { # booksim_run H LOAD: "cycles/s packets/s accepted latency rss"
	local h=$1 f="$tmp/bs-$1-$2"
	cat >"$f.cfg" <<EOF
topology = dragonflynew;
k = $h;
n = 1;
routing_function = min;
router = iq;
num_vcs = 3;
vc_buf_size = 256;
output_buffer_size = 32;
internal_speedup = 2.0;
routing_delay = 2;
vc_alloc_delay = 1;
sw_alloc_delay = 1;
st_prepare_delay = 0;
st_final_delay = 3;
credit_delay = 0;
speculative = 0;
vc_allocator = separable_input_first;
sw_allocator = separable_input_first;
arb_type = round_robin;
alloc_iters = 1;
traffic = uniform;
packet_size = 8;
injection_rate_uses_flits = 1;
injection_rate = $2;
injection_process = bernoulli;
sim_type = latency;
sample_period = 1000;
warmup_periods = 1;
max_samples = 6;
latency_thres = -1.0;
seed = 1;
EOF
	/usr/bin/time -v "$BOOKSIM" "$f.cfg" >"$f.log" 2>"$f.time" # exits 255 on success
	local nodes=$((h * 2 * h * (2 * h * h + 1)))
	awk -v nodes="$nodes" -v r="$(rss "$f.time")" '
		/^Time taken is / { c = $4 }
		/^Total run time / { s = $4 }
		/Overall Traffic Statistics/ { o = 1 }
		o && /^Packet latency average = / && l == "" { l = $5 }
		o && /^Accepted packet rate average = / && ap == "" { ap = $6 }
		o && /^Accepted flit rate average = / && af == "" { af = $6 }
		END { if (s == "" || c == "") exit 1; printf "%.0f %.0f %s %s %s\n", c / s, ap * nodes * c / s, af, l, r }' "$f.log" ||
		{ echo "simcmp: BookSim2 failed, see $f.log" >&2; return 1; }
}

echo "# delivered packets per second of ${CLOCK} time; ${REPS} back-to-back pair(s) per point; dfly on ${THREADS:-1} thread(s)"
printf '%-4s %5s %-8s %12s %10s %9s %9s %8s\n' net load simulator "pkts/s" "cycles/s" accepted latency "MiB"
for net in $NETS; do
	h=$(hof "$net")
	for load in $LOADS; do
		# the latency from dfly sim itself (1,000 + 2,000 cycles, as FOGSim's shorter run)
		dl=$("$dfly" sim configs/h4.cfg --set "topology.p=$h" --set "topology.a=$((2 * h))" \
			--set "topology.h=$h" --set traffic.load="$load" --set sim.warmup=1000 \
			--set sim.measure=2000 --quiet 2>/dev/null | awk '$1 == "min" { print $5; exit }')
		fr="" br=""
		for rep in $(seq "$REPS"); do
			# dfly: the CFG-T router of configs/h4.cfg at this size
			read -r dc dp da dm < <("$dfly" bench sim --configs h4 --patterns un \
				--loads "$load" --warmup 1000 --cycles 5000 --threads "${THREADS:-1}" \
				$([ "$CLOCK" = cpu ] && echo --cpu-time) \
				--set "topology.p=$h" --set "topology.a=$((2 * h))" \
				--set "topology.h=$h" 2>/dev/null | awk '$1 == "h4" { print $8, $9, $6, $10 }')
			printf '%-4s %5s %-8s %12s %10s %9s %9s %8s\n' "$net" "$load" dfly "$dp" "$dc" "$da" "$dl" "$dm"
			if [ -n "${FOGSIM:-}" ]; then
				read -r w1 p1 _ _ _ < <(fogsim_run "$h" "$load" 2000)
				read -r w2 p2 fa fl fm < <(fogsim_run "$h" "$load" 5000)
				r=$(python3 - "$net" "$load" "$w1" "$p1" "$w2" "$p2" "$fa" "$fl" "$fm" "$dp" <<'PY'
import sys
net, load, w1, p1, w2, p2, acc, lat, mib, dp = sys.argv[1:]
pps = (float(p2) - float(p1)) / (float(w2) - float(w1))
cps = 3000 / (float(w2) - float(w1))
print(f"{net:<4} {load:>5} {'FOGSim':<8} {pps:12.0f} {cps:10.0f} {float(acc):9.3f} {float(lat):9.1f} {mib:>8}"
      f"   dfly/FOGSim {float(dp) / pps:.1f}x")
PY
)
				echo "$r"
				fr="$fr ${r##* }"
			fi
			if [ -n "${BOOKSIM:-}" ]; then
				read -r bc bp ba bl bm < <(booksim_run "$h" "$load")
				r=$(python3 -c "import sys; print('%-4s %5s %-8s %12s %10s %9.3f %9.1f %8s   dfly/BookSim2 %.1fx' % ('$net', '$load', 'BookSim2', '$bp', '$bc', float('$ba'), float('$bl'), '$bm', float('$dp') / float('$bp')))")
				echo "$r"
				br="$br ${r##* }"
			fi
		done
		for x in "FOGSim:$fr" "BookSim2:$br"; do
			[ -n "${x#*:}" ] || continue
			echo "${x#*:}" | tr ' x' '\n ' | awk -v w="${x%%:*}" -v net="$net" -v load="$load" \
				'NF { v[++n] = $1 } END { if (!n) exit; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
				if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
				printf "%-4s %5s median dfly/%s %.1fx over %d pair(s) (range %.1f-%.1f)\n", net, load, w,
				n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2, n, v[1], v[n] }'
		done
	done
done
