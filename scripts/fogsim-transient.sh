#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The UN -> ADV+1 transient at 0.2 (CBAR §V-B/C, thesis §4.3.2; claims H13, H15, H16) in FOGSim
# and in dfly on the same network and router (p = h = H, a = 2h; CFG-T's router, as
# scripts/fogsim-cmp.sh), packets binned by their generation cycle, the seeds pooled per bin;
# prints for each simulator the cycle at which the latency settles by the claims' rule (its
# 10-cycle moving average stays within 5 % of the mean of the last fifth of the window,
# tools/dfly/claims.c cl_tr_settle), that steady latency, and the latency and misrouted share
# in 25-cycle steps from the switch.
#
#   FOGSIM=/path/to/fogsim scripts/fogsim-transient.sh pb|olm [small|large] [SEEDS]
#
# pb:  FOGSim routing=PB, CongestionDetection=PER_VC, piggybacking_coef=200,
#      ugal_global_threshold=3, ugal_local_threshold=3 (F = 2, T = 3 packets; its UGAL-L weighs
#      each queue by its path's hops); dfly routing.mechanism=pb with the claims' settings
#      (routing.val.path_a = lg-, routing.pb.send_unchanged = false).
# olm: FOGSim routing=OLM as fogsim-cmp.sh olm-advh (CGA, per-VC 50 %); dfly olm.
# large: 256/2048-phit local/global input VCs (H16). DEXTRA: more dfly arguments, e.g.
#   DEXTRA="--set routing.ugal.weight=hops". H (default 4), POST (default 3000). FOGSIM_RULES=1:
#   dfly on FOGSim's router rules (configs/cfg-t-fogsim.cfg resized).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=scripts/fogsim-router.sh
. scripts/fogsim-router.sh
mech=${1:?usage: FOGSIM=... scripts/fogsim-transient.sh pb|olm [small|large] [SEEDS]}
buf=${2:-small} seeds=${3:-3} H=${H:-4} post=${POST:-3000} pre=200
dfly=build/tools/dfly
[ -x "$dfly" ] || { echo "fogsim-transient: build dfly first (scripts/build.sh)" >&2; exit 2; }
[ -n "${FOGSIM:-}" ] && [ -x "$FOGSIM" ] ||
	{ echo "fogsim-transient: FOGSIM=/path/to/fogsim (FOGSim v5, built with its Makefile)" >&2; exit 2; }
fbuf="" dbuf=()
if [ "$buf" = large ]; then
	fbuf="LocalQueueLength=256
GlobalQueueLength=2048"
	dbuf=(--set buffers.local=256 --set buffers.global=2048)
fi
case "$mech" in
pb)
	lvc=4 gvc=2
	frouting=$(fogsim_pb)
	dmech=(--set routing.mechanism=pb --set routing.pb.send_unchanged=false
		--set routing.val.path_a=lg-) ;;
olm)
	lvc=3 gvc=2
	frouting="routing=OLM
GlobalMisroutingPolicy=MM_L
CongestionDetection=PER_VC
MisroutingTrigger=CGA
PercentLocalThreshold=50
PercentGlobalThreshold=50
ThMin=0
VcMisroutingCongestedRestrictionCoefPercent=150
VcMisroutingCongestedRestrictionThreshold=5"
	dmech=(--set routing.mechanism=olm) ;;
*) echo "fogsim-transient: pb or olm" >&2; exit 2 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in $(seq 1 "$seeds"); do
	mkdir -p "$tmp/f$s"
	cat >"$tmp/f$s/f.conf" <<EOF
$(fogsim_net "$H" 3000 $((post + 1500)) "$tmp/f$s/f.out")
Seed=$s
Traffic=TRANSIENT
transientTrafficFirstPattern=UN
transientTrafficSecondPattern=ADV_RANDOM_NODE
AdvTrafficDistance=1
transientTrafficNextDist=1
transientTrafficCycle=0
transientRecordCycles=$post
transientRecordPrevCycles=$pre
Probability=20
$(fogsim_router RR RR "$lvc" "$gvc")
$frouting
deadlock_avoidance=DALLY
PrintCycles=100000
$fbuf
EOF
	(cd "$tmp/f$s" && "$FOGSIM" f.conf >f.log 2>&1) || { tail -3 "$tmp/f$s/f.log"; exit 1; }
done
# dfly on CFG-T's router (configs/h4.cfg), or with FOGSIM_RULES=1 on it with FOGSim's router
# rules (configs/cfg-t-fogsim.cfg, which differs from h4.cfg only in those and the windows)
sed "s/^\tp = .*/\tp = $H;/; s/^\ta = .*/\ta = $((2 * H));/; s/^\th = .*/\th = $H;/" \
	"configs/$([ "${FOGSIM_RULES:-0}" = 1 ] && echo cfg-t-fogsim || echo h4).cfg" >"$tmp/net.cfg"
# shellcheck disable=SC2086 # DEXTRA is a list of arguments
"$dfly" transient "$tmp/net.cfg" "${dmech[@]}" "${dbuf[@]}" ${DEXTRA:-} --from un --to adv+1 \
	--load 0.2 --pre $pre --post "$post" --set sim.warmup=3000 --seeds "$seeds" \
	--set sim.threads=1 --csv "$tmp/d.csv" --quiet >/dev/null || exit 1
python3 - "$tmp" "$pre" "$post" "$mech $buf h=$H" <<'EOF'
import collections, csv, glob, sys
tmp, pre, post, what = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def settle(cyc, v, ma=10, tol=0.05):
    first = next(i for i, c in enumerate(cyc) if c >= 0)
    ns = max((len(v) - first) // 5, 1)
    steady = sum(v[len(v) - ns:]) / ns
    at = -1
    for k in range(len(v) - 1, first - 1, -1):
        m = [v[i] for i in range(k, -1, -1) if cyc[i] > cyc[k] - ma]
        if abs(sum(m) / len(m) - steady) > tol * abs(steady):
            break
        at = cyc[k]
    return at, steady
lat, n, mis = collections.Counter(), collections.Counter(), collections.Counter()
for f in glob.glob(tmp + '/f*/f.out.transient'):
    for r in list(csv.reader(open(f), delimiter='\t'))[1:]:
        c = int(r[1]); lat[c] += float(r[2]); n[c] += int(r[3]); mis[c] += int(r[4])
cyc = list(range(-pre, post)); fv, fm, last, lm = [], [], 0.0, 0.0
for c in cyc:  # a bin without packets repeats the previous one, as dfly's
    if n[c]:
        last, lm = lat[c] / n[c], 100.0 * mis[c] / n[c]
    fv.append(last); fm.append(lm)
dc, dv, dm = [], [], []
for r in csv.DictReader(open(tmp + '/d.csv')):
    dc.append(int(r['cycle'])); dv.append(float(r['lat_avg'])); dm.append(float(r['misrouted_pct']))
for name, c, v, m in (('FOGSim', cyc, fv, fm), ('dfly', dc, dv, dm)):
    at, steady = settle(c, v)
    z = next(i for i, x in enumerate(c) if x >= 0)
    print('%-6s %s: latency settles at %d, steady %.1f' % (name, what, at, steady))
    print('  latency  ' + ' '.join('%.0f' % (sum(v[z + k:z + k + 25]) / 25) for k in range(0, 1000, 25)))
    print('  misr. %  ' + ' '.join('%.0f' % (sum(m[z + k:z + k + 25]) / 25) for k in range(0, 1000, 25)))
EOF
