#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The h=1 Dragonfly split over two dfly-switch processes (routers 0-2 | 3-5); the two links that
# cross (router 2 port 1 <-> router 3 port 1, local; router 0 port 2 <-> router 5 port 2,
# global) are DPDK devices:
#  1. memif, MIN under UN 0.1: the generator traffic is delivered in full (generated = delivered
#     once the generators stop) and the average latency equals dfly sim's within 5%;
#  2. memif, UGAL-L under ADV+1 0.3: the misrouted (nonminimal) share agrees with dfly sim's
#     within 3 percentage points, and so does the latency within 5%;
#  3. the global link over a veth pair (net_af_packet) with 1% netem loss: nothing is lost inside
#     the fabric (generated = delivered), the retry counters show the retransmissions;
#  4. dfly-controld as the firmware (register files in shared memory), killed with SIGKILL under
#     load and restarted: generated = delivered, and the restarted daemon attaches again;
#  5. link timing: process b stopped (SIGSTOP) for 300 ms under load: nothing is lost, and the
#     link timing counters show a's packets taken thousands of cycles early by b's routers
#     (b behind the clock) and b's packets thousands of cycles late at a's; the credit timing,
#     b's credits thousands of cycles late at a and a's early at b.
# Every process, socket, veth and shared-memory object it creates is removed, also on failure.
set -u
dfly="${1:?usage: memif.sh DFLY DFLY_SWITCH DFLY_CONTROLD SOURCE_DIR}"
sw="${2:?}"
controld="${3:?}"
src="${4:?}"
tag="dm$$"
tmp=$(mktemp -d)
pids=""
checks=0
cleanup() {
    for p in $pids; do kill -9 "$p" 2>/dev/null; done
    ip link del "${tag}a" 2>/dev/null
    rm -f /dev/shm/dfly."$tag".r* 2>/dev/null
    rm -rf "/var/run/dpdk/${tag}a" "/var/run/dpdk/${tag}b" 2>/dev/null
    [ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }
# lost NAME MESSAGE: fail, with what both processes said of the packets and every non-zero drop
# and link-state counter (where the difference went)
lost() {
    local f
    for f in "$tmp/$1.a" "$tmp/$1.b"; do
        echo "  $(basename "$f"): $(grep -e '^generated' "$f")"
        awk '$1 ~ /(^drop\.|link_downs|link_ups|wire_rx_lost|fell)/ && $2 != 0 { print "    " $0 }' "$f" |
            sort | uniq -c | sed 's/^ */    /'
        grep -h "fell behind\|link down" "$f" "$f.log" 2>/dev/null | sed 's/^/    /'
    done
    fail "$2"
}
pass() { checks=$((checks + 1)); echo "ok: $*"; }

net="$src/configs/h1.cfg"
eal="--no-huge -m 256 --no-pci --no-shconf --log-level=error"
# a 20 us cycle: 50k cycles/s. One core keeps up with three routers at 10 us too, on average,
# but on the 2-core CI VM (two processes, their firmware threads) the link timing counters put
# 60% of the packets more than 2 cycles off their due cycle at 10 us (3.3-4.3 cycles a packet
# on average), against 33% at 20 us (1.4-2.1): UGAL's latency under ADV+1 was within 0.4% of
# dfly sim's in every 20 us run, while 10 us runs drifted up to 5% (and 18% once) above it.
clk="--set clock.cycle_ns=20000"
# latency against dfly sim within 5%, UGAL's misrouted share within 3 points. A sanitizer build
# (DFLY_SANITIZED=1, scripts/test.sh) runs behind the clock at times, which delays packets and
# changes the queues UGAL compares (ASan runs gave ADV+1 latency 305 and 235 against 204,
# misrouted 40.5% against 44.9%): there the figures are printed, not compared; every other
# check (conservation, hosts, spoofing, loss) stays.
lat_tol=0.05
mis_tol=3
# A real-time run that lost the CPU for a while (normal CI runs at 10 us cycles once gave UN
# latency 155 against 114, others ADV+1 latency 281, 557 and 214 against 204) does not say what
# the emulation does. disturbed NAME says why a run does not count: a link declared down, a
# port not polled for 10 ms, more than 100 retransmissions, a lcore more than 1,000 cycles
# behind the clock, or links that did not keep emulated time (timing.sh: the packets reached
# the peer's router more than TIMING_MAE cycles off their due cycle on average). A mismatch in
# a calm run fails at once; a disturbed run is made again, up to 3 times, and after 3 disturbed
# runs the figures are printed, not compared. A run that did not drain in time is disturbed too
# when it lost the CPU (lost otherwise); 3 such runs fail.
# Under the sanitizers the figures are printed, not compared.
. "$src/tests/integration/timing.sh"
mismatch=""
disturbed() { # disturbed NAME: sets $why
    local bent=1 # not "off": link_timing sets that one
    rt_signs "$tmp/$1.a" "$tmp/$1.b"
    timing_off "$tmp/$1.a" "$tmp/$1.b" || bent=0
    why="$downs link downs, $gaps ports with polling gaps, $retx retransmissions, lcores at most $behind cycles behind, $timing_why"
    [ "$downs" -gt 0 ] || [ "$gaps" -gt 0 ] || [ "$retx" -gt 100 ] || [ "$behind" -gt 1000 ] ||
        [ "$bent" -eq 1 ]
}
# timed_check NAME: the peers' ACKs timed packets in both directions of both cross links (a run
# of 3 s timed thousands: none means the link timing is broken, and its sign could not fire)
timed_check() {
    local f
    for f in "$tmp/$1.a" "$tmp/$1.b"; do
        link_timing "$f"
        [ "$timed" -gt 0 ] || fail "$1: no packet timed by the link timing in $(basename "$f")"
        credit_timing "$f"
        [ "$timed" -gt 0 ] || fail "$1: no CREDIT frame timed by the credit timing in $(basename "$f")"
    done
}
fidelity() { # fidelity CHECK NAME: run CHECK (which runs NAME and sets $mismatch)
    local attempt
    for attempt in 1 2 3; do
        $1 && return 0 # may carry its arguments
        if [ -n "${DFLY_SANITIZED:-}" ]; then
            echo "note:$mismatch (sanitizer build: not compared)"
            return 0
        fi
        disturbed "$2" || fail "${mismatch# } in a run that kept real time ($why)"
        echo "note:$mismatch in a run that lost the CPU ($why)"
    done
    echo "note: $2: 3 disturbed runs: not compared"
    case "$mismatch" in
    *"not drained"*) fail "$2: no run drained in 3 (the machine is too slow for real time)" ;;
    esac
}

# Links are declared dead after 2 s of silence, not 200 ms: this test is about fidelity and
# conservation, and a sanitizer build or a busy VM can keep a process off the CPU for more than
# 200 ms (measured: 222 ms), after which its peer fails the links over and drops what was
# queued for them (counted as drop.link_dead; failover.sh tests that). $linkx adds settings.
linkx=""
# deploy FILE ROUTERS PORTS GEN [INSTANCE FIRMWARE]
deploy() {
    cat >"$1" <<EOF
network = "$net";
instance = "${5:-}";
firmware = "${6:-thread}";
routers = [$2];
ports = ( $3 );
generators = "$4";
link = { dead_us = 2000000; $linkx };
EOF
}

# listening PATH: a unix socket (abstract or not) listens on PATH (__SO_ACCEPTCON in its flags)
listening() {
    awk -v p="$1" '$4 == "00010000" && ($8 == p || $8 == "@" p) { f = 1 } END { exit !f }' /proc/net/unix
}

# run NAME SETS: both processes, generators on for 3 s, then 3 s to drain (a busy VM can leave a
# process a second behind the clock). A memif client whose connect is refused on a stalled VM
# ("Failed to connect socket", with the server listening) is started again, up to 3 times.
run() {
    local name=$1 sets=$2 ep sk try
    for try in 1 2 3; do
        ep=$(python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC) + 300000000)')
        rm -f "$tmp/l.sock" "$tmp/g.sock"
        # shellcheck disable=SC2086
        "$sw" $eal -l 0 --file-prefix "${tag}a" -- "$tmp/a.cfg" $clk $sets --epoch-ns "$ep" \
            --gen-seconds 3 --duration 6 --quiet --counters "$tmp/$name.a" >"$tmp/$name.a.log" 2>&1 &
        local pa=$!
        pids="$pids $pa"
        # the memif client needs the server's sockets listening (abstract by default; bound is
        # not enough: a connect between bind() and listen() is refused)
        for sk in $(sed -n 's/.*socket=\([^,]*\),.*/\1/p' "$tmp/a.cfg"); do
            for _ in $(seq 200); do listening "$sk" && break; sleep 0.05; done
        done
        # shellcheck disable=SC2086
        if "$sw" $eal -l 1 --file-prefix "${tag}b" -- "$tmp/b.cfg" $clk $sets --epoch-ns "$ep" \
            --gen-seconds 3 --duration 6 --quiet --counters "$tmp/$name.b" >"$tmp/$name.b.log" 2>&1; then
            wait "$pa" || { cat "$tmp/$name.a.log"; fail "$name: process a"; }
            return 0
        fi
        grep -q "Failed to connect socket" "$tmp/$name.b.log" && [ "$try" -lt 3 ] ||
            { cat "$tmp/$name.b.log"; fail "$name: process b"; }
        echo "note: $name: the memif client's connect was refused; starting both again"
        kill "$pa" 2>/dev/null
        wait "$pa" 2>/dev/null
    done
}

# field FILE KEY: the number after KEY on the summary lines
field() { sed -n "s/.*\\b$2 \\([0-9.]*\\).*/\\1/p" "$1" | head -1; }
sum_field() { echo $(( $(field "$1" "$3") + $(field "$2" "$3") )); }
# counter FILE NAME: sum of "  NAME value" lines (every router)
counter() { awk -v k="$2" '$1 == k { s += $2 } END { print s + 0 }' "$1"; }
# weighted average of a summary field over both processes (weights: measured packets)
wavg() {
    local m1 m2
    m1=$(field "$1" measured)
    m2=$(field "$2" measured)
    python3 -c "print(($m1*$(field "$1" "$3") + $m2*$(field "$2" "$3")) / ($m1+$m2))"
}
within() { python3 -c "import sys; a,b,t=$1,$2,$3; sys.exit(0 if abs(a-b) <= t else 1)"; }
rel() { python3 -c "import sys; a,b,t=$1,$2,$3; sys.exit(0 if abs(a-b) <= t*b else 1)"; }

sim_field() { # sim_field SETS COLUMN(1-based in the table row)
    # shellcheck disable=SC2086
    "$dfly" sim "$net" $1 --quiet 2>/dev/null | awk -v c="$2" '$1 !~ /^#/ && $1 != "mech" { print $c; exit }'
}

memif_ports() { # memif_ports ROLE
    echo "{ router = $([ "$1" = server ] && echo 2 || echo 3); port = 1; dev = \"net_memif0\";
            args = \"role=$1,socket=$tmp/l.sock,id=0\"; },
          { router = $([ "$1" = server ] && echo 0 || echo 5); port = 2; dev = \"net_memif1\";
            args = \"role=$1,socket=$tmp/g.sock,id=0\"; }"
}

# ---- 1 and 2: memif
deploy "$tmp/a.cfg" "0, 1, 2" "$(memif_ports server)" all
deploy "$tmp/b.cfg" "3, 4, 5" "$(memif_ports client)" all

un_check() {
    run un "--set routing.mechanism=min --set traffic.load=0.1"
    g=$(sum_field "$tmp/un.a" "$tmp/un.b" generated)
    d=$(sum_field "$tmp/un.a" "$tmp/un.b" delivered)
    mismatch=""
    if ! [ "$g" -gt 5000 ] || ! [ "$g" -eq "$d" ]; then
        # a run that fell seconds behind the clock has not drained when its duration ends
        disturbed un || lost un "UN: generated $g delivered $d"
        mismatch=" UN: generated $g delivered $d (not drained, or too few generated)"
        return 1
    fi
    pass "memif UN 0.1 MIN: $g generated, $d delivered"
    timed_check un
    lat=$(wavg "$tmp/un.a" "$tmp/un.b" avg)
    slat=$(sim_field "--set routing.mechanism=min --set traffic.load=0.1" 5)
    mismatch=""
    rel "$lat" "$slat" "$lat_tol" || { mismatch=" UN latency $lat vs dfly sim $slat"; return 1; }
    timing_off "$tmp/un.a" "$tmp/un.b"
    pass "memif UN latency $lat cycles, dfly sim $slat ($timing_why)"
}
fidelity un_check un

adv_check() {
    local sets="--set routing.mechanism=ugal --set traffic.pattern=adv+1 --set traffic.load=0.3"
    run adv "$sets"
    g=$(sum_field "$tmp/adv.a" "$tmp/adv.b" generated)
    d=$(sum_field "$tmp/adv.a" "$tmp/adv.b" delivered)
    mismatch=""
    if [ "$g" -ne "$d" ]; then
        disturbed adv || lost adv "ADV+1: generated $g delivered $d"
        mismatch=" ADV+1: generated $g delivered $d (not drained)"
        return 1
    fi
    timed_check adv
    mis=$(wavg "$tmp/adv.a" "$tmp/adv.b" misrouted)
    smis=$(sim_field "$sets" 8)
    lat=$(wavg "$tmp/adv.a" "$tmp/adv.b" avg)
    slat=$(sim_field "$sets" 5)
    mismatch=""
    within "$mis" "$smis" "$mis_tol" || mismatch="$mismatch ADV+1 misrouted $mis% vs dfly sim $smis%"
    rel "$lat" "$slat" "$lat_tol" || mismatch="$mismatch ADV+1 latency $lat vs dfly sim $slat"
    [ -z "$mismatch" ] || return 1
    pass "memif ADV+1 0.3 UGAL: misrouted $mis%, dfly sim $smis%"
    timing_off "$tmp/adv.a" "$tmp/adv.b"
    pass "memif ADV+1 latency $lat cycles, dfly sim $slat ($timing_why)"
}
fidelity adv_check adv

# 2b. the indirect mechanisms of IAR over the same links: RES's reservation flits (RES_REQ and
# RES_REP data frames under the link-level retry, across the memif local link 2 <-> 3) and CRT's
# held credits, under ADV+1 0.3: conservation, and the misrouted share and latency of dfly sim
mech_check() { # mech_check MECHANISM [SETTINGS]
    local m=$1 sets="--set routing.mechanism=$1 --set traffic.pattern=adv+1 --set traffic.load=0.3${2:+ --set $2}"
    run "$m" "$sets"
    g=$(sum_field "$tmp/$m.a" "$tmp/$m.b" generated)
    d=$(sum_field "$tmp/$m.a" "$tmp/$m.b" delivered)
    mismatch=""
    if [ "$g" -ne "$d" ] || ! [ "$g" -gt 5000 ]; then
        disturbed "$m" || lost "$m" "$m ADV+1: generated $g delivered $d"
        mismatch=" $m ADV+1: generated $g delivered $d (not drained)"
        return 1
    fi
    # PB's latency oscillates (CBAR §V-C): dfly sim's default 10k-cycle window gives 287.6 cycles
    # on one seed, 267-277 on others; it is compared over the window the real-time run measures
    # (from about cycle 15,000 to the end of --gen-seconds 3, 150,000 cycles): 272.9
    local simw=""
    [ "$m" = pb ] && simw="--set sim.warmup=15000 --set sim.measure=135000"
    mis=$(wavg "$tmp/$m.a" "$tmp/$m.b" misrouted)
    smis=$(sim_field "$sets $simw" 8)
    lat=$(wavg "$tmp/$m.a" "$tmp/$m.b" avg)
    slat=$(sim_field "$sets $simw" 5)
    within "$mis" "$smis" "$mis_tol" || mismatch="$mismatch $m ADV+1 misrouted $mis% vs dfly sim $smis%"
    rel "$lat" "$slat" "$lat_tol" || mismatch="$mismatch $m ADV+1 latency $lat vs dfly sim $slat"
    [ -z "$mismatch" ] || return 1
    extra=""
    if [ "$m" = res ]; then
        req=$(( $(counter "$tmp/$m.a" port1.res_req_tx) + $(counter "$tmp/$m.b" port1.res_req_tx) ))
        rep=$(( $(counter "$tmp/$m.a" port1.res_rep_tx) + $(counter "$tmp/$m.b" port1.res_rep_tx) ))
        [ "$req" -gt 0 ] && [ "$req" -eq "$rep" ] ||
            fail "res over memif: $req request flits, $rep replies on the local ports"
        extra=", $req reservation flits answered"
    fi
    if [ "$m" = pb ]; then
        # PB_STATE every cycle on every local port: those of one transmit of a memif port go
        # as one BUNDLE (link.bundle), and the peer takes every record: the routers' counts of
        # control frames sent and handed to the firmware differ only by the frames sent before
        # a link was up (drop.link_down, drop.ctrl_port_down) and those on the wire at the end
        bun=$(( $(counter "$tmp/$m.a" port1.wire_tx_bundles) + $(counter "$tmp/$m.b" port1.wire_tx_bundles) ))
        bd=$(( $(counter "$tmp/$m.a" port1.wire_tx_bundled) + $(counter "$tmp/$m.b" port1.wire_tx_bundled) ))
        rb=$(( $(counter "$tmp/$m.a" port1.wire_rx_bundles) + $(counter "$tmp/$m.b" port1.wire_rx_bundles) ))
        ctx=$(( $(counter "$tmp/$m.a" port1.ctrl_tx) + $(counter "$tmp/$m.b" port1.ctrl_tx) ))
        crx=$(( $(counter "$tmp/$m.a" port1.ctrl_rx) + $(counter "$tmp/$m.b" port1.ctrl_rx) ))
        down=0
        for k in drop.link_down drop.ctrl_port_down; do
            down=$(( down + $(counter "$tmp/$m.a" $k) + $(counter "$tmp/$m.b" $k) ))
        done
        [ "$bun" -gt 0 ] && [ "$bd" -gt "$bun" ] && [ "$rb" -gt 0 ] && [ "$rb" -le "$bun" ] ||
            fail "pb over memif: $bun BUNDLE frames sent with $bd firmware frames, $rb received"
        bad=0
        for k in drop.decode_truncated drop.decode_version drop.decode_type drop.decode_range \
            drop.fabric_other; do
            bad=$(( bad + $(counter "$tmp/$m.a" $k) + $(counter "$tmp/$m.b" $k) ))
        done
        # a record lost in every BUNDLE would be 1/(records a BUNDLE) of them, over 1 %; the
        # processes stop a few ms apart, and what one sends then is not taken (measured: 0.03 %
        # alone, 0.107 % beside a CPU-bound job on this 2-core machine): a third of 1 % tells
        # the two apart
        gap=$((ctx - crx - down))
        [ "$bad" -eq 0 ] && [ "$gap" -ge 0 ] && [ "$gap" -le $((ctx / 300)) ] ||
            fail "pb over memif: $ctx control frames sent on port 1, $crx handed to the" \
                "firmware, $down dropped before the links were up, $bad decode errors"
        extra=", $bd PB_STATE frames in $bun BUNDLEs, $crx of $ctx control frames handed up ($down before link up)"
    fi
    pass "memif ADV+1 0.3 $m: misrouted $mis%, dfly sim $smis%; latency $lat, dfly sim $slat$extra"
}
# a sanitizer build runs behind the clock and compares nothing: these two runs add no check there
if [ -z "${DFLY_SANITIZED:-}" ]; then
    fidelity "mech_check res" res
    fidelity "mech_check crt" crt
    # h = 1: PB compares a queue with the other global queues' (none), as section 4 below
    fidelity "mech_check pb routing.pb.average=other" pb
fi

# ---- 3: the global link over a lossy veth
if ip link add "${tag}a" type veth peer name "${tag}b" 2>/dev/null; then
    for i in a b; do
        ip link set "${tag}$i" up
        sysctl -qw "net.ipv6.conf.${tag}$i.disable_ipv6=1" 2>/dev/null || true
    done
    linkx=""
    if tc qdisc add dev "${tag}a" root netem loss 1% 2>/dev/null; then
        tc qdisc add dev "${tag}b" root netem loss 1% || fail "netem"
        how="netem"
    else
        # no sch_netem in this kernel: the receivers discard 1% (link.loss_ppm), as netem would
        linkx="loss_ppm = 10000;"
        how="link.loss_ppm (no netem here)"
    fi
    deploy "$tmp/a.cfg" "0, 1, 2" "{ router = 2; port = 1; dev = \"net_memif0\";
        args = \"role=server,socket=$tmp/l.sock,id=0\"; },
        { router = 0; port = 2; dev = \"net_af_packet0\"; args = \"iface=${tag}a\"; }" all
    deploy "$tmp/b.cfg" "3, 4, 5" "{ router = 3; port = 1; dev = \"net_memif0\";
        args = \"role=client,socket=$tmp/l.sock,id=0\"; },
        { router = 5; port = 2; dev = \"net_af_packet0\"; args = \"iface=${tag}b\"; }" all
    run loss "--set routing.mechanism=min --set traffic.load=0.1"
    g=$(sum_field "$tmp/loss.a" "$tmp/loss.b" generated)
    d=$(sum_field "$tmp/loss.a" "$tmp/loss.b" delivered)
    retx=$(( $(counter "$tmp/loss.a" port2.llr_retx) + $(counter "$tmp/loss.b" port2.llr_retx) ))
    [ "$g" -gt 5000 ] && [ "$g" -eq "$d" ] || lost loss "1% loss: generated $g delivered $d"
    [ "$retx" -gt 0 ] || fail "1% loss: no retransmission counted"
    lost=$(( $(counter "$tmp/loss.a" port2.wire_rx_lost) + $(counter "$tmp/loss.b" port2.wire_rx_lost) ))
    pass "veth, 1% loss by $how: $g generated, $d delivered, $lost frames lost, $retx resent"
    ip link del "${tag}a"
else
    echo "skip: no veth (not root?)"
fi

# ---- 4: dfly-controld killed under load
linkx=""
deploy "$tmp/a.cfg" "0, 1, 2" "$(memif_ports server)" all "$tag" external
deploy "$tmp/b.cfg" "3, 4, 5" "$(memif_ports client)" all "$tag" external
pb="--set routing.mechanism=pb --set routing.pb.average=other --set traffic.pattern=adv+1 --set traffic.load=0.3"
# shellcheck disable=SC2086
"$controld" "$net" --instance "$tag" $pb --quiet 2>"$tmp/cd1.log" &
cd1=$!
pids="$pids $cd1"
( sleep 1.5; kill -9 "$cd1"; sleep 0.5
  # shellcheck disable=SC2086
  exec "$controld" "$net" --instance "$tag" $pb 2>"$tmp/cd2.log" --idle-exit 2000 ) &
pids="$pids $!"
run kill "$pb"
g=$(sum_field "$tmp/kill.a" "$tmp/kill.b" generated)
d=$(sum_field "$tmp/kill.a" "$tmp/kill.b" delivered)
[ "$g" -gt 5000 ] && [ "$g" -eq "$d" ] || lost kill "controld killed: generated $g delivered $d"
sleep 2.5
grep -q "attached to" "$tmp/cd2.log" || { cat "$tmp/cd2.log"; fail "restarted dfly-controld did not attach"; }
pass "dfly-controld SIGKILL under load and restart: $g generated, $d delivered"

# ---- 5: link timing: process b stopped for 300 ms under load
# When b stops, a's packets wait in the memif ring; b comes back 30,000 cycles behind the clock
# and takes them at its old cycles: a's links report them early. b's own packets then leave
# long after they were due: b's links report them late. Both by thousands of cycles, where a
# calm run is off by a few (and at most a few hundred when the VM is busy).
linkx=""
deploy "$tmp/a.cfg" "0, 1, 2" "$(memif_ports server)" all
deploy "$tmp/b.cfg" "3, 4, 5" "$(memif_ports client)" all
# b is stopped 1.5 s after it starts (it starts once a's sockets listen, which can take seconds
# on a busy VM); "$tmp/stopped" says it was
rm -f "$tmp/stopped"
( for _ in $(seq 300); do
      bp=$(pgrep -f -- "--file-prefix ${tag}b" | head -1)
      [ -n "$bp" ] && break
      sleep 0.05
  done
  [ -n "$bp" ] || exit 0
  sleep 1.5
  kill -STOP "$bp" && sleep 0.3 && kill -CONT "$bp" && echo "$bp" >"$tmp/stopped" ) &
stopper=$!
pids="$pids $stopper"
run stop "--set routing.mechanism=min --set traffic.load=0.1"
wait "$stopper" 2>/dev/null
[ -s "$tmp/stopped" ] || fail "b stopped 300 ms: process b was not found running to be stopped"
g=$(sum_field "$tmp/stop.a" "$tmp/stop.b" generated)
d=$(sum_field "$tmp/stop.a" "$tmp/stop.b" delivered)
[ "$g" -gt 5000 ] && [ "$g" -eq "$d" ] || lost stop "b stopped: generated $g delivered $d"
link_timing "$tmp/stop.a"
a_early=$early_max a_why="$timed timed, $off off, worst $late_max late, $early_max early"
link_timing "$tmp/stop.b"
b_late=$late_max b_why="$timed timed, $off off, worst $late_max late, $early_max early"
# the credit lines, measured by the receiver: b's credits reach a late, a's reach b early
credit_timing "$tmp/stop.a"
a_cr_late=$late_max a_cr="$timed timed, worst $late_max late, $early_max early"
credit_timing "$tmp/stop.b"
b_cr_early=$early_max b_cr="$timed timed, worst $late_max late, $early_max early"
[ "$a_cr_late" -ge 5000 ] && [ "$b_cr_early" -ge 5000 ] ||
    fail "b stopped 300 ms: credits at most $a_cr_late cycles late at a, $b_cr_early early at b, want 5000+ (a: $a_cr; b: $b_cr)"
grep -q "^credit timing: .* worst $a_cr_late late, [0-9]* early)" "$tmp/stop.a" ||
    { grep "^credit timing" "$tmp/stop.a"; fail "a's exit report has no credit timing line with its worst late $a_cr_late"; }
[ "$a_early" -ge 5000 ] || fail "b stopped 300 ms: a's links saw packets at most $a_early cycles early, want 5000+ (a: $a_why; b: $b_why)"
grep -q "^link timing: .* worst [0-9]* late, $a_early early)" "$tmp/stop.a" ||
    { grep "^link timing" "$tmp/stop.a"; fail "a's exit report has no link timing line with its worst early $a_early"; }
[ "$b_late" -ge 5000 ] || fail "b stopped 300 ms: b's links saw packets at most $b_late cycles late, want 5000+ (a: $a_why; b: $b_why)"
pass "b stopped 300 ms: $g generated, $d delivered; a's links took packets up to $a_early cycles early, b's up to $b_late late; credits up to $a_cr_late late at a, $b_cr_early early at b"

echo "$checks passed, 0 failed"
