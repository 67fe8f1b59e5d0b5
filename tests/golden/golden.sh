#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The refactoring oracle (issue 22): a fixed set of dfly sim runs — every routing mechanism on
# h2, h4 and h4-l under UN, ADV+1 and ADVc, and variants that reach the rest of the model
# (FlexVC, failover, control faults, PB in-band, threads and batches, transients, captures) —
# whose CSVs, counter dumps (every register of every router) and pcaps must stay byte-identical
# across refactors and fast paths ("the results are the contract, not the loop", DESIGN.md §4).
#
#   golden.sh gen DFLY OUTDIR     write every output into OUTDIR
#   golden.sh check DFLY          gen into a temporary folder and compare its sha256 sums with
#                                 tests/golden/golden.sha256; exit 1 naming every file that differs
#   golden.sh record DFLY         rewrite tests/golden/golden.sha256 (only when a change of
#                                 results is intended and said so in the commit)
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
mode="${1:?usage: golden.sh gen|check|record DFLY [OUTDIR]}"
dfly="${2:?usage: golden.sh gen|check|record DFLY [OUTDIR]}"

mechs_all="min,val,ugal,pb,par,olm,base,filtered,hybrid,ectn,lia,tpr,pb-acor,ugal-g"

gen() {
	local out="$1" rc=0
	mkdir -p "$out"
	local short=(--set sim.warmup=1500 --set sim.measure=1500 --set sim.drain=100000)
	run() { # NAME CONFIG ARGS...
		local name="$1" cfg="$2"; shift 2
		if ! "$dfly" sim "$src/configs/$cfg" --quiet --csv "$out/$name.csv" \
			--counters "$out/$name.counters" "$@" >"$out/$name.out" 2>"$out/$name.err"; then
			echo "golden: $name failed (exit $?):" >&2; tail -3 "$out/$name.err" >&2; rc=1
		fi
	}
	# every mechanism, three networks, three patterns; PAR needs 5 local VCs
	for cfg in h2 h4 h4-l; do
		run "$cfg-all" "$cfg.cfg" "${short[@]}" --set vcs.local=5 \
			--mechanisms "$mechs_all" --patterns un,adv+1,advc --loads 0.3
	done
	# the loads where adaptive routing works hardest, two seeds
	run h2-sat h2.cfg "${short[@]}" --mechanisms ugal,pb,olm,base,ectn,lia --patterns adv+1 \
		--loads 0.45 --seeds 2
	# FlexVC (min and val), the Valiant variants, UGAL and PB settings
	run h2-flexvc h2.cfg "${short[@]}" --set vcs.flexvc=jsq --mechanisms min,val \
		--patterns un,adv+1 --loads 0.3
	for pa in lg- -gl -g-; do
		run "h2-val$pa" h2.cfg "${short[@]}" --set routing.val.path_a="$pa" \
			--mechanisms val --patterns un --loads 0.2
	done
	run h2-ugal-port h2.cfg "${short[@]}" --set routing.ugal.occupancy=port \
		--mechanisms ugal --patterns adv+1 --loads 0.3
	run h2-pb-inband h2.cfg "${short[@]}" --set routing.pb.exchange=inband \
		--set routing.pb.bits=port --mechanisms pb --patterns adv+1 --loads 0.3
	run h2-prio h2.cfg "${short[@]}" --set router.in_transit_priority=true \
		--set router.output_arbiter=age --mechanisms min,base --patterns advc --loads 0.35
	run h2-perm h2.cfg "${short[@]}" --mechanisms ugal,hybrid --patterns perm,adv-1 --loads 0.2
	# faults: a global link down and up with failover, control frames lost and late
	run h2-failover h2.cfg "${short[@]}" --set routing.failover.enabled=on \
		--link-down 0:3:500:2000 --mechanisms min,ugal --patterns un --loads 0.2
	run h2-ctrlfault h2.cfg "${short[@]}" --ctrl-fault all:200000:20 \
		--mechanisms pb,ectn --patterns adv+1 --loads 0.3
	# threads and batches (the same results as one thread, test_threads checks that too)
	run h4-threads h4.cfg "${short[@]}" --set sim.threads=2 --set sim.batch=true \
		--mechanisms ugal,ectn --patterns adv+1 --loads 0.3
	# a capture of every point
	run h2-capture h2.cfg "${short[@]}" --capture "$out/h2-capture.pcap" \
		--mechanisms ugal --patterns adv+1 --loads 0.2
	# a transient (pattern switch after the warm-up), cycle by cycle
	if ! "$dfly" transient "$src/configs/h2.cfg" --quiet --set sim.warmup=1500 \
		--set routing.mechanism=ugal --from un --to adv+1 --post 1500 --load 0.3 --csv "$out/h2-transient.csv" \
		>"$out/h2-transient.out" 2>"$out/h2-transient.err"; then
		echo "golden: h2-transient failed:" >&2; tail -3 "$out/h2-transient.err" >&2; rc=1
	fi
	# progress lines carry wall time; only the results are the contract. The summaries name
	# the folders of this checkout and of the outputs: written as SRC and OUT.
	rm -f "$out"/*.err
	sed -i -e "s|$out|OUT|g" -e "s|$src|SRC|g" "$out"/*.out
	return $rc
}

sums() { (cd "$1" && sha256sum -- * | LC_ALL=C sort -k2); }

case "$mode" in
gen) gen "${3:?OUTDIR}" ;;
record)
	tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
	gen "$tmp" || exit 1
	sums "$tmp" >"$here/golden.sha256"
	echo "golden: recorded $(wc -l <"$here/golden.sha256") files" ;;
check)
	tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
	gen "$tmp" || { echo "0 passed, 1 failed"; exit 1; }
	sums "$tmp" >"$tmp.sums"
	if diff <(awk '{print $2, $1}' "$here/golden.sha256") <(awk '{print $2, $1}' "$tmp.sums") \
		>"$tmp.diff"; then
		echo "golden: $(wc -l <"$tmp.sums") outputs byte-identical"; rm -f "$tmp.sums" "$tmp.diff"
	else
		echo "golden: outputs differ from tests/golden/golden.sha256:"; cat "$tmp.diff"
		rm -f "$tmp.sums" "$tmp.diff"; exit 1
	fi ;;
*) echo "usage: golden.sh gen|check|record DFLY [OUTDIR]" >&2; exit 2 ;;
esac
