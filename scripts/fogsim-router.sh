# SPDX-License-Identifier: BSD-3-Clause
# Sourced by scripts/simcmp.sh, scripts/fogsim-cmp.sh and scripts/fogsim-transient.sh: the
# [CONFIG] lines of a FOGSim v5 configuration that give it dfly's CFG-T router (configs/h4.cfg): 8-phit packets, links of 10
# and 100 cycles, a 5-cycle router with speedup 2, one allocator iteration, 32-phit output
# queues, 256/32/256-phit injection/local/global input VCs, 3 injection VCs.
#   fogsim_net H WARMUP MEASURED OUTPUT_FILE: the section header and the network, the balanced
#     Dragonfly p = h, a = 2h in the palmtree arrangement, seed 1
#   fogsim_router INPUT_ARBITER OUTPUT_ARBITER LOCAL_VCS GLOBAL_VCS [VC_USAGE (BASE)]
#   fogsim_pb: FOGSim's PB as the comparisons run it: per-VC sensing, piggybacking_coef=200
#     and ugal_global_threshold=3 (F = 2, T = 3 packets of the saturation bit),
#     ugal_local_threshold=3 (UGAL-L's T = 3 packets)
fogsim_net() {
	cat <<EOF2
[CONFIG]
P=$1
A=$((2 * $1))
H=$1
PalmTreeConfiguration=1
WarmupCycles=$2
MaxCycles=$3
Seed=1
OutputFileName=$4
EOF2
}
fogsim_router() {
	cat <<EOF2
PacketSize=8
FlitSize=8
LocalLinkTransmissionDelay=10
GlobalLinkTransmissionDelay=100
InjectionDelay=0
Switch=IOQ_SW
XbarDelay=5
InternalSpeedup=2.0
OutQueueLength=32
ArbiterIterations=1
InputArbiter=$1
OutputArbiter=$2
Buffer=SEPARATED
InjectionQueueLength=256
LocalQueueLength=32
GlobalQueueLength=256
InjectionChannels=3
LocalLinkChannels=$3
GlobalChannels=$4
VcUsage=${5:-BASE}
VcInjectionPolicy=DEST
EOF2
}
fogsim_pb() {
	cat <<EOF2
routing=PB
CongestionDetection=PER_VC
piggybacking_coef=200
ugal_global_threshold=3
ugal_local_threshold=3
EOF2
}
