#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# dfly verify (issue 26): a real-time run checked counter for counter against the model. A memif
# testbed of the h=1 Dragonfly, three dfly-switch processes (one per group) in lockstep
# (`dfly testbed up --verify N`), generators on:
#  1. a clean run to cycle N: every process reports itself exact, and `dfly verify` finds every
#     counter of every router equal to dfly sim's at each of the 10 snapshots;
#  2. the same with process 1 stopped (SIGSTOP) for 300 ms part-way: its peers wait 100 ms
#     (--lockstep-wait-ms), then step on without it; the run reports "not exact from cycle X"
#     where X is the cycle process 1 had stepped to when it stopped (read from its register
#     file while it was stopped) plus at most the link's latency and a slice, and dfly verify
#     reports the divergence: every snapshot before X equal, the first differing one after X;
#  3. hosts: nodes 0 and 4 are hosts in namespaces (veth), the other nodes generate; host 0
#     pings host 4 across a global link while the run steps: the processes record every host
#     frame that entered with its cycle, dfly verify replays them in the model, and every
#     counter and every delivery (the pings' included) is equal;
#  4. PB under ADV+1 to cycle 60,000: the firmware's PB_STATE frames of every cycle cross the
#     processes' links, and every counter is equal to dfly sim's.
# Needs root (memif sockets, /dev/shm register files); skipped (exit 77) otherwise. Everything it
# makes is removed, also on failure.
#
#   verify.sh DFLY SOURCE_DIR
set -u
dfly="${1:?usage: verify.sh DFLY SOURCE_DIR}"
src="${2:?usage: verify.sh DFLY SOURCE_DIR}"
name="v$(($$ % 10000))"
tmp=$(mktemp -d /tmp/dflyvf.XXXXXX)
checks=0

skip() {
	echo "SKIP: $*"
	exit 77
}
cleanup() {
	set +e
	for d in "$tmp"/a "$tmp"/b "$tmp"/c; do
		[ -f "$d/testbed.state" ] && "$dfly" testbed down --dir "$d" >/dev/null 2>&1
	done
	pkill -CONT -f -- "--file-prefix ${name}" 2>/dev/null
	rm -rf /var/run/dpdk/"$name"* /dev/shm/dfly."$name"* 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() {
	echo "FAIL: $*"
	for f in "$tmp"/*/p*.log; do
		[ -s "$f" ] && sed "s|^|  $f: |" "$f" | tail -5
	done
	exit 1
}
ok() {
	checks=$((checks + 1))
	echo "ok: $*"
}

[ "$(id -u)" = 0 ] || skip "needs root (memif sockets, register files)"

N=200000
EVERY=20000
# up DIR NAME [ARGS]: a lockstep testbed to cycle N
up() {
	local d=$1 n=$2
	shift 2
	"$dfly" testbed up "$src/configs/h1.cfg" --dir "$d" --name "$n" --split group \
		--set clock.cycle_ns=10000 --verify $N --snapshot-every $EVERY "$@" >"$d.up" 2>&1 ||
		{ cat "$d.up"; fail "dfly testbed up --verify $N"; }
}
# reached DIR: wait until every process says it reached cycle N (2 minutes at most)
reached() {
	for _ in $(seq 600); do
		[ "$(grep -l "lockstep: cycle $N reached" "$1"/p*.log 2>/dev/null | wc -l)" = 3 ] &&
			return 0
		sleep 0.2
	done
	fail "the processes did not reach cycle $N"
}

# exact DIR WHAT: every process of the run in DIR said it reached cycle N exactly; stop it
exact() {
	grep -h "lockstep: cycle $N reached" "$1"/p*.log | grep -qv "(exact)" &&
		fail "a process of $2 did not report itself exact"
	"$dfly" testbed down --dir "$1" >/dev/null 2>&1 || fail "dfly testbed down"
}

# 1. a clean run
up "$tmp/a" "${name}a"
reached "$tmp/a"
exact "$tmp/a" "the clean run"
"$dfly" verify "$tmp/a" >"$tmp/a.verify" 2>&1
rc=$?
cat "$tmp/a.verify" | tail -3
[ $rc = 0 ] && grep -q "^verify: equal: 10 snapshots" "$tmp/a.verify" ||
	fail "dfly verify on the clean run: exit $rc"
ok "clean lockstep run to cycle $N on 3 processes: every counter equal to the model's"

# 2. process 1 stopped for 300 ms part-way
up "$tmp/b" "${name}b"
pid=$(pgrep -f -- "--file-prefix ${name}bp1 " | head -1)
[ -n "$pid" ] || fail "no process 1"
for _ in $(seq 200); do
	c=$("$dfly" stats --instance "${name}b" --router 2 --filter cycle 2>/dev/null |
		awk '$1 == "r2.cycle" { print $2 }')
	[ -n "$c" ] && [ "$c" -ge $((N / 4)) ] && break
	sleep 0.05
done
kill -STOP "$pid"
sleep 0.05
cstop=$("$dfly" stats --instance "${name}b" --router 2 --filter cycle 2>/dev/null |
	awk '$1 == "r2.cycle" { print $2 }')
sleep 0.3
kill -CONT "$pid"
[ -n "$cstop" ] || fail "could not read process 1's cycle while it was stopped"
[ "$cstop" -lt $((N - 2 * EVERY)) ] || fail "process 1 stopped too late (cycle $cstop)"
reached "$tmp/b"
"$dfly" testbed down --dir "$tmp/b" >/dev/null 2>&1 || fail "dfly testbed down"
x=$(sed -n 's/.*not exact from cycle \([0-9]*\).*/\1/p' "$tmp"/b/p*.counters | sort -n | head -1)
[ -n "$x" ] || fail "no process reported the stop (process 1 stopped at cycle $cstop)"
# the peers step up to process 1's next cycle + the global link's latency (100), then on
lat=$(awk '/global_latency/ { gsub(/;/, ""); print $3 }' "$tmp/b/network.cfg")
[ "$x" -gt "$cstop" ] && [ "$x" -le $((cstop + 1 + lat + 64)) ] ||
	fail "the run reports cycle $x, process 1 stopped at cycle $cstop (latency $lat)"
ok "process 1 stopped at cycle $cstop for 300 ms: the run reports not exact from cycle $x"
"$dfly" verify "$tmp/b" >"$tmp/b.verify" 2>&1
rc=$?
cat "$tmp/b.verify" | tail -2
[ $rc = 1 ] || fail "dfly verify on the stopped run: exit $rc, expected 1"
d=$(sed -n 's/^verify: diverged at cycle \([0-9]*\) .*/\1/p' "$tmp/b.verify")
[ -n "$d" ] || fail "dfly verify did not report a divergence"
# every snapshot before the fault equal, the first differing one the first at or after it
awk -v x="$x" -v d="$d" '/^cycle [0-9]+:/ {
		c = $2 + 0
		eq = /every counter equal/
		if (c < x && !eq) { print "snapshot " c " differs before the fault at " x; bad = 1 }
	}
	END { exit bad }' "$tmp/b.verify" || fail "a snapshot before the fault differs"
[ "$d" -ge "$x" ] && [ "$d" -lt $((x + EVERY + 1)) ] ||
	fail "dfly verify says cycle $d, the run's fault is at cycle $x"
ok "dfly verify: equal before cycle $x, diverged at the snapshot of cycle $d"

# 3. hosts pinging while the generators run: a run five times as long and pings 10 ms apart,
# so the pings (about 50 ms) fall inside it however fast the processes step (with 200,000
# cycles and pings 0.2 s apart a quiet machine ended the run before the fifth ping)
N=1000000
EVERY=100000
up "$tmp/c" "${name}c" --hosts veth --host-nodes 0,4 --generators on \
	--set packet.phit_bytes=64 --set buffers.local=64 --set buffers.output=64
ip netns exec "${name}c-h0" ping -c 5 -i 0.01 -W 2 10.77.0.5 >"$tmp/c.ping" 2>&1 ||
	{ cat "$tmp/c.ping"; fail "host 0 could not ping host 4 during the lockstep run"; }
reached "$tmp/c"
exact "$tmp/c" "the run with hosts"
ning=$(cat "$tmp"/c/p*.snap | grep -c "^ingress ")
nhost=$(cat "$tmp"/c/p*.snap | grep -c "^delivery .* host$")
# 5 echo requests and 5 replies at least (ARP is answered by the switch, not the ASIC)
[ "$ning" -ge 10 ] && [ "$nhost" -ge 10 ] ||
	fail "the run recorded $ning host frames entering and $nhost delivered, expected >= 10"
"$dfly" verify "$tmp/c" >"$tmp/c.verify" 2>&1
rc=$?
tail -2 "$tmp/c.verify"
[ $rc = 0 ] && grep -q "^verify: equal: 10 snapshots, .* ($ning host frames replayed)" \
	"$tmp/c.verify" || fail "dfly verify on the run with hosts: exit $rc"
ok "hosts: ping rtt min/avg/max/mdev $(tail -1 "$tmp/c.ping" | cut -d' ' -f4) ms; $ning host frames replayed, $nhost host deliveries equal"

# 4. PiggyBack: its firmware sends a PB_STATE frame on every local port every cycle, across the
# processes' links too; in lockstep each goes behind its SYNC and is taken at its due cycle, so
# the routing that reads them is the model's, counter for counter (h = 1: average = "other")
N=60000
EVERY=20000
up "$tmp/d" "${name}d" --set routing.mechanism=pb --set routing.pb.average=other \
	--set traffic.pattern=adv+1 --set traffic.load=0.3
reached "$tmp/d"
exact "$tmp/d" "the PB run"
"$dfly" verify "$tmp/d" >"$tmp/d.verify" 2>&1
rc=$?
tail -1 "$tmp/d.verify"
[ $rc = 0 ] && grep -q "^verify: equal: 3 snapshots" "$tmp/d.verify" ||
	fail "dfly verify on the PB run: exit $rc"
ctx=$(awk '$1 ~ /^port[0-9]+\.ctrl_tx$/ { s += $2 } END { print s + 0 }' "$tmp"/d/p*.counters)
[ "$ctx" -gt 100000 ] || fail "the PB run sent $ctx control frames"
ok "PB under ADV+1 in lockstep to cycle $N: every counter equal to the model's, $ctx control frames"
echo "$checks checks passed"
