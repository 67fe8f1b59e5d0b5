#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# What each binary links (docs/ARCHITECTURE.md): dfly-switch does not link the virtual-time
# fabric (sim/), dfly does not link DPDK, dfly-controld links neither nor libpcap. Reads the
# symbol tables with nm.
dfly="${1:?usage: check_links.sh DFLY DFLY_SWITCH DFLY_CONTROLD}"
sw="${2:?}"
cd_="${3:?}"
bad=0
check() { # BINARY PATTERN WHAT
    n=$(nm "$1" 2>/dev/null | grep -cE "$2")
    if [ "$n" -gt 0 ]; then
        echo "FAIL: $(basename "$1") links $3 ($n symbols, e.g. $(nm "$1" | grep -E "$2" | head -1 | awk '{print $NF}'))"
        bad=1
    fi
}
for b in "$dfly" "$sw" "$cd_"; do
    nm "$b" >/dev/null 2>&1 || { echo "FAIL: nm cannot read $b"; exit 1; }
done
# a binary that defines the fabric's functions has linked sim/; one that refers to rte_ links DPDK
check "$sw" ' [TtU] dfly_fabric_' "the virtual-time fabric (sim/)"
check "$dfly" ' [TtU] rte_' "DPDK"
check "$cd_" ' [TtU] (dfly_fabric_|rte_|pcap_)' "the fabric, DPDK or libpcap"
# and each does link what it is for
nm "$sw" | grep -q ' U rte_eal_init' || { echo "FAIL: dfly-switch without rte_eal_init"; bad=1; }
nm "$dfly" | grep -q ' T dfly_fabric_create' || { echo "FAIL: dfly without the fabric"; bad=1; }
[ $bad = 0 ] && echo "dfly-switch: no sim fabric; dfly: no DPDK; dfly-controld: firmware and config only"
exit $bad
