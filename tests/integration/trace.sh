#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# `dfly sim --capture` and `dfly trace`, end to end:
#  1. a captured run: dfly trace --window WARMUP:WARMUP+MEASURE agrees with dfly sim's own CSV
#     row (packets, average latency, p50, p99, misrouted share, hops);
#  2. several runs (two loads) write one file each, named after the run;
#  3. a plain Ethernet capture (capture.meta = false) is read as frames (no packet statistics);
#     two files are merged by time;
#  4. errors: bad capture settings name the setting, a missing file exits 1, bad options 2;
#  5. files that are not whole dfly captures exit 1 with a message naming the file: one cut in
#     the middle of a record (the byte offset of that record, and the records before it still
#     reported), a pcap header followed by garbage, a text file, and a readable pcap of plain
#     IPv4 frames (how many frames, their EtherType); a pcap header alone is a warning, exit 0.
# Every file it creates is removed, also on failure.
set -u
dfly="${1:?usage: trace.sh DFLY SOURCE_DIR}"
src="${2:?usage: trace.sh DFLY SOURCE_DIR}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*"; exit 1; }
cfg="$src/configs/h2.cfg"
run="--set routing.mechanism=ugal --set traffic.pattern=adv+1 --set sim.warmup=1000 --set sim.measure=3000"

# 1. the trace agrees with the simulator
# shellcheck disable=SC2086
"$dfly" sim "$cfg" $run --loads 0.3 --csv "$tmp/sim.csv" --capture "$tmp/c.pcap" --quiet \
    >"$tmp/sim.out" 2>"$tmp/sim.err" || { cat "$tmp/sim.err"; fail "dfly sim --capture"; }
[ -s "$tmp/c.pcap" ] || fail "no capture file"
# shellcheck disable=SC2086
"$dfly" trace "$tmp/c.pcap" --config "$cfg" $run --window 1000:4000 --csv "$tmp/t" \
    >"$tmp/trace.out" 2>&1 || { cat "$tmp/trace.out"; fail "dfly trace"; }
# sim.csv: mechanism,pattern,offered,accepted,lat_avg,lat_p50,lat_p99,misrouted_pct,hops_avg,
# ...,pkts_delivered (column 20); t-summary.csv: packets,lat_avg,lat_p50,lat_p99,lat_max,
# misrouted_pct,global_misrouted_pct,lhops_avg,ghops_avg,...
s=$(sed -n 2p "$tmp/sim.csv")
t=$(sed -n 2p "$tmp/t-summary.csv")
[ -n "$s" ] && [ -n "$t" ] || fail "empty CSV"
echo "$s|$t" | awk -F'|' '{
    split($1, s, ","); split($2, t, ",")
    if (s[20] != t[1]) { print "packets: sim " s[20] ", trace " t[1]; exit 1 }
    if (sprintf("%.3f", s[5]) != sprintf("%.3f", t[2])) { print "lat_avg " s[5] " vs " t[2]; exit 1 }
    if (s[6] + 0 != t[3] + 0 || s[7] + 0 != t[4] + 0) { print "p50/p99 " s[6] "/" s[7] " vs " t[3] "/" t[4]; exit 1 }
    if (sprintf("%.3f", s[8]) != sprintf("%.3f", t[6])) { print "misrouted " s[8] " vs " t[6]; exit 1 }
    if (sprintf("%.3f", s[9]) != sprintf("%.3f", t[8] + t[9])) { print "hops " s[9] " vs " t[8] "+" t[9]; exit 1 }
}' || fail "dfly trace disagrees with dfly sim"
grep -q '^paths: min [0-9]* ' "$tmp/trace.out" || fail "no path kinds"
[ "$(wc -l <"$tmp/t-links.csv")" -eq $((36 * 5 + 1)) ] || fail "links CSV: 36 routers x 5 fabric ports"
[ "$(wc -l <"$tmp/t-nodes.csv")" -eq 73 ] || fail "nodes CSV: 72 nodes"
echo "ok: dfly trace agrees with dfly sim: $(echo "$s" | cut -d, -f20) packets, latency $(echo "$s" | cut -d, -f5)"

# 1b. the Wireshark dissector reads the capture dfly sim wrote: every record decoded, none
# malformed, and as many host_tx records as dfly trace counted
if command -v tshark >/dev/null 2>&1; then
    lua="$src/tools/wireshark/dfly.lua"
    HOME="$tmp" tshark -X lua_script:"$lua" -r "$tmp/c.pcap" -T fields -e dfly.meta.point \
        -e dfly.dst_node -e _ws.expert.group 2>"$tmp/ts.err" >"$tmp/ts.txt" ||
        { cat "$tmp/ts.err"; fail "tshark"; }
    n=$(wc -l <"$tmp/ts.txt")
    rec=$(sed -n 's/^records: \([0-9]*\) .*/\1/p' "$tmp/trace.out")
    [ "$n" -eq "$rec" ] || fail "tshark read $n records, dfly trace $rec"
    grep -qi malformed "$tmp/ts.txt" && fail "tshark flagged a record of dfly sim's capture"
    ntx=$(awk -F'\t' '$1 == "host_tx" || $1 == 1' "$tmp/ts.txt" | wc -l)
    htx=$(sed -n 's/.*host_tx \([0-9]*\),.*/\1/p' "$tmp/trace.out")
    [ "$ntx" -eq "$htx" ] || fail "tshark: $ntx host_tx records, dfly trace $htx"
    awk -F'\t' '$2 == ""' "$tmp/ts.txt" | grep -q . && fail "a record without dfly.dst_node"
    echo "ok: tshark with tools/wireshark/dfly.lua decodes all $n records, none malformed"
else
    echo "skip: tshark not installed (the dissector check needs it)"
fi

# 2. several runs, one file each
# shellcheck disable=SC2086
"$dfly" sim "$cfg" $run --loads 0.1,0.2 --capture "$tmp/m.pcap" --quiet >/dev/null 2>&1 ||
    fail "dfly sim --capture with two loads"
for f in m-ugal-adv+1-0.100-s1.pcap m-ugal-adv+1-0.200-s1.pcap; do
    [ -s "$tmp/$f" ] || fail "missing $f: $(ls "$tmp")"
done
echo "ok: two loads, two files"

# 3. plain Ethernet frames, merged by time
# shellcheck disable=SC2086
"$dfly" sim "$cfg" $run --loads 0.1 --set capture.meta=false --set capture.points=port_tx \
    --set capture.routers=0-3 --capture "$tmp/e.pcap" --quiet >/dev/null 2>&1 || fail "meta=false"
"$dfly" trace "$tmp/e.pcap" "$tmp/m-ugal-adv+1-0.100-s1.pcap" --config "$cfg" >"$tmp/e.out" 2>&1 ||
    { cat "$tmp/e.out"; fail "dfly trace of two files"; }
grep -q '^records: ' "$tmp/e.out" || fail "no records line"
echo "ok: an Ethernet capture and a metadata capture merged"

# 4. errors
"$dfly" sim "$cfg" --set capture.points=port_txx --capture "$tmp/x.pcap" >/dev/null 2>"$tmp/e1" &&
    fail "a bad capture point was accepted"
grep -q "capture.points: bad capture point list 'port_txx'" "$tmp/e1" || { cat "$tmp/e1"; fail "message"; }
"$dfly" sim "$cfg" --set capture.routers=0-99 --capture "$tmp/x.pcap" >/dev/null 2>"$tmp/e2" &&
    fail "a router outside the network was accepted"
grep -q "capture.routers: '0-99' names a router outside 0..35" "$tmp/e2" || { cat "$tmp/e2"; fail "message"; }
"$dfly" sim "$cfg" --capture /nonexistent/dir/x.pcap --quiet >/dev/null 2>"$tmp/e3" &&
    fail "an unwritable capture file was accepted"
grep -q "/nonexistent/dir/x.pcap" "$tmp/e3" || { cat "$tmp/e3"; fail "message"; }
"$dfly" trace "$tmp/none.pcap" >/dev/null 2>&1
[ $? -eq 1 ] || fail "a missing file must exit 1"
"$dfly" trace "$tmp/c.pcap" --window 5:2 >/dev/null 2>&1
[ $? -eq 2 ] || fail "a bad window must exit 2"
"$dfly" trace --help | grep -q '^usage: dfly trace' || fail "--help"
echo "ok: errors name the setting or the file"

# 5. truncated, corrupt and foreign files
# caplen FILE OFF: the captured length of the record at byte OFF of FILE (bytes 8..11 of its
# 16-byte header, in host order: dfly sim wrote the file on this machine)
caplen() { od -An -tu4 -j $(($2 + 8)) -N4 "$1" | tr -d ' '; }
# 5a. the first three records whole, the fourth cut 20 bytes into its data
off=24
for _ in 1 2 3; do off=$((off + 16 + $(caplen "$tmp/c.pcap" $off))); done
[ "$(caplen "$tmp/c.pcap" $off)" -gt 20 ] || fail "the fourth record of c.pcap is too short to cut"
head -c $((off + 16 + 20)) "$tmp/c.pcap" >"$tmp/cut.pcap"
"$dfly" trace "$tmp/cut.pcap" >"$tmp/cut.out" 2>"$tmp/cut.err"
[ $? -eq 1 ] || { cat "$tmp/cut.err"; fail "a truncated file must exit 1"; }
grep -q "^dfly trace: $tmp/cut.pcap: reading record 4 at byte $off failed: .*truncated" \
    "$tmp/cut.err" || { cat "$tmp/cut.err"; fail "truncated: message without file and offset"; }
grep -q '^records: 3 ' "$tmp/cut.out" || { cat "$tmp/cut.out"; fail "the 3 whole records"; }
# 5b. a pcap file header followed by 64 bytes of garbage
{ head -c 24 "$tmp/c.pcap"; printf '\377\376\375\374%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; } \
    >"$tmp/garbage.pcap"
"$dfly" trace "$tmp/garbage.pcap" >/dev/null 2>"$tmp/garbage.err"
[ $? -eq 1 ] || { cat "$tmp/garbage.err"; fail "header + garbage must exit 1"; }
grep -q "^dfly trace: $tmp/garbage.pcap: reading record 1 at byte 24 failed: " \
    "$tmp/garbage.err" || { cat "$tmp/garbage.err"; fail "garbage: message"; }
# 5c. not a capture at all (libpcap's "unknown file format" does not name the file)
printf 'not a capture\n' >"$tmp/text.pcap"
"$dfly" trace "$tmp/text.pcap" >/dev/null 2>"$tmp/text.err"
[ $? -eq 1 ] || { cat "$tmp/text.err"; fail "a text file must exit 1"; }
grep -q "^dfly trace: $tmp/text.pcap: " "$tmp/text.err" || { cat "$tmp/text.err"; fail "text: file"; }
# 5d. a file header and no record: a warning, exit 0 (a capture whose points saw nothing)
head -c 24 "$tmp/c.pcap" >"$tmp/empty.pcap"
"$dfly" trace "$tmp/empty.pcap" >/dev/null 2>"$tmp/empty.err" ||
    { cat "$tmp/empty.err"; fail "a capture without records must exit 0"; }
grep -q "^dfly trace: warning: $tmp/empty.pcap: no records" "$tmp/empty.err" ||
    { cat "$tmp/empty.err"; fail "no warning for a capture without records"; }
# 5e. a readable pcap (little-endian, microseconds, link type 1) of three Ethernet frames of
# EtherType 0x0800, each a 20-byte IPv4 header
{
    printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000'
    printf '\377\377\000\000\001\000\000\000'
    for _ in 1 2 3; do # ts 1 s, caplen = len = 34; dst, src, 0x0800; IPv4 header
        printf '\001\000\000\000\000\000\000\000\042\000\000\000\042\000\000\000'
        printf '\002\000\000\000\000\002\002\000\000\000\000\001\010\000'
        printf '\105\000\000\024\000\000\000\000\100\021\000\000\012\000\000\001\012\000\000\002'
    done
} >"$tmp/ipv4.pcap"
[ "$(wc -c <"$tmp/ipv4.pcap")" -eq $((24 + 3 * (16 + 34))) ] || fail "ipv4.pcap: size"
"$dfly" trace "$tmp/ipv4.pcap" >/dev/null 2>"$tmp/ipv4.err"
[ $? -eq 1 ] || { cat "$tmp/ipv4.err"; fail "a file without dfly frames must exit 1"; }
grep -q "^dfly trace: $tmp/ipv4.pcap: 3 frames, none of them dfly frames .*ethertype 0x0800 x3" \
    "$tmp/ipv4.err" || { cat "$tmp/ipv4.err"; fail "no-dfly-frames message"; }
echo "ok: truncated, corrupt and foreign files exit 1 naming the file"
exit 0
