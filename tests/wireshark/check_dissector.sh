#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tools/wireshark/dfly.lua against the real codec. mkpcap writes pcaps built with
# dfly_wire_*_encode() and the metadata layout of trace.h, and next to each the rows tshark must
# print (see the head of mkpcap.c). Then:
#  1. each field check: `tshark -Y FILTER -T fields -e ...` equals the expected rows (every
#     field of every data frame, control type, ECtN format and metadata record; on a mismatch
#     the differing fields are named);
#  2. the value names of the tree (tshark -V): capture points, decisions and triggers (route
#     counters), drop reasons, port kinds, LIA levels, message types, ECtN formats;
#     and the same names in field output: `-T fields -e dfly.meta.decision` prints the number
#     (tshark prints the raw value of every field, as -e ip.proto prints 6), a custom column
#     (%Cus:dfly.meta.decision) prints the name, every number with the name of the tree; and a
#     filter by name (dfly.meta.decision == "src_nonmin_ugal") selects the records of that
#     number;
#  3. malformed.pcap and malformed-meta.pcap: every frame carries an expert info of group
#     Malformed whose first dfly message names the error the wire decoder returns;
#  4. every file cut to several snap lengths and with random byte errors (editcap, fixed seeds);
# and on every run tshark exits 0, writes nothing to stderr (but the root warning) and no frame
# shows a Lua error. Skipped (77) without tshark.
set -u
mkpcap="${1:?usage: check_dissector.sh MKPCAP DFLY_LUA}"
lua="${2:?usage: check_dissector.sh MKPCAP DFLY_LUA}"
command -v tshark >/dev/null 2>&1 || { echo "tshark is not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp/home" # no personal plugins or preferences
unset XDG_CONFIG_HOME WIRESHARK_CONFIG_DIR
mkdir -p "$HOME" "$tmp/out"
fail() { echo "FAIL: $*"; exit 1; }

"$mkpcap" "$tmp/out" || fail "mkpcap"

# ts PCAP TSHARK_ARGS...: tshark with the dissector on PCAP, output on stdout
ts() {
    pcap="$1"
    shift
    tshark -n -X "lua_script:$lua" -r "$tmp/out/$pcap" "$@" 2>"$tmp/err" || {
        cat "$tmp/err"; fail "tshark exited with status $? on $pcap"; }
    if grep -v 'Running as user "root"' "$tmp/err" | grep -q .; then
        cat "$tmp/err"; fail "tshark wrote to stderr on $pcap"
    fi
}

# field-by-field report of the rows that differ: WANT GOT FIELDS
report() {
    awk -F'\t' -v fields="$3" '
        NR == FNR { want[FNR] = $0; nw = FNR; next }
        { ng = FNR
          if ($0 == want[FNR]) next
          n = split(fields, fn, " "); split(want[FNR], w, "\t")
          for (i = 1; i <= n; i++)
              if (w[i] != $i)
                  printf "  frame %s, %s: want \"%s\", got \"%s\"\n", w[1], fn[i], w[i], $i
          if (++bad >= 10) exit }
        END { if (ng != nw) printf "  %d rows, want %d\n", ng, nw }' "$1" "$2"
}

# 1. fields
for check in "$tmp"/out/*.check; do
    name=$(basename "$check" .check)
    case "$name" in names | malformed*) continue ;; esac
    pcap=$(sed -n 1p "$check")
    filter=$(sed -n 2p "$check")
    fields=$(sed -n 3p "$check")
    set --
    for f in $fields; do set -- "$@" -e "$f"; done
    ts "$pcap" -Y "$filter" -T fields -E occurrence=a -E aggregator=, "$@" >"$tmp/$name.got"
    tail -n +4 "$check" >"$tmp/$name.want"
    [ -s "$tmp/$name.want" ] || fail "$name: no expected rows"
    if ! cmp -s "$tmp/$name.want" "$tmp/$name.got"; then
        report "$tmp/$name.want" "$tmp/$name.got" "$fields"
        fail "$name: tshark's fields differ from what the encoder wrote"
    fi
    echo "ok $name: $(wc -l <"$tmp/$name.want") frames x $(echo "$fields" | wc -w) fields"
done

# 2. value names
check="$tmp/out/names.check"
pcap=$(sed -n 1p "$check")
filter=$(sed -n 2p "$check")
pattern=$(sed -n 3p "$check")
ts "$pcap" -Y "$filter" -V >"$tmp/names.tree"
grep -E "$pattern" "$tmp/names.tree" | sed 's/^ *//' >"$tmp/names.got"
tail -n +4 "$check" >"$tmp/names.want"
if ! cmp -s "$tmp/names.want" "$tmp/names.got"; then
    diff -u "$tmp/names.want" "$tmp/names.got" | head -40
    fail "names: the tree's value names differ from the headers' (- want, + got)"
fi
echo "ok names: $(wc -l <"$tmp/names.want") value names"

# 2b. value names in field output, the recipe of dfly.lua's head: per enum field, the tree's
# label (as in names.check), the field and a custom column of it; each (number, name) tshark
# prints in fields must be one the tree printed, and every pair of the tree must be printed
enums="Capture point=dfly.meta.point|Port kind=dfly.meta.port_kind|Decision=dfly.meta.decision"
enums="$enums|Trigger=dfly.meta.trigger|Drop reason=dfly.meta.drop_reason"
enums="$enums|LIA level=dfly.meta.level|Packet type=dfly.type|Control type=dfly.ctrl.type"
enums="$enums|ECtN format=dfly.ctrl.ectn.format|Arrangement=dfly.ctrl.hello.arr"
cols=""
set --
i=0
IFS='|'
for e in $enums; do
    f=${e#*=}
    cols="$cols${cols:+,}\"c$i\",\"%Cus:$f\""
    set -- "$@" -e "$f" -e "_ws.col.c$i"
    i=$((i + 1))
done
unset IFS
ts "$pcap" -Y "$filter" -o "gui.column.format:$cols" -T fields "$@" >"$tmp/enums.tsv"
echo "$enums" | tr '|' '\n' | awk -F'\t' '
    NR == FNR { split($0, kv, "="); label[FNR - 1] = kv[1]; n = FNR; next }
    { for (i = 0; i < n; i++) {
          num = $(2 * i + 1); name = $(2 * i + 2)
          if (num == "") continue
          if (name == "" || name == num) {
              printf "bare number %s for %s\n", num, label[i]; bad = 1
          }
          print label[i] ": " name " (" num ")" > "/dev/stderr"
      } }
    END { exit bad }' - "$tmp/enums.tsv" 2>"$tmp/enums.got" >"$tmp/enums.bad" ||
    { head -5 "$tmp/enums.bad"; fail "field output: a number without its name"; }
sort -u "$tmp/enums.got" >"$tmp/enums.got.u"
sort -u "$tmp/names.want" >"$tmp/enums.want.u"
if ! cmp -s "$tmp/enums.want.u" "$tmp/enums.got.u"; then
    diff -u "$tmp/enums.want.u" "$tmp/enums.got.u" | head -20
    fail "field output: the names of custom columns differ from the tree's (- tree, + fields)"
fi
# the example of issue 24: decision 6 prints 6 as a field, src_nonmin_ugal as a column; the
# filter by name selects the same records as the filter by number
ts "$pcap" -Y 'dfly.meta.decision == 6' -o 'gui.column.format:"d","%Cus:dfly.meta.decision"' \
    -T fields -e dfly.meta.decision -e _ws.col.d >"$tmp/dec6"
[ -s "$tmp/dec6" ] || fail "no record of decision 6 in $pcap"
[ "$(sort -u "$tmp/dec6")" = "$(printf '6\tsrc_nonmin_ugal')" ] ||
    { sort -u "$tmp/dec6"; fail "decision 6: want 6 and src_nonmin_ugal"; }
ts "$pcap" -Y 'dfly.meta.decision == "src_nonmin_ugal"' -T fields -e frame.number >"$tmp/byname"
ts "$pcap" -Y 'dfly.meta.decision == 6' -T fields -e frame.number >"$tmp/bynum"
cmp -s "$tmp/byname" "$tmp/bynum" || fail "filter by name and by number select different records"
echo "ok names in fields: $(wc -l <"$tmp/enums.want.u") (number, name) pairs by custom column"

# 3. malformed frames: group Malformed (PI_MALFORMED = 0x07000000) on every frame, the first
# "name: ..." message of each frame the expected error
for name in malformed malformed-meta; do
    check="$tmp/out/$name.check"
    pcap=$(sed -n 1p "$check")
    ts "$pcap" -T fields -E occurrence=a -E 'aggregator=|' -e frame.number \
        -e _ws.expert.group -e _ws.expert.message >"$tmp/$name.got"
    tail -n +4 "$check" >"$tmp/$name.want"
    awk -F'\t' '
        NR == FNR { want[$1] = $2; nw++; next }
        { ng++
          if (index($3, "Lua Error") > 0) { printf "  frame %s: %s\n", $1, $3; bad++; next }
          ng_ = split($2, g, "|"); mal = 0
          for (i = 1; i <= ng_; i++) if (g[i] == 117440512) mal = 1
          if (!mal) { printf "  frame %s: no Malformed expert info (%s)\n", $1, $3; bad++ }
          n = split($3, m, "|"); first = ""
          for (i = 1; i <= n; i++) if (m[i] ~ /^[a-z_]+: /) { first = m[i]; break }
          sub(/: .*/, "", first)
          if (first != want[$1]) {
              printf "  frame %s: first error \"%s\", want \"%s\" (%s)\n", $1, first, want[$1], $3
              bad++
          } }
        END { if (ng != nw) { printf "  %d frames, want %d\n", ng, nw; bad++ }
              exit bad > 0 }' "$tmp/$name.want" "$tmp/$name.got" ||
        fail "$name: not every frame is reported malformed with the decoder's error"
    echo "ok $name: $(wc -l <"$tmp/$name.want") frames malformed, each with its error"
done

# 4. robustness: every file cut to a range of snap lengths and with random byte errors (fixed
# seeds): tshark exits 0 and no frame shows a Lua error
n=0
for pcap in frames.pcap meta.pcap malformed.pcap malformed-meta.pcap; do
    for cut in 10 14 20 30 50 62 70 100; do
        editcap -s "$cut" "$tmp/out/$pcap" "$tmp/out/cut-$cut-$pcap" || fail "editcap -s"
    done
    for seed in 1 2 3 4 5 6 7 8; do
        editcap -E 0.03 --seed "$seed" "$tmp/out/$pcap" "$tmp/out/err-$seed-$pcap" \
            >/dev/null || fail "editcap -E"
    done
done
# one pcapng of them all (each file an interface of its own link type), one tshark run
mergecap -a -F pcapng -w "$tmp/out/all.pcapng" "$tmp"/out/cut-* "$tmp"/out/err-* ||
    fail "mergecap"
ts all.pcapng -V >"$tmp/tree"
if grep -q 'Lua Error' "$tmp/tree"; then
    grep 'Lua Error' "$tmp/tree" | sort | uniq -c | head -5
    fail "Lua error on a cut or corrupted frame"
fi
n=$(grep -c '^Frame [0-9]' "$tmp/tree")
echo "ok robustness: $n cut or corrupted frames without a Lua error"
echo "dissector ok"
