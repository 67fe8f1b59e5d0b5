#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# The register files of `dfly sim --firmware-instance NAME` (/dev/shm/dfly.NAME.r<router>) never
# outlive a run (issue 24):
#   1. a run stopped by SIGINT, and one stopped by SIGTERM, removes them and exits 128 + signal;
#   2. a stale file (a run killed with SIGKILL) makes the next run fail with exit 2, a message
#      that names the file and `dfly clean --instance NAME`, and nothing else left behind;
#   3. `dfly clean --instance NAME` lists (--dry-run) and removes them, refuses (exit 1, nothing
#      removed) while a process maps them, and says so when there is nothing to remove;
#   4. after it, the same instance runs again, and leaves nothing.
# No dfly-controld: the runs go on without the firmware (--firmware-wait 1). Each run is h1.
set -u
dfly="${1:?usage: clean.sh DFLY SOURCE_DIR}"
src="${2:?usage: clean.sh DFLY SOURCE_DIR}"
# meson passes paths relative to the build directory
dfly=$(realpath "$dfly")
src=$(realpath "$src")
tmp=$(mktemp -d /tmp/dfly-clean-XXXXXX)
inst="dcl$$"
pids=""
cleanup() {
    for p in $pids; do
        kill -KILL "$p" 2>/dev/null
        wait "$p" 2>/dev/null
    done
    rm -f /dev/shm/dfly."$inst".* 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() {
    echo "FAIL: $*"
    for f in "$tmp"/*.out; do
        [ -s "$f" ] && { echo "--- $f"; tail -5 "$f"; }
    done
    exit 1
}
net="$src/configs/h1.cfg"
left() { ls /dev/shm/dfly."$inst".* 2>/dev/null | wc -l; }

# A long run in the background (its own process group, as from a terminal: a background job of
# a script would ignore SIGINT); returns once its 6 register files exist.
start_long() {
    set -m
    "$dfly" sim "$net" --firmware-instance "$inst" --firmware-wait 1 \
        --set sim.warmup=1000000000 --quiet >"$tmp/$1.out" 2>&1 &
    pid=$!
    set +m
    pids="$pids $pid"
    for _ in $(seq 100); do
        [ "$(left)" = 6 ] && return 0
        kill -0 "$pid" 2>/dev/null || fail "$1: the run ended before its register files existed"
        sleep 0.05
    done
    fail "$1: 6 register files not there after 5 s (found $(left))"
}

# Wait (at most 10 s) for $pid to end; its status in $rc.
wait_end() {
    for _ in $(seq 200); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    kill -0 "$pid" 2>/dev/null && fail "$1: still running 10 s after the signal"
    wait "$pid"
    rc=$?
    pids="${pids/ $pid/}"
}

# 1. SIGINT, then SIGTERM (the latter after `dfly clean` was refused, below)
start_long int
sleep 0.2
kill -INT "$pid"
wait_end SIGINT
[ "$rc" = 130 ] || fail "SIGINT: exit $rc, expected 130"
[ "$(left)" = 0 ] || fail "SIGINT: $(left) register files left"
grep -q "interrupted by SIGINT" "$tmp/int.out" || fail "SIGINT: no 'interrupted by SIGINT'"
echo "ok 1 SIGINT: exit 130, no register file left"

start_long term
"$dfly" clean --instance "$inst" >"$tmp/busy.out" 2>&1
c=$?
[ "$c" = 1 ] || fail "clean of a live run: exit $c, expected 1"
grep -q "is mapped by process $pid " "$tmp/busy.out" || fail "clean of a live run: holder not named"
[ "$(left)" = 6 ] || fail "clean of a live run removed files ($(left) left)"
echo "ok 2 dfly clean refuses while a run maps the files (exit 1, names pid $pid, removes none)"
kill -TERM "$pid"
wait_end SIGTERM
[ "$rc" = 143 ] || fail "SIGTERM: exit $rc, expected 143"
[ "$(left)" = 0 ] || fail "SIGTERM: $(left) register files left"
echo "ok 3 SIGTERM: exit 143, no register file left"

# 2. a stale file: the next run names it and dfly clean
: >/dev/shm/dfly."$inst".r3
"$dfly" sim "$net" --firmware-instance "$inst" --firmware-wait 1 >"$tmp/stale.out" 2>&1
c=$?
[ "$c" = 2 ] || fail "stale file: exit $c, expected 2"
want="dfly sim: register file /dev/shm/dfly.$inst.r3 exists: another run uses instance $inst, or a run was killed; remove it with \`dfly clean --instance $inst\`"
got=$(grep '^dfly sim: ' "$tmp/stale.out" | head -1)
[ "$got" = "$want" ] || fail "stale file: message
  got:  $got
  want: $want"
[ "$(left)" = 1 ] || fail "stale file: the failed run left $(left) files (expected the stale one)"
echo "ok 4 a stale file: exit 2, the message names it and dfly clean"

# 3. dfly clean: --dry-run lists, then it removes; nothing left: says so
"$dfly" clean --instance "$inst" --dry-run >"$tmp/dry.out" 2>&1 || fail "clean --dry-run: exit $?"
grep -qx "would remove /dev/shm/dfly.$inst.r3" "$tmp/dry.out" || fail "clean --dry-run: no listing"
[ "$(left)" = 1 ] || fail "clean --dry-run removed the file"
"$dfly" clean --instance "$inst" >"$tmp/clean.out" 2>&1 || fail "clean: exit $?"
grep -qx "removed /dev/shm/dfly.$inst.r3" "$tmp/clean.out" || fail "clean: no 'removed' line"
[ "$(left)" = 0 ] || fail "clean: $(left) files left"
"$dfly" clean --instance "$inst" >"$tmp/none.out" 2>&1 || fail "clean of nothing: exit $?"
grep -q "no register files of instance $inst" "$tmp/none.out" || fail "clean of nothing: message"
echo "ok 5 dfly clean: --dry-run lists, removes, says when there is nothing"

# 4. the instance runs again
"$dfly" sim "$net" --firmware-instance "$inst" --firmware-wait 1 --quiet >"$tmp/again.out" 2>&1 ||
    fail "the run after dfly clean: exit $?"
grep -q '^min ' "$tmp/again.out" || fail "the run after dfly clean: no result row"
[ "$(left)" = 0 ] || fail "the run after dfly clean left $(left) files"
echo "ok 6 the instance runs again after dfly clean, and leaves nothing"

# usage
"$dfly" clean --help | grep -q '^usage: dfly clean --instance NAME' || fail "dfly clean --help"
"$dfly" --help | grep -q '^  clean ' || fail "dfly --help does not list clean"
"$dfly" clean >/dev/null 2>&1
[ $? = 2 ] || fail "dfly clean without --instance: not exit 2"
"$dfly" clean --instance 'a/b' >/dev/null 2>&1
[ $? = 2 ] || fail "dfly clean --instance a/b: not exit 2"
echo "ok 7 usage: --help, dfly --help, errors exit 2"
echo "clean: interrupted runs leave no register file; dfly clean removes a stale one"
