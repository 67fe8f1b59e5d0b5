#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# dpdk-testpmd as hosts over vhost-user (issue 26, the cheaper peer than a VM, as OVS's
# system-dpdk tests use it): one dfly-switch runs the six routers of h1; nodes 0 and 5 are
# net_vhost host ports; two dpdk-testpmd processes attach a virtio-user port to their sockets
# (memfd memory, --no-huge). testpmd 0 sends 64-byte UDP frames to node 5's MAC (txonly), testpmd
# 5 counts what it receives (rxonly). Checks:
#  1. both virtio-user ports come up against dfly-switch's vhost-user sockets;
#  2. frames cross the network: every frame testpmd 0 sent is taken by router 0 (host_rx; at
#     most its TX ring of 256 left unread when it stops) and injected, every one is ejected at router 5, handed to the vhost port (host_tx) or counted
#     as host_tx_full (testpmd 5's ring full: it shares a core), and testpmd 5 receives exactly
#     host_tx;
#  3. no fabric drop; the frames took global hops.
# Needs root and dpdk-testpmd; skipped (exit 77) otherwise. Everything it makes is removed, also
# on failure.
#
#   testpmd_peer.sh DFLY_SWITCH SOURCE_DIR
set -u
sw="${1:?usage: testpmd_peer.sh DFLY_SWITCH SOURCE_DIR}"
src="${2:?usage: testpmd_peer.sh DFLY_SWITCH SOURCE_DIR}"
pfx="dflytp$$"
tmp=$(mktemp -d /tmp/dflytp.XXXXXX)
pids=()
checks=0

skip() {
	echo "SKIP: $*"
	exit 77
}
cleanup() {
	local p
	set +e
	for p in "${pids[@]}"; do
		kill -INT "$p" 2>/dev/null
	done
	for p in "${pids[@]}"; do
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.2
		done
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	rm -rf /var/run/dpdk/"$pfx"*
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() {
	echo "FAIL: $*"
	for f in "$tmp"/*.log; do
		[ -s "$f" ] && sed "s|^|  $(basename "$f"): |" "$f" | tail -12
	done
	exit 1
}
ok() {
	checks=$((checks + 1))
	echo "ok: $*"
}
# stop PID: SIGINT, wait (testpmd prints its totals on the way out; --stats-period keeps it
# running until then, where without it a testpmd whose stdin is not a terminal exits at once)
stop() {
	kill -INT "$1" 2>/dev/null
	for _ in $(seq 50); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	wait "$1" 2>/dev/null
}

[ "$(id -u)" = 0 ] || skip "needs root (vhost-user sockets, DPDK runtime directories)"
testpmd=$(command -v dpdk-testpmd) || skip "dpdk-testpmd not installed (dpdk, scripts/deps.sh)"

cat >"$tmp/tp.cfg" <<EOF
network = "$src/configs/h1.cfg";
instance = "";
firmware = "thread";
routers = [0, 1, 2, 3, 4, 5];
hosts = (
	{ node = 0; mac = "02:df:00:00:00:00"; ip = "10.77.0.1";
	  dev = "net_vhost0"; args = "iface=$tmp/vm0.sock,queues=1"; },
	{ node = 5; mac = "02:df:00:00:00:05"; ip = "10.77.0.6";
	  dev = "net_vhost1"; args = "iface=$tmp/vm5.sock,queues=1"; }
);
generators = "none";
EOF
sets=(--set packet.phit_bytes=64 --set buffers.local=64 --set buffers.output=64
	--set clock.cycle_ns=2000)
"$sw" --no-huge -m 512 --no-pci --no-shconf --file-prefix "${pfx}s" -l 0 --log-level=error \
	-- "$tmp/tp.cfg" "${sets[@]}" --counters "$tmp/ctr" --quiet >"$tmp/sw.log" 2>&1 &
swpid=$!
pids+=("$swpid")
for _ in $(seq 50); do
	[ -S "$tmp/vm0.sock" ] && [ -S "$tmp/vm5.sock" ] && break
	kill -0 "$swpid" 2>/dev/null || fail "dfly-switch exited"
	sleep 0.2
done
[ -S "$tmp/vm0.sock" ] && [ -S "$tmp/vm5.sock" ] || fail "no vhost-user sockets"

# tp NODE MODE [ARGS...]: a testpmd with a virtio-user port on node NODE's socket
tp() {
	local n=$1 mode=$2
	shift 2
	"$testpmd" --no-huge -m 256 --no-pci --file-prefix "${pfx}t$n" -l 0,1 --log-level=error \
		--vdev "net_virtio_user0,mac=02:df:00:00:00:0$n,path=$tmp/vm$n.sock,queues=1" \
		-- --forward-mode="$mode" --nb-cores=1 --txq=1 --rxq=1 --total-num-mbufs=8192 --stats-period=1 "$@" \
		>"$tmp/tp$n.log" 2>&1 &
	pids+=($!)
}
tp 5 rxonly
rx_pid=${pids[-1]}
sleep 1
tp 0 txonly --eth-peer=0,02:df:00:00:00:05 --txpkts=64
tx_pid=${pids[-1]}
sleep 3
kill -0 "$rx_pid" 2>/dev/null && kill -0 "$tx_pid" 2>/dev/null ||
	fail "a dpdk-testpmd exited (virtio-user could not attach?)"
ok "two dpdk-testpmd virtio-user ports attached to dfly-switch's vhost-user sockets"
stop "$tx_pid"
sleep 1 # what is in flight arrives
stop "$rx_pid"
kill -INT "$swpid"
rc=0
wait "$swpid" || rc=$?
pids=()
[ "$rc" -eq 0 ] || fail "dfly-switch exited with status $rc"
# testpmd's totals: "RX-packets: N" in the accumulated statistics of port 0
rx=$(awk '/Accumulated forward statistics/ { a = 1 } a && /RX-packets:/ { print $2; exit }' \
	"$tmp/tp5.log")
tx=$(awk '/Accumulated forward statistics/ { a = 1 } a && /TX-packets:/ { print $2; exit }' \
	"$tmp/tp0.log")
python3 - "$tmp/ctr" "${rx:-0}" "${tx:-0}" <<'EOF' >"$tmp/acct.out" || {
import re, sys
R, r = {}, None
for line in open(sys.argv[1]):
    m = re.match(r"router (\d+) cycle", line)
    if m:
        r = int(m.group(1)); R[r] = {}; continue
    m = re.match(r"\s+(\S+) (-?\d+)$", line)
    if m and r is not None:
        R[r][m.group(1)] = int(m.group(2))
c = lambda r, k: R[r].get(k, 0)
rx5, tx0 = int(sys.argv[2]), int(sys.argv[3])
hrx, htx, full = c(0, "port0.host_rx"), c(5, "port0.host_tx"), c(5, "drop.host_tx_full")
inj = sum(v for k, v in R[0].items() if re.fullmatch(r"port0\.vc\d+\.enq_pkts", k))
ej = sum(v for k, v in R[5].items() if re.fullmatch(r"port0\.vc\d+\.out_vc_pkts", k))
edge = sum(c(0, "drop." + d) for d in ("host_spoof", "host_unknown_dst", "host_non_unicast",
                                       "host_bad_frame", "inj_full"))
fab = sum(c(r, "drop." + d) for r in R for d in ("bad_dst", "bad_vc", "bad_port", "no_room"))
ghops = sum(c(r, "route.hop_global") for r in R)
print(f"  testpmd 0 sent {tx0}; router 0 host_rx {hrx} = injected {inj} + edge drops {edge}; "
      f"router 5 ejected {ej} = host_tx {htx} + host_tx_full {full} (the guest's ring full); "
      f"testpmd 5 received {rx5}; fabric drops {fab}, global hops {ghops}")
bad = []
if rx5 < 1000: bad.append(f"testpmd 5 received {rx5} frames")
if rx5 != htx: bad.append(f"testpmd 5 received {rx5}, router 5 handed {htx} to its host port")
if hrx != inj + edge: bad.append(f"host_rx {hrx} != injected {inj} + edge drops {edge}")
# what testpmd 0 put in its TX ring and the switch had not read when testpmd stopped stays
# there (back-pressure: host frames are read only when the injection queue has room): at most
# the ring (256 descriptors)
if not 0 <= tx0 - hrx <= 256:
    bad.append(f"testpmd 0 sent {tx0}, router 0 took {hrx}: more than its TX ring apart")
if ej != inj or ej != htx + full:
    bad.append(f"ejected {ej}: not injected {inj} or not host_tx + host_tx_full {htx + full}")
if fab: bad.append(f"{fab} fabric drops")
if ghops < htx: bad.append(f"global hops {ghops} < frames delivered {htx}")
for b in bad: print("  " + b)
sys.exit(1 if bad else 0)
EOF
	cat "$tmp/acct.out"
	fail "accounting"
}
cat "$tmp/acct.out"
ok "dpdk-testpmd 0 -> dfly-switch -> dpdk-testpmd 5: $rx frames received, every one accounted"
echo "$checks checks passed"
