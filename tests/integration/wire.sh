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
set -u
switch="${1:?usage: wire.sh SWITCH SOURCE_DIR}"
src="${2:?usage: wire.sh SWITCH SOURCE_DIR}"
tmp=$(mktemp -d)
pfx="dflyw$$"
trap 'rm -rf "$tmp" "/var/run/dpdk/$pfx"' EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*"; exit 1; }
each=40

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
link = { credit_delay_us = 0; };
CFG
}
run() { # NAME FAULTS
    deploy "$tmp/$1.cfg" "$2"
    "$switch" --no-huge -m 512 --no-pci --file-prefix "$pfx" -l 0-1 --log-level=3 -- \
        "$tmp/$1.cfg" --quiet --duration 3 --gen-seconds 2.5 --set clock.cycle_ns=2000 \
        --set traffic.load=0.3 >"$tmp/$1.out" 2>&1 || { cat "$tmp/$1.out"; fail "$1: exit"; }
    awk '/^generated / { if ($2 != $4 || $2 == 0) bad = 1; seen = 1 }
         END { exit bad || !seen }' "$tmp/$1.out" ||
        { grep "^generated" "$tmp/$1.out"; fail "$1: generated != delivered"; }
    awk '/^peer [0-9]+: rx_data/ { if ($NF != 0) bad = 1 } END { exit bad }' "$tmp/$1.out" ||
        { grep "^peer" "$tmp/$1.out"; fail "$1: peer errors"; }
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
# The good traffic keeps its rate and latency. Both are real-time figures: a VM that takes the
# CPU away from one run and not the other moves them (a CI run gave 113.2 cycles against 77.5,
# and a calm pair gives 70-72 against 72-77), so a pair that differs is made again, up to 3
# times, and the test fails only when 3 pairs in a row differ: an effect of the bad frames
# shows in every pair. The exact counts above are checked in every pair.
# A sanitizer build (DFLY_SANITIZED=1, scripts/test.sh) falls behind the 2-us clock most of the
# time: there the latency is printed, not compared, as memif.sh and testbed.sh do with theirs.
behind() { sed -n 's/.*fell behind the clock in \([0-9]*\) slices (at most \([0-9]*\).*/\1 slices, at most \2 cycles/p' "$1"; }
for attempt in 1 2 3; do
    run good 0
    run bad "$each"
    check_counts
    g_good=$(awk '/^generated / { print $2 }' "$tmp/good.out")
    g_bad=$(awk '/^generated / { print $2 }' "$tmp/bad.out")
    l_good=$(awk '/^latency avg/ { print $3 }' "$tmp/good.out")
    l_bad=$(awk '/^latency avg/ { print $3 }' "$tmp/bad.out")
    why=""
    awk -v a="$g_good" -v b="$g_bad" 'BEGIN { d = a > b ? a - b : b - a; exit !(d <= 0.03 * a) }' ||
        why="rate: generated $g_bad against $g_good without bad frames"
    if ! awk -v a="$l_good" -v b="$l_bad" 'BEGIN { exit !(b <= 1.25 * a + 10) }'; then
        if [ -n "${DFLY_SANITIZED:-}" ]; then
            echo "note: latency $l_bad cycles against $l_good without bad frames (sanitizer build: not compared)"
        else
            why="${why:+$why; }latency: $l_bad cycles against $l_good without bad frames"
        fi
    fi
    [ -n "$why" ] || break
    echo "note: pair $attempt: $why (behind the clock: good $(behind "$tmp/good.out"); bad $(behind "$tmp/bad.out"))"
    [ "$attempt" -lt 3 ] || fail "$why, in 3 pairs in a row"
done
echo "wire: $((9 * each)) bad frames on each of 2 ports, each counted by its reason;" \
    "generated $g_bad / $g_good, latency $l_bad / $l_good cycles"
