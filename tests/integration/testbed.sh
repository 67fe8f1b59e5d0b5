#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# `dfly testbed` on the h=1 Dragonfly (3 groups, 6 routers):
#  1. gen: the files and up.sh are written, nothing starts; bad options are refused;
#  2. run, one process per group over memif, generators (MIN, UN 0.1): every generated packet
#     is delivered, the latency equals dfly sim's within 5%, nothing is left behind;
#  3. run with --firmware controld (one dfly-controld for the three processes, UGAL-L, ADV+1):
#     every packet delivered, the daemon attached to all six register files;
#  4. (root) up, one process per router, links over veth pairs that lose 1% of the fabric
#     frames (--loss-ppm), six hosts in namespaces over veth/af_packet: all 30 pairs ping, an
#     iperf3 TCP transfer host 0 -> host 5 crosses a global link between processes; after down,
#     the retry counters show the retransmissions, no fabric drop, and the routers account for
#     every host frame (host_rx = injected + ARP replies + edge drops; ejected = host_tx);
#  5. (root) hosts over taps moved into their namespaces: host 0 and host 5 ping each other;
#  6. after every step: no process, namespace, register file or socket of the testbed remains.
# Every step removes what it created, also on failure (dfly testbed down, then a sweep).
#
#   testbed.sh DFLY SOURCE_DIR
set -u
dfly="${1:?usage: testbed.sh DFLY SOURCE_DIR}"
src="${2:?usage: testbed.sh DFLY SOURCE_DIR}"
name="t$(($$ % 100000))"
tmp=$(mktemp -d /tmp/dflytb.XXXXXX)
checks=0
net="$src/configs/h1.cfg"
hostsets=(--set packet.phit_bytes=64 --set buffers.local=64 --set buffers.output=64)

cleanup() {
	local d ns
	for d in "$tmp"/*/; do
		[ -f "$d/testbed.state" ] && "$dfly" testbed down --dir "$d" >/dev/null 2>&1
	done
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
	for f in "$tmp"/*/p*.log "$tmp"/*/controld.log; do
		[ -s "$f" ] && sed "s|^|  $(basename "$(dirname "$f")")/$(basename "$f"): |" "$f" | tail -5
	done
	exit 1
}
ok() {
	checks=$((checks + 1))
	echo "ok: $*"
}
# nothing of testbed $name remains: processes, namespaces, register files, sockets
clean_check() {
	local what=$1 dir=$2
	pgrep -f -- "--file-prefix ${name}p" >/dev/null && fail "$what: dfly-switch still running"
	pgrep -f -- "--instance $name\$" >/dev/null && fail "$what: dfly-controld still running"
	ls /dev/shm/dfly."$name".r* >/dev/null 2>&1 && fail "$what: register files left"
	ip netns list 2>/dev/null | grep -q "^$name-" && fail "$what: namespaces left"
	ls "$dir"/*.sock >/dev/null 2>&1 && fail "$what: memif sockets left"
	[ -e "$dir/testbed.state" ] && fail "$what: state file left"
	return 0
}
field() { sed -n "s/.*\\b$2 \\([0-9.]*\\).*/\\1/p" "$1" | head -1; }

# ---- 1. gen and errors ------------------------------------------------------------------------
"$dfly" testbed gen "$net" --dir "$tmp/gen" --name "$name" --split router --link veth \
	--hosts veth "${hostsets[@]}" >"$tmp/gen.out" 2>&1 || { cat "$tmp/gen.out"; fail "gen"; }
for i in 0 1 2 3 4 5; do [ -s "$tmp/gen/p$i.cfg" ] || fail "gen: no p$i.cfg"; done
grep -q "ip -n $name-s0 link add ${name}l0a mtu 9000 type veth peer name ${name}l0b" \
	"$tmp/gen/up.sh" || fail "gen: up.sh has no veth pair"
[ "$(grep -c 'dfly-switch' "$tmp/gen/up.sh")" -eq 6 ] || fail "gen: up.sh does not start 6 switches"
ip netns list 2>/dev/null | grep -q "^$name-" && fail "gen created namespaces"
"$dfly" testbed up "$net" --dir "$tmp/bad" --name "Bad" >"$tmp/bad.out" 2>&1
[ $? -eq 2 ] && grep -q -- "--name Bad" "$tmp/bad.out" || fail "bad name accepted"
"$dfly" testbed up "$net" --dir "$tmp/bad" --split groups >"$tmp/bad.out" 2>&1
[ $? -eq 2 ] && grep -q "expected one of one group router" "$tmp/bad.out" || fail "bad split"
"$dfly" testbed up "$net" --dir "$tmp/bad" --name "$name" --hosts veth >"$tmp/bad.out" 2>&1
# the network file's 10-byte phits cannot hold a host frame: refused before anything starts
[ $? -ne 0 ] && grep -q "hosts need 1514" "$tmp/bad.out" || { cat "$tmp/bad.out"; fail "small buffers accepted"; }
clean_check "refused up" "$tmp/bad"
ok "gen writes 6 deployments and up.sh; bad name, split and buffers are refused"

# ---- 2. memif, generators ---------------------------------------------------------------------
clk=(--set clock.cycle_ns=10000)
# memif_run DIR: the memif testbed with generators and capture; sets g, lat, slat
memif_run() {
	rm -f "$tmp"/cap-r*.pcap
	"$dfly" testbed run "$net" --dir "$1" --name "$name" --split group "${clk[@]}" \
		--set routing.mechanism=min --set traffic.load=0.1 --duration 6 --gen-seconds 3.5 \
		--set capture.file="$tmp/cap.pcap" --set capture.points=host_rx,host_tx,port_tx \
		>"$tmp/memif.out" 2>&1 || { cat "$tmp/memif.out"; fail "memif run"; }
	cat "$tmp/memif.out" | grep -e "^final" -e "^measured" -e "^conservation" -e "timing: " |
		sed 's/^/  /'
	# the testbed sums the link and credit timing of its processes' counters files
	local fam
	for fam in link credit; do
		[ "$(sed -n "s/^$fam timing: \([0-9]*\) .*/\1/p" "$tmp/memif.out")" = \
			"$(cat "$1"/p*.counters | awk -v k="${fam}_timed" '$1 ~ "\\." k "$" { s += $2 } END { print s + 0 }')" ] ||
			{ grep "timing: " "$tmp/memif.out"; fail "memif: testbed's $fam timing is not the sum of its processes'"; }
	done
	g=$(field "$tmp/memif.out" generated)
	[ "${g:-0}" -gt 5000 ] && grep -q "^conservation: every generated packet was delivered" \
		"$tmp/memif.out" || fail "memif: generated $g, not all delivered"
	lat=$(sed -n 's/.*latency avg \([0-9.]*\) cycles.*/\1/p' "$tmp/memif.out")
	slat=$("$dfly" sim "$net" --set routing.mechanism=min --set traffic.load=0.1 --quiet 2>/dev/null |
		awk '$1 !~ /^#/ && $1 != "mech" { print $5; exit }')
	python3 -c "import sys; a, b = float('$lat'), float('$slat'); sys.exit(abs(a - b) > $tol * b)"
}
# Latency within 5% of dfly sim's, in a run that kept real time. A run that lost the CPU for a
# while (a busy VM) delays packets: CI runs gave 327, then 768 and 206, against 114, with link
# flaps, thousands of link-layer retransmissions and lcores far behind the clock, where a calm
# run has none of them (18 in a row within 2.1 %). disturbed DIR says why a run does not count:
# a link declared down, more than 100 retransmissions, or an lcore more than 1,000 cycles
# (10 ms) behind. Such a run is made again, up to 3 times; a mismatch in a run that kept real
# time fails at once; 3 disturbed runs leave the latency uncompared (said in a note). A
# sanitizer build (DFLY_SANITIZED=1) runs behind the clock at times: there the latency is
# printed, not compared.
disturbed() {
	rt_signs "$1"/p*.counters
	# the link timing (timing.sh) is printed, not a sign here: at 10 us cycles calm runs of
	# this testbed are within 2.1% while their links are off by several cycles a packet
	timing_off "$1"/p*.counters
	why="$downs link downs, $retx retransmissions, lcores at most $behind cycles behind; $timing_why"
	[ "$downs" -gt 0 ] || [ "$retx" -gt 100 ] || [ "$behind" -gt 1000 ]
}
. "$src/tests/integration/timing.sh"
tol=0.05
for attempt in 1 2 3; do
	mdir="$tmp/memif$attempt"
	memif_run "$mdir" && break
	if [ -n "${DFLY_SANITIZED:-}" ]; then
		echo "note: memif: latency $lat vs dfly sim $slat (sanitizer build: not compared)"
		break
	fi
	disturbed "$mdir" || fail "memif: latency $lat vs dfly sim $slat in a run that kept real time ($why)"
	echo "note: memif: latency $lat vs dfly sim $slat in a run that lost the CPU ($why)"
	[ "$attempt" -lt 3 ] || { echo "note: memif: 3 disturbed runs: latency not compared"; break; }
	clean_check memif "$mdir"
done
# every process captured its routers (FILE-r<first router>); merged, the trace sees every packet
caps=$(ls "$tmp"/cap-r*.pcap 2>/dev/null | wc -l)
[ "$caps" -eq 3 ] || fail "memif: $caps capture files, expected 3"
lost=$(grep -h '^capture: ' "$mdir"/p*.counters | sed -n 's/.*lost \([0-9]*\) .*/\1/p' |
	awk '{ s += $1 } END { print s + 0 }')
"$dfly" trace "$tmp"/cap-r*.pcap --config "$net" >"$tmp/trace.out" 2>&1 ||
	{ cat "$tmp/trace.out"; fail "dfly trace of the testbed's captures"; }
tp=$(sed -n 's/^packets: \([0-9]*\) delivered.*/\1/p' "$tmp/trace.out")
[ "$lost" -gt 0 ] || [ "$tp" = "$g" ] ||
	{ cat "$tmp/trace.out"; fail "memif: the trace saw $tp packets, $g were delivered"; }
clean_check memif "$mdir"
link_timing "$mdir"/p*.counters
ok "3 processes over memif: $g generated = delivered, latency $lat cycles (dfly sim $slat; links off by $mae cycles a packet on average, $timed timed); captured by the 3 processes, $tp packets in the merged trace, $lost records lost"

# ---- 3. dfly-controld as the firmware ---------------------------------------------------------
"$dfly" testbed run "$net" --dir "$tmp/cd" --name "$name" --split group "${clk[@]}" \
	--firmware controld --set routing.mechanism=ugal --set traffic.pattern=adv+1 \
	--set traffic.load=0.2 --duration 6 --gen-seconds 3.5 >"$tmp/cd.out" 2>&1 ||
	{ cat "$tmp/cd.out"; fail "controld run"; }
g=$(field "$tmp/cd.out" generated)
mis=$(sed -n 's/.*misrouted \([0-9.]*\)%.*/\1/p' "$tmp/cd.out")
grep -q "^conservation: every" "$tmp/cd.out" || fail "controld: not all delivered"
[ "$(grep -c "attached to" "$tmp/cd/controld.log")" -ge 1 ] ||
	{ cat "$tmp/cd/controld.log"; fail "dfly-controld did not attach"; }
python3 -c "import sys; sys.exit(not float('$mis') > 5)" || fail "controld: UGAL misrouted $mis%"
clean_check controld "$tmp/cd"
ok "dfly-controld for 3 processes, UGAL ADV+1 0.2: $g generated = delivered, misrouted $mis%"

if [ "$(id -u)" -ne 0 ] || ! ip netns add "$name-probe" 2>/dev/null; then
	echo "skip: namespaces (needs root and ip netns)"
	echo "$checks passed, 0 failed"
	exit 0
fi
ip netns del "$name-probe"
for t in iperf3 ping ethtool; do command -v $t >/dev/null || fail "$t not installed"; done

# ---- 4. namespaces, one process per router, lossy veth links ----------------------------------
d="$tmp/ns"
"$dfly" testbed up "$net" --dir "$d" --name "$name" --split router --link veth --hosts veth \
	--loss-ppm 10000 "${hostsets[@]}" --set clock.cycle_ns=4000 >"$tmp/ns.out" 2>&1 ||
	{ cat "$tmp/ns.out"; fail "namespace testbed up"; }
[ "$(ip netns list | grep -c "^$name-")" -eq 12 ] || fail "expected 12 namespaces"
# ARP and first contact, then one ping per pair
for a in 0 1 2 3 4 5; do
	ip netns exec "$name-h$a" ping -c 1 -W 3 "10.77.0.$(((a + 1) % 6 + 1))" >/dev/null 2>&1
done
bad=""
for a in 0 1 2 3 4 5; do
	for b in 0 1 2 3 4 5; do
		[ "$a" = "$b" ] && continue
		ip netns exec "$name-h$a" ping -c 1 -W 3 "10.77.0.$((b + 1))" >/dev/null 2>&1 ||
			ip netns exec "$name-h$a" ping -c 2 -W 3 "10.77.0.$((b + 1))" >/dev/null 2>&1 ||
			bad="$bad $a->$b"
	done
done
[ -z "$bad" ] || fail "ping failed:$bad"
ok "6 processes, 6 hosts: all 30 pairs ping across veth links losing 1% of the fabric frames"
ip netns exec "$name-h5" iperf3 -s -1 -D -p 5201 >/dev/null 2>&1
sleep 0.5
ip netns exec "$name-h0" timeout 30 iperf3 -c 10.77.0.6 -p 5201 -t 3 -J >"$tmp/iperf.json" 2>&1 ||
	{ tail -5 "$tmp/iperf.json"; fail "iperf3"; }
mbps=$(python3 -c "import json; j = json.load(open('$tmp/iperf.json'));
print('%.1f' % (j['end']['sum_received']['bits_per_second'] / 1e6))")
# the accounting below needs a quiet network: a frame still on a wire (lost, awaiting its
# retransmission) when its processes stop is in no counter (a CI run under ASan: injected
# 27320, ejected 27319). TCP's last segments follow iperf3's end; give them a second.
sleep 1
"$dfly" testbed status --dir "$d" >"$tmp/status.out" 2>&1 || { cat "$tmp/status.out"; fail "status"; }
grep -q "6 process(es) running, 0 exited" "$tmp/status.out" || fail "status: $(tail -1 "$tmp/status.out")"
"$dfly" testbed down --dir "$d" >"$tmp/down.out" 2>&1 || { cat "$tmp/down.out"; fail "down"; }
clean_check namespaces "$d"
python3 - "$d" <<'EOF' >"$tmp/acct.out" || { cat "$tmp/acct.out"; fail "accounting"; }
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
fails, t = [], dict(rx=0, tx=0, arp=0, edge=0, fab=0, retx=0, lost=0, inj=0, ej=0)
for r in range(6):
    rx, tx, arp = c(r, "port0.host_rx"), c(r, "port0.host_tx"), c(r, "port0.arp_replies")
    inj, ej = vcsum(r, "enq_pkts"), vcsum(r, "out_vc_pkts")
    edge = sum(c(r, "drop." + x) for x in EDGE)
    fab = sum(c(r, "drop." + x) for x in FABRIC)
    if rx != inj + arp + edge:
        fails.append(f"router {r}: host_rx {rx} != injected {inj} + arp {arp} + edge drops {edge}")
    if ej != tx + c(r, "drop.host_tx_full"):
        fails.append(f"router {r}: ejected {ej} != host_tx {tx} + host_tx_full")
    for k, v in dict(rx=rx, tx=tx, arp=arp, edge=edge, fab=fab, inj=inj, ej=ej,
                     retx=allk(r, ".llr_retx"), lost=allk(r, ".wire_rx_lost")).items():
        t[k] += v
if t["inj"] != t["ej"] + t["fab"] or t["fab"] != 0:
    fails.append(f"injected {t['inj']} != ejected {t['ej']} (fabric drops {t['fab']})")
if t["lost"] == 0 or t["retx"] == 0:
    fails.append(f"1% loss: {t['lost']} frames lost, {t['retx']} resent")
print(f"host_rx {t['rx']} = injected {t['inj']} + ARP replies {t['arp']} + edge drops "
      f"{t['edge']}; injected = ejected {t['ej']} = host_tx {t['tx']}; fabric drops 0; "
      f"{t['lost']} fabric frames lost on the wire, {t['retx']} resent")
if fails:
    print("\n".join(fails)); sys.exit(1)
EOF
ok "iperf3 host 0 -> host 5: $mbps Mbit/s; $(cat "$tmp/acct.out")"

# ---- 5. hosts over taps -----------------------------------------------------------------------
d="$tmp/tap"
"$dfly" testbed up "$net" --dir "$d" --name "$name" --hosts tap --host-nodes 0,5 \
	"${hostsets[@]}" --set clock.cycle_ns=4000 >"$tmp/tap.out" 2>&1 ||
	{ cat "$tmp/tap.out"; fail "tap testbed up"; }
ip netns exec "$name-h0" ping -c 1 -W 3 10.77.0.6 >/dev/null 2>&1
ip netns exec "$name-h0" ping -c 3 -i 0.2 -W 3 10.77.0.6 >"$tmp/tap.ping" 2>&1 &&
	ip netns exec "$name-h5" ping -c 3 -i 0.2 -W 3 10.77.0.1 >>"$tmp/tap.ping" 2>&1 ||
	{ cat "$tmp/tap.ping"; fail "tap: ping"; }
"$dfly" testbed down --dir "$d" >/dev/null 2>&1 || fail "tap: down"
clean_check tap "$d"
ok "hosts 0 and 5 over taps moved into their namespaces ping each other"

echo "$checks passed, 0 failed"
