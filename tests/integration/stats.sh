#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `dfly stats` on live register files. A `dfly sim --firmware-instance` run in lockstep with
# dfly-controld (as in controld.sh) creates /dev/shm/dfly.<inst>.r0..r5 (h1, 6 routers) and runs
# far longer than the test; while it runs:
#  1. --list shows the instance with its 6 routers;
#  2. a snapshot: every router's cycle, known counter names (every name one of regs.h's
#     X-macros), non-negative integer values, every drop reason of r0 with --all; the cycle
#     advances between two snapshots (the files are read live);
#  3. --csv with 3 samples: 3 x 6 rows, the header's column count on every row, each sample
#     covers routers 0..5, cycle non-decreasing per router; --filter narrows the columns;
#  4. --watch 0.2 --count 2: two header lines, every other line a parseable delta;
#  5. errors: exit 2 and one line on usage errors, exit 1 and one clear line on a missing file;
#  6. SIGINT ends an endless --csv with whole rows; a removed file ends a --watch;
#  7. the mechanism state of an ECtN run (h1, ADV+1): contention counters port<P>.cc, the
#     partial and combined arrays ectn.partial.g<D> / ectn.combined.g<D>, live and non-zero,
#     one CSV column per port and per group.
# Every process and shared-memory object it creates is removed, also on failure.
set -u
dfly="${1:?usage: stats.sh DFLY DFLY_CONTROLD SOURCE_DIR}"
controld="${2:?usage: stats.sh DFLY DFLY_CONTROLD SOURCE_DIR}"
src="${3:?usage: stats.sh DFLY DFLY_CONTROLD SOURCE_DIR}"
inst="st$$"
tmp=$(mktemp -d)
pids=""
cleanup() {
    for p in $pids; do kill -9 "$p" 2>/dev/null; done
    for p in $pids; do wait "$p" 2>/dev/null; done
    rm -f /dev/shm/dfly."$inst".r* 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*"; exit 1; }
# forget PID: a process that ended and was waited for (its id may be reused)
forget() { pids=$(echo "$pids" | tr ' ' '\n' | grep -vx "$1" | tr '\n' ' '); }

# wait_exit PID SECONDS: wait for a background process to end; its exit status, or fail
wait_exit() {
    n=0
    while kill -0 "$1" 2>/dev/null; do
        n=$((n + 1))
        [ "$n" -le $(($2 * 10)) ] || fail "process $1 did not end within $2 s"
        sleep 0.1
    done
    wait "$1"
    rc=$?
    forget "$1"
    return "$rc"
}

# cycle_of R: router R's cycle from a snapshot (empty if it cannot be read)
cycle_of() {
    "$dfly" stats --instance "$inst" --router "$1" --filter cycle 2>/dev/null |
        sed -n "s/^r$1\.cycle \([0-9]*\)\$/\1/p"
}

regs_h="$src/include/dfly/regs.h"
ndrop=$(sed -n '/define DFLY_FOREACH_DROP/,/^$/p' "$regs_h" | grep -c 'X([A-Z_0-9]*,')
[ "$ndrop" -gt 10 ] || fail "could not count the drop reasons in $regs_h"

cfg="$src/configs/h1.cfg"
run="--set traffic.load=0.5 --set sim.warmup=1000 --set sim.measure=1000000000"
# shellcheck disable=SC2086
"$controld" "$cfg" --instance "$inst" $run --quiet 2>"$tmp/cd.log" &
pids="$pids $!"
# shellcheck disable=SC2086
"$dfly" sim "$cfg" $run --firmware-instance "$inst" --quiet >"$tmp/sim.out" 2>"$tmp/sim.log" &
sim=$!
pids="$pids $sim"

# the files exist and traffic has flowed (lockstep speed depends on the machine's load)
i=0
while :; do
    c=$(cycle_of 5)
    [ -n "$c" ] && [ "$c" -ge 500 ] && break
    kill -0 "$sim" 2>/dev/null || { cat "$tmp/sim.log"; fail "dfly sim ended early"; }
    i=$((i + 1))
    [ "$i" -le 1200 ] || fail "the register files of $inst did not reach cycle 500 in 120 s"
    sleep 0.1
done

# 1. --list
"$dfly" stats --list >"$tmp/list.txt" || fail "--list"
grep -Eq "^$inst +6 +[0-9]+ +0-5\$" "$tmp/list.txt" || { cat "$tmp/list.txt"; fail "--list"; }
"$dfly" stats --list --instance "$inst" >"$tmp/list1.txt" || fail "--list --instance"
[ "$(wc -l <"$tmp/list1.txt")" -eq 2 ] || { cat "$tmp/list1.txt"; fail "--list --instance"; }
echo "ok: --list shows $inst with routers 0-5"

# 2. snapshot
"$dfly" stats --instance "$inst" >"$tmp/snap.txt" 2>"$tmp/snap.err" ||
    { cat "$tmp/snap.err"; fail "snapshot"; }
bad=$(grep -Ev '^r[0-5]\.[a-z0-9_.]+ [0-9]+$' "$tmp/snap.txt" | head -n 1)
[ -z "$bad" ] || fail "snapshot line does not parse: '$bad'"
for r in 0 1 2 3 4 5; do
    grep -Eq "^r$r\.cycle [1-9][0-9]*\$" "$tmp/snap.txt" || fail "no r$r.cycle in the snapshot"
done
for key in r0.port0.rx_pkts r0.port0.tx_pkts r0.port0.vc0.enq_pkts r0.route.inj_min \
    r0.route.eject r5.port0.rx_phits; do
    grep -Eq "^$key [1-9][0-9]*\$" "$tmp/snap.txt" || fail "no non-zero $key in the snapshot"
done
# every name is a port<P>., port<P>.vc<V>., drop. or route. name of regs.h's X-macros
for n in $(sed 's/^r[0-9]*\.//; s/ .*//' "$tmp/snap.txt" | sort -u); do
    [ "$n" = cycle ] && continue
    # the mechanism state (struct dfly_regs_mech_ctrs), kept by the ASIC in every mode
    case "$n" in
    port*.cc | port*.cc_est_q8 | ectn.partial.g? | ectn.combined.g? | lia.injected.g? | \
        lia.stored.g?) continue ;;
    esac
    echo "$n" | grep -Eq '^(port[0-9]+\.(vc[0-9]+\.)?|drop\.|route\.)[a-z0-9_]+$' ||
        fail "unexpected name $n"
    grep -q "X([A-Z0-9_]*, ${n##*.}," "$regs_h" || fail "$n is not a counter of regs.h"
done
"$dfly" stats --instance "$inst" --router 0 --filter drop. --all >"$tmp/drops.txt" ||
    fail "snapshot of r0's drops"
bad=$(grep -Ev '^r0\.drop\.[a-z_]+ [0-9]+$' "$tmp/drops.txt" | head -n 1)
[ -z "$bad" ] || fail "drop line does not parse: '$bad'"
[ "$(wc -l <"$tmp/drops.txt")" -eq "$ndrop" ] ||
    { cat "$tmp/drops.txt"; fail "expected $ndrop drop reasons for r0"; }
grep -q '^r0\.drop\.inj_full ' "$tmp/drops.txt" || fail "no r0.drop.inj_full"
c1=$(cycle_of 0)
i=0
while :; do
    c2=$(cycle_of 0)
    [ -n "$c2" ] && [ "$c2" -gt "$c1" ] && break
    i=$((i + 1))
    [ "$i" -le 300 ] || fail "r0's cycle stayed at $c1 for 30 s"
    sleep 0.1
done
echo "ok: snapshot: $(wc -l <"$tmp/snap.txt") values, $ndrop drop reasons, cycle $c1 -> $c2"

# 3. --csv
"$dfly" stats --instance "$inst" --csv "$tmp/s.csv" --interval 0.1 --count 3 >"$tmp/csv.out" ||
    fail "--csv"
grep -q "3 sample(s) of 6 router(s) written to $tmp/s.csv" "$tmp/csv.out" ||
    { cat "$tmp/csv.out"; fail "--csv summary line"; }
[ "$(wc -l <"$tmp/s.csv")" -eq 19 ] || fail "--csv: expected a header and 3 x 6 rows"
head -n 1 "$tmp/s.csv" | grep -q '^time_s,router,cycle,p0\.rx_pkts,p0\.rx_phits,' ||
    fail "--csv header: $(head -c 200 "$tmp/s.csv")"
head -n 1 "$tmp/s.csv" | tr ',' '\n' >"$tmp/cols.txt"
for col in p2.rx_pkts p2.vc1.down_occ drop.inj_full drop.no_mbuf route.inj_min route.eject; do
    grep -qx "$col" "$tmp/cols.txt" || fail "--csv header lacks $col"
done
head -n 1 "$tmp/s.csv" | grep -q ',p3\.' && fail "--csv header has a port 3 (radix 3)"
[ "$(head -n 1 "$tmp/s.csv" | tr ',' '\n' | sort | uniq -d | wc -l)" -eq 0 ] ||
    fail "--csv header repeats a column"
awk -F, 'NR == 1 { n = NF; next }
    NF != n { print "row " NR ": " NF " columns, header " n; bad = 1; exit }
    $1 !~ /^[0-9]+\.[0-9]+$/ { print "row " NR ": time_s " $1; bad = 1; exit }
    { for (i = 2; i <= NF; i++) if ($i !~ /^[0-9]+$/) {
          print "row " NR " column " i ": \"" $i "\""; bad = 1; exit } }
    { if ($2 != (NR - 2) % 6) { print "row " NR ": router " $2; bad = 1; exit }
      if ($2 in last && $3 + 0 < last[$2]) { print "row " NR ": cycle went back"; bad = 1; exit }
      last[$2] = $3 + 0 }
    END { exit bad }' "$tmp/s.csv" || fail "--csv rows"
"$dfly" stats --instance "$inst" --csv - --interval 0.1 --count 1 --filter drop. \
    >"$tmp/d.csv" || fail "--csv - --filter drop."
[ "$(head -n 1 "$tmp/d.csv" | tr ',' '\n' | wc -l)" -eq $((3 + ndrop)) ] ||
    fail "--filter drop.: expected $((3 + ndrop)) columns: $(head -n 1 "$tmp/d.csv")"
[ "$(wc -l <"$tmp/d.csv")" -eq 7 ] || fail "--csv -: expected a header and 6 rows"
echo "ok: --csv: 3 samples x 6 routers, $(head -n 1 "$tmp/s.csv" | tr ',' '\n' | wc -l) columns"

# 4. --watch
"$dfly" stats --instance "$inst" --watch 0.2 --count 2 >"$tmp/watch.txt" 2>"$tmp/watch.err" ||
    { cat "$tmp/watch.err"; fail "--watch"; }
[ "$(grep -c '^t=' "$tmp/watch.txt")" -eq 2 ] || { cat "$tmp/watch.txt"; fail "--watch reports"; }
bad=$(grep -Ev '^t=[0-9]+\.[0-9]{3} cycle=[0-9]+ \(\+[0-9]+ cycles, [0-9]+ cycles/s\)$' \
    "$tmp/watch.txt" |
    grep -Ev '^r[0-5]\.[a-z0-9_.]+ (\+[0-9]+ [0-9]+\.[0-9]/s|-?[0-9]+ \([+-][0-9]+\))$' |
    head -n 1)
[ -z "$bad" ] || fail "--watch line does not parse: '$bad'"
head -n 1 "$tmp/watch.txt" | grep -q '^t=' || fail "--watch does not start with a header"
echo "ok: --watch: 2 reports, $(grep -c '^r' "$tmp/watch.txt") changed values"

# 5. errors
expect() { # expect STATUS MESSAGE-REGEX ARGS...: exit status and a one-line message (an
    # unknown option: and the line "see 'dfly stats --help'")
    want=$1
    re=$2
    shift 2
    "$dfly" stats "$@" >"$tmp/e.out" 2>"$tmp/e.err"
    rc=$?
    [ "$rc" -eq "$want" ] || fail "dfly stats $*: exit $rc, expected $want"
    grep -v "^see 'dfly stats --help'\$" "$tmp/e.err" >"$tmp/e.msg"
    [ "$(wc -l <"$tmp/e.msg")" -eq 1 ] || { cat "$tmp/e.err"; fail "dfly stats $*: not one line"; }
    grep -Eq -e "$re" "$tmp/e.msg" || { cat "$tmp/e.err"; fail "dfly stats $*: message"; }
}
expect 2 'needed' --router 0
expect 2 '--router 5-2' --instance "$inst" --router 5-2
expect 2 '--instance a\.b' --instance a.b
expect 2 '--watch 0:' --instance "$inst" --watch 0
expect 2 'needs --interval' --instance "$inst" --csv "$tmp/x.csv"
expect 2 'exclude' --instance "$inst" --csv "$tmp/x.csv" --interval 1 --watch 1
expect 2 "unknown option '--bogus'" --instance "$inst" --bogus
expect 2 'takes no option' --list --all
hint='\(is dfly-switch or dfly sim --firmware-instance running\?\)'
expect 1 "^dfly stats: /dfly\.${inst}x\.r3: No such file or directory $hint\$" \
    --instance "${inst}x" --router 3
expect 1 "no register files of instance '${inst}x'" --instance "${inst}x"
expect 1 "/dfly\.$inst\.r6: No such file" --instance "$inst" --router 0-6
"$dfly" stats --help | grep -q '^usage: dfly stats' || fail "--help"
"$dfly" --help | grep -q '^  stats ' || fail "dfly --help does not list stats"
echo "ok: usage errors exit 2, a missing file exits 1, one line each"

# 6. SIGINT ends an endless --csv; a removed file ends a --watch
"$dfly" stats --instance "$inst" --csv "$tmp/int.csv" --interval 0.05 >"$tmp/int.out" 2>&1 &
st=$!
pids="$pids $st"
i=0
while [ "$(wc -l 2>/dev/null <"$tmp/int.csv" || echo 0)" -lt 13 ]; do
    i=$((i + 1))
    [ "$i" -le 300 ] || fail "--csv wrote no 2 samples in 30 s"
    sleep 0.1
done
kill -INT "$st"
wait_exit "$st" 5
rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/int.out"; fail "--csv after SIGINT: exit $rc"; }
lines=$(wc -l <"$tmp/int.csv")
[ $(((lines - 1) % 6)) -eq 0 ] || fail "--csv after SIGINT: $lines lines, not whole samples"
[ "$(tail -c 1 "$tmp/int.csv" | od -An -c | tr -d ' ')" = '\n' ] ||
    fail "--csv after SIGINT: the last row is cut"
grep -q "sample(s) of 6 router(s) written" "$tmp/int.out" || fail "--csv after SIGINT: summary"

"$dfly" stats --instance "$inst" --watch 0.1 >"$tmp/end.txt" 2>"$tmp/end.err" &
st=$!
pids="$pids $st"
sleep 0.3
rm -f /dev/shm/dfly."$inst".r3
wait_exit "$st" 5
rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/end.err"; fail "--watch after the file was removed: exit $rc"; }
grep -q "^dfly stats: /dfly\.$inst\.r3 was removed: the run ended\$" "$tmp/end.err" ||
    { cat "$tmp/end.err"; fail "--watch after the file was removed: message"; }
grep -q '^t=' "$tmp/end.txt" || fail "--watch gave no last report"
echo "ok: SIGINT: $(((lines - 1) / 6)) whole samples; a removed file ends --watch"

# 7. contention counters and ECtN arrays, live
for p in $pids; do kill "$p" 2>/dev/null; done
for p in $pids; do wait "$p" 2>/dev/null; done
pids=""
rm -f /dev/shm/dfly."$inst".r*
run="$run --set routing.mechanism=ectn --set traffic.pattern=adv+1 --set traffic.load=0.4"
# shellcheck disable=SC2086
"$controld" "$cfg" --instance "$inst" $run --quiet 2>"$tmp/cd2.log" &
pids="$pids $!"
# shellcheck disable=SC2086
"$dfly" sim "$cfg" $run --firmware-instance "$inst" --quiet >"$tmp/sim2.out" 2>"$tmp/sim2.log" &
sim=$!
pids="$pids $sim"
i=0
while :; do
    c=$(cycle_of 5)
    [ -n "$c" ] && [ "$c" -ge 1500 ] && break
    kill -0 "$sim" 2>/dev/null || { cat "$tmp/sim2.log"; fail "dfly sim (ectn) ended early"; }
    i=$((i + 1))
    [ "$i" -le 1200 ] || fail "the ECtN run did not reach cycle 1500 in 120 s"
    sleep 0.1
done
# the values move every cycle: a few snapshots until each kind has been seen non-zero
seen_cc=0 seen_p=0 seen_c=0 i=0
while [ $((seen_cc * seen_p * seen_c)) -eq 0 ]; do
    i=$((i + 1))
    [ "$i" -le 50 ] || fail "no non-zero cc ($seen_cc), partial ($seen_p), combined ($seen_c)"
    "$dfly" stats --instance "$inst" >"$tmp/m.txt" || fail "snapshot (ectn)"
    bad=$(grep -E '\.(cc|cc_est_q8|partial\.g[0-9]+|combined\.g[0-9]+) ' "$tmp/m.txt" |
        grep -v '^r[0-5]\.lia\.' |
        grep -Ev '^r[0-5]\.(port[0-9]+\.cc|ectn\.(partial|combined)\.g[0-2]) [1-9][0-9]*$' |
        head -n 1)
    [ -z "$bad" ] || fail "mechanism line does not parse: '$bad'"
    grep -Eq '^r[0-5]\.port[0-9]+\.cc ' "$tmp/m.txt" && seen_cc=1
    grep -Eq '^r[0-5]\.ectn\.partial\.g' "$tmp/m.txt" && seen_p=1
    grep -Eq '^r[0-5]\.ectn\.combined\.g' "$tmp/m.txt" && seen_c=1
    sleep 0.05
done
"$dfly" stats --instance "$inst" --csv - --interval 0.1 --count 1 --filter ectn. >"$tmp/e.csv" ||
    fail "--csv --filter ectn."
[ "$(head -n 1 "$tmp/e.csv")" = "time_s,router,cycle,ectn.partial.g0,ectn.partial.g1,\
ectn.partial.g2,ectn.combined.g0,ectn.combined.g1,ectn.combined.g2" ] ||
    fail "--csv ectn columns: $(head -n 1 "$tmp/e.csv")"
"$dfly" stats --instance "$inst" --csv - --interval 0.1 --count 1 --filter .cc >"$tmp/c.csv" ||
    fail "--csv --filter .cc"
[ "$(head -n 1 "$tmp/c.csv")" = "time_s,router,cycle,route.cc_trig_contention,\
route.cc_trig_credit,route.cc_trig_ectn,p0.cc,p0.cc_est_q8,p1.cc,p1.cc_est_q8,p2.cc,p2.cc_est_q8" ] || fail "--csv cc columns: $(head -n 1 "$tmp/c.csv")"
"$dfly" stats --instance "$inst" --csv - --interval 0.1 --count 1 --filter lia. >"$tmp/l.csv" ||
    fail "--csv --filter lia."
[ "$(head -n 1 "$tmp/l.csv")" = "time_s,router,cycle,lia.injected.g0,lia.injected.g1,\
lia.injected.g2,lia.stored.g0,lia.stored.g1,lia.stored.g2" ] ||
    fail "--csv lia columns: $(head -n 1 "$tmp/l.csv")"
# the running totals of packets out of injection towards other groups grow
awk -F, 'NR == 2 { exit !($4 + $5 + $6 > 0) }' "$tmp/l.csv" || fail "lia.injected all zero"
echo "ok: ECtN run: contention counters, partial and combined arrays read live ($i snapshot(s))"
exit 0
