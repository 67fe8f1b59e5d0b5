#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Bad command lines (issue 24), table-driven like badconfig.sh: every row runs dfly,
# dfly-switch or dfly-controld with one thing wrong and asserts
#   - the exit status (2 for a usage error),
#   - the exact first line on stderr, and that it is the only one, or followed only by
#     "see 'CMD --help'" (never the whole help),
#   - nothing on stdout and no file written (the row's --csv) when it fails: everything is
#     checked before anything is printed or run.
# Then loops: an unknown option of every command and subcommand gives the line and the pointer
# to --help; --help of every one exits 0; --version of every binary prints NAME VERSION (REV).
# Every row fails for its own reason: the commands are otherwise valid. Nothing runs long:
# dfly-switch stops at its options or at --check.
set -u
usage="usage: badcli.sh DFLY SWITCH CONTROLD SOURCE_DIR"
# meson passes the binaries relative to the build directory: absolute before anything else
dfly=$(realpath "${1:?$usage}") || exit 1
switch=$(realpath "${2:?$usage}") || exit 1
controld=$(realpath "${3:?$usage}") || exit 1
src=$(realpath "${4:?$usage}") || exit 1
tmp=$(mktemp -d /tmp/dfly-badcli-XXXXXX)
# the instance (register files) and testbed name of the rows, should one start after all
inst="b$(($$ % 100000))"
cleanup() {
    rm -rf "$tmp"
    rm -f /dev/shm/dfly."$inst".r* 2>/dev/null
    rm -rf /var/run/dpdk/"$inst"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
eal="--no-huge -m 256 --no-pci --no-shconf -l 0 --log-level=1 --file-prefix $inst"
n=0
bad=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
notok() { n=$((n + 1)); bad=$((bad + 1)); echo "not ok $n $1: $2"; }

# run PROG ARGS...: exit status in $rc, stdout in $tmp/out, stderr in $tmp/err. Nothing here
# should run for more than a moment: a command that does (dfly-switch --duration -5 ran until
# killed) is stopped after 5 s, and exits 124
run() {
    local prog=$1
    shift
    case $prog in
    dfly) prog=$dfly ;;
    switch) prog=$switch ;;
    controld) prog=$controld ;;
    esac
    timeout -k 2 5 "$prog" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

# check NAME STATUS SEE MESSAGE: the last run against the row (SEE: "see" for a usage error
# followed by its pointer to --help, "-" for a message alone; MESSAGE empty: nothing on stderr)
check() {
    local name=$1 status=$2 see=$3 want=$4 first lines cmd
    first=$(head -n 1 "$tmp/err")
    lines=$(wc -l <"$tmp/err")
    if [ "$rc" != "$status" ]; then
        notok "$name" "exit $rc, expected $status"
    elif [ "$first" != "$want" ]; then
        notok "$name" "message
  got:  $first
  want: $want"
    elif [ -z "$want" ] && [ "$lines" != 0 ]; then
        notok "$name" "$lines lines on stderr, expected none"
    elif [ -n "$want" ] && [ "$see" = "-" ] && [ "$lines" != 1 ]; then
        notok "$name" "$lines lines on stderr, expected the message alone"
    elif [ "$see" = see ] && { cmd=${want%%: *}; [ "$lines" != 2 ] ||
        [ "$(sed -n 2p "$tmp/err")" != "see '$cmd --help'" ]; }; then
        notok "$name" "expected the message and \"see '$cmd --help'\", got $lines lines:
$(head -n 4 "$tmp/err")"
    elif [ "$status" != 0 ] && [ -s "$tmp/out" ]; then
        notok "$name" "output on stdout before the error: $(head -n 1 "$tmp/out")"
    elif [ -e "$tmp/x.csv" ]; then
        notok "$name" "the CSV file was written"
    else
        ok "$name"
    fi
}

# -- 1. the table: name | program | arguments | exit status | see or - | first line of stderr
# (SRC = the source tree, TMP = a scratch folder, EAL = dfly-switch's EAL options, INST = an
# instance and testbed name of this run)
while IFS='|' read -r name prog args status see want; do
    [ -z "$name" ] || [ "${name:0:1}" = "#" ] && continue
    args=${args//SRC/$src}
    args=${args//TMP/$tmp}
    args=${args//EAL/$eal}
    args=${args//INST/$inst}
    want=${want//SRC/$src}
    rm -f "$tmp/x.csv"
    # shellcheck disable=SC2086
    run "$prog" $args
    check "$name" "$status" "$see" "$want"
done <<'TABLE'
# -- durations and counts: zero and negative refused, with the option typed
switch --duration -5|switch|EAL -- SRC/configs/testbed/h1-one.cfg --duration -5|2|-|dfly-switch: --duration -5: expected a number of seconds > 0
switch --duration 0|switch|EAL -- SRC/configs/testbed/h1-one.cfg --duration 0|2|-|dfly-switch: --duration 0: expected a number of seconds > 0
switch --duration x|switch|EAL -- SRC/configs/testbed/h1-one.cfg --duration 5x|2|-|dfly-switch: --duration 5x: expected a number of seconds > 0
switch --gen-seconds 0|switch|EAL -- SRC/configs/testbed/h1-one.cfg --gen-seconds 0|2|-|dfly-switch: --gen-seconds 0: expected a number of seconds > 0
switch --epoch-ns -1|switch|EAL -- SRC/configs/testbed/h1-one.cfg --epoch-ns -1|2|-|dfly-switch: --epoch-ns -1: expected a whole number of nanoseconds (CLOCK_MONOTONIC) > 0
controld --idle-exit 0|controld|SRC/configs/h1.cfg --instance INST --idle-exit 0|2|-|dfly-controld: --idle-exit 0: expected a whole number of milliseconds > 0
controld --idle-exit -1|controld|SRC/configs/h1.cfg --instance INST --idle-exit -1|2|-|dfly-controld: --idle-exit -1: expected a whole number of milliseconds > 0
testbed --duration 0|dfly|testbed run SRC/configs/h1.cfg --name INST --dir TMP/tb --duration 0|2|-|dfly testbed: --duration 0: expected a number of seconds > 0
testbed --gen-seconds 0|dfly|testbed run SRC/configs/h1.cfg --name INST --dir TMP/tb --duration 5 --gen-seconds 0|2|-|dfly testbed: --gen-seconds 0: expected a number of seconds > 0
testbed --timeout -1|dfly|testbed up SRC/configs/h1.cfg --name INST --dir TMP/tb --timeout -1|2|-|dfly testbed: --timeout -1: expected a number of seconds > 0
bench sim --cycles 0|dfly|bench sim --cycles 0|2|-|dfly bench sim: --cycles 0: expected a whole number of cycles > 0
bench sim --runs -1|dfly|bench sim --runs -1|2|-|dfly bench sim: --runs -1: expected a whole number of runs from 1 to 64
bench dataplane --runs -1|dfly|bench dataplane --runs -1|2|-|dfly bench dataplane: --runs -1: expected a whole number of runs from 1 to 64
bench dataplane --seconds 0|dfly|bench dataplane --seconds 0|2|-|dfly bench dataplane: --seconds 0: expected a number of seconds > 0, at most 3600
bench dataplane --max-steps 0|dfly|bench dataplane --max-steps 0|2|-|dfly bench dataplane: --max-steps 0: expected a whole number of cycles from 1 to 1000000
bench counters --packets 0|dfly|bench counters --packets 0|2|-|dfly bench counters: --packets 0: expected a whole number of packets > 0
transient --post 0|dfly|transient SRC/configs/h1.cfg --from un --to adv+1 --post 0|2|-|dfly transient: --post 0: expected a whole number of cycles > 0
transient --bin -2|dfly|transient SRC/configs/h1.cfg --from un --to adv+1 --bin -2|2|-|dfly transient: --bin -2: expected a whole number of cycles from 1 to 4294967295
trace --cycle-ns 0|dfly|trace --cycle-ns 0 TMP/none.pcap|2|-|dfly trace: --cycle-ns 0: expected a number > 0
repro claims --jobs 0|dfly|repro claims --jobs 0|2|-|dfly repro claims: --jobs 0: expected a whole number of jobs from 1 to 64
sim --seeds 0|dfly|sim SRC/configs/h1.cfg --seeds 0 --csv TMP/x.csv|2|-|dfly sim: --seeds 0: sim.seeds: 0 is out of range (expected 1..10000)
# -- unknown options and other usage errors: the line and where the help is, not the help
sim unknown option|dfly|sim SRC/configs/h1.cfg --bogus|2|see|dfly sim: unknown option '--bogus'
sim unknown option=value|dfly|sim SRC/configs/h1.cfg --bogus=3|2|see|dfly sim: unknown option '--bogus'
sim ambiguous option|dfly|sim SRC/configs/h1.cfg --se 3|2|see|dfly sim: option '--se' is ambiguous (--set, --seed, --seeds)
sim value missing|dfly|sim SRC/configs/h1.cfg --loads|2|see|dfly sim: option '--loads' needs a value
sim value not taken|dfly|sim SRC/configs/h1.cfg --quiet=yes|2|see|dfly sim: option '--quiet' takes no value
sim unknown short option|dfly|sim SRC/configs/h1.cfg -x|2|see|dfly sim: unknown option '-x'
sim no network file|dfly|sim --quiet|2|see|dfly sim: a network file (CONFIG) is required
sim two network files|dfly|sim SRC/configs/h1.cfg SRC/configs/h2.cfg|2|see|dfly sim: unexpected argument 'SRC/configs/h2.cfg'
dfly unknown command|dfly|simulate SRC/configs/h1.cfg|2|see|dfly: unknown command 'simulate'
dfly unknown option|dfly|--bogus|2|see|dfly: unknown option '--bogus'
switch option before --|switch|--duration 5 -- SRC/configs/testbed/h1-one.cfg|2|see|dfly-switch: --duration goes after the EAL options and --, with the deployment file
switch no deployment|switch|EAL --|2|see|dfly-switch: a deployment file is required (after the EAL options and --)
controld no --instance|controld|SRC/configs/h1.cfg|2|see|dfly-controld: --instance NAME is required
# -- dfly sim: everything checked before anything is printed (or a CSV written)
sim --loads 1.5|dfly|sim SRC/configs/h1.cfg --loads 1.5 --csv TMP/x.csv|2|-|dfly sim: --loads 1.5: 1.5 is out of range (expected loads from 0 to 1)
sim --loads in a list|dfly|sim SRC/configs/h1.cfg --loads 0.1,1.5 --csv TMP/x.csv|2|-|dfly sim: --loads 0.1,1.5: 1.5 is out of range (expected loads from 0 to 1)
sim second mechanism bad|dfly|sim SRC/configs/h1.cfg --mechanisms min,fastest --set sim.warmup=100 --set sim.measure=100 --csv TMP/x.csv|2|-|dfly sim: --mechanisms fastest: routing.mechanism: unknown mechanism 'fastest' (expected one of: min, val, ugal, pb, par, olm, base, filtered, hybrid, ectn, lia, tpr, pb-acor, ugal-g, crt, res)
sim --firmware-instance, two runs|dfly|sim SRC/configs/h1.cfg --firmware-instance INST --seeds 2 --csv TMP/x.csv|2|-|dfly sim: --firmware-instance runs one configuration only (one mechanism, pattern, load and seed; this is 2 runs)
# -- dfly sim: lists and ranges said as typed, flags named as typed
sim --mechanisms empty item|dfly|sim SRC/configs/h1.cfg --mechanisms min,,val|2|-|dfly sim: --mechanisms min,,val: an empty item (two commas, or one at an end)
sim --patterns trailing comma|dfly|sim SRC/configs/h1.cfg --patterns un,|2|-|dfly sim: --patterns un,: an empty item (two commas, or one at an end)
sim --loads empty item|dfly|sim SRC/configs/h1.cfg --loads 0.1,,0.3|2|-|dfly sim: --loads 0.1,,0.3: an empty item (two commas, or one at an end)
bench --patterns empty item|dfly|bench sim --patterns un,,adv+1|2|-|dfly bench sim: --patterns un,,adv+1: an empty item (two commas, or one at an end)
repro --patterns empty item|dfly|repro steady --patterns un,,adv+1 --dry-run|2|-|dfly repro steady: --patterns un,,adv+1: expected a list of un, adv+1, adv+h
sim --loads backwards|dfly|sim SRC/configs/h1.cfg --loads 0.5:0.1:0.1|2|-|dfly sim: --loads 0.5:0.1:0.1: the range runs backwards (from 0.5 down to 0.1); A:B:STEP goes up from A to B, so write 0.1:0.5:0.1
sim --loads step 0|dfly|sim SRC/configs/h1.cfg --loads 0.1:0.5:0|2|-|dfly sim: --loads 0.1:0.5:0: the step 0 is not > 0
sim --seeds -3|dfly|sim SRC/configs/h1.cfg --seeds -3|2|-|dfly sim: --seeds -3: sim.seeds: -3 is out of range (expected 1..10000)
sim --seed x|dfly|sim SRC/configs/h1.cfg --seed x|2|-|dfly sim: --seed x: sim.seed: expected an integer
sim --patterns c1|dfly|sim SRC/configs/h1.cfg --patterns un,c1|2|-|dfly sim: --patterns c1: traffic.pattern: c1 splits the g = 3 groups into 4 areas of 0, and ADV+h inside an area needs more than h = 1 groups (expected g/4 > h)
sim --set sim.seeds keeps --set|dfly|sim SRC/configs/h1.cfg --set sim.seeds=-3|2|-|dfly sim: --set sim.seeds=-3: sim.seeds: -3 is out of range (expected 1..10000)
sim --set traffic.pattern keeps --set|dfly|sim SRC/configs/h1.cfg --set traffic.pattern=c1|2|-|dfly sim: --set traffic.pattern=c1: traffic.pattern: c1 splits the g = 3 groups into 4 areas of 0, and ADV+h inside an area needs more than h = 1 groups (expected g/4 > h)
transient --seeds -3|dfly|transient SRC/configs/h1.cfg --from un --to adv+1 --seeds -3|2|-|dfly transient: --seeds -3: sim.seeds: -3 is out of range (expected 1..10000)
# -- dfly-switch: clock.cycle_ns too short for real time is said (a network file for dfly sim)
switch clock.cycle_ns = 1 warned|switch|EAL -- SRC/configs/testbed/h1-one.cfg --check|0|-|dfly-switch: warning: clock.cycle_ns = 1: every emulated cycle is 1 ns of real time, which no lcore keeps up with (a router-cycle takes it microseconds), so the routers will run far slower than real time; set e.g. --set clock.cycle_ns=10000 (10 us per cycle), or --free-run for a benchmark
switch clock.cycle_ns = 10000 quiet|switch|EAL -- SRC/configs/testbed/h1-one.cfg --check --set clock.cycle_ns=10000|0|-|
switch --free-run quiet|switch|EAL -- SRC/configs/testbed/h1-one.cfg --check --free-run|0|-|
TABLE

# -- 2. every command and subcommand: an unknown option, --help
cmds=(sim topo bench "bench sim" "bench dataplane" "bench counters" transient repro
    "repro claims" "repro transient" "repro steady" "repro threshold" "repro lia" stats
    testbed "testbed gen" "testbed up" "testbed run" "testbed status" "testbed down" trace plot
    "plot load" "plot transient" "plot routers" "plot bins" clean verify)
# the commands dfly --help lists are all here (a new one must be added)
for c in $("$dfly" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]\{1,\}\).*/\1/p'); do
    case " ${cmds[*]} " in
    *" $c "*) ;;
    *) notok "dfly --help lists $c" "not in this test's list of commands" ;;
    esac
done
for c in "${cmds[@]}"; do
    # shellcheck disable=SC2086
    run dfly $c --help
    if [ "$rc" != 0 ] || ! head -n 1 "$tmp/out" | grep -q '^usage: ' || [ -s "$tmp/err" ]; then
        notok "dfly $c --help" "exit $rc, stdout '$(head -n 1 "$tmp/out")', $(wc -l <"$tmp/err") lines on stderr"
    else
        ok "dfly $c --help"
    fi
    case $c in
    bench | repro | testbed | plot) continue ;; # a word first: an unknown one is row "dfly unknown command"
    esac
    # shellcheck disable=SC2086
    run dfly $c --bogus
    check "dfly $c --bogus" 2 see "dfly $c: unknown option '--bogus'"
done
for c in bench repro plot testbed; do
    run dfly "$c" nosuch
    if [ "$rc" = 2 ] && [ "$(sed -n 2p "$tmp/err")" = "see 'dfly $c --help'" ] &&
        [ "$(wc -l <"$tmp/err")" = 2 ] && [ ! -s "$tmp/out" ]; then
        ok "dfly $c nosuch"
    else
        notok "dfly $c nosuch" "exit $rc: $(head -n 3 "$tmp/err")"
    fi
done
for p in switch controld; do
    run "$p" --help
    name=$([ $p = switch ] && echo dfly-switch || echo dfly-controld)
    if [ "$rc" = 0 ] && head -n 1 "$tmp/out" | grep -q "^usage: $name " && [ ! -s "$tmp/err" ]; then
        ok "$name --help"
    else
        notok "$name --help" "exit $rc, stdout '$(head -n 1 "$tmp/out")'"
    fi
done
# shellcheck disable=SC2086
run switch $eal -- "$src/configs/testbed/h1-one.cfg" --bogus
check "dfly-switch --bogus" 2 see "dfly-switch: unknown option '--bogus'"
run controld "$src/configs/h1.cfg" --instance "$inst" --bogus
check "dfly-controld --bogus" 2 see "dfly-controld: unknown option '--bogus'"
# an option the EAL does not know: glibc's line and the EAL's failure, not its 100-line usage
# shellcheck disable=SC2086
run switch $eal --bogus -- "$src/configs/testbed/h1-one.cfg"
if [ "$rc" = 2 ] && grep -q "unrecognized option '--bogus'" "$tmp/err" &&
    [ "$(tail -n 1 "$tmp/err")" = "see 'dfly-switch --help'" ] &&
    [ "$(wc -l <"$tmp/err")" -le 8 ] && [ ! -s "$tmp/out" ]; then
    ok "dfly-switch EAL --bogus"
else
    notok "dfly-switch EAL --bogus" "exit $rc, $(wc -l <"$tmp/err") lines on stderr, $(wc -l <"$tmp/out") on stdout"
fi

# -- 3. --version: NAME VERSION (REV), the version of meson.build, one commit for all three
version=$(sed -n "s/^ *version: '\([^']*\)',.*/\1/p" "$src/meson.build" | head -n 1)
revs=()
for p in dfly switch controld; do
    name=$(case $p in dfly) echo dfly ;; switch) echo dfly-switch ;; *) echo dfly-controld ;; esac)
    run "$p" --version
    line=$(cat "$tmp/out")
    rev=$(printf '%s\n' "$line" | sed -n "s/^$name $version (\([^ ()]\{1,\}\))\$/\1/p")
    if [ "$rc" = 0 ] && [ -n "$rev" ] && [ "$(wc -l <"$tmp/out")" = 1 ] && [ ! -s "$tmp/err" ]; then
        ok "$name --version: $line"
        revs+=("$rev")
    else
        notok "$name --version" "exit $rc: '$line', expected '$name $version (REV)'"
    fi
done
[ "$(printf '%s\n' "${revs[@]}" | sort -u | wc -l)" -le 1 ] ||
    notok "--version" "different commits: ${revs[*]}"

if [ "$bad" -gt 0 ]; then
    echo "badcli: $bad of $n checks failed"
    exit 1
fi
echo "badcli: $n checks: bad command lines refused with their message, --help and --version of every command"
