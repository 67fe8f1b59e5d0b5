#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Bad frames on the wire (issue #9): router 0 of h2 in dfly-switch, every fabric port to a
# loopback peer (dataplane/peer.h), generators at 0.3 in real time (2 us cycles). Run A has
# well-behaved peers; in run B the peers of a local port (2) and a global port (5) also send,
# among the good traffic, 40 bad frames of every kind (dev "peer", args "faults=40"):
#   truncated data frame -> drop.decode_truncated; header version 99 -> drop.decode_version;
#   control type 200 -> drop.decode_type; node and VC beyond the network -> drop.decode_range;
#   IPv4 EtherType -> drop.fabric_other; ACK from a router that is not the neighbour ->
#   drop.not_peer; a replayed sequence number -> port llr_dup_rx; one 1000 ahead ->
#   port llr_gap_rx.
# Each is counted exactly, nothing else is dropped, every generated packet is delivered in both
# runs, the good traffic keeps its rate (generated within 3% of run A's) and its latency
# (mean within 25% + 10 cycles of run A's). Control frames offered by a host are dropped as
# host_spoof by tests/integration/netns.sh.
# The router's lcore spins when idle (run.idle = "spin"): a sleeping lcore of this VM woke up to
# 133 ms late. Each run's report must say so (0 sleeps).
set -u
switch="${1:?usage: wire.sh SWITCH SOURCE_DIR}"
src="${2:?usage: wire.sh SWITCH SOURCE_DIR}"
tmp=$(mktemp -d)
pfx="dflyw$$"
trap 'rm -rf "$tmp" "/var/run/dpdk/$pfx"' EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*"; exit 1; }
each=40
# A sanitizer build (DFLY_SANITIZED=1, scripts/test.sh) runs several times slower: a 2-us cycle
# leaves it 100,000 cycles behind and a stall beyond link.dead_us (200 ms) takes a link down,
# which drops what it held (a CI run: fabric_drops 6792). There the cycle is 8 us and a link
# is dead after 600 ms, as failover.sh does.
cycle_ns=2000 dead=""
if [ -n "${DFLY_SANITIZED:-}" ]; then
    cycle_ns=8000 dead=" dead_us = 600000;"
fi

deploy() { # FILE FAULTS
    cat >"$1" <<CFG
network = "$src/configs/h2.cfg";
instance = "";
firmware = "thread";
routers = [0];
lcores = ( { lcore = 1; routers = [0]; } );
ports = ( { router = 0; port = 2; dev = "peer"; args = "faults=$2"; },
          { router = 0; port = 3; dev = "peer"; }, { router = 0; port = 4; dev = "peer"; },
          { router = 0; port = 5; dev = "peer"; args = "faults=$2"; },
          { router = 0; port = 6; dev = "peer"; } );
generators = "all";
link = { credit_delay_us = 0;$dead };
run = { idle = "spin"; };
CFG
}
run() { # NAME FAULTS
    deploy "$tmp/$1.cfg" "$2"
    "$switch" --no-huge -m 512 --no-pci --file-prefix "$pfx" -l 0-1 --log-level=3 -- \
        "$tmp/$1.cfg" --quiet --duration 20 --gen-seconds 2.5 --exit-drained --set clock.cycle_ns=$cycle_ns \
        --set traffic.load=0.3 >"$tmp/$1.out" 2>&1 || { cat "$tmp/$1.out"; fail "$1: exit"; }
    awk '/^generated / { if ($2 != $4 || $2 == 0) bad = 1; seen = 1 }
         END { exit bad || !seen }' "$tmp/$1.out" ||
        { grep "^generated" "$tmp/$1.out"; fail "$1: generated != delivered"; }
    awk '/^peer [0-9]+: rx_data/ { if ($NF != 0) bad = 1 } END { exit bad }' "$tmp/$1.out" ||
        { grep "^peer" "$tmp/$1.out"; fail "$1: peer errors"; }
    grep -q '^lcore 1 idle: run.idle = "spin", 0 sleeps' "$tmp/$1.out" ||
        fail "$1: not spinning: $(grep '^lcore' "$tmp/$1.out")"
}
val() { # FILE KEY: the counter KEY of the final report (0 if absent)
    awk -v k="$2" '$1 == k { v = $2 } END { print v + 0 }' "$1"
}

check_counts() { # every bad frame counted by its reason, nothing else dropped
    for k in decode_truncated decode_version decode_type fabric_other not_peer; do
        [ "$(val "$tmp/bad.out" "drop.$k")" = $((2 * each)) ] ||
            fail "drop.$k = $(val "$tmp/bad.out" "drop.$k"), expected $((2 * each))"
    done
    [ "$(val "$tmp/bad.out" drop.decode_range)" = $((4 * each)) ] ||
        fail "drop.decode_range = $(val "$tmp/bad.out" drop.decode_range), expected $((4 * each))"
    for p in 2 5; do
        for k in llr_dup_rx llr_gap_rx; do
            [ "$(val "$tmp/bad.out" "port$p.$k")" = "$each" ] ||
                fail "port$p.$k = $(val "$tmp/bad.out" "port$p.$k"), expected $each"
        done
    done
    # nothing else dropped, in either run (inj_full: the generators' own back-pressure)
    for r in good bad; do
        other=$(awk '$1 ~ /^drop\./ && $1 != "drop.inj_full" && $1 !~ /^drop\.(decode|fabric_other|not_peer)/ { print }' \
            "$tmp/$r.out")
        [ -z "$other" ] || fail "$r: unexpected drops: $other"
    done
    [ -z "$(awk '$1 ~ /^drop\./' "$tmp/good.out" | grep -v inj_full)" ] || fail "good: drops"
}
# The good traffic keeps its rate and latency. Both are real-time figures, and a VM that takes
# the CPU away moves them: CI gave 113.2 cycles against 77.5, and in a slow hour an idle lcore
# woke up to 133 ms late, 100,000 cycles behind the clock. A calm pair is within 3 % (70-72
# against 72-77 cycles; its lcore at most 1,400 cycles behind, no polling gap over 10 ms).
# disturbed FILE says why a run does not count: its lcore more than 5,000 cycles (10 ms) behind
# the clock, or a port not polled for more than 10 ms. Such a pair is made again, up to 3 times;
# a difference in a calm pair fails at once; after 3 disturbed pairs the rate and latency are
# printed, not compared. The exact counts above are checked in every pair.
# A sanitizer build (DFLY_SANITIZED=1, scripts/test.sh) falls behind even its 8-us clock: there
# the rate and the latency are printed, not compared, as memif.sh and testbed.sh do with theirs.
disturbed() { # FILE
    local behind gaps
    behind=$(sed -n 's/.*fell behind the clock in .* (at most \([0-9]*\) cycles).*/\1/p' "$1")
    gaps=$(grep -c "polling gaps over" "$1")
    why="${why:+$why; }$(basename "$1" .out): ${behind:-0} cycles behind, $gaps ports with polling gaps"
    [ "${behind:-0}" -gt 5000 ] || [ "$gaps" -gt 0 ]
}
for attempt in 1 2 3; do
    run good 0
    run bad "$each"
    check_counts
    g_good=$(awk '/^generated / { print $2 }' "$tmp/good.out")
    g_bad=$(awk '/^generated / { print $2 }' "$tmp/bad.out")
    l_good=$(awk '/^latency avg/ { print $3 }' "$tmp/good.out")
    l_bad=$(awk '/^latency avg/ { print $3 }' "$tmp/bad.out")
    diff=""
    awk -v a="$g_good" -v b="$g_bad" 'BEGIN { d = a > b ? a - b : b - a; exit !(d <= 0.03 * a) }' ||
        diff="rate: generated $g_bad against $g_good without bad frames"
    awk -v a="$l_good" -v b="$l_bad" 'BEGIN { exit !(b <= 1.25 * a + 10) }' ||
        diff="${diff:+$diff; }latency: $l_bad cycles against $l_good without bad frames"
    [ -n "$diff" ] || break
    if [ -n "${DFLY_SANITIZED:-}" ]; then
        echo "note: $diff (sanitizer build: not compared)"
        break
    fi
    why=""
    d1=0 d2=0
    disturbed "$tmp/good.out" && d1=1
    disturbed "$tmp/bad.out" && d2=1
    [ $((d1 + d2)) -gt 0 ] || fail "$diff, in a pair that kept real time ($why)"
    echo "note: pair $attempt: $diff, in a pair that lost the CPU ($why)"
    [ "$attempt" -lt 3 ] || { echo "note: 3 disturbed pairs: rate and latency not compared"; break; }
done
echo "wire: $((9 * each)) bad frames on each of 2 ports, each counted by its reason;" \
    "generated $g_bad / $g_good, latency $l_bad / $l_good cycles"
