#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# asic-emu/, include/dfly/, the firmware in control/ and dataplane/{llr,host} are the portable core: they must never
# include a DPDK, libpcap or libconfig header (DESIGN.md §2). Fails listing the offending lines.
src="${1:?usage: check_asic_headers.sh SOURCE_DIR}"
bad=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](rte_|pcap|libconfig)' \
    "$src"/asic-emu/*.[ch] "$src"/include/dfly/*.h "$src"/control/*.[ch] "$src"/dataplane/llr.[ch] "$src"/dataplane/host.[ch])
if [ -n "$bad" ]; then
    echo "forbidden include in the portable core:"
    echo "$bad"
    exit 1
fi
n=$(ls "$src"/asic-emu/*.[ch] "$src"/include/dfly/*.h "$src"/control/*.[ch] "$src"/dataplane/llr.[ch] "$src"/dataplane/host.[ch] | wc -l)
echo "$n files checked: no DPDK, libpcap or libconfig include"
