#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# tools/wireshark/dfly.lua loads into tshark and registers its protocols and display-filter
# fields: `tshark -X lua_script:dfly.lua -G fields` lists every field below. Skipped (77)
# without tshark.
set -u
lua="${1:?usage: check_fields.sh DFLY_LUA}"
command -v tshark >/dev/null 2>&1 || { echo "tshark is not installed: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME="$tmp" # no personal plugins or preferences
unset XDG_CONFIG_HOME WIRESHARK_CONFIG_DIR

tshark -G fields -X "lua_script:$lua" >"$tmp/fields" 2>"$tmp/err" || {
    cat "$tmp/err"; echo "FAIL: tshark -G fields"; exit 1; }
if grep -v 'Running as user "root"' "$tmp/err" | grep -q .; then
    cat "$tmp/err"; echo "FAIL: tshark wrote errors"; exit 1
fi
grep '^F.*dfly\.' "$tmp/fields" | cut -f3 | sort >"$tmp/dfly"
for p in dfly dfly.ctrl dfly.meta; do
    grep -q "^P	[^	]*	$p\$" "$tmp/fields" || { echo "FAIL: no protocol $p"; exit 1; }
done
missing=0
for f in \
    dfly.version dfly.type dfly.flags dfly.nonmin dfly.phase dfly.mandatory_global \
    dfly.local_misroute_done dfly.reply dfly.pb dfly.nointer dfly.res_min dfly.res.cookie \
    dfly.res.rbar dfly.res.len dfly.res.gc dfly.res.grant dfly.ghops dfly.lhops dfly.vc \
    dfly.size_phits dfly.src_node dfly.dst_node dfly.via_router dfly.seq dfly.gen_cycle \
    dfly.pb_vec dfly.tag dfly.payload_len dfly.path_lhops dfly.inj_delay dfly.payload \
    dfly.ctrl.type dfly.ctrl.src_router dfly.ctrl.body_len \
    dfly.ctrl.credit.n dfly.ctrl.credit.due dfly.ctrl.credit.vc dfly.ctrl.credit.flags dfly.ctrl.credit.min \
    dfly.ctrl.credit.abs dfly.ctrl.credit.phits \
    dfly.ctrl.pb.h dfly.ctrl.pb.vg dfly.ctrl.pb.bits dfly.ctrl.pb.sat \
    dfly.ctrl.ectn.epoch dfly.ctrl.ectn.format dfly.ctrl.ectn.n dfly.ctrl.ectn.m \
    dfly.ctrl.ectn.counter dfly.ctrl.ectn.entry dfly.ctrl.ectn.index dfly.ctrl.ectn.value \
    dfly.ctrl.hello.port dfly.ctrl.hello.arr dfly.ctrl.hello.sigma dfly.ctrl.hello.p \
    dfly.ctrl.hello.a dfly.ctrl.hello.h dfly.ctrl.hello.t dfly.ctrl.hello.cfg_hash \
    dfly.ctrl.ack.ack dfly.ctrl.ack.flags dfly.ctrl.ack.nak dfly.ctrl.ack.taken \
    dfly.meta.point dfly.meta.router dfly.meta.port dfly.meta.vc dfly.meta.port_kind \
    dfly.meta.cycle dfly.meta.decision dfly.meta.trigger dfly.meta.drop_reason \
    dfly.meta.flags dfly.meta.nonmin dfly.meta.valiant dfly.meta.phase1 dfly.meta.sat \
    dfly.meta.l1 dfly.meta.l2 dfly.meta.level dfly.meta.q_min dfly.meta.q_val dfly.meta.t \
    dfly.meta.cc dfly.meta.ectn_combined; do
    grep -qx "$f" "$tmp/dfly" || { echo "FAIL: field $f not registered"; missing=1; }
done
[ "$missing" -eq 0 ] || exit 1
echo "dfly.lua registers $(wc -l <"$tmp/dfly") fields"
