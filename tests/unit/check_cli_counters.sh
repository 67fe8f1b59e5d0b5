#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `dfly sim --counters` writes every router's counters with the routing decisions by reason and
# the firmware's counters; PB under ADV+1 must show saturation-bit decisions and PB_STATE frames.
set -eu
dfly="${1:?usage: check_cli_counters.sh DFLY SOURCE_DIR}"
src="${2:?usage: check_cli_counters.sh DFLY SOURCE_DIR}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$dfly" sim "$src/configs/h2.cfg" --set routing.mechanism=pb --set traffic.pattern=adv+1 \
    --set sim.warmup=1000 --set sim.measure=1000 --loads 0.3 --quiet \
    --counters "$tmp/c.txt" >"$tmp/out.txt"
routers=$(grep -c '^router ' "$tmp/c.txt")
[ "$routers" -eq 36 ] || { echo "expected 36 routers, got $routers"; exit 1; }
for key in route.src_nonmin_sat route.src_min_ugal route.inj_val fw.rx_pb_state fw.pb_tx \
    ctrl_tx ctrl_rx; do
    grep -q "$key " "$tmp/c.txt" || { echo "no $key in the counters"; exit 1; }
done
# every router received PB_STATE frames from its a-1 = 3 neighbours
n=$(grep -c 'fw.rx_pb_state ' "$tmp/c.txt")
[ "$n" -eq 36 ] || { echo "fw.rx_pb_state on $n routers, expected 36"; exit 1; }
grep -q "counters written to $tmp/c.txt" "$tmp/out.txt"
echo "counters of 36 routers ok"
