#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Soak (issue #9): a namespace testbed under mixed traffic and faults for SECONDS (default 3600),
# then the invariants. Needs root (namespaces, veth pairs), iperf3 and ping.
#
#   scripts/soak.sh [SECONDS] [DFLY]        (DFLY default: build/tools/dfly)
#
# The h=1 network, one dfly-switch per group (3 processes) linked by veth pairs that lose 0.1%
# of the fabric frames, nodes 0 and 5 hosts in namespaces, nodes 1-4 dfly sim's generators
# (UGAL, UN, 0.05), the firmware in one dfly-controld (`dfly testbed run`). While it runs:
#   - TCP: iperf3 host 0 -> host 5 in 20-second rounds, and a ping 5 -> 0 every second;
#   - every 20 s, alternately: dfly-controld killed (SIGKILL) and restarted 2 s later on the
#     same register files; or a fabric veth taken down for 1 s and brought back up.
# At the end (the generators stop 10 s before, so the network drains):
#   - every generated packet was delivered, or discarded behind a link declared dead and
#     counted (`dfly testbed run` checks it; a 1-s flap is longer than link.dead_us, so the
#     routers route around it: the failover counters are printed, every link declared down
#     came back up);
#   - every host frame is accounted for: at the hosts' routers host_rx = injected + ARP
#     replies + edge drops; over all routers, ejected = host_tx + generated packets delivered;
#     no fabric drop (bad_dst, bad_vc, bad_port, no_room);
#   - the link layer repaired every loss (retransmissions > 0, nothing lost in the fabric);
#   - no credit leak: every fabric output VC has all its credits back (down_occ 0), though
#     CREDIT frames were lost too (their running totals resynchronise);
#   - every TCP round completed, at least 90% of the pings were answered;
#   - every dfly-switch ran to the end; nothing of the testbed is left.
# It prints a progress line a minute and the invariants; exit 0 if they all hold.
set -u
secs="${1:-3600}"
dfly="${2:-$(dirname "$0")/../build/tools/dfly}"
dfly=$(realpath "$dfly")
src=$(realpath "$(dirname "$0")/..")
controld="$(dirname "$dfly")/../control/dfly-controld"
[ -x "$controld" ] || controld="$(dirname "$dfly")/dfly-controld"
[ "$secs" -ge 60 ] 2>/dev/null || { echo "soak: SECONDS must be >= 60"; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: soak needs root (namespaces)"; exit 77; }
for t in iperf3 ping python3; do command -v $t >/dev/null || { echo "SKIP: no $t"; exit 77; }; done
[ -x "$controld" ] || { echo "soak: dfly-controld not found beside $dfly"; exit 2; }
name="s$(($$ % 100000))"
tmp=$(mktemp -d /tmp/dfly-soak.XXXXXX)
d="$tmp/tb"
run_pid=""
cleanup() {
    [ -n "$run_pid" ] && kill "$run_pid" 2>/dev/null
    pkill -9 -f -- "--instance $name\$" 2>/dev/null
    [ -f "$d/testbed.state" ] && "$dfly" testbed down --dir "$d" >/dev/null 2>&1
    for ns in $(ip netns list 2>/dev/null | awk -v p="$name-" 'index($1, p) == 1 { print $1 }'); do
        ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
        ip netns del "$ns" 2>/dev/null
    done
    rm -f /dev/shm/dfly."$name".r* 2>/dev/null
    [ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() { echo "FAIL: $*"; exit 1; }

echo "soak: $secs s, testbed $name in $d"
"$dfly" testbed run "$src/configs/h1.cfg" --dir "$d" --name "$name" --split group --link veth \
    --hosts veth --host-nodes 0,5 --generators on --firmware controld --loss-ppm 1000 \
    --set packet.phit_bytes=64 --set buffers.local=64 --set buffers.output=64 \
    --set clock.cycle_ns=4000 --set routing.mechanism=ugal --set traffic.load=0.05 \
    --duration "$secs" --gen-seconds $((secs - 10)) >"$tmp/run.out" 2>&1 &
run_pid=$!
# wait until the testbed is up (the hosts' namespaces answer)
for _ in $(seq 1 300); do
    ip netns exec "$name-h0" ping -c 1 -W 1 10.77.0.6 >/dev/null 2>&1 && break
    kill -0 "$run_pid" 2>/dev/null || { cat "$tmp/run.out"; fail "the testbed did not come up"; }
    sleep 0.2
done
ip netns exec "$name-h0" ping -c 1 -W 1 10.77.0.6 >/dev/null 2>&1 || fail "host 0 cannot reach 5"
ip netns exec "$name-h5" iperf3 -s -D -p 5201 >/dev/null 2>&1

t0=$(date +%s)
end=$((t0 + secs - 15))
pings=0 pongs=0 rounds=0 tcp_ok=0 restarts=0 flaps=0 next_fault=$((t0 + 20)) next_line=$((t0 + 60))
# the fabric veths, as "namespace link" pairs
links=$(for ns in $(ip netns list | awk -v p="$name-s" 'index($1, p) == 1 { print $1 }'); do
    ip -n "$ns" -o link show | grep -o "${name}l[0-9]*[ab]" | sort -u | sed "s/^/$ns /"
done)
[ -n "$links" ] || fail "no fabric veth found"
tcp_pid=""
while [ "$(date +%s)" -lt "$end" ]; do
    now=$(date +%s)
    if [ -z "$tcp_pid" ] || ! kill -0 "$tcp_pid" 2>/dev/null; then
        if [ -n "$tcp_pid" ]; then
            wait "$tcp_pid" && tcp_ok=$((tcp_ok + 1))
        fi
        if [ $((end - now)) -gt 25 ]; then
            ip netns exec "$name-h0" iperf3 -c 10.77.0.6 -p 5201 -t 20 -J \
                >"$tmp/iperf.$rounds.json" 2>&1 &
            tcp_pid=$!
            rounds=$((rounds + 1))
        else
            tcp_pid=""
        fi
    fi
    pings=$((pings + 1))
    ip netns exec "$name-h5" ping -c 1 -W 1 10.77.0.1 >/dev/null 2>&1 && pongs=$((pongs + 1))
    if [ "$now" -ge "$next_fault" ]; then
        if [ $(((restarts + flaps) % 2)) -eq 0 ]; then
            pkill -9 -f -- "dfly-controld .* --instance $name\$"
            sleep 2
            ("$controld" "$d/network.cfg" --instance "$name" >>"$tmp/controld.log" 2>&1 &)
            restarts=$((restarts + 1))
        else
            set -- $(echo "$links" | sed -n "$((flaps % $(echo "$links" | wc -l) + 1))p")
            ip -n "$1" link set "$2" down && sleep 1 && ip -n "$1" link set "$2" up
            flaps=$((flaps + 1))
        fi
        next_fault=$((now + 20))
    fi
    if [ "$now" -ge "$next_line" ]; then
        echo "soak: t=$((now - t0))s pings $pongs/$pings, TCP rounds $tcp_ok/$rounds done," \
            "firmware restarts $restarts, link flaps $flaps"
        next_line=$((now + 60))
    fi
    sleep 1
done
if [ -n "$tcp_pid" ]; then
    wait "$tcp_pid" && tcp_ok=$((tcp_ok + 1))
fi
# the testbed's own end: generators stopped, drained, down, counters written
wait "$run_pid"
rc=$?
run_pid=""
pkill -9 -f -- "dfly-controld .* --instance $name\$"
cat "$tmp/run.out" | grep -e "^final" -e "^conservation" -e "^LOST" -e "exited" | sed 's/^/  /'
[ "$rc" -eq 0 ] || { tail -20 "$tmp/run.out"; fail "dfly testbed run exited $rc"; }
# a flap longer than link.dead_us is a link failure: the routers route around it, and what could
# only use it is discarded once it is dead (counted: "but N discarded behind a dead link")
grep -q "^conservation: every generated packet was delivered" "$tmp/run.out" ||
    fail "not every generated packet was delivered or counted"
delivered=$(sed -n 's/^final counters.* delivered \([0-9]*\) .*/\1/p' "$tmp/run.out")
python3 - "$d" "${delivered:-0}" <<'EOF' || fail "accounting"
import glob, re, sys
R, r = {}, None
for path in sorted(glob.glob(sys.argv[1] + "/p*.counters")):
    for line in open(path):
        m = re.match(r"router (\d+) cycle", line)
        if m:
            r = int(m.group(1)); R[r] = {}; continue
        m = re.match(r"\s+(\S+) (-?\d+)$", line)
        if m and r is not None:
            R[r][m.group(1)] = int(m.group(2))
assert sorted(R) == list(range(6)), f"routers in the counters files: {sorted(R)}"
c = lambda r, k: R[r].get(k, 0)
allk = lambda r, suffix: sum(v for k, v in R[r].items() if k.endswith(suffix))
vcsum = lambda r, what: sum(v for k, v in R[r].items() if re.fullmatch(rf"port0\.vc\d+\.{what}", k))
EDGE = ["host_spoof", "host_unknown_dst", "host_non_unicast", "host_bad_frame", "inj_full"]
FABRIC = ["bad_dst", "bad_vc", "bad_port", "no_room"]
fails, t = [], dict(rx=0, tx=0, arp=0, edge=0, fab=0, retx=0, lost=0, ej=0, txfull=0)
# routers 0 and 5 (p = 1) inject only their host's frames
for r in (0, 5):
    rx, tx, arp = c(r, "port0.host_rx"), c(r, "port0.host_tx"), c(r, "port0.arp_replies")
    inj = vcsum(r, "enq_pkts")
    edge = sum(c(r, "drop." + x) for x in EDGE)
    if rx != inj + arp + edge:
        fails.append(f"router {r}: host_rx {rx} != injected {inj} + arp {arp} + edge drops {edge}")
    t["rx"] += rx; t["tx"] += tx; t["arp"] += arp; t["edge"] += edge
    t["txfull"] += c(r, "drop.host_tx_full")
# what the nodes took: host frames to the hosts, generated packets to the sinks
delivered = int(sys.argv[2])
for r in range(6):
    t["ej"] += vcsum(r, "out_vc_pkts")
if t["ej"] != t["tx"] + t["txfull"] + delivered:
    fails.append(f"ejected {t['ej']} != host_tx {t['tx']} + host_tx_full {t['txfull']} + "
                 f"generated packets delivered {delivered}")
for r in range(6):
    t["fab"] += sum(c(r, "drop." + x) for x in FABRIC)
    t["retx"] += allk(r, ".llr_retx")
    t["lost"] += allk(r, ".wire_rx_lost")
if t["fab"]:
    fails.append(f"fabric drops: {t['fab']}")
# no credit leak: drained, every output has all its credits back, lost CREDIT frames included
# (their running totals resynchronise)
leak = [f"router {r} {k} {v}" for r in range(6) for k, v in R[r].items()
        if re.fullmatch(r"port\d+\.vc\d+\.down_occ", k) and v != 0]
if leak:
    fails.append("credits not back: " + ", ".join(leak))
ncred = sum(1 for r in range(6) for k in R[r] if re.fullmatch(r"port\d+\.vc\d+\.credits", k))
if t["retx"] == 0:
    fails.append("no retransmission: the faults did not happen?")
fo = {k: sum(c(r, k) for r in range(6)) for k in
      ("route.fail_nonmin", "route.fail_redraw", "route.fail_reroute", "route.fail_wait",
       "drop.link_dead")}
downs = sum(allk(r, ".link_downs") for r in range(6))
ups = sum(allk(r, ".link_ups") for r in range(6))
if downs != ups:
    fails.append(f"links declared down {downs} times but up again {ups} times")
print(f"  failover: links declared down {downs} times and up {ups}; " +
      ", ".join(f"{k} {v}" for k, v in fo.items()))
print(f"  hosts: host_rx {t['rx']} = injected + ARP replies {t['arp']} + edge drops {t['edge']}; "
      f"ejected {t['ej']} = host_tx {t['tx']} + generated packets delivered {delivered}; "
      f"fabric drops 0; {t['lost']} fabric frames lost on the wire (0.1% and the flaps), "
      f"{t['retx']} resent; all credits back on the {ncred} fabric output VCs")
if fails:
    print("\n".join(fails)); sys.exit(1)
EOF
echo "  TCP: $tcp_ok of $rounds iperf3 rounds completed; pings $pongs/$pings;" \
    "firmware restarts $restarts, link flaps $flaps"
[ "$tcp_ok" -eq "$rounds" ] || fail "$((rounds - tcp_ok)) TCP rounds failed"
[ $((pongs * 10)) -ge $((pings * 9)) ] || fail "only $pongs of $pings pings answered"
[ "$restarts" -ge 1 ] && [ "$flaps" -ge 1 ] || fail "no fault was injected"
leftover=$(ip netns list 2>/dev/null | grep -c "^$name-")
[ "$leftover" -eq 0 ] || fail "$leftover namespaces left"
echo "soak: $secs s, all invariants hold"
