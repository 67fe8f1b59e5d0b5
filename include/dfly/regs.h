/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ASIC register file, layout v1: the only state the switch ASIC model (asic-emu) and its
 * firmware (control) share (DESIGN.md §3). A plain struct with a magic, a layout version and a
 * size, so it can live in process memory (dfly sim) or in a POSIX shared-memory object mapped by
 * dfly-controld.
 *
 * Ownership:
 *   - counters and gauges: one writer, the ASIC; anybody reads them.
 *   - knobs and tables: one writer, the firmware (or the configuration loader before start).
 *     Multi-word tables are double buffered: the firmware fills the inactive bank and publishes
 *     it by bumping a generation number; the ASIC switches banks only at a step boundary and
 *     acknowledges the generation it uses, so it never reads a half-written table.
 *
 * Every counter family is declared once as an X-macro list X(ENUM, name, description): the enum,
 * the name strings, the telemetry keys and the CSV columns all come from the same list.
 */
#ifndef DFLY_REGS_H
#define DFLY_REGS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dfly/topo.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DFLY_REGS_MAGIC 0x59464c44u /**< "DLFY" little-endian */
#define DFLY_REGS_VERSION 1u	    /**< bump on any layout change */

#define DFLY_MAX_VCS 8	      /**< VCs per port */
#define DFLY_MAX_A 32	      /**< routers per group */
#define DFLY_MAX_H 16	      /**< global ports per router */

/* ---------------------------------------------------------------------------------------------
 * Counter families
 */

/** Per-port counters (index: port). */
#define DFLY_FOREACH_PORT_CTR(X)                                                                   \
	X(RX_PKTS, rx_pkts, "packets whose head arrived at an input VC of this port")              \
	X(RX_PHITS, rx_phits, "phits received on this port")                                       \
	X(TX_PKTS, tx_pkts, "packets transmitted on this port's link")                             \
	X(TX_PHITS, tx_phits, "phits transmitted on this port's link")                             \
	X(XBAR_IN_GRANTS, xbar_in_grants, "crossbar grants won by this input port")                \
	X(XBAR_OUT_GRANTS, xbar_out_grants, "crossbar grants given by this output port")           \
	X(LINK_BUSY_CYCLES, link_busy_cycles, "cycles this output link carried a phit")            \
	X(CREDITS_RX, credits_rx, "credit phits received from the downstream router")              \
	X(CREDITS_TX, credits_tx, "credit phits returned to the upstream router")

/** Per (port, VC) counters; the input side of the VC unless stated. */
#define DFLY_FOREACH_VC_CTR(X)                                                                     \
	X(ENQ_PKTS, enq_pkts, "packets that entered this input VC")                                \
	X(DEQ_PKTS, deq_pkts, "packets whose tail left this input VC")                             \
	X(HEAD_WAIT, head_wait, "allocation rounds a routed head waited without a grant")          \
	X(CREDIT_STALL, credit_stall,                                                              \
	  "allocation rounds a head waited for downstream credits of its chosen VC")              \
	X(OUT_VC_PKTS, out_vc_pkts, "packets sent on this port with this VC (output side)")

/** Per (port, VC) gauges: current values, not totals. */
#define DFLY_FOREACH_VC_GAUGE(X)                                                                   \
	X(OCC, occ, "phits stored or reserved in this input VC")                                   \
	X(OCC_HWM, occ_hwm, "high-water mark of occ")                                              \
	X(CREDITS, credits, "credits (phits) the output holds for the downstream input VC")

/** Named drop reasons (per router). The fabric itself never drops: every entry is an edge or a
 *  malformed-input drop. */
#define DFLY_FOREACH_DROP(X)                                                                       \
	X(INJ_FULL, inj_full, "generated packet found no injection VC with room")                  \
	X(BAD_DST, bad_dst, "destination node out of range")                                       \
	X(BAD_VC, bad_vc, "VC out of range for the port")                                          \
	X(BAD_PORT, bad_port, "packet arrived on a port that cannot carry it")                     \
	X(NO_ROOM, no_room, "packet arrived with no credit reserved (flow-control violation)")    \
	X(DECODE, decode, "frame rejected by the wire decoder")

/** Routing decisions (per router), counted once per packet at its decision point. */
#define DFLY_FOREACH_ROUTE_CTR(X)                                                                  \
	X(INJ_MIN, inj_min, "packets injected on their minimal path")                              \
	X(INJ_VAL, inj_val, "packets injected towards a Valiant intermediate router")              \
	X(INJ_MIN_NO_INTERMEDIATE, inj_min_no_intermediate,                                        \
	  "nonminimal routing wanted but no intermediate group exists (g < 3): minimal")           \
	X(VAL_REACHED, val_reached, "packets that reached their intermediate router here")         \
	X(HOP_LOCAL, hop_local, "packets granted to a local output")                               \
	X(HOP_GLOBAL, hop_global, "packets granted to a global output")                            \
	X(EJECT, eject, "packets granted to a terminal output")

#define DFLY__ENUM(E, n, d) DFLY_##E,
enum dfly_port_ctr { DFLY_FOREACH_PORT_CTR(DFLY__ENUM) DFLY_PORT_CTR_COUNT };
#undef DFLY__ENUM
#define DFLY__ENUM(E, n, d) DFLY_VC_##E,
enum dfly_vc_ctr { DFLY_FOREACH_VC_CTR(DFLY__ENUM) DFLY_VC_CTR_COUNT };
enum dfly_vc_gauge { DFLY_FOREACH_VC_GAUGE(DFLY__ENUM) DFLY_VC_GAUGE_COUNT };
#undef DFLY__ENUM
#define DFLY__ENUM(E, n, d) DFLY_DROP_##E,
enum dfly_drop { DFLY_FOREACH_DROP(DFLY__ENUM) DFLY_DROP_COUNT };
#undef DFLY__ENUM
#define DFLY__ENUM(E, n, d) DFLY_ROUTE_##E,
enum dfly_route_ctr { DFLY_FOREACH_ROUTE_CTR(DFLY__ENUM) DFLY_ROUTE_CTR_COUNT };
#undef DFLY__ENUM

/** Names (snake_case, used as CSV columns and telemetry keys) and descriptions. */
extern const char *const dfly_port_ctr_names[DFLY_PORT_CTR_COUNT];
extern const char *const dfly_vc_ctr_names[DFLY_VC_CTR_COUNT];
extern const char *const dfly_vc_gauge_names[DFLY_VC_GAUGE_COUNT];
extern const char *const dfly_drop_names[DFLY_DROP_COUNT];
extern const char *const dfly_route_ctr_names[DFLY_ROUTE_CTR_COUNT];
extern const char *const dfly_drop_descs[DFLY_DROP_COUNT];
extern const char *const dfly_route_ctr_descs[DFLY_ROUTE_CTR_COUNT];

/* ---------------------------------------------------------------------------------------------
 * Knobs and tables
 */

/** Routing mode register: the per-packet decision the route stage evaluates. */
enum dfly_route_mode {
	DFLY_MODE_MIN = 0, /**< oblivious minimal (spec §4.2) */
	DFLY_MODE_VAL = 1, /**< oblivious Valiant with a Path-A variant (spec §4.3) */
	DFLY_MODE_COUNT
};

/** Hop roles (spec §2.2), index of the role → VC map. */
enum dfly_role {
	DFLY_ROLE_S1 = 0, /**< first local hop in the source group */
	DFLY_ROLE_S2,	  /**< second local hop in the source group */
	DFLY_ROLE_G1,	  /**< first global hop */
	DFLY_ROLE_I1,	  /**< first local hop in the intermediate group (towards S_ROOT) */
	DFLY_ROLE_I2,	  /**< minimal local hop in the intermediate group towards the exit */
	DFLY_ROLE_G2,	  /**< second global hop */
	DFLY_ROLE_D1,	  /**< local misroute hop in the destination group */
	DFLY_ROLE_D2,	  /**< final local hop in the destination group */
	DFLY_ROLE_COUNT
};

/** Injection VC selection at the node (spec §3.8). */
enum dfly_inj_select {
	DFLY_INJ_JSQ = 0, /**< the VC with the most free space (default) */
	DFLY_INJ_RANDOM,  /**< uniform among VCs with room */
	DFLY_INJ_DEST,	  /**< destination node mod VC count */
};

/** Arbiter policy (spec §3.6). */
enum dfly_arb {
	DFLY_ARB_RR = 0, /**< round robin, pointer moves on grant (default) */
	DFLY_ARB_LRS,	 /**< least recently served */
	DFLY_ARB_AGE,	 /**< oldest packet (by generation cycle) first */
};

/** Knobs: scalar registers, written before start or by firmware; read every step. */
struct dfly_regs_knobs {
	uint32_t mode;		    /**< enum dfly_route_mode */
	uint32_t val_variant;	    /**< enum dfly_val_variant */
	uint32_t val_recompute;	    /**< redraw S_ROOT when the injection head is not granted */
	uint32_t val_exclude;	    /**< enum dfly_val_exclude */
	uint8_t vc_map[DFLY_ROLE_COUNT]; /**< VC index used by each hop role */
	uint32_t in_transit_priority; /**< output arbiter prefers transit over injection inputs */
};

/**
 * One bank of the double-buffered tables. v1 holds the tables of the mechanisms to come so that
 * their issues add logic, not layout: each member says which mechanism writes it.
 */
struct dfly_regs_tables {
	/** PiggyBack: group saturation bits [ρ][q] (bit v = VC v saturated). Written by PB fw. */
	uint8_t group_sat[DFLY_MAX_A][DFLY_MAX_H];
	/** UGAL / LIA / TPR: threshold T in phits per destination group. */
	int32_t ugal_t[DFLY_MAX_GROUPS];
	/** ECtN: combined contention per destination group (own live partial + received). */
	uint16_t ectn_combined[DFLY_MAX_GROUPS];
	/** LIA: L1 flag (use the first local hop) and per destination group L2 decision. */
	uint8_t lia_use_l1;
	uint8_t lia_l2[DFLY_MAX_GROUPS];
	/** LIA / TPR traffic level per destination group (0 benign, 1 mix, 2 adversarial). */
	uint8_t lia_level[DFLY_MAX_GROUPS];
};

/** Counters the ASIC keeps for mechanisms to come (one writer: the ASIC). */
struct dfly_regs_mech_ctrs {
	uint16_t cc[DFLY_MAX_PORTS];		  /**< contention counter per output port */
	uint16_t ectn_partial[DFLY_MAX_GROUPS];	  /**< ECtN partial array per remote group */
	uint32_t lia_injected[DFLY_MAX_GROUPS];	  /**< LIA: packets out of injection, current bucket */
	uint32_t lia_stored[DFLY_MAX_GROUPS];	  /**< LIA: packets stored in injection queues */
};

/** The register file of one ASIC. */
struct dfly_regs {
	uint32_t magic;	  /**< DFLY_REGS_MAGIC */
	uint32_t version; /**< DFLY_REGS_VERSION */
	uint32_t size;	  /**< sizeof(struct dfly_regs) */
	uint32_t router;  /**< global router id this file belongs to */
	uint32_t nports;  /**< ports in use (the radix) */
	uint32_t nvcs[DFLY_MAX_PORTS]; /**< VCs in use per input port */

	/* ASIC-written */
	uint64_t cycle;					    /**< emulated cycle last stepped */
	uint64_t port_ctr[DFLY_MAX_PORTS][DFLY_PORT_CTR_COUNT];
	uint64_t vc_ctr[DFLY_MAX_PORTS][DFLY_MAX_VCS][DFLY_VC_CTR_COUNT];
	int64_t vc_gauge[DFLY_MAX_PORTS][DFLY_MAX_VCS][DFLY_VC_GAUGE_COUNT];
	uint64_t drop[DFLY_DROP_COUNT];
	uint64_t route[DFLY_ROUTE_CTR_COUNT];
	struct dfly_regs_mech_ctrs mech;
	_Atomic uint64_t tables_seen; /**< generation of the table bank the ASIC now uses */

	/* firmware-written */
	struct dfly_regs_knobs knobs;
	_Atomic uint64_t tables_gen;		/**< published generation; bank = gen & 1 */
	struct dfly_regs_tables tables[2];	/**< double buffer */
};

/** Initialise a register file in place: magic, version, size, zeroed counters, gen 0. */
void dfly_regs_init(struct dfly_regs *regs, uint32_t router, uint32_t nports);

/** @return 0 if @p regs has the right magic, version and size; -EPROTO otherwise. */
int dfly_regs_check(const struct dfly_regs *regs);

/**
 * Firmware side: the bank to fill for the next publication, or NULL (errno EBUSY) while the ASIC
 * has not yet switched to the last published generation.
 */
struct dfly_regs_tables *dfly_regs_tables_begin(struct dfly_regs *regs);

/** Firmware side: publish the bank returned by dfly_regs_tables_begin(). */
void dfly_regs_tables_publish(struct dfly_regs *regs);

/** ASIC side, at a step boundary: the current bank, acknowledging its generation. */
static inline const struct dfly_regs_tables *dfly_regs_tables_acquire(struct dfly_regs *regs)
{
	uint64_t gen = atomic_load_explicit(&regs->tables_gen, memory_order_acquire);

	atomic_store_explicit(&regs->tables_seen, gen, memory_order_release);
	return &regs->tables[gen & 1];
}

/** Print every non-zero counter of @p regs, one "name value" line each. */
void dfly_regs_dump(const struct dfly_regs *regs, FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* DFLY_REGS_H */
