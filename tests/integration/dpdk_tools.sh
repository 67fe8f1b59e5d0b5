#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# DPDK's own tools against a running dfly testbed on hugepages (issue 26): `dfly testbed up
# --hugepages 384` on the h=1 Dragonfly, one dfly-switch per group over memif, generators on;
#  0. --hugepages 100 for 3 processes (66 MB each) is refused;
#  1. the testbed reserves the 384 pages and mounts them; dfly-switch says it runs on shared
#     hugepage memory;
#  2. dpdk-proc-info --stats and --xstats read process 0's memif ports (frames received);
#  3. dpdk-dumpcap -i net_memif0 captures 20 frames of a live fabric link, and tshark with
#     the dfly dissector decodes every one of them as DFLY (data and control frames);
#  4. dpdk-telemetry.py lists /ethdev/* and /dfly/*, the ethdevs, the routers, a port;
#  5. after `dfly testbed down`: the pages given back (nr_hugepages as before), the mount, the
#     processes, DPDK's runtime directories and the register files gone.
# Needs root, dpdk-proc-info, dpdk-dumpcap, dpdk-telemetry.py, tshark and 768 MB of free memory
# for the pages, else skipped (exit 77) with the reason. Everything it makes is removed, also
# on failure.
#
#   dpdk_tools.sh DFLY SOURCE_DIR
set -u
dfly="${1:?usage: dpdk_tools.sh DFLY SOURCE_DIR}"
src="${2:?usage: dpdk_tools.sh DFLY SOURCE_DIR}"
name="d$(($$ % 100000))"
tmp=$(mktemp -d /tmp/dflydt.XXXXXX)
dir="$tmp/tb"
checks=0
pages0=""

skip() {
	echo "SKIP: $*"
	exit 77
}
cleanup() {
	set +e
	[ -f "$dir/testbed.state" ] && "$dfly" testbed down --dir "$dir" >/dev/null 2>&1
	# whatever `down` could not: the mount, the pages, DPDK's runtime directories
	mountpoint -q "$dir/huge" 2>/dev/null && umount "$dir/huge"
	[ -n "$pages0" ] && echo "$pages0" >/proc/sys/vm/nr_hugepages
	rm -rf /var/run/dpdk/"$name"p* /dev/shm/dfly."$name".r* 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() {
	echo "FAIL: $*"
	for f in "$dir"/p*.log; do
		[ -s "$f" ] && sed "s|^|  $(basename "$f"): |" "$f" | tail -5
	done
	exit 1
}
ok() {
	checks=$((checks + 1))
	echo "ok: $*"
}

[ "$(id -u)" = 0 ] || skip "needs root (hugepages, mount)"
for t in dpdk-proc-info dpdk-dumpcap dpdk-telemetry.py tshark; do
	command -v "$t" >/dev/null || skip "$t not installed"
done
[ -w /proc/sys/vm/nr_hugepages ] || skip "/proc/sys/vm/nr_hugepages is not writable"
free_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
[ "${free_kb:-0}" -ge $((2 * 768 * 1024)) ] || skip "less than 1.5 GB available for 768 MB of hugepages"
pages0=$(cat /proc/sys/vm/nr_hugepages)

# 0. too few pages for the processes: refused before anything starts
"$dfly" testbed gen "$src/configs/h1.cfg" --dir "$tmp/few" --split group --hugepages 100 \
	>"$tmp/few.log" 2>&1
[ $? = 2 ] && grep -q "expected >= 128 MB a process: --hugepages 192" "$tmp/few.log" ||
	{ cat "$tmp/few.log"; fail "--hugepages 100 for 3 processes not refused"; }
ok "--hugepages 100 for 3 processes refused (128 MB a process at least)"

# 1. up on hugepages
"$dfly" testbed up "$src/configs/h1.cfg" --dir "$dir" --name "$name" --split group \
	--hugepages 384 --set clock.cycle_ns=10000 >"$tmp/up.log" 2>&1 ||
	{ cat "$tmp/up.log"; fail "dfly testbed up --hugepages 384"; }
grep -q "384 hugepages (256 MB a process)" "$tmp/up.log" ||
	{ cat "$tmp/up.log"; fail "the testbed did not reserve its hugepages"; }
[ "$(cat /proc/sys/vm/nr_hugepages)" = $((pages0 + 384)) ] || fail "nr_hugepages is not $pages0 + 384"
mountpoint -q "$dir/huge" || fail "$dir/huge is not mounted"
sleep 1
grep -q "hugepage memory, shared" "$dir/p0.log" || fail "dfly-switch does not run on shared hugepages"
ok "384 hugepages reserved and mounted; the processes run on them"

# 2. dpdk-proc-info
timeout 30 dpdk-proc-info --file-prefix "${name}p0" --log-level=error -- --stats >"$tmp/stats" 2>&1 ||
	{ cat "$tmp/stats"; fail "dpdk-proc-info --stats"; }
rx=$(awk '/NIC statistics for port 0/ { p = 1 } p && /RX-packets:/ { print $2; exit }' "$tmp/stats")
[ "${rx:-0}" -gt 0 ] || { cat "$tmp/stats"; fail "dpdk-proc-info: port 0 received nothing"; }
timeout 30 dpdk-proc-info --file-prefix "${name}p0" --log-level=error -- --xstats >"$tmp/xstats" 2>&1
grep -q "rx_good_packets: [1-9]" "$tmp/xstats" || { cat "$tmp/xstats"; fail "dpdk-proc-info --xstats"; }
ok "dpdk-proc-info: port 0 received $rx frames; xstats read"

# 3. dpdk-dumpcap on a live fabric link, decoded by the dissector
timeout 30 dpdk-dumpcap --file-prefix="${name}p0" -i net_memif0 -c 20 -q -w "$tmp/cap.pcapng" \
	>"$tmp/dumpcap.log" 2>&1 || { cat "$tmp/dumpcap.log"; fail "dpdk-dumpcap"; }
lua="$src/tools/wireshark/dfly.lua"
n=$(tshark -X lua_script:"$lua" -r "$tmp/cap.pcapng" 2>/dev/null | wc -l)
nd=$(tshark -X lua_script:"$lua" -r "$tmp/cap.pcapng" -Y "dfly || dfly.ctrl" 2>/dev/null | wc -l)
[ "$n" -ge 20 ] && [ "$nd" = "$n" ] || fail "dpdk-dumpcap: $n frames, $nd of them DFLY"
tshark -X lua_script:"$lua" -r "$tmp/cap.pcapng" -Y dfly.ctrl 2>/dev/null | grep -q . ||
	fail "no control frame among the captured frames"
ok "dpdk-dumpcap: $n frames of net_memif0, every one decoded as DFLY"

# 4. telemetry
printf '/\n/ethdev/list\n/dfly/routers\n/dfly/port,0,2\n' |
	timeout 10 dpdk-telemetry.py -f "${name}p0" >"$tmp/tel" 2>&1
grep -q '"/ethdev/list": \[0, 1\]' "$tmp/tel" && grep -q '"/dfly/routers": \[0, 1\]' "$tmp/tel" ||
	{ cat "$tmp/tel"; fail "dpdk-telemetry.py: /ethdev/list or /dfly/routers"; }
for c in /ethdev/stats /ethdev/xstats /dfly/router /dfly/port /dfly/routers; do
	grep -q "\"$c\"" "$tmp/tel" || { cat "$tmp/tel"; fail "telemetry does not list $c"; }
done
grep -q '"/dfly/port": {' "$tmp/tel" || { cat "$tmp/tel"; fail "/dfly/port,0,2 answered nothing"; }
ok "dpdk-telemetry.py: lists /ethdev/* and /dfly/*; ethdevs 0, 1, routers 0, 1, router 0 port 2"

# 5. down gives everything back
"$dfly" testbed down --dir "$dir" >"$tmp/down.log" 2>&1 || { cat "$tmp/down.log"; fail "dfly testbed down"; }
[ "$(cat /proc/sys/vm/nr_hugepages)" = "$pages0" ] || fail "nr_hugepages is $(cat /proc/sys/vm/nr_hugepages), not $pages0"
mountpoint -q "$dir/huge" 2>/dev/null && fail "$dir/huge is still mounted"
pgrep -f -- "--file-prefix ${name}p" >/dev/null && fail "dfly-switch still running"
ls -d /var/run/dpdk/"$name"p* >/dev/null 2>&1 && fail "DPDK runtime directories left"
ls /dev/shm/dfly."$name".r* >/dev/null 2>&1 && fail "register files left"
ok "down: the pages given back, nothing left"
echo "$checks checks passed"
