/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the firmware (fw.h): the core's instance and the contract of a state machine. fw.c is
 * the core — lifecycle, timers, the CPU-port receive path, dispatch, counters — and every routing
 * state machine is a struct fw_mech in a file of its own: PiggyBack (pb.c), ECtN (ectn.c),
 * failover (failover.c), LIA / TPR / ACOR (lia.c). The core knows them only through this ops
 * table, as Linux knows a TCP congestion control algorithm: every member has a written contract
 * below, and fw_mech_check() refuses a mechanism that breaks it before any instance runs it.
 *
 * Which mechanisms run: a mode's registry entry (dfly/mode.h) names its firmware machines; the
 * loader turns them into struct fw_params (fw_params_enable()), and fw_create() runs every
 * registered mechanism whose wanted() says yes, in the order of fw_mechs[]. That order is part of
 * the results: it is the order of the timers (registered by init()), of poll() and tick() in every
 * fw_tick(), and of rx() for a frame type two mechanisms could take.
 *
 * Only the firmware's own files include this header.
 */
#ifndef FW_MECH_H
#define FW_MECH_H

#include <stdbool.h>
#include <stdint.h>

#include "dfly/mode.h"
#include "dfly/regs.h"
#include "dfly/topo.h"
#include "dfly/wire.h"
#include "fw.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FW_MAX_MECHS 8u /**< mechanisms one firmware instance can run */

/** Bit of control-frame type @p T (DFLY_WIRE_CTRL_<T>) in a mask of types. */
#define FW_CTRL_BIT(T) (1u << DFLY_WIRE_CTRL_##T)

/**
 * A firmware state machine. Members are required unless marked optional; an optional member may
 * be NULL. "state" is what init() returned for this instance.
 */
struct fw_mech {
	/** Name, for diagnostics and tests ("pb", "ectn", ...). Required. */
	const char *name;
	/** DFLY_FW_BIT()s of the registry machines it implements (dfly/mode.h): non-zero, and no
	 *  bit shared with another registered mechanism. Its lowest bit is its state slot
	 *  (fw_state()). Required. */
	uint32_t machines;
	/** FW_CTRL_BIT()s of the control frames it takes (rx() is called for them). 0: none. */
	uint32_t rx_types;
	/** The subset of rx_types only routers of my own group send: the core drops such a frame
	 *  from another group (rx_other_group) before any mechanism sees it, whether this
	 *  mechanism runs or not. */
	uint32_t rx_group;
	/** Does it run with @p par? Pure; required. */
	bool (*wanted)(const struct fw_params *par);
	/** Optional: are @p par's settings of this mechanism valid for @p topo? Called by
	 *  fw_create() only when wanted(); false makes fw_create() fail with EINVAL. */
	bool (*params_ok)(const struct dfly_topo *topo, const struct fw_params *par);
	/** Start on @p fw (its core is set up, fw->par valid): allocate and zero the state,
	 *  register the timers (fw_timer_add(), in the order they must run).
	 *  @return the state (never NULL on success), or NULL with errno set (ENOMEM, EINVAL);
	 *  then fw_create() fails with that errno. Required. */
	void *(*init)(struct fw *fw);
	/** Optional: free @p state (called once by fw_destroy(), in reverse order of init()). NULL
	 *  means the state is one block that free() releases. */
	void (*fini)(struct fw *fw, void *state);
	/** Optional: every fw_tick(), after the receive path and before the timers. */
	void (*poll)(struct fw *fw, void *state, uint64_t now);
	/**
	 * A control frame of a type in rx_types, decoded, its sender checked (the router at the
	 * other end of @p port, of my group for rx_group types). Required iff rx_types != 0.
	 * @return 0 if handled, -ENOTSUP if this instance does not take it (e.g. PB in band: no
	 *   PB_STATE frames); the core counts the frame in rx_unhandled.
	 */
	int (*rx)(struct fw *fw, void *state, uint32_t port, const struct dfly_wire_ctrl *m);
	/** Optional: every fw_tick(), after the timers: work that follows them in the same cycle
	 *  (deferred table publications, immediate broadcasts, counters copied into fw->st). */
	void (*tick)(struct fw *fw, void *state, uint64_t now);
};

/** A periodic timer in emulated cycles. */
struct fw_timer {
	const char *name; /**< for diagnostics */
	uint64_t period;  /**< cycles between expiries, ≥ 1 */
	uint64_t next;    /**< next expiry (cycle) */
	bool armed;       /**< next is aligned to the current time (false until the first tick) */
	fw_timer_fn *fn;  /**< callback */
	void *arg;        /**< its argument */
};

/** One firmware instance: the core's state, read by the mechanisms. */
struct fw {
	const struct dfly_topo *topo;             /**< the network */
	struct dfly_regs *regs;                   /**< the ASIC's register file */
	struct fw_params par;                     /**< parameters (a copy) */
	uint32_t router;                          /**< global router id */
	uint32_t group;                           /**< my group */
	uint32_t rho;                             /**< my index in the group */
	struct dfly_wire_limits lim;              /**< what the decoder checks ids against */
	struct fw_stats st;                       /**< counters */
	struct fw_timer timer[FW_MAX_TIMERS];     /**< [0, ntimers), in registration order */
	uint32_t ntimers;                         /**< timers registered */
	uint64_t now;                             /**< cycle of the current (or last) tick */
	const struct fw_mech *mech[FW_MAX_MECHS]; /**< running mechanisms, in fw_mechs[] order */
	void *mstate[FW_MAX_MECHS];               /**< their states, same index */
	uint32_t nmech;                           /**< running mechanisms */
	uint32_t rx_group;                        /**< rx_group of every registered mechanism */
	void *state[DFLY_FW_COUNT]; /**< state by machine slot (fw_state()), NULL if not running */
};

/** The built-in mechanisms, in the order they run (see the top of this file). */
extern const struct fw_mech *const fw_mechs[];
extern const uint32_t fw_nmechs;

extern const struct fw_mech fw_mech_pb;       /**< pb.c */
extern const struct fw_mech fw_mech_ectn;     /**< ectn.c */
extern const struct fw_mech fw_mech_failover; /**< failover.c */
extern const struct fw_mech fw_mech_lia;      /**< lia.c */

/**
 * Check @p m against the contract of struct fw_mech (name, machines, wanted, init; rx iff
 * rx_types; rx_group within rx_types; types that exist).
 * @return 0, or -EINVAL naming nothing (the caller knows which it passed).
 */
int fw_mech_check(const struct fw_mech *m);

/**
 * fw_create() with the mechanisms @p mechs[0..n) instead of fw_mechs[] (tests, variants). Every
 * one is checked first (fw_mech_check(), and no machine bit twice): a mechanism that breaks the
 * contract makes it fail with EINVAL before anything runs.
 */
struct fw *fw_create_with(const struct dfly_topo *topo, uint32_t router, struct dfly_regs *regs,
			  const struct fw_params *par, const struct fw_mech *const *mechs,
			  uint32_t n);

/** The state of the mechanism that implements machine @p slot (its lowest machine bit), or NULL
 *  if none runs. */
static inline void *fw_state(const struct fw *fw, enum dfly_fw_machine slot)
{
	return fw->state[slot];
}

extern const size_t fw_stat_off[FW_STAT_COUNT];

/** Add @p n to counter @p s. */
static inline void fw_stat_add(struct fw *fw, enum fw_stat s, uint64_t n)
{
	*(uint64_t *)((char *)&fw->st + fw_stat_off[s]) += n;
}

/** Queue one encoded control frame on ASIC port @p port (counted in tx_frames, or in
 *  tx_ring_full / tx_encode_err). @return 0, or -ENOBUFS (ring full) / another -errno. */
int fw_tx_frame(struct fw *fw, uint32_t port, const void *frame, int len);

#ifdef __cplusplus
}
#endif

#endif /* FW_MECH_H */
