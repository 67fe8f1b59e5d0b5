#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# dfly-controld as a separate process on the shared-memory register files of `dfly sim`:
#  1. the run is identical, field by field, to the run with the firmware inside (lockstep);
#  2. killed with SIGKILL under load and restarted: the run completes with every invariant
#     (no packet lost, credits home, queues drained), the cycles without firmware are counted,
#     and the restarted daemon attaches and republishes its tables.
# Every process and shared-memory object it creates is removed, also on failure.
set -u
dfly="${1:?usage: controld.sh DFLY DFLY_CONTROLD SOURCE_DIR}"
controld="${2:?usage: controld.sh DFLY DFLY_CONTROLD SOURCE_DIR}"
src="${3:?usage: controld.sh DFLY DFLY_CONTROLD SOURCE_DIR}"
inst="it$$"
tmp=$(mktemp -d)
pids=""
cleanup() {
    for p in $pids; do kill -9 "$p" 2>/dev/null; done
    rm -f /dev/shm/dfly."$inst".r* 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fail() { echo "FAIL: $*"; exit 1; }

cfg="$src/configs/h2.cfg"
mech="--set routing.mechanism=pb --set traffic.pattern=adv+1"
win="--set sim.warmup=2000 --set sim.measure=2000 --loads 0.3"

# 1. identical to the firmware inside
# shellcheck disable=SC2086
"$dfly" sim "$cfg" $mech $win --quiet --csv "$tmp/inside.csv" >/dev/null || fail "inside run"
# shellcheck disable=SC2086
"$controld" "$cfg" --instance "$inst" $mech --idle-exit 3000 2>"$tmp/cd1.log" &
pids="$pids $!"
# shellcheck disable=SC2086
"$dfly" sim "$cfg" $mech $win --firmware-instance "$inst" --csv "$tmp/outside.csv" \
    >/dev/null 2>"$tmp/sim1.log" || { cat "$tmp/sim1.log"; fail "outside run"; }
grep -q "run: 0 cycles without the external firmware in step" "$tmp/sim1.log" ||
    { cat "$tmp/sim1.log"; fail "the external firmware was not in step"; }
# wall_s is not a column; every deterministic column must match
cmp -s "$tmp/inside.csv" "$tmp/outside.csv" ||
    { diff "$tmp/inside.csv" "$tmp/outside.csv"; fail "results differ"; }
echo "ok: dfly-controld gives the same run as the firmware inside"

# 2. SIGKILL under load, restart
# 170k cycles: ~11 s uncontended, so the kill at 0.5 s and the restart at 1 s land inside it
long="--set sim.warmup=150000 --set sim.measure=20000 --loads 0.3"
# shellcheck disable=SC2086
"$controld" "$cfg" --instance "$inst" $mech --quiet 2>"$tmp/cd2.log" &
cd2=$!
pids="$pids $cd2"
# shellcheck disable=SC2086
"$dfly" sim "$cfg" $mech $long --firmware-instance "$inst" --firmware-wait 200 \
    --counters "$tmp/ctr.txt" --csv "$tmp/kill.csv" >"$tmp/sim2.out" 2>"$tmp/sim2.log" &
sim=$!
pids="$pids $sim"
sleep 0.5
kill -9 "$cd2" 2>/dev/null || fail "dfly-controld ended before it could be killed"
sleep 0.5
# shellcheck disable=SC2086
"$controld" "$cfg" --instance "$inst" $mech --idle-exit 2000 2>"$tmp/cd3.log" &
pids="$pids $!"
# the run must outlast the restart, or there is nothing to reattach to (a fast machine)
kill -0 "$sim" 2>/dev/null || fail "the run ended before dfly-controld was restarted: lengthen \$long"
wait "$sim" || { cat "$tmp/sim2.log"; fail "the run after SIGKILL broke an invariant"; }
grep -q ',ok$' "$tmp/kill.csv" || fail "invariants not ok in the CSV"
absent=$(sed -n 's/^run: \([0-9]*\) cycles without.*/\1/p' "$tmp/sim2.log")
[ -n "$absent" ] && [ "$absent" -gt 0 ] || { cat "$tmp/sim2.log"; fail "no cycles without firmware"; }
grep -q "attached to 36 routers" "$tmp/cd3.log" || { cat "$tmp/cd3.log"; fail "no reattach"; }
echo "ok: SIGKILL and restart: $absent cycles ran without firmware, no packet lost"
ls /dev/shm | grep -q "dfly.$inst." && fail "shared-memory objects left behind"
exit 0
