#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `dfly bench`, short runs (the figures themselves are in docs/PERFORMANCE.md):
#  1. dataplane: router 0 of h2 alone against its loopback peers (dataplane/peer.h), two
#     mechanisms, 64- and 1500-byte frames, one 1-second run each: every run conserves packets
#     (generated = delivered, no peer errors: the bench exits 1 otherwise), the table has a row
#     per point with a positive rate, and testpmd macswap and io ran beside it with their ratios;
#  2. dfly-switch with peers directly: its final report shows the peers' counters, equal
#     rx and tx, no errors, the switched line, nothing left in the router; link-rate
#     emulation off is refused by dfly sim; --exit-drained exits once all is delivered;
#     routers of one process on two lcores, joined by ring pairs, conserve packets;
#  3. counters: a row per counter kind, positive ns/packet;
#  4. sim: one point, its row; usage errors exit 2, --help exits 0.
# Everything it creates is removed, also on failure (the bench removes its own directory).
set -u
dfly="${1:?usage: bench.sh DFLY SWITCH SOURCE_DIR}"
switch="${2:?usage: bench.sh DFLY SWITCH SOURCE_DIR}"
src="${3:?usage: bench.sh DFLY SWITCH SOURCE_DIR}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "/var/run/dpdk/dflybt$$"' EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*"; exit 1; }

# 1. dataplane
testpmd=""
command -v dpdk-testpmd >/dev/null || testpmd="--no-testpmd"
# shellcheck disable=SC2086
"$dfly" bench dataplane --runs 1 --seconds 1 --modes min,ectn --frames 64,1500 $testpmd \
    >"$tmp/dp.txt" 2>&1 || { cat "$tmp/dp.txt"; fail "bench dataplane exited $?"; }
cat "$tmp/dp.txt"
for f in 64 1500; do
    for m in min ectn; do
        awk -v f=$f -v m=$m '$1 == f && $2 == m && $5 > 0 && $NF == "ok" { ok = 1 }
            END { exit !ok }' "$tmp/dp.txt" || fail "no conserving row for $m, $f bytes"
        # h2's router has 2 nodes: at most 4 packets switched per cycle
        awk -v f=$f -v m=$m '$1 == f && $2 == m && $9 > 0 && $10 > 0 && $10 <= 4 { ok = 1 }
            END { exit !ok }' "$tmp/dp.txt" || fail "no ns/cyc, pkt/cyc for $m, $f bytes"
    done
    if [ -z "$testpmd" ]; then
        grep -q "^$f .*testpmd macswap.*Mpps; best dfly median / testpmd = 0\.[0-9]" \
            "$tmp/dp.txt" || fail "no testpmd comparison for $f bytes"
        grep -q "^$f .*testpmd io .*Mpps; best dfly median / testpmd io = 0\.[0-9]" \
            "$tmp/dp.txt" || fail "no testpmd io comparison for $f bytes"
    fi
done

# 2. a peer, directly
cat >"$tmp/one.cfg" <<CFG
network = "$src/configs/h2.cfg";
instance = "";
firmware = "thread";
routers = [0];
lcores = ( { lcore = 1; routers = [0]; } );
ports = ( { router = 0; port = 2; dev = "peer"; }, { router = 0; port = 3; dev = "peer"; },
          { router = 0; port = 4; dev = "peer"; }, { router = 0; port = 5; dev = "peer"; },
          { router = 0; port = 6; dev = "peer"; } );
generators = "all";
link = { credit_delay_us = 0; };
CFG
"$switch" --no-huge -m 512 --no-pci --file-prefix "dflybt$$" -l 0-1 --log-level=3 -- \
    "$tmp/one.cfg" --free-run --quiet --duration 1.5 --gen-seconds 1 \
    --set clock.link_rate=false --set traffic.load=0.5 --set traffic.pattern=un \
    --set routing.mechanism=min >"$tmp/one.out" 2>&1 || { cat "$tmp/one.out"; fail "dfly-switch"; }
grep -q "^switched [1-9][0-9]* packets" "$tmp/one.out" || fail "no switched line"
awk '/^generated / { if ($2 != $4 || $2 == 0) bad = 1; seen = 1 }
     END { exit bad || !seen }' "$tmp/one.out" || fail "generated != delivered"
[ "$(grep -c '^peer ' "$tmp/one.out")" = 5 ] || fail "five peer lines expected"
awk '/^peer / { if ($4 != $6 || $4 == 0 || $NF != 0) bad = 1 } END { exit bad }' \
    "$tmp/one.out" || { grep '^peer' "$tmp/one.out"; fail "peer counters"; }
# drained: nothing left in the router once the generators stopped
grep -q "held_in_routers 0 " "$tmp/one.out" || fail "packets left in the router"
# --exit-drained: out as soon as everything generated is delivered, long before --duration
"$switch" --no-huge -m 512 --no-pci --file-prefix "dflybt$$" -l 0-1 --log-level=3 -- \
    "$tmp/one.cfg" --free-run --quiet --duration 30 --gen-seconds 1 --exit-drained \
    --set clock.link_rate=false --set traffic.load=0.5 --set traffic.pattern=un \
    --set routing.mechanism=min >"$tmp/ed.out" 2>&1 || { cat "$tmp/ed.out"; fail "--exit-drained"; }
awk '/^generated / { if ($2 != $4 || $2 == 0) bad = 1; seen = 1 }
     END { exit bad || !seen }' "$tmp/ed.out" || fail "--exit-drained: generated != delivered"
awk '/^switched / { if ($5 + 0 >= 1 && $5 + 0 < 10) ok = 1 } END { exit !ok }' "$tmp/ed.out" ||
    { grep '^switched' "$tmp/ed.out"; fail "--exit-drained: not out within 10 s of a 30-s duration"; }
"$switch" --no-huge -m 512 --no-pci --file-prefix "dflybt$$" -l 0 --log-level=3 -- \
    "$tmp/one.cfg" --exit-drained >"$tmp/ed2.out" 2>&1
[ $? = 2 ] && grep -q "needs --gen-seconds" "$tmp/ed2.out" || fail "--exit-drained alone accepted"
# 2b. routers of one process on two lcores: the links between them are ring pairs presented
# as net_ring ports (their names carry DPDK's net_ring_ prefix); lossless, drained
cat >"$tmp/two.cfg" <<CFG
network = "$src/configs/h1.cfg";
instance = "";
firmware = "thread";
routers = [0, 1, 2, 3, 4, 5];
lcores = ( { lcore = 0; routers = [0, 1, 2]; }, { lcore = 1; routers = [3, 4, 5]; } );
generators = "all";
CFG
"$switch" --no-huge -m 512 --no-pci --file-prefix "dflybt$$" -l 0-1 --log-level=3 -- \
    "$tmp/two.cfg" --quiet --duration 2 --gen-seconds 1.5 --set clock.cycle_ns=10000 \
    --set traffic.load=0.3 >"$tmp/two.out" 2>&1 || { cat "$tmp/two.out"; fail "two lcores"; }
awk '/^generated / { if ($2 != $4 || $2 == 0) bad = 1; seen = 1 }
     END { exit bad || !seen }' "$tmp/two.out" || { head -5 "$tmp/two.out"; fail "two lcores: generated != delivered"; }
grep -q "held_in_routers 0 " "$tmp/two.out" || fail "two lcores: packets left in the routers"
if "$dfly" sim "$src/configs/h2.cfg" --set clock.link_rate=false >"$tmp/sim.out" 2>&1; then
    fail "dfly sim accepted clock.link_rate=false"
fi
grep -q "clock.link_rate = false is for dfly-switch" "$tmp/sim.out" || fail "sim's reason"

# 3. counters
"$dfly" bench counters --packets 100000 >"$tmp/c.txt" || fail "bench counters"
for k in "contention counter" "ECtN partial" "LIA injected" "all three" "none"; do
    grep "^$k" "$tmp/c.txt" | awk '$NF > 0 { ok = 1 } END { exit !ok }' ||
        fail "bench counters: no row for $k"
done

# 4. sim, usage
"$dfly" bench sim --configs h2 --patterns un --loads 0.3 --cycles 200 >"$tmp/s.txt" ||
    fail "bench sim"
awk '$1 == "h2" && $4 == "un" && $8 > 0 { ok = 1 } END { exit !ok }' "$tmp/s.txt" ||
    fail "bench sim: no h2 row"
# --runs: the medians, then the range of cycles/s around them; the runs agree on what they simulate
"$dfly" bench sim --configs h2 --patterns un --loads 0.3 --cycles 200 --runs 3 >"$tmp/s3.txt" ||
    fail "bench sim --runs 3"
awk '$1 == "h2" && NF == 12 && $11 > 0 && $11 <= $8 && $8 <= $12 { ok = 1 } END { exit !ok }' \
    "$tmp/s3.txt" || { cat "$tmp/s3.txt"; fail "bench sim --runs 3: no median within min..max"; }
[ "$(awk '$1 == "h2" { print $6 }' "$tmp/s.txt")" = "$(awk '$1 == "h2" { print $6 }' "$tmp/s3.txt")" ] ||
    fail "bench sim: accepted load differs between --runs 1 and 3 (same seed)"
"$dfly" bench sim --runs 0 >/dev/null 2>&1
[ $? -eq 2 ] || fail "bench sim --runs 0 accepted"
# --threads 2: the same packets (sim.threads gives the results of one thread)
"$dfly" bench sim --configs h2 --patterns un --loads 0.3 --cycles 200 --threads 2 >"$tmp/st.txt" ||
    fail "bench sim --threads 2"
grep -q "2 thread(s)" "$tmp/st.txt" || fail "bench sim --threads 2: not in the header"
[ "$(awk '$1 == "h2" { print $6 }' "$tmp/s.txt")" = "$(awk '$1 == "h2" { print $6 }' "$tmp/st.txt")" ] ||
    fail "bench sim: accepted load differs between 1 and 2 threads"
# --cpu-time: per CPU second, said in the header; the same packets
"$dfly" bench sim --configs h2 --patterns un --loads 0.3 --cycles 200 --cpu-time >"$tmp/sc.txt" ||
    fail "bench sim --cpu-time"
grep -q "per CPU second (--cpu-time)" "$tmp/sc.txt" || fail "bench sim --cpu-time: not in the header"
awk '$1 == "h2" && $8 > 0 { ok = 1 } END { exit !ok }' "$tmp/sc.txt" || fail "bench sim --cpu-time: no h2 row"
[ "$(awk '$1 == "h2" { print $6 }' "$tmp/s.txt")" = "$(awk '$1 == "h2" { print $6 }' "$tmp/sc.txt")" ] ||
    fail "bench sim: accepted load differs with --cpu-time"
"$dfly" bench sim --threads 0 >/dev/null 2>&1
[ $? -eq 2 ] || fail "bench sim --threads 0 accepted"
"$dfly" bench --help >/dev/null || fail "bench --help"
for k in sim dataplane counters; do
    "$dfly" bench $k --help | grep -q "usage: dfly bench $k" || fail "bench $k --help"
done
"$dfly" bench nosuch >/dev/null 2>&1; [ $? = 2 ] || fail "unknown benchmark: exit 2"
"$dfly" bench dataplane --runs 0 >/dev/null 2>&1; [ $? = 2 ] || fail "--runs 0: exit 2"
echo "bench: ok"
