#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# dfly sim against FOGSim on one saturated point, the same network, router and pattern: the
# comparisons docs/claims-notes.md cites for H2 and H3 (throughput, not speed: see simcmp.sh).
#
#   FOGSIM=/path/to/fogsim scripts/fogsim-cmp.sh CASE [ARBITERS]
#
# CASE:
#   val-adv1   VAL (Valiant router, recomputed at a blocked injection head) under ADV+1 at 0.6:
#              FOGSim routing=OBL, ValiantType=SRCEXC_RECOMP, ValiantMisroutingDestination=NODE,
#              GlobalMisroutingPolicy=RRG; dfly routing.val.recompute, with
#              routing.val.exclude = src (FOGSim's rule: the Valiant node outside the source
#              group only) and = src+dst (the spec's PROPOSAL, dfly's default)
#   val-adv1-flex  the same with FlexVC and 8/4 VCs (FOGSim VcUsage=FLEXIBLE, its default
#              lowest-occupancy choice; dfly vcs.flexvc = jsq, the VC with the most credits)
#   min-advc   MIN under ADVc at 0.55: FOGSim's ADVc (v5 steady.cc: destinations in the groups
#              G+1 .. G+h-1), dfly with traffic.advc_groups = h-1 and = h (the spec's, default)
#   olm-advh, ectn-advh  OLM / ECtN under ADV+h (H11), average latency at LOAD (default 0.2):
#              FOGSim routing=OLM, GlobalMisroutingPolicy=MM_L, MisroutingTrigger=CGA (per-VC
#              occupancy, PercentLocal/GlobalThreshold=50, ThMin=0, restriction 150 % + 5) or
#              CA_REMOTE (ContentionThreshold=6, ContentionGlobalThreshold=10), 3/2 VCs;
#              dfly with routing.candidate_draw = all (default) and = one (FOGSim's
#              olm::nominateCandidates: one port drawn, valid or not)
#   damq-un    MIN under UN at LOAD (default 1.0), 2/1 VCs, DAMQ input ports of 128/512 phits
#              (local/global) with RESERVE % of each VC's share reserved (default 75; 100 is
#              static partitioning, 64/512-phit VCs): FOGSim Buffer=DYNAMIC, ReservedBuffer*
#              in packets; dfly buffers.mode = damq, on FOGSim's router rules
#              (configs/cfg-t-fogsim.cfg resized) and on its defaults (H43)
#   damq-rr    the same under request-reply (FOGSim Traffic=UN_RCTV; dfly traffic.reqrep,
#              traffic.reply = consume) with 4/2 VCs, 2/1 per class, of 32/256 phits (H40)
#   pb-un      PB under UN at LOAD (default 1.0), 4/2 VCs: FOGSim routing=PB as
#              scripts/fogsim-transient.sh runs it; dfly on FOGSim's router rules, then with
#              FOGSim's source decision added one setting at a time (routing.candidate_credits
#              = false, vcs.assign = next, routing.ugal.weight = fogsim), on its defaults, and
#              with routing.ugal.weight = hops
# ARBITERS: rr (default: input and output round robin), lrs, or prio (input LRS, output
#   PrioLRS / RR with in-transit priority for min-advc, PrioRR).
# H: the network p = h, a = 2h (default 4, configs/h4.cfg: CFG-T's router); CYCLES: warm-up
# and measured cycles of both (default "3000 5000"). FEXTRA: more FOGSim [CONFIG] lines, one a
# line (a key given again replaces the one above); DEXTRA: more dfly arguments (--set k=v ...).
# FOGSim is v5 (github.com/fuentesp/fogsim dcdd75f), unmodified, built with its Makefile.
# Prints one line per run: simulator, settings, accepted load (phits/(node·cycle)), average
# global hops where FOGSim reports them.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=scripts/fogsim-router.sh
. scripts/fogsim-router.sh
case_=${1:?usage: FOGSIM=... scripts/fogsim-cmp.sh val-adv1|val-adv1-flex|min-advc|olm-advh|ectn-advh|damq-un|damq-rr|pb-un [rr|lrs|prio]}
arb=${2:-rr}
H=${H:-4}
read -r warm meas <<<"${CYCLES:-3000 5000}"
dfly=build/tools/dfly
[ -x "$dfly" ] || { echo "fogsim-cmp: build dfly first (scripts/build.sh)" >&2; exit 2; }
[ -n "${FOGSIM:-}" ] && [ -x "$FOGSIM" ] ||
	{ echo "fogsim-cmp: FOGSIM=/path/to/fogsim (FOGSim v5, built with its Makefile)" >&2; exit 2; }
case "$arb" in
rr) fin=RR fout=RR dset=(--set router.input_arbiter=rr --set router.output_arbiter=rr) ;;
lrs) fin=LRS fout=LRS dset=(--set router.input_arbiter=lrs --set router.output_arbiter=lrs) ;;
prio)
	if [ "$case_" = min-advc ]; then fin=RR fout=PrioRR a=rr; else fin=LRS fout=PrioLRS a=lrs; fi
	dset=(--set router.input_arbiter=$a --set router.output_arbiter=$a
		--set router.in_transit_priority=true) ;;
*) echo "fogsim-cmp: arbiters rr, lrs or prio" >&2; exit 2 ;;
esac
vcusage=BASE
case "$case_" in
val-adv1 | val-adv1-flex)
	load=0.6 lvc=4 gvc=2
	ftraffic="Traffic=ADV_RANDOM_NODE
AdvTrafficDistance=1"
	frouting="routing=OBL
ValiantType=SRCEXC_RECOMP
ValiantMisroutingDestination=NODE
GlobalMisroutingPolicy=RRG"
	dbase=(--set routing.mechanism=val --set traffic.pattern=adv+1 --set routing.val.recompute=true)
	variants=("routing.val.exclude=src" "routing.val.exclude=src+dst")
	if [ "$case_" = val-adv1-flex ]; then
		lvc=8 gvc=4 vcusage=FLEXIBLE
		dbase+=(--set vcs.flexvc=jsq --set vcs.local=8 --set vcs.global=4)
	fi ;;
min-advc)
	load=0.55 lvc=2 gvc=1
	ftraffic="Traffic=ADVc"
	frouting="routing=MIN"
	dbase=(--set routing.mechanism=min --set traffic.pattern=advc)
	variants=("traffic.advc_groups=$((H - 1))" "traffic.advc_groups=0") ;;
olm-advh | ectn-advh)
	load=${LOAD:-0.2} lvc=3 gvc=2
	ftraffic="Traffic=ADV_RANDOM_NODE
AdvTrafficDistance=$H"
	if [ "$case_" = olm-advh ]; then
		trig="MisroutingTrigger=CGA
PercentLocalThreshold=50
PercentGlobalThreshold=50
ThMin=0
VcMisroutingCongestedRestrictionCoefPercent=150
VcMisroutingCongestedRestrictionThreshold=5"
	else
		trig="MisroutingTrigger=CA_REMOTE
ContentionThreshold=6
ContentionGlobalThreshold=10"
	fi
	frouting="routing=OLM
GlobalMisroutingPolicy=MM_L
CongestionDetection=PER_VC
$trig"
	dbase=(--set routing.mechanism="${case_%-advh}" --set traffic.pattern=adv+$H)
	variants=("routing.candidate_draw=all" "routing.candidate_draw=one") ;;
damq-un | damq-rr)
	load=${LOAD:-1.0} res=${RESERVE:-75}
	# damq-un: 2/1 VCs of 64/512 phits; damq-rr: request-reply, 4/2 VCs (2/1 per class) of
	# 32/256 phits; both 128/512 phits per port
	if [ "$case_" = damq-un ]; then
		lvc=2 gvc=1 lbuf=64 gbuf=512 ftraffic="Traffic=UN"
		dbase=(--set traffic.pattern=un)
	else
		lvc=4 gvc=2 lbuf=32 gbuf=256 ftraffic="Traffic=UN_RCTV"
		dbase=(--set traffic.pattern=un --set traffic.reqrep=true --set traffic.reply=consume)
	fi
	if [ "$res" = 100 ]; then
		frouting="routing=MIN
LocalQueueLength=$lbuf
GlobalQueueLength=$gbuf"
		dbase+=(--set buffers.mode=static)
	else
		# FOGSim reserves whole packets (8 phits) per VC
		frouting="routing=MIN
Buffer=DYNAMIC
LocalQueueLength=$((lbuf * lvc))
GlobalQueueLength=$((gbuf * gvc))
ReservedBufferLocal=$((lbuf / 8 * res / 100))
ReservedBufferGlobal=$((gbuf / 8 * res / 100))"
		dbase+=(--set buffers.mode=damq --set buffers.damq_reserve="$(python3 -c "print($res / 100)")")
	fi
	dbase+=(--set routing.mechanism=min --set "vcs.local=$lvc" --set "vcs.global=$gvc"
		--set "buffers.local=$lbuf" --set "buffers.global=$gbuf")
	variants=("@fogsim" "") ;; # FOGSim's rules; dfly's defaults
pb-un)
	# FOGSim's PB as scripts/fogsim-transient.sh runs it (fogsim-router.sh fogsim_pb)
	load=${LOAD:-1.0} lvc=4 gvc=2
	ftraffic="Traffic=UN"
	frouting=$(fogsim_pb)
	dbase=(--set routing.mechanism=pb --set routing.pb.send_unchanged=false
		--set routing.val.path_a=lg- --set traffic.pattern=un)
	variants=("@fogsim" "@fogsim routing.candidate_credits=false"
		"@fogsim routing.candidate_credits=false vcs.assign=next"
		"@fogsim routing.candidate_credits=false vcs.assign=next routing.ugal.weight=fogsim"
		"" "routing.ugal.weight=hops") ;;
*) echo "fogsim-cmp: CASE val-adv1, val-adv1-flex, min-advc, olm-advh, ectn-advh, damq-un, damq-rr or pb-un" >&2; exit 2 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/f.conf" <<EOF
$(fogsim_net "$H" "$warm" "$meas" "$tmp/f.out")
$ftraffic
Probability=$(python3 -c "print(round($load * 100))")
$(fogsim_router "$fin" "$fout" "$lvc" "$gvc" "$vcusage")
$frouting
deadlock_avoidance=DALLY
${FEXTRA:-}
PrintCycles=100000
EOF
(cd "$tmp" && "$FOGSIM" f.conf >f.log 2>&1) || { tail -3 "$tmp/f.log"; exit 1; }
awk -v c="$case_ $arb h=$H" '/^Accepted Load:/ { a = $3 } /^Average Global Distance:/ { g = $4 }
	/^Average Distance:/ { d = $3 } /^Average Total Latency:/ { l = $4 }
	END { printf "FOGSim  %-40s accepted %.4f  latency %.1f  hops %.2f  global hops %.3f\n",
		c, a, l, d, g }' "$tmp/f.out"
# the network p = h, a = 2h on CFG-T's router (configs/h4.cfg) and on it with FOGSim's router
# rules (configs/cfg-t-fogsim.cfg, which differs from h4.cfg only in those and the windows)
resize() { sed "s/^\tp = .*/\tp = $H;/; s/^\ta = .*/\ta = $((2 * H));/; s/^\th = .*/\th = $H;/" "$1"; }
resize configs/h4.cfg >"$tmp/net.cfg"
resize configs/cfg-t-fogsim.cfg >"$tmp/fogsim.cfg"
for v in "${variants[@]}"; do
	# a variant: settings separated by spaces, "" (the router as it is), or @fogsim (FOGSim's
	# rules) followed by more settings
	cfg=$tmp/net.cfg vset=() lbl=${v:-dfly defaults}
	read -r -a words <<<"$v"
	if [ "${words[0]:-}" = @fogsim ]; then
		cfg=$tmp/fogsim.cfg lbl="FOGSim's router rules${words[1]:+ +}"
		words=("${words[@]:1}")
		[ ${#words[@]} -gt 0 ] && lbl="$lbl ${words[*]}"
	fi
	for w in "${words[@]}"; do vset+=(--set "$w"); done
	rm -f "$tmp/d.csv"
	# shellcheck disable=SC2086 # DEXTRA is a list of arguments
	"$dfly" sim "$cfg" "${dbase[@]}" "${dset[@]}" "${vset[@]}" ${DEXTRA:-} --loads $load \
		--set sim.warmup=$warm --set sim.measure=$meas --set sim.seeds=1 --quiet \
		--csv "$tmp/d.csv" >/dev/null 2>"$tmp/d.err" || { tail -1 "$tmp/d.err"; continue; }
	awk -F, -v c="$case_ $arb h=$H $lbl" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		{ printf "dfly    %-40s accepted %.4f  latency %.1f  hops %.2f  global hops %.3f\n",
		  c, $k["accepted"], $k["lat_avg"], $k["hops_avg"], $k["ghops_avg"] }' "$tmp/d.csv"
done
