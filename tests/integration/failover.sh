#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A global link down and back up in a real-time testbed (routing.failover, link.dead_us):
# `dfly testbed up` on the h=1 Dragonfly, one dfly-switch per router over veth pairs, MIN, the
# generators on (UN). Router 0's port 2 is the global link to router 5 (groups 0 and 2), veth
# <name>l1a in namespace <name>-s0. Then:
#  1. the veth goes down: both routers declare the link down (port2.link_downs = 1 at each end,
#     no frame for link.dead_us), nothing more leaves on it (port2.tx_pkts stands still), the
#     traffic between groups 0 and 2 goes Valiant through group 1 (route.fail_nonmin grows) and
#     packets keep being delivered (route.eject grows);
#  2. the veth comes back: both ends see their peer again (link_ups = 1) and the link carries
#     packets again (tx_pkts grows at both ends);
#  3. the generators stop, the network drains, `down`: every generated packet is delivered or
#     counted as discarded behind the dead link (fabric_drops = drop.link_dead), and nothing of
#     the testbed remains.
# Before the fault, every process is stopped for 3 x link.dead_us and continued: a stall of the
# whole machine takes no link down (liveness leaves out polling gaps), and it is reported.
# A machine too slow to keep the processes near real time can take a link down in that check
# (a peer starved of the CPU for link.dead_us looks dead): the testbed is then made again, up to
# 3 times.
# Needs root (namespaces). Removes what it created, also on failure.
#
#   failover.sh DFLY SOURCE_DIR
set -u
dfly="${1:?usage: failover.sh DFLY SOURCE_DIR}"
src="${2:?usage: failover.sh DFLY SOURCE_DIR}"
[ "$(id -u)" = 0 ] || { echo "needs root (network namespaces): skipped"; exit 77; }
name="f$(($$ % 100000))"
tmp=$(mktemp -d /tmp/dflyfo.XXXXXX)
d="$tmp/tb"
checks=0

cleanup() {
	pkill -CONT -f -- "--file-prefix ${name}p" 2>/dev/null # if a failure came between STOP and CONT
	[ -f "$d/testbed.state" ] && "$dfly" testbed down --dir "$d" >/dev/null 2>&1
	for ns in $(ip netns list 2>/dev/null | awk -v p="$name-" 'index($1, p) == 1 { print $1 }'); do
		ip netns del "$ns" 2>/dev/null
	done
	rm -f /dev/shm/dfly."$name".r* 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() {
	echo "FAIL: $*"
	for f in "$d"/p*.log; do
		[ -s "$f" ] && sed "s|^|  $(basename "$f"): |" "$f" | tail -5
	done
	exit 1
}
ok() {
	checks=$((checks + 1))
	echo "ok: $*"
}
# snapshot FILE: every router's counters, "r<R>.<name> value"
snap() { "$dfly" stats --instance "$name" --all >"$1" 2>&1 || fail "dfly stats: $(cat "$1")"; }
# get FILE KEY: a value of a snapshot (0 if absent)
get() { awk -v k="$2" '$1 == k { v = $2 } END { print v + 0 }' "$1"; }
# sum FILE SUFFIX: the sum over routers of r*.SUFFIX
sum() { awk -v s=".$2" 'substr($1, length($1) - length(s) + 1) == s { v += $2 } END { print v + 0 }' "$1"; }

# link.dead_us: 200 ms by default. A sanitizer build (DFLY_SANITIZED=1, scripts/test.sh) stalls
# longer than that at times (up to 222 ms seen under ASan), and a stalled peer is declared down:
# CI's ASan pass once failed "failover before any fault" on a flap at start-up. There it is
# 600 ms, which the 1.5 s waits below still cover.
dead_us=200000
[ -n "${DFLY_SANITIZED:-}" ] && dead_us=600000
for attempt in 1 2 3; do
	"$dfly" testbed up "$src/configs/h1.cfg" --dir "$d" --name "$name" --split router --link veth \
		--dead-us "$dead_us" --generators on --gen-seconds 14 --set routing.mechanism=min --set traffic.load=0.05 \
		--set clock.cycle_ns=4000 >"$tmp/up.out" 2>&1 || { cat "$tmp/up.out"; fail "testbed up"; }
	grep -q "dead_us = $dead_us;" "$d/p0.cfg" || fail "--dead-us $dead_us not in p0.cfg"
	grep -q 'iface=[a-z0-9]*l1a' "$d/p0.cfg" && grep -q '{ router = 0; port = 2;' "$d/p0.cfg" ||
		fail "router 0 port 2 is not on veth ${name}l1a: $(grep port "$d/p0.cfg")"
	sleep 2
	snap "$tmp/s0"
	[ "$(get "$tmp/s0" r0.port2.tx_pkts)" -gt 0 ] || fail "router 0 sends nothing on its global link"
	[ "$(sum "$tmp/s0" route.fail_nonmin)" -eq 0 ] || fail "failover before any fault"

	# ---- 0. a stall is not a fault ----------------------------------------------------------------
	# Every process stopped for 3 x link.dead_us (the machine not running them, as a VM that
	# loses its CPUs): no peer was heard, but none could have been, and no link is declared down.
	pkill -STOP -f -- "--file-prefix ${name}p" || fail "no dfly-switch to stop"
	sleep "$(awk -v u="$dead_us" 'BEGIN { print 3 * u / 1e6 }')"
	pkill -CONT -f -- "--file-prefix ${name}p"
	sleep 1
	snap "$tmp/s0b"
	downs=$(sum "$tmp/s0b" link_downs)
	[ "$downs" -eq 0 ] && break
	# A machine that cannot keep the processes near real time (a CI run had them at 0.2-0.8x
	# from the first second, with thousands of retransmissions) starves a peer for link.dead_us
	# and the link goes down for that; a liveness that counted the stall would fail every
	# attempt (3 link ends down in each, session 11)
	echo "note: attempt $attempt: the stall took $downs link ends down; the slowest process" \
		"ran at $(awk 'match($0, /[0-9.]+x real time/) { v[FILENAME] = substr($0, RSTART, RLENGTH) }
			END { for (f in v) print v[f] }' "$d"/p*.log | sort -n | head -1) at last: again"
	[ "$attempt" -lt 3 ] || fail "a stall of every process took $downs link ends down, 3 attempts"
	"$dfly" testbed down --dir "$d" >/dev/null 2>&1
	rm -rf "$d"
done
ok "every process stopped for $((3 * dead_us / 1000)) ms: no link declared down"

# ---- 1. down ------------------------------------------------------------------------------------
ip -n "$name-s0" link set "${name}l1a" down || fail "cannot set ${name}l1a down"
sleep 1.5
snap "$tmp/s1"
sleep 1.5
snap "$tmp/s2"
for r in 0 5; do
	[ "$(get "$tmp/s2" "r$r.port2.link_downs")" -eq 1 ] ||
		fail "router $r: port2.link_downs $(get "$tmp/s2" "r$r.port2.link_downs"), want 1"
done
ok "both ends declared the link down (no frame for link.dead_us)"
for r in 0 5; do
	a=$(get "$tmp/s1" "r$r.port2.tx_pkts")
	b=$(get "$tmp/s2" "r$r.port2.tx_pkts")
	[ "$a" -eq "$b" ] || fail "router $r: port 2 sent $((b - a)) packets while down"
done
ok "nothing left on the down link for 1.5 s, both ways"
f1=$(sum "$tmp/s1" route.fail_nonmin)
f2=$(sum "$tmp/s2" route.fail_nonmin)
[ "$f2" -gt "$f1" ] || fail "route.fail_nonmin did not grow while the link was down ($f1, $f2)"
e1=$(sum "$tmp/s1" route.eject)
e2=$(sum "$tmp/s2" route.eject)
[ "$e2" -gt "$e1" ] || fail "nothing delivered while the link was down"
ok "MIN traffic of groups 0 and 2 went around it ($((f2 - f1)) packets in 1.5 s), $((e2 - e1)) delivered"

# ---- 2. back up ---------------------------------------------------------------------------------
ip -n "$name-s0" link set "${name}l1a" up || fail "cannot set ${name}l1a up"
sleep 3
snap "$tmp/s3"
for r in 0 5; do
	[ "$(get "$tmp/s3" "r$r.port2.link_ups")" -eq 1 ] ||
		fail "router $r: port2.link_ups $(get "$tmp/s3" "r$r.port2.link_ups"), want 1"
	a=$(get "$tmp/s2" "r$r.port2.tx_pkts")
	b=$(get "$tmp/s3" "r$r.port2.tx_pkts")
	[ "$b" -gt "$a" ] || fail "router $r: the link carries nothing after it came back"
done
ok "the link is back in use at both ends"

# ---- 3. drain, down, conservation ---------------------------------------------------------------
sleep 9 # the generators stop 14 s after cycle 0 (at most 1.7 s after `up` started); the network drains
"$dfly" testbed down --dir "$d" >"$tmp/down.out" 2>&1 || { cat "$tmp/down.out"; fail "down"; }
gen=0 dlv=0 fdrop=0 dead=0
for f in "$d"/p*.counters; do
	set -- $(sed -n 's/^generated \([0-9]*\) delivered \([0-9]*\) .* fabric_drops \([0-9]*\).*/\1 \2 \3/p' "$f")
	gen=$((gen + ${1:-0})) dlv=$((dlv + ${2:-0})) fdrop=$((fdrop + ${3:-0}))
	dead=$((dead + $(awk '$1 == "drop.link_dead" { v += $2 } END { print v + 0 }' "$f")))
done
[ "$gen" -gt 1000 ] || fail "only $gen packets generated"
[ "$gen" -eq $((dlv + fdrop)) ] ||
	fail "generated $gen != delivered $dlv + discarded behind the dead link $fdrop"
[ "$fdrop" -le "$dead" ] || fail "fabric_drops $fdrop > drop.link_dead $dead"
ok "generated $gen = delivered $dlv + discarded behind the dead link $fdrop (drop.link_dead $dead)"
pgrep -f -- "--file-prefix ${name}p" >/dev/null && fail "dfly-switch still running"
ls /dev/shm/dfly."$name".r* >/dev/null 2>&1 && fail "register files left"
ip netns list 2>/dev/null | grep -q "^$name-" && fail "namespaces left"
ok "nothing of the testbed remains"
grep -q "polling gaps over 10 ms" "$d/p0.counters" ||
	fail "p0.counters does not report the stall: $(grep -c gaps "$d/p0.counters")"
ok "the stall is reported: $(grep -m1 "polling gaps" "$d/p0.counters")"
# run.idle = "sleep" (the default: testbed processes share cores): a 4-us cycle leaves the lcore
# idle most of the time, and the report counts its sleeps
n=$(sed -n 's/^lcore [0-9]* idle: run.idle = "sleep", \([0-9]*\) sleeps.*/\1/p' "$d/p0.counters")
[ "${n:-0}" -gt 0 ] || fail "p0.counters: no idle sleeps reported: $(grep '^lcore' "$d/p0.counters")"
ok "idle: $(grep -m1 '^lcore [0-9]* idle' "$d/p0.counters")"
echo "failover: $checks checks passed"
