/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * LIA, TPR and ACOR firmware state machines (docs/spec.md §6, §4.11, §4.12), one instance per
 * router beside fw.c's core. They talk to the ASIC only through the register file: they read the
 * ASIC's per-group injection counters (regs->mech.lia_injected, a running total, and
 * regs->mech.lia_stored) and the injection VCs' head-wait counters, and publish
 * DFLY_TBL_LIA (L1 flag, L2 per destination group, traffic level per group, ACOR level) and
 * DFLY_TBL_UGAL (T per destination group, in phits).
 *
 * Units and integer form (spec §6.2 PROPOSAL, A-6.1). Counters are in packets. The extended
 * counter of group i is ext_i = inj_i + w·stor_i; with w given in hundredths (w100), the
 * firmware keeps E_i = 100·inj_i + w100·stor_i = 100·ext_i exactly and scales every threshold
 * by 100: G > GPSTh ⇔ E > 100·GPSTh, levels E ≤ 100·LI. Remote counters (eq. 3) are kept as
 * R'_k = Σ_{j=-(h-1)}^{h-1} (h−|j|)·E_{kh+j} = 100·h·R_k and compared with 100·h·RCTh.
 * TPR is the same machine with w = 0 (carried traffic only) and no L1/L2 decisions.
 *
 * Window (spec §6.2, A-6.11). A ring of n = window/bucket snapshots of the ASIC's running
 * totals, taken at cycles that are multiples of the bucket size B; inj_i is the running total
 * now minus the snapshot at the start of the oldest bucket kept, so the window covers the
 * current bucket and the n−1 before it: between (n−1)·B+1 and n·B cycles (exactly HW = 200
 * cycles with B = 1). Decisions are recomputed every `update` cycles (default 1, LIA §5.2).
 */
#ifndef DFLY_LIA_H
#define DFLY_LIA_H

#include <stdbool.h>
#include <stdint.h>

#include "dfly/regs.h"
#include "dfly/topo.h"

#define LIA_MAX_SLOTS 4096u /**< window/bucket at most */

/** Parameters (spec §6.9, LIA Table 1; §4.12 for ACOR). */
struct lia_params {
	bool enabled;       /**< run the LIA (or, with tpr, TPR) machine */
	bool tpr;           /**< TPR: levels from carried traffic only (w ignored, = 0), no L1/L2 */
	uint32_t window;    /**< HW, cycles (200) */
	uint32_t bucket;    /**< B, cycles (10); divides window; window/bucket ≤ LIA_MAX_SLOTS */
	uint32_t w100;      /**< w in hundredths (10 = 0.1) */
	uint32_t gpsth;     /**< L1: a directly attached group is busy iff G > GPSTh (packets) */
	uint32_t sgc;       /**< L1: keep L1 iff at least SGC of them are busy */
	uint32_t rcth;      /**< L2: skip L2 iff every checked R ≤ RCTh (packets per window) */
	uint32_t li_low;    /**< level benign iff G ≤ LI_l (packets) */
	uint32_t li_high;   /**< level mix iff LI_l < G ≤ LI_h, adversarial above */
	int32_t t_level[3]; /**< T per level (enum dfly_lia_level), packets */
	uint32_t pkt_phits; /**< packet length L: T in phits = T·L (A-6.7) */
	uint32_t update;    /**< cycles between recomputations, ≥ 1 (1: every cycle) */
	/** LIA's path rules (§6.7): true decides L1 and L2 from the counters; false keeps both,
	 *  so Path A stays LGL and the counters only set T per level: the runs of LIA §6.1.1,
	 *  "pure Valiant with LGL, global counters used to modulate UGAL" (H37). */
	bool shorten;
	bool acor;                   /**< run ACOR (PB-ACOR's Path-A length per router) */
	uint32_t acor_window;        /**< HI, cycles (500) */
	uint32_t it1, it2, dt1, dt2; /**< ACOR thresholds per window (15, 50, 5, 15) */
	/** Observe (sim.lia_remote): run the window and the counters E and R' whatever the
	 *  mechanism, for lia_R_sums(). Without LIA or TPR running, nothing else: no level, L1 or
	 *  L2 decision and no table is published (the ASIC's own decisions are untouched). */
	bool observe;
};

/** Defaults of spec §6.9 (machines off). */
void lia_params_init(struct lia_params *p);

/** Signed offset Δ ∈ (−g/2, g/2] of group @p D seen from group @p G (§0.3). */
int32_t lia_offset(const struct dfly_topo *t, uint32_t G, uint32_t D);

/** R'_k (= 100·h·R_k with E in hundredths) of group @p G for k = ±1..±h, from E[group]. */
uint64_t lia_remote(const struct dfly_topo *t, uint32_t G, const uint32_t *E, int32_t k);

/** L1 rule (§6.5): #{ own global ports q : E[group(q)] > gpsth100 } ≥ sgc. */
bool lia_use_l1(const struct dfly_topo *t, uint32_t router, const uint32_t *E, uint64_t gpsth100,
		uint32_t sgc);

/**
 * L2 rule (§6.6) for destination group @p D of a router in group @p G: keep L2 unless every
 * checked remote counter (R_{s·k} if k ≥ 1, R_{s·(k+1)} if m > 0, |Δ| = k·h + m) is
 * ≤ @p rcth_scaled (= 100·h·RCTh). @p R is indexed by k + h (k = −h..h; R[h] unused).
 */
bool lia_keep_l2(const struct dfly_topo *t, uint32_t G, uint32_t D, const uint64_t *R,
		 uint64_t rcth_scaled);

/** Traffic level (§6.8) of a group whose counter is @p E (hundredths). */
enum dfly_lia_level lia_level(uint64_t E, const struct lia_params *p);

/** ACOR (§4.12 PROPOSAL): the next level (0 -G-, 1 -GL, 2 LGL) after a window of @p count. */
uint8_t lia_acor_next(uint8_t level, uint64_t count, const struct lia_params *p);

struct lia;

/** Figures the machine keeps for the firmware's statistics. */
struct lia_stats {
	uint64_t recompute;    /**< recomputations */
	uint64_t publish;      /**< table generations published (LIA and UGAL tables) */
	uint64_t busy;         /**< publications deferred: the ASIC had not acknowledged (EBUSY) */
	uint64_t l1_flips;     /**< changes of the L1 flag */
	uint64_t l2_flips;     /**< changes of an L2 decision */
	uint64_t level_flips;  /**< changes of a group's level */
	uint64_t acor_changes; /**< ACOR level changes */
};

/** Create the machine for @p router (NULL on a bad parameter, errno EINVAL, or ENOMEM). */
struct lia *lia_create(const struct dfly_topo *topo, uint32_t router, struct dfly_regs *regs,
		       const struct lia_params *p);
void lia_destroy(struct lia *l);

/** One firmware tick at cycle @p now: window, recomputation, publication. */
void lia_tick(struct lia *l, uint64_t now);

/** The statistics so far. */
const struct lia_stats *lia_stats(const struct lia *l);

/** Read-only views for tests: E (hundredths) per group, R' indexed by k + h. */
const uint32_t *lia_E(const struct lia *l);
const uint64_t *lia_R(const struct lia *l);

/**
 * Running totals of R' (index k + h, R'_k = 100·h·R_k, R_k in packets per window) summed over
 * every recomputation since lia_create(), and in @p n how many recomputations there were (one
 * every `update` cycles). Two readings a and b give the mean of R_k between them:
 * (sum_b − sum_a) / ((n_b − n_a) · 100·h) packets per window; × packet.phits for phits.
 * Kept whenever the remote counters are computed (LIA, or observe).
 */
const uint64_t *lia_R_sums(const struct lia *l, uint64_t *n);

#endif /* DFLY_LIA_H */
