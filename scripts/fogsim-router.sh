# SPDX-License-Identifier: BSD-3-Clause
# Sourced by scripts/simcmp.sh and scripts/fogsim-cmp.sh: the [CONFIG] lines of a FOGSim v5
# configuration that give it dfly's CFG-T router (configs/h4.cfg): 8-phit packets, links of 10
# and 100 cycles, a 5-cycle router with speedup 2, one allocator iteration, 32-phit output
# queues, 256/32/256-phit injection/local/global input VCs, 3 injection VCs.
#   fogsim_net H WARMUP MEASURED OUTPUT_FILE: the section header and the network, the balanced
#     Dragonfly p = h, a = 2h in the palmtree arrangement, seed 1
#   fogsim_router INPUT_ARBITER OUTPUT_ARBITER LOCAL_VCS GLOBAL_VCS [VC_USAGE (BASE)]
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
