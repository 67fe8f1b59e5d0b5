/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ECtN state machine of the firmware (spec §5.6, A-5.6), a struct fw_mech (fw_mech.h): every
 * ectn_period cycles the own partial array (regs->mech.ectn_partial) is broadcast to the group
 * whole, sparse, as deltas, or also at once on a large change (enum fw_ectn_mode); the received
 * copies are kept per sender and their sum is published as DFLY_TBL_ECTN.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fw_mech.h"

/* The ECTN_TX_<format> counters follow the wire's ECtN formats one for one. */
_Static_assert(FW_STAT_ECTN_TX_SPARSE - FW_STAT_ECTN_TX_FULL == DFLY_WIRE_ECTN_SPARSE &&
		   FW_STAT_ECTN_TX_DELTA - FW_STAT_ECTN_TX_FULL == DFLY_WIRE_ECTN_DELTA &&
		   DFLY_WIRE_ECTN_FMT_COUNT == 3,
	       "FW_FOREACH_STAT ECtN tx counters out of step with enum dfly_wire_ectn_fmt");

/** Where a received copy stands with its sender (INCREMENTAL's deltas). */
enum fw_ectn_rx_state {
	FW_ECTN_RX_NONE = 0, /* nothing applied from this sender yet */
	FW_ECTN_RX_SYNCED,   /* the copy is the sender's last array: a next delta applies */
	FW_ECTN_RX_STALE,    /* a gap was found: the copy stays, deltas wait for a whole array */
};

/** ECtN state (spec §5.6). */
struct fw_ectn {
	uint8_t rx[DFLY_MAX_A][DFLY_MAX_GROUPS]; /* latest array per sender ρ, by group */
	uint8_t rx_epoch[DFLY_MAX_A];            /* epoch of the last array applied from ρ */
	uint8_t rx_state[DFLY_MAX_A];            /* enum fw_ectn_rx_state of rx[ρ] */
	uint64_t rx_cycle[DFLY_MAX_A];           /* cycle the last array from ρ was applied */
	uint8_t own[DFLY_MAX_GROUPS];            /* own snapshot of the last broadcast (4-bit) */
	bool ever_sent;                          /* own[] was broadcast (deltas, async compare) */
	uint64_t last_tx;                        /* cycle of the last broadcast */
	bool dirty;                              /* a publication is pending */
	uint64_t tried;                          /* cycle of the last attempt + 1 */
};

static inline struct fw_ectn *ectn_of(const struct fw *fw)
{
	return fw_state(fw, DFLY_FW_ECTN);
}

/* DFLY_TBL_ECTN = Σ received copies (+ own snapshot when the ASIC does not add its live one). */
static void ectn_publish(struct fw *fw, uint64_t now)
{
	const struct dfly_topo *t = fw->topo;
	struct dfly_tbl_ectn *tbl;

	ectn_of(fw)->tried = now + 1;
	tbl = dfly_regs_tbl_begin(fw->regs, DFLY_TBL_ECTN);
	if (tbl == NULL) {
		ectn_of(fw)->dirty = true;
		fw_stat_add(fw, FW_STAT_TBL_BUSY, 1);
		return;
	}
	memset(tbl, 0, sizeof(*tbl));
	for (uint32_t D = 0; D < t->g; D++) {
		uint32_t sum = fw->par.ectn_own_live ? 0 : ectn_of(fw)->own[D];

		for (uint32_t rho = 0; rho < t->a; rho++)
			if (rho != fw->rho)
				sum += ectn_of(fw)->rx[rho][D];
		tbl->combined[D] = (uint16_t)sum;
	}
	dfly_regs_tbl_publish(fw->regs, DFLY_TBL_ECTN);
	ectn_of(fw)->dirty = false;
	fw_stat_add(fw, FW_STAT_TBL_PUBLISH, 1);
}

/*
 * A received array (sender checked). FULL and SPARSE (counters not listed decoded as 0) replace
 * the sender's copy and put it in step; a DELTA updates the listed counters if its epoch follows
 * the last array applied from that sender, and otherwise reveals a gap: the copy stays as it is,
 * and so do the sender's next deltas, until a whole array arrives.
 */
static void ectn_rx(struct fw *fw, const struct dfly_wire_ctrl *m)
{
	const struct dfly_topo *t = fw->topo;
	uint32_t rho = dfly_topo_rho_of(t, m->src_router);
	struct fw_ectn *e = ectn_of(fw);

	if (m->ectn.n != t->g - 1) {
		fw_stat_add(fw, FW_STAT_ECTN_BAD_SHAPE, 1);
		return;
	}
	if (m->ectn.format == DFLY_WIRE_ECTN_DELTA) {
		if (e->rx_state[rho] != FW_ECTN_RX_SYNCED ||
		    m->ectn.epoch != (uint8_t)(e->rx_epoch[rho] + 1)) {
			if (e->rx_state[rho] != FW_ECTN_RX_STALE)
				fw_stat_add(fw, FW_STAT_ECTN_GAPS, 1);
			e->rx_state[rho] = FW_ECTN_RX_STALE;
			fw_stat_add(fw, FW_STAT_ECTN_DELTA_STALE, 1);
			return;
		}
		for (uint32_t k = 0; k < m->ectn.n; k++)
			if (dfly_wire_ectn_has(&m->ectn, k))
				e->rx[rho][dfly_wire_ectn_group(fw->group, k)] = m->ectn.ctr[k];
	} else {
		for (uint32_t k = 0; k < m->ectn.n; k++)
			e->rx[rho][dfly_wire_ectn_group(fw->group, k)] = m->ectn.ctr[k];
	}
	e->rx_epoch[rho] = m->ectn.epoch;
	e->rx_state[rho] = FW_ECTN_RX_SYNCED;
	e->rx_cycle[rho] = fw->now;
	e->dirty = true;
	fw_stat_add(fw, FW_STAT_ECTN_RX, 1);
}

/* The own partial counter of group @p D as a broadcast carries it (4-bit saturated). */
static uint8_t ectn_own_sat(const struct fw *fw, uint32_t D)
{
	uint32_t v = fw->regs->mech.ectn_partial[D];

	return (uint8_t)(v > DFLY_WIRE_ECTN_SAT ? DFLY_WIRE_ECTN_SAT : v);
}

/*
 * Snapshot the own partial array into own[] and send it to every local port in format @p fmt:
 * FULL, SPARSE (the non-zero counters) or DELTA (the counters that differ from the last array
 * sent). A list longer than DFLY_WIRE_ECTN_LIST_MAX goes as FULL, which says as much. The epoch
 * is the period number, cycle / ectn_period mod 256, for every send.
 */
static void ectn_broadcast(struct fw *fw, uint64_t now, enum dfly_wire_ectn_fmt fmt)
{
	const struct dfly_topo *t = fw->topo;
	struct dfly_wire_ctrl m;
	uint8_t buf[DFLY_CPU_FRAME_MAX];
	uint32_t nent = 0;
	int len;

	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_ECTN_PARTIAL;
	m.src_router = fw->router;
	m.ectn.epoch = (uint8_t)(now / fw->par.ectn_period);
	m.ectn.n = (uint16_t)(t->g - 1);
	for (uint32_t D = 0; D < t->g; D++) {
		uint32_t k;
		uint8_t v;

		if (D == fw->group)
			continue;
		if (fw->regs->mech.ectn_partial[D] > DFLY_WIRE_ECTN_SAT)
			fw_stat_add(fw, FW_STAT_ECTN_SATURATED, 1);
		v = ectn_own_sat(fw, D);
		k = dfly_wire_ectn_index(fw->group, D);
		m.ectn.ctr[k] = v;
		if ((fmt == DFLY_WIRE_ECTN_SPARSE && v != 0) ||
		    (fmt == DFLY_WIRE_ECTN_DELTA && v != ectn_of(fw)->own[D])) {
			dfly_wire_ectn_add(&m.ectn, k, v);
			nent++;
		}
		ectn_of(fw)->own[D] = v;
	}
	if (nent > DFLY_WIRE_ECTN_LIST_MAX)
		fmt = DFLY_WIRE_ECTN_FULL;
	m.ectn.format = (uint8_t)fmt;
	ectn_of(fw)->ever_sent = true;
	ectn_of(fw)->last_tx = now;
	len = dfly_wire_ctrl_encode(buf, sizeof(buf), NULL, &m);
	if (len < 0) {
		fw_stat_add(fw, FW_STAT_TX_ENCODE_ERR, t->a - 1);
		return;
	}
	for (uint32_t port = t->first_local; port < t->first_global; port++) {
		if (fw_tx_frame(fw, port, buf, len) < 0)
			continue;
		fw_stat_add(fw, FW_STAT_ECTN_TX, 1);
		fw_stat_add(fw, FW_STAT_ECTN_TX_FULL + fmt, 1);
		if (fmt != DFLY_WIRE_ECTN_FULL)
			fw_stat_add(fw, FW_STAT_ECTN_TX_ENTRIES, nent);
	}
}

/* Every ectn_period cycles: broadcast the own partial array in the mode's format, publish. */
static void ectn_timer(struct fw *fw, uint64_t now, void *arg)
{
	enum dfly_wire_ectn_fmt fmt = DFLY_WIRE_ECTN_FULL;

	(void)arg;
	/* copies nobody refreshed for ectn_age periods: that neighbour stopped */
	if (fw->par.ectn_age) {
		uint64_t age = (uint64_t)fw->par.ectn_age * fw->par.ectn_period;

		for (uint32_t rho = 0; rho < fw->topo->a; rho++)
			if (ectn_of(fw)->rx_state[rho] != FW_ECTN_RX_NONE &&
			    now - ectn_of(fw)->rx_cycle[rho] >= age) {
				memset(ectn_of(fw)->rx[rho], 0, sizeof(ectn_of(fw)->rx[rho]));
				ectn_of(fw)->rx_state[rho] = FW_ECTN_RX_NONE;
				ectn_of(fw)->dirty = true;
				fw_stat_add(fw, FW_STAT_ECTN_AGED, 1);
			}
	}
	switch (fw->par.ectn_mode) {
	case FW_ECTN_SPARSE:
		fmt = DFLY_WIRE_ECTN_SPARSE;
		break;
	case FW_ECTN_INCREMENTAL:
		/* the whole array first and every ectn_refresh periods: it resynchronises
		 * receivers that found a gap */
		if (ectn_of(fw)->ever_sent && now / fw->par.ectn_period % fw->par.ectn_refresh != 0)
			fmt = DFLY_WIRE_ECTN_DELTA;
		break;
	default:
		break;
	}
	ectn_broadcast(fw, now, fmt);
	if (!fw->par.ectn_own_live)
		ectn_of(fw)->dirty = true;
	if (ectn_of(fw)->dirty)
		ectn_publish(fw, now);
}

/*
 * ASYNC, every tick after the timers: the whole array at once when an own counter (4-bit, as
 * sent) differs from the last array sent by ectn_async_delta or more, unless the last send, of
 * either kind, is fewer than ectn_async_min_gap cycles old (then it is checked again next tick).
 */
static void ectn_async(struct fw *fw, uint64_t now)
{
	const struct dfly_topo *t = fw->topo;
	bool jump = false;

	for (uint32_t D = 0; D < t->g && !jump; D++) {
		int d = (int)ectn_own_sat(fw, D) - (int)ectn_of(fw)->own[D];

		jump = D != fw->group && (uint32_t)abs(d) >= fw->par.ectn_async_delta;
	}
	if (!jump)
		return;
	if (ectn_of(fw)->ever_sent && now - ectn_of(fw)->last_tx < fw->par.ectn_async_min_gap) {
		fw_stat_add(fw, FW_STAT_ECTN_ASYNC_HELD, 1);
		return;
	}
	ectn_broadcast(fw, now, DFLY_WIRE_ECTN_FULL);
	fw_stat_add(fw, FW_STAT_ECTN_ASYNC_TX, 1);
	if (!fw->par.ectn_own_live)
		ectn_of(fw)->dirty = true; /* published by ectn_flush() */
}

/* After the timers: ASYNC's immediate broadcast, then received arrays go to the ASIC in the same
 * tick. */
static void ectn_tick(struct fw *fw, void *state, uint64_t now)
{
	struct fw_ectn *e = state;

	if (fw->par.ectn_mode == FW_ECTN_ASYNC)
		ectn_async(fw, now);
	if (e->dirty && e->tried != now + 1)
		ectn_publish(fw, now);
}

static int ectn_rx_frame(struct fw *fw, void *state, uint32_t port, const struct dfly_wire_ctrl *m)
{
	(void)state;
	(void)port;
	ectn_rx(fw, m);
	return 0;
}

static bool ectn_wanted(const struct fw_params *par)
{
	return par->ectn_enabled;
}

static bool ectn_params_ok(const struct dfly_topo *topo, const struct fw_params *par)
{
	return par->ectn_period >= 1 && topo->g - 1 <= DFLY_WIRE_ECTN_MAX &&
	       (unsigned)par->ectn_mode < FW_ECTN_MODE_COUNT && par->ectn_refresh >= 1 &&
	       par->ectn_async_delta >= 1 && par->ectn_async_delta <= DFLY_WIRE_ECTN_SAT &&
	       par->ectn_async_min_gap >= 1;
}

static void *ectn_init(struct fw *fw)
{
	struct fw_ectn *e = calloc(1, sizeof(*e));

	if (e == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	if (fw_timer_add(fw, "ectn", fw->par.ectn_period, 0, ectn_timer, NULL) < 0) {
		free(e);
		errno = EINVAL;
		return NULL;
	}
	return e;
}

const struct fw_mech fw_mech_ectn = {
    .name = "ectn",
    .machines = DFLY_FW_BIT(ECTN),
    .rx_types = FW_CTRL_BIT(ECTN_PARTIAL),
    .rx_group = FW_CTRL_BIT(ECTN_PARTIAL),
    .wanted = ectn_wanted,
    .params_ok = ectn_params_ok,
    .init = ectn_init,
    .rx = ectn_rx_frame,
    .tick = ectn_tick,
};
