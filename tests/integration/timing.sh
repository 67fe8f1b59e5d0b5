# SPDX-License-Identifier: BSD-3-Clause
# Sourced by the integration tests that compare a real-time run with dfly sim (memif.sh,
# testbed.sh): how well the run's links kept emulated time, from the link timing counters of
# dfly-switch (port counters link_timed, link_late*, link_early*: the peer's ACK says at which
# cycle its router took a packet, the sender knows when it was due; more than 2 cycles apart,
# real time bent the link).
#
# Measured on the 2-core CI VM (memif.sh, UGAL under ADV+1 0.3): at 10 us cycles, runs were off
# by 3.3-4.3 cycles a packet on average, 60% of the packets by more than 2, and their latency
# drifted up to 5% above dfly sim's (18% once, off by 4.3 only: the mean does not see every
# stall). At 20 us cycles calm runs are off by 1.4-2.1 cycles a packet, their worst packet by at
# most 301 cycles, and their latency is within 0.4% (ADV+1) and 0.4% (UN) of dfly sim's; a run
# whose worst packet was 743 cycles late (and 549 retransmissions) was 11% above. A run off by
# more than TIMING_MAE cycles a packet on average, or with a packet more than TIMING_WORST
# cycles off, did not keep time: its latency says more about the machine than the emulation.
TIMING_MAE=5
TIMING_WORST=500

# link_timing FILE...: from dfly-switch counters files, sets timed (packets the peers reported),
# off (of those, more than 2 cycles late or early), mae (cycles off per timed packet, on average;
# the ones within 2 cycles count 0), late_max and early_max (cycles, the worst of each).
# A missing file counts as one with no counters (all 0).
link_timing() { family_timing link "$@"; }
# credit_timing FILE...: the same of the credit timing (credit_timed, credit_late*,
# credit_early*: counted by the receiver of CREDIT frames, which carry the cycle the newest
# credit was due); "a packet" reads "a CREDIT frame".
credit_timing() { family_timing credit "$@"; }
family_timing() { # family_timing link|credit FILE...
    local fam=$1
    shift
    read -r timed off mae late_max early_max < <(cat "$@" 2>/dev/null | awk -v f="$fam" '
        $1 ~ "\\." f "_timed$" { n += $2 }
        $1 ~ "\\." f "_(late|early)$" { o += $2 }
        $1 ~ "\\." f "_(late|early)_cycles$" { c += $2 }
        $1 ~ "\\." f "_late_max$" && $2 > lm { lm = $2 }
        $1 ~ "\\." f "_early_max$" && $2 > em { em = $2 }
        END { printf "%d %d %.2f %d %d\n", n, o, n ? c / n : 0, lm, em }')
}

# timing_off FILE...: true if the run's links did not keep time (TIMING_MAE, TIMING_WORST); sets
# timing_why to what was measured. A run with nothing timed is not judged here: the tests fail
# it on their own (the counters are broken, or the processes did not share the clock).
timing_off() {
    link_timing "$@"
    timing_why="links off by $mae cycles a packet on average ($off of $timed timed packets more than 2 cycles off; worst $late_max late, $early_max early)"
    [ "$late_max" -gt "$TIMING_WORST" ] || [ "$early_max" -gt "$TIMING_WORST" ] ||
        awk -v m="$mae" -v t="$TIMING_MAE" 'BEGIN { exit !(m > t) }'
}

# rt_signs FILE...: the other signs of a run that lost the CPU, from dfly-switch counters files:
# sets downs (links declared down: port counter link_downs), retx (link-level resends:
# llr_retx), behind (cycles, the furthest a lcore fell behind the clock: its "fell behind"
# line), gaps (ports not polled for 10 ms: "polling gaps over" lines). memif.sh and
# testbed.sh judge them with their own thresholds.
rt_signs() {
    read -r downs retx behind gaps < <(cat "$@" 2>/dev/null | awk '
        $1 ~ /\.link_downs$/ { d += $2 }
        $1 ~ /\.llr_retx$/ { r += $2 }
        / fell behind the clock / { if (match($0, /at most [0-9]+ cycles/)) {
            v = substr($0, RSTART + 8, RLENGTH - 15) + 0; if (v > b) b = v } }
        /polling gaps over/ { g++ }
        END { printf "%d %d %d %d\n", d, r, b, g }')
}
