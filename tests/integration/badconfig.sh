#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Broken configurations, table-driven: every row changes one thing of a valid deployment (or of
# its network, with --set, or runs dfly sim on a broken network file) and asserts
#   - the exit status 2,
#   - the exact message, with file, line and setting,
#   - that nothing was started: no register files in /dev/shm, no memif socket, no tap, no
#     capture file, and no dfly-switch left running.
# The base deployment (router 0 and 1 of h1, two memif ports, a tap host, a generator) is
# checked first to load cleanly, so each row fails for its own reason only.
set -u
switch="${1:?usage: badconfig.sh SWITCH DFLY SOURCE_DIR}"
dfly="${2:?usage: badconfig.sh SWITCH DFLY SOURCE_DIR}"
src="${3:?usage: badconfig.sh SWITCH DFLY SOURCE_DIR}"
tmp=$(mktemp -d /tmp/dfly-badcfg-XXXXXX)
inst="dbc$$"
cleanup() {
    rm -rf "$tmp"
    rm -f /dev/shm/dfly."$inst".r* 2>/dev/null
    ip link del dbctap0 2>/dev/null
    rm -rf /var/run/dpdk/"$inst"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*"; exit 1; }
eal=(--no-huge -m 256 --no-pci --no-shconf -l 0 --log-level=1 --file-prefix "$inst")
hostsets=(--set packet.phit_bytes=64 --set buffers.local=64 --set buffers.output=64)

cp "$src/configs/h1.cfg" "$tmp/net.cfg"
cat >"$tmp/base.cfg" <<CFG
network = "net.cfg";
instance = "$inst";
firmware = "thread";
routers = [0, 1];
lcores = ( { lcore = 0; routers = [0, 1]; } );
ports = (
  { router = 0; port = 2; dev = "net_memif0"; args = "role=server,socket=$tmp/m0.sock,socket-abstract=no"; },
  { router = 1; port = 2; dev = "net_memif1"; args = "role=server,socket=$tmp/m1.sock,socket-abstract=no"; }
);
hosts = ( { node = 0; mac = "02:df:00:00:00:00"; ip = "10.77.0.1"; dev = "net_tap0"; args = "iface=dbctap0"; } );
generators = [1];
link = { replay = 1024; };
run = { max_steps = 16; duration_s = 1.0; };
CFG
"$switch" "${eal[@]}" -- "$tmp/base.cfg" --check "${hostsets[@]}" >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; fail "the base deployment does not load"; }

nothing_started() {
    ! ls /dev/shm/dfly."$inst".r* >/dev/null 2>&1 || fail "$1: register files were created"
    [ ! -e "$tmp/m0.sock" ] && [ ! -e "$tmp/m1.sock" ] || fail "$1: a memif socket was created"
    ! ip link show dbctap0 >/dev/null 2>&1 || fail "$1: the tap was created"
    [ ! -e "$tmp/cap.pcap" ] || fail "$1: the capture file was created"
    ! pgrep -f -- "$tmp/case.cfg" >/dev/null || fail "$1: dfly-switch still running"
}

printf 'topology = {\n\tp = ;\n};\n' >"$tmp/broken.cfg"
n=0
# name | sed expression applied to base.cfg (empty: none) | more arguments | expected message
# (FILE = the case's deployment file, NET = its network file)
while IFS='|' read -r name sedx args want; do
    [ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
    n=$((n + 1))
    if [ -n "$sedx" ]; then
        sed -e "$sedx" "$tmp/base.cfg" >"$tmp/case.cfg"
    else
        cp "$tmp/base.cfg" "$tmp/case.cfg"
    fi
    want="${want//FILE/$tmp/case.cfg}"
    want="${want//NET/$tmp/net.cfg}"
    args="${args//NET/$tmp/net.cfg}"
    args="${args//TMP/$tmp}"
    want="${want//TMP/$tmp}"
    # shellcheck disable=SC2086
    if [ "${args%% *}" = "sim" ]; then
        "$dfly" $args >"$tmp/out" 2>&1
        rc=$?
        got=$(grep -v '^$' "$tmp/out" | head -1)
        want="dfly sim: $want"
    else
        "$switch" "${eal[@]}" -- "$tmp/case.cfg" --duration 1 "${hostsets[@]}" $args \
            >"$tmp/out" 2>&1
        rc=$?
        got=$(grep '^dfly-switch: ' "$tmp/out" | head -1)
        want="dfly-switch: $want"
    fi
    [ "$rc" = 2 ] || { cat "$tmp/out"; fail "$name: exit $rc, expected 2"; }
    [ "$got" = "$want" ] || fail "$name: message
  got:  $got
  want: $want"
    nothing_started "$name"
    echo "ok $n $name"
done <<'TABLE'
# -- the deployment file: syntax and types
syntax error|s/^routers = \[0, 1\];/routers = [0, 1;/||FILE:4: syntax error: syntax error
unknown top-level setting|$a rooters = [0];||FILE:14: rooters: unknown setting 'rooters'
routers not a list|s/^routers = .*/routers = "0";/||FILE:4: routers: must be a non-empty list of router ids
routers: router out of range|s/^routers = .*/routers = [0, 6];/||FILE:4: routers: router 6 out of range [0, 6)
routers: listed twice|s/^routers = .*/routers = [0, 0];/||FILE:4: routers: router 0 listed twice
routers missing|/^routers = /d||FILE: routers: missing: which routers run here
firmware unknown|s/"thread"/"daemon"/||FILE:3: firmware: "daemon": expected "thread", "external" or "none"
network file missing|s/"net.cfg"/"nope.cfg"/||TMP/nope.cfg: cannot open: No such file or directory
# -- lcores
lcores: router not hosted|s/routers = \[0, 1\]; } );/routers = [0, 2]; } );/||FILE:5: lcores[0]: router 2 is not in 'routers' (not hosted here)
lcores not a list|s/^lcores = .*/lcores = 1;/||FILE:5: lcores: must be a non-empty list of groups
# -- ports
port: router not hosted|s/router = 0; port = 2; dev = "net_memif0"/router = 3; port = 2; dev = "net_memif0"/||FILE:7: ports[0]: router 3 is not hosted here
port: terminal port|s/router = 0; port = 2; dev = "net_memif0"/router = 0; port = 0; dev = "net_memif0"/||FILE:7: ports[0]: port 0 of router 0 is a terminal port (nodes connect through 'hosts' or 'generators')
port: in-process link|s/router = 0; port = 2; dev = "net_memif0"/router = 0; port = 1; dev = "net_memif0"/||FILE:7: ports[0]: router 0 port 1 leads to router 1, hosted here too: that link is in-process and takes no device
port: out of range|s/router = 0; port = 2; dev = "net_memif0"/router = 0; port = 9; dev = "net_memif0"/||FILE:7: ports[0]: 'port' = 9 out of range [0, 2]
port: device used twice|s/dev = "net_memif1"/dev = "net_memif0"/||FILE:8: ports[1]: device net_memif0 already used by ports[0]
port: two devices for one port|s/router = 1; port = 2; dev = "net_memif1"/router = 0; port = 2; dev = "net_memif1"/||FILE:8: ports[1]: router 0 port 2 already has a device (ports[0])
port: device missing|s/ dev = "net_memif0";//||FILE:7: ports[0]: missing 'dev'
port: unknown member|s/dev = "net_memif0"/devv = "net_memif0"/||FILE:7: ports[0]: unknown setting 'devv'
port: not wired (missing port)|/net_memif1/d;s/socket-abstract=no"; },/socket-abstract=no"; }/||FILE:6: ports: router 1 port 2 leads to router 2 port 2, which is not hosted here: it needs a device
# (issue 24: these ran, and segfaulted on the first packet sent to the port with no link)
port: not wired (no ports at all)|/^ports = (/,/^);/d||FILE:4: ports: missing: router 0 port 2 leads to router 5 port 2, which is not hosted here: it needs a device
port: not wired (one router, no ports)|s/^routers = .*/routers = [0];/;s/routers = \[0, 1\]; } );/routers = [0]; } );/;/^ports = (/,/^);/d;/^hosts = /d;s/^generators = .*/generators = "all";/||FILE:4: ports: missing: router 0 port 1 leads to router 1 port 1, which is not hosted here: it needs a device
port: not wired (one router, local port)|s/^routers = .*/routers = [0];/;s/routers = \[0, 1\]; } );/routers = [0]; } );/;/net_memif1/d;s/socket-abstract=no"; },/socket-abstract=no"; }/;s/^generators = .*/generators = "none";/||FILE:6: ports: router 0 port 1 leads to router 1 port 1, which is not hosted here: it needs a device
# -- hosts
host: bad MAC|s/mac = "02:df:00:00:00:00"/mac = "02:df:00:00:00"/||FILE:10: hosts[0]: mac "02:df:00:00:00" is not six hex pairs aa:bb:cc:dd:ee:ff
host: bad IP|s/ip = "10.77.0.1"/ip = "10.77.0"/||FILE:10: hosts[0]: ip "10.77.0" is not a dotted IPv4 address
host: node not hosted|s/node = 0; mac/node = 4; mac/||FILE:10: hosts[0]: node 4 belongs to router 4, not hosted here: it takes no device in this file
host: a peer|s/dev = "net_tap0"/dev = "peer"/||FILE:10: hosts[0]: a host cannot be a loopback peer (dev "peer" is for fabric ports)
host: device of a port|s/dev = "net_tap0"/dev = "net_memif0"/||FILE:10: hosts[0]: device net_memif0 already used by ports[0]
host: frame does not fit||--set packet.phit_bytes=10 --set buffers.local=32 --set buffers.output=32|FILE:10: hosts: the smallest buffer of NET (32 phits of 10 bytes) holds a 272-byte host frame; hosts need 1514 (raise buffers.* or packet.phit_bytes)
# -- generators
generators: bad word|s/^generators = .*/generators = "some";/||FILE:11: generators: "some": expected "all", "none" or a list of nodes
generators: node out of range|s/^generators = .*/generators = [7];/||FILE:11: generators: node 7 out of range [0, 6)
generators: node not hosted|s/^generators = .*/generators = [4];/||FILE:11: generators: node 4 belongs to router 4, not hosted here
generators: node is a host|s/^generators = .*/generators = [0];/||FILE:11: generators: node 0 is a host (hosts[]): it cannot also run a generator
# -- link and run
link: unknown setting|s/replay = 1024;/rto = 5;/||FILE:12: link: unknown setting 'rto'
link: replay not a power of two|s/replay = 1024;/replay = 1000;/||FILE:12: link.replay: 1000 is not a power of two
link: dead_us out of range|s/replay = 1024;/dead_us = 200000000;/||FILE:12: link.dead_us: 'dead_us' = 200000000 out of range [0, 100000000]
run: max_steps out of range|s/max_steps = 16;/max_steps = 0;/||FILE:13: run.max_steps: 'max_steps' = 0 out of range [1, 1000000]
run: negative duration|s/duration_s = 1.0;/duration_s = -1.0;/||FILE:13: run.duration_s: must be ≥ 0
run: unknown idle|s/duration_s = 1.0;/duration_s = 1.0; idle = "nap";/||FILE:13: run.idle: expected "sleep" or "spin"
# -- the network, through the deployment (--set) and dfly sim
network: unknown mechanism||--set routing.mechanism=fastest|--set routing.mechanism=fastest: routing.mechanism: unknown mechanism 'fastest' (expected one of: min, val, ugal, pb, par, olm, base, filtered, hybrid, ectn, lia, tpr, pb-acor, ugal-g, crt, res)
network: oracle refused in real time||--set routing.mechanism=ugal-g|FILE: network: NET: routing.mechanism ugal-g reads other routers' queues (a non-physical oracle, spec 4.5): dfly sim only
network: minCred refused in real time||--set routing.mechanism=ugal --set routing.mincred=true|FILE: network: NET: routing.mincred needs credits flagged minimal, which the CREDIT frames do not carry yet: dfly sim only
network: load out of range||--set traffic.load=2|--set traffic.load=2: traffic.load: 2 is out of range (expected 0..1)
network: inconsistent trunking||--set topology.t=3|--set topology.t=3: topology.t: 3 does not divide topology.a = 2 (expected a divisor of a)
network: failover without the VCs||--set routing.failover.enabled=on --set vcs.local=2 --set vcs.global=1|--set routing.failover.enabled=on: routing.failover.enabled: MIN can route around a down link only with 4 local and 2 global VCs and FlexVC off (vcs.local 2, vcs.global 1); use "auto" to run without failover
sim: bad link fault|s/x/x/|sim NET --link-down 0:5|--link-down 0:5: expected ROUTER:PORT:FROM[:TO] with TO > FROM (cycles), at most 64
sim: link fault on a terminal port|s/x/x/|sim NET --link-down 0:0:100|link fault 0: router 0 port 0 is not a fabric port (routers 0..5, fabric ports 1..2)
sim: network syntax error|s/x/x/|sim TMP/broken.cfg|TMP/broken.cfg:2: syntax error: syntax error
sim: link-rate emulation off|s/x/x/|sim NET --set clock.link_rate=false|NET: clock.link_rate = false is for dfly-switch benchmarks; dfly sim emulates the link rate
TABLE
[ "$n" -ge 30 ] || fail "only $n cases"
echo "badconfig: $n broken configurations, each refused with its message, nothing started"
