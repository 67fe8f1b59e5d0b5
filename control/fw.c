/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The routing firmware (fw.h), in two parts:
 *   - the core: instance lifecycle, the timer facility in emulated cycles, the CPU-port receive
 *     path (decode, sender check, dispatch by message type), table publication bookkeeping and
 *     the counters;
 *   - the PiggyBack state machine (spec §4.6, A-4.1, A-4.2): own saturation bits from the
 *     downstream occupancy gauges, the group table, and the exchange with the other routers of
 *     the group, out of band (PB_STATE frames) or in band (pb_own_vec / pb_rx_vec);
 *   - the ECtN state machine (spec §5.6, A-5.6): the own partial array broadcast to the group
 *     whole, sparse, as deltas or asynchronously, the received copies and their sum.
 * It touches the ASIC only through struct dfly_regs. No DPDK, libpcap or libconfig here.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fw.h"

#define FW__NAME(E, n, d) #n,
#define FW__DESC(E, n, d) d,
const char *const fw_stat_names[FW_STAT_COUNT] = {FW_FOREACH_STAT(FW__NAME)};
const char *const fw_stat_descs[FW_STAT_COUNT] = {FW_FOREACH_STAT(FW__DESC)};
#undef FW__NAME
#undef FW__DESC

#define FW__OFF(E, n, d) offsetof(struct fw_stats, n),
static const size_t fw_stat_off[FW_STAT_COUNT] = {FW_FOREACH_STAT(FW__OFF)};
#undef FW__OFF

/* The RX_<type> counters follow the wire's control types one for one. */
_Static_assert(FW_STAT_RX_LINK_STATE - FW_STAT_RX_CREDIT ==
			   DFLY_WIRE_CTRL_LINK_STATE - DFLY_WIRE_CTRL_CREDIT &&
		   DFLY_WIRE_CTRL_COUNT - 1 == DFLY_WIRE_CTRL_LINK_STATE,
	       "FW_FOREACH_STAT rx counters out of step with DFLY_FOREACH_WIRE_CTRL");
_Static_assert(sizeof(((struct dfly_tbl_pb *)0)->sat[0][0]) * 8 >= DFLY_MAX_VCS,
	       "a PB table entry must hold one bit per VC");
/* The ECTN_TX_<format> counters follow the wire's ECtN formats one for one. */
_Static_assert(FW_STAT_ECTN_TX_SPARSE - FW_STAT_ECTN_TX_FULL == DFLY_WIRE_ECTN_SPARSE &&
		   FW_STAT_ECTN_TX_DELTA - FW_STAT_ECTN_TX_FULL == DFLY_WIRE_ECTN_DELTA &&
		   DFLY_WIRE_ECTN_FMT_COUNT == 3,
	       "FW_FOREACH_STAT ECtN tx counters out of step with enum dfly_wire_ectn_fmt");

/** A periodic timer in emulated cycles. */
struct fw_timer {
	const char *name; /* for diagnostics */
	uint64_t period;  /* cycles between expiries, ≥ 1 */
	uint64_t next;    /* next expiry (cycle) */
	bool armed;       /* next is aligned to the current time (false until the first tick) */
	fw_timer_fn *fn;  /* callback */
	void *arg;        /* its argument */
};

/** PiggyBack state (spec §4.6). */
struct fw_pb {
	uint8_t own[DFLY_MAX_H];              /* own bits per global port q (bit v = VC v) */
	uint8_t rows[DFLY_MAX_A][DFLY_MAX_H]; /* group table as I know it; rows[rho] = own */
	uint64_t rx_count[DFLY_MAX_PORTS];    /* mode A: last pb_rx_count seen per input port */
	uint8_t vmask;                        /* (1 << vc_global) − 1 */
	bool dirty;                           /* a publication is pending (EBUSY last time) */
	uint8_t published[DFLY_MAX_A][DFLY_MAX_H]; /* rows of the last published generation */
	bool ever_published;
	uint8_t sent[DFLY_MAX_H];             /* own bits of the last PB_STATE broadcast */
	bool ever_sent;
	uint64_t tried;                       /* cycle of the last publication attempt + 1 */
};

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

/** A down group pair learnt from a LINK_STATE relay (soft state). */
struct fw_fail_pair {
	uint16_t a, b;   /* groups, a < b */
	uint8_t ttl;     /* relay hops it had when it came: I send it on with ttl − 1 */
	uint64_t expiry; /* cycle it is forgotten unless refreshed with ttl ≥ this one */
};

/** Failover state (routing.failover). */
struct fw_fail {
	uint16_t own;                  /* my global ports down (bit q), as last seen */
	uint16_t rows[DFLY_MAX_A];     /* the group's rows as I know them; rows[rho] = own */
	uint64_t rx_cycle[DFLY_MAX_A]; /* cycle a neighbour's row last came */
	struct fw_fail_pair pairs[DFLY_FAIL_MAX_PAIRS]; /* learnt, [0, npairs) */
	uint32_t npairs;
	bool dirty;                    /* a publication is pending */
	uint64_t tried;                /* cycle of the last attempt + 1 */
	uint64_t sent;                 /* cycle of the last broadcast + 1 */
};

struct fw {
	const struct dfly_topo *topo;
	struct dfly_regs *regs;
	struct fw_params par;
	uint32_t router;             /* global router id */
	uint32_t group;              /* my group */
	uint32_t rho;                /* my index in the group */
	struct dfly_wire_limits lim; /* what the decoder checks ids against */
	struct fw_stats st;
	struct lia *lia; /* LIA / TPR / ACOR machine, or NULL */
	struct fw_timer timer[FW_MAX_TIMERS];
	uint32_t ntimers;
	uint64_t now; /* cycle of the current (or last) tick */
	struct fw_pb pb;
	struct fw_ectn ectn;
	struct fw_fail fail;
};

static inline void stat_add(struct fw *fw, enum fw_stat s, uint64_t n)
{
	*(uint64_t *)((char *)&fw->st + fw_stat_off[s]) += n;
}

/* ---------------------------------------------------------------------------------------------
 * Parameters, lifecycle, counters
 */

void fw_params_init(struct fw_params *par)
{
	memset(par, 0, sizeof(*par));
	par->vc_global = 2;
	par->pb_enabled = false;
	par->pb_period = 1;
	par->pb_f_q8 = 512;
	par->pb_t = 0;
	par->pb_avg_other = false;
	par->pb_per_vc = true;
	par->pb_inband = false;
	par->pb_send_unchanged = true;
	par->ectn_enabled = false;
	par->ectn_period = 100;
	par->ectn_own_live = true;
	par->ectn_mode = FW_ECTN_FULL;
	par->ectn_refresh = 10;
	par->ectn_async_delta = 4;
	par->ectn_async_min_gap = 10;
	par->ectn_age = 25;
	par->fail_enabled = false;
	par->fail_period = 100;
	par->fail_age = 4;
	lia_params_init(&par->lia);
}

void fw_params_enable(struct fw_params *par, uint32_t machines)
{
	par->pb_enabled = machines & DFLY_FW_BIT(PB);
	par->ectn_enabled = machines & DFLY_FW_BIT(ECTN);
	par->lia.enabled = machines & (DFLY_FW_BIT(LIA) | DFLY_FW_BIT(TPR));
	par->lia.tpr = machines & DFLY_FW_BIT(TPR);
	par->lia.acor = machines & DFLY_FW_BIT(ACOR);
	par->fail_enabled = machines & DFLY_FW_BIT(FAILOVER);
}

static void pb_timer(struct fw *fw, uint64_t now, void *arg);
static void ectn_timer(struct fw *fw, uint64_t now, void *arg);
static void fail_timer(struct fw *fw, uint64_t now, void *arg);

static bool params_ok(const struct dfly_topo *topo, const struct dfly_regs *regs,
		      const struct fw_params *par)
{
	uint32_t nvcs_global;

	if (par->vc_global < 1 || par->vc_global > DFLY_MAX_VCS)
		return false;
	if (topo->a > DFLY_MAX_A || topo->h > DFLY_MAX_H || topo->radix > DFLY_MAX_PORTS)
		return false;
	/* an ASIC that declares its global VCs (asic_create() does) must have enough */
	nvcs_global = regs->nvcs[topo->first_global];
	if (nvcs_global != 0 && par->vc_global > nvcs_global)
		return false;
	if (par->ectn_enabled &&
	    (par->ectn_period < 1 || topo->g - 1 > DFLY_WIRE_ECTN_MAX ||
	     (unsigned)par->ectn_mode >= FW_ECTN_MODE_COUNT || par->ectn_refresh < 1 ||
	     par->ectn_async_delta < 1 || par->ectn_async_delta > DFLY_WIRE_ECTN_SAT ||
	     par->ectn_async_min_gap < 1))
		return false;
	if (par->fail_enabled && (par->fail_period < 1 || par->fail_age < 1))
		return false;
	if (!par->pb_enabled)
		return true;
	if (par->pb_period < 1 || par->pb_f_q8 > FW_PB_F_Q8_MAX)
		return false;
	if (par->pb_inband && (uint64_t)topo->h * par->vc_global > 32)
		return false;
	return true;
}

struct fw *fw_create(const struct dfly_topo *topo, uint32_t router, struct dfly_regs *regs,
		     const struct fw_params *par)
{
	struct fw *fw;

	if (topo == NULL || regs == NULL || par == NULL || router >= topo->routers ||
	    dfly_regs_check(regs) < 0 || regs->router != router || !params_ok(topo, regs, par)) {
		errno = EINVAL;
		return NULL;
	}
	fw = calloc(1, sizeof(*fw));
	if (fw == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	fw->topo = topo;
	fw->regs = regs;
	fw->par = *par;
	fw->router = router;
	fw->group = dfly_topo_group_of(topo, router);
	fw->rho = dfly_topo_rho_of(topo, router);
	dfly_wire_limits_init(&fw->lim, topo, DFLY_MAX_VCS, FW_MAX_PHITS);
	fw->pb.vmask = (uint8_t)((1u << par->vc_global) - 1);

	/* Mechanisms register their timers first, in a fixed order: PB. */
	if ((par->pb_enabled && fw_timer_add(fw, "pb", par->pb_period, 0, pb_timer, NULL) < 0) ||
	    (par->ectn_enabled &&
	     fw_timer_add(fw, "ectn", par->ectn_period, 0, ectn_timer, NULL) < 0) ||
	    (par->fail_enabled &&
	     fw_timer_add(fw, "fail", par->fail_period, 0, fail_timer, NULL) < 0)) {
		free(fw);
		errno = EINVAL;
		return NULL;
	}
	if (par->lia.enabled || par->lia.acor) {
		fw->lia = lia_create(topo, router, regs, &par->lia);
		if (fw->lia == NULL) {
			int e = errno;

			free(fw);
			errno = e;
			return NULL;
		}
	}
	return fw;
}

void fw_destroy(struct fw *fw)
{
	if (fw != NULL)
		lia_destroy(fw->lia);
	free(fw);
}

const struct lia *fw_lia(const struct fw *fw)
{
	return fw->lia;
}

const struct fw_stats *fw_stats(const struct fw *fw)
{
	return &fw->st;
}

uint64_t fw_stat_get(const struct fw_stats *st, enum fw_stat s)
{
	if ((unsigned)s >= FW_STAT_COUNT)
		return 0;
	return *(const uint64_t *)((const char *)st + fw_stat_off[s]);
}

void fw_dump(const struct fw *fw, FILE *f)
{
	for (int s = 0; s < FW_STAT_COUNT; s++) {
		uint64_t v = fw_stat_get(&fw->st, (enum fw_stat)s);

		if (v != 0)
			fprintf(f, "  fw.%s %llu\n", fw_stat_names[s], (unsigned long long)v);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Timers
 */

int fw_timer_add(struct fw *fw, const char *name, uint64_t period, uint64_t phase, fw_timer_fn *fn,
		 void *arg)
{
	struct fw_timer *t;

	if (period == 0 || fn == NULL)
		return -EINVAL;
	if (fw->ntimers >= FW_MAX_TIMERS)
		return -ENOSPC;
	t = &fw->timer[fw->ntimers];
	t->name = name;
	t->period = period;
	t->next = phase;
	t->armed = false;
	t->fn = fn;
	t->arg = arg;
	return (int)fw->ntimers++;
}

/* First expiry ≥ now of timer @p t (its expiries are next + k·period, k ≥ 0). */
static uint64_t timer_align(const struct fw_timer *t, uint64_t now)
{
	if (now <= t->next)
		return t->next;
	return t->next + (now - t->next + t->period - 1) / t->period * t->period;
}

static void timers_run(struct fw *fw, uint64_t now)
{
	for (uint32_t i = 0; i < fw->ntimers; i++) {
		struct fw_timer *t = &fw->timer[i];
		uint64_t next = timer_align(t, now);

		/* Expiries between the last tick and now were missed (only once running). */
		if (t->armed && next != t->next)
			stat_add(fw, FW_STAT_TIMER_MISSED, (next - t->next) / t->period);
		t->next = next;
		t->armed = true;
		if (now != t->next)
			continue;
		t->next += t->period;
		stat_add(fw, FW_STAT_TIMER_RUNS, 1);
		t->fn(fw, now, t->arg);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Receive path
 */

static void pb_rx(struct fw *fw, uint32_t port, const struct dfly_wire_ctrl *m);
static void ectn_rx(struct fw *fw, const struct dfly_wire_ctrl *m);
static void fail_rx(struct fw *fw, const struct dfly_wire_ctrl *m);

/* Messages that only routers of one group exchange. */
static bool ctrl_is_group_scoped(unsigned type)
{
	return type == DFLY_WIRE_CTRL_PB_STATE || type == DFLY_WIRE_CTRL_ECTN_PARTIAL;
}

static void rx_one(struct fw *fw, const struct dfly_cpu_slot *s)
{
	struct dfly_wire_ctrl m;
	uint32_t peer, peer_port;
	uint16_t len = s->len < DFLY_CPU_FRAME_MAX ? s->len : DFLY_CPU_FRAME_MAX;

	stat_add(fw, FW_STAT_RX_FRAMES, 1);
	if (dfly_topo_port_peer(fw->topo, fw->router, s->port, &peer, &peer_port) < 0) {
		stat_add(fw, FW_STAT_RX_BAD_PORT, 1);
		return;
	}
	if (dfly_wire_ctrl_decode(s->frame, len, &fw->lim, &m) < 0) {
		stat_add(fw, FW_STAT_RX_DECODE_ERR, 1);
		return;
	}
	if (ctrl_is_group_scoped(m.type) &&
	    dfly_topo_group_of(fw->topo, m.src_router) != fw->group) {
		stat_add(fw, FW_STAT_RX_OTHER_GROUP, 1);
		return;
	}
	if (m.src_router != peer) {
		stat_add(fw, FW_STAT_RX_WRONG_PEER, 1);
		return;
	}
	stat_add(fw, FW_STAT_RX_CREDIT + (m.type - DFLY_WIRE_CTRL_CREDIT), 1);

	switch (m.type) {
	case DFLY_WIRE_CTRL_PB_STATE:
		if (fw->par.pb_enabled && !fw->par.pb_inband) {
			pb_rx(fw, s->port, &m);
			return;
		}
		break;
	case DFLY_WIRE_CTRL_ECTN_PARTIAL:
		if (fw->par.ectn_enabled) {
			ectn_rx(fw, &m);
			return;
		}
		break;
	case DFLY_WIRE_CTRL_LINK_STATE:
		if (fw->par.fail_enabled) {
			fail_rx(fw, &m);
			return;
		}
		break;
	default:
		break;
	}
	stat_add(fw, FW_STAT_RX_UNHANDLED, 1);
}

/* Everything in the ring, but at most one ring's worth, so a producer running concurrently (real
 * time) cannot keep the tick here; in virtual time that is the whole ring. */
static void rx_drain(struct fw *fw)
{
	const struct dfly_cpu_slot *s;

	for (uint32_t i = 0; i < DFLY_CPU_RING_SLOTS; i++) {
		s = dfly_cpu_ring_peek(&fw->regs->cpu_rx);
		if (s == NULL)
			break;
		rx_one(fw, s);
		dfly_cpu_ring_pop(&fw->regs->cpu_rx);
	}
}

/* Queue one encoded frame on @p port. @return 0, or -ENOBUFS (counted). */
static int tx_frame(struct fw *fw, uint32_t port, const void *frame, int len)
{
	int rc =
	    dfly_cpu_ring_put(&fw->regs->cpu_tx, (uint16_t)port, fw->now, frame, (uint16_t)len);

	if (rc == -ENOBUFS) {
		stat_add(fw, FW_STAT_TX_RING_FULL, 1);
		return rc;
	}
	if (rc < 0) {
		stat_add(fw, FW_STAT_TX_ENCODE_ERR, 1);
		return rc;
	}
	stat_add(fw, FW_STAT_TX_FRAMES, 1);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * PiggyBack (spec §4.6; IAR eq. 3, thesis eq. 1.3, A-4.1, A-4.2)
 */

uint8_t fw_pb_own(const struct fw *fw, uint32_t q)
{
	if (!fw->par.pb_enabled || q >= fw->topo->h)
		return 0;
	return fw->pb.own[q];
}

/*
 * S = Q > F·Q̄ + T with Q̄ = @p sum / n, n the channels averaged, in exact integers:
 * Q·256·n > f_q8·sum + T·256·n. @p total is the sum over all h channels, the channel itself
 * included. With 'other' and h = 1 no channel is averaged: Q̄ = 0 (n = 1, sum = 0).
 * Magnitudes: Q ≤ 2^27 (a whole port of clamped VCs), sums ≤ 2^31, f_q8 ≤ 2^16: < 2^48.
 */
static bool pb_saturated(const struct fw_params *par, int64_t q, int64_t total, uint32_t h)
{
	int64_t sum = total, n = h;

	if (par->pb_avg_other) {
		sum -= q;
		n = h - 1;
		if (n == 0) {
			n = 1;
			sum = 0;
		}
	}
	return q * 256 * n > (int64_t)par->pb_f_q8 * sum + (int64_t)par->pb_t * 256 * n;
}

/* Downstream occupancy Q of global port @p q, VC @p v, clamped to [0, FW_PB_Q_MAX]. */
static int64_t pb_occ(const struct fw *fw, uint32_t q, uint32_t v)
{
	int64_t x = fw->regs->vc_gauge[fw->topo->first_global + q][v][DFLY_VC_DOWN_OCC];

	if (x < 0)
		return 0;
	return x > FW_PB_Q_MAX ? FW_PB_Q_MAX : x;
}

static void pb_compute(struct fw *fw)
{
	const struct fw_params *par = &fw->par;
	uint32_t h = fw->topo->h, vg = par->vc_global;
	int64_t occ[DFLY_MAX_H][DFLY_MAX_VCS], port[DFLY_MAX_H], total = 0;
	uint8_t bits[DFLY_MAX_H] = {0};
	uint64_t set = 0, flips = 0;

	for (uint32_t q = 0; q < h; q++) {
		port[q] = 0;
		for (uint32_t v = 0; v < vg; v++) {
			occ[q][v] = pb_occ(fw, q, v);
			port[q] += occ[q][v];
		}
		total += port[q];
	}
	if (par->pb_per_vc) {
		for (uint32_t v = 0; v < vg; v++) {
			int64_t vtotal = 0;

			for (uint32_t q = 0; q < h; q++)
				vtotal += occ[q][v];
			for (uint32_t q = 0; q < h; q++)
				if (pb_saturated(par, occ[q][v], vtotal, h))
					bits[q] |= (uint8_t)(1u << v);
		}
	} else {
		for (uint32_t q = 0; q < h; q++)
			if (pb_saturated(par, port[q], total, h))
				bits[q] = fw->pb.vmask;
	}
	{
		/* a global link that is down is saturated: nothing it holds moves */
		uint64_t down = atomic_load_explicit(&fw->regs->ports_down, memory_order_relaxed) >>
				fw->topo->first_global;

		for (uint32_t q = 0; q < h; q++)
			if ((down >> q) & 1u)
				bits[q] = fw->pb.vmask;
	}
	for (uint32_t q = 0; q < h; q++) {
		set += (uint64_t)__builtin_popcount(bits[q]);
		flips += (uint64_t)__builtin_popcount(bits[q] ^ fw->pb.own[q]);
		fw->pb.own[q] = bits[q];
		fw->pb.rows[fw->rho][q] = bits[q];
	}
	stat_add(fw, FW_STAT_PB_RECOMPUTE, 1);
	stat_add(fw, FW_STAT_PB_BITS_SET, set);
	stat_add(fw, FW_STAT_PB_FLIPS, flips);
}

/* Mode B: one PB_STATE frame with the own vector to each of the a − 1 local ports. */
static void pb_broadcast(struct fw *fw)
{
	struct dfly_wire_ctrl m;
	uint8_t buf[DFLY_WIRE_ETH_LEN + DFLY_WIRE_CTRL_HDR_LEN + 4 + DFLY_MAX_H * DFLY_MAX_VCS / 8];
	int len;

	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_PB_STATE;
	m.src_router = fw->router;
	m.pb.h = (uint8_t)fw->topo->h;
	m.pb.vg = (uint8_t)fw->par.vc_global;
	memcpy(m.pb.sat, fw->pb.own, fw->topo->h);
	if (!fw->par.pb_send_unchanged && fw->pb.ever_sent &&
	    memcmp(fw->pb.sent, fw->pb.own, fw->topo->h) == 0) {
		/* the neighbours already hold this vector: their rows stay exactly the same */
		stat_add(fw, FW_STAT_PB_TX_UNCHANGED, fw->topo->a - 1);
		return;
	}
	len = dfly_wire_ctrl_encode(buf, sizeof(buf), NULL, &m);
	if (len < 0) {
		stat_add(fw, FW_STAT_TX_ENCODE_ERR, fw->topo->a - 1);
		return;
	}
	{
		bool all = true;

		for (uint32_t port = fw->topo->first_local; port < fw->topo->first_global; port++) {
			if (tx_frame(fw, port, buf, len) == 0)
				stat_add(fw, FW_STAT_PB_TX, 1);
			else
				all = false;
		}
		/* only a vector every neighbour was sent counts as known to them: after a full
		 * ring the next period sends again even if nothing changed */
		memcpy(fw->pb.sent, fw->pb.own, fw->topo->h);
		fw->pb.ever_sent = all;
	}
}

/* Mode B: a PB_STATE from the peer of local port @p port (sender already checked). */
static void pb_rx(struct fw *fw, uint32_t port, const struct dfly_wire_ctrl *m)
{
	uint32_t rho = dfly_topo_rho_of(fw->topo, m->src_router);

	(void)port;
	if (m->pb.h != fw->topo->h || m->pb.vg != fw->par.vc_global) {
		stat_add(fw, FW_STAT_PB_BAD_SHAPE, 1);
		return;
	}
	memcpy(fw->pb.rows[rho], m->pb.sat, fw->topo->h);
	stat_add(fw, FW_STAT_PB_RX_ROWS, 1);
}

/* Mode A: the vector as the ASIC piggybacks it, bit q·vg + v. */
static uint32_t pb_vec_pack(const struct fw *fw, const uint8_t *sat)
{
	uint32_t vec = 0, vg = fw->par.vc_global;

	for (uint32_t q = 0; q < fw->topo->h; q++)
		vec |= (uint32_t)sat[q] << (q * vg);
	return vec;
}

/* Mode A: new vectors received in band on the local input ports become their peers' rows. */
static void pb_inband_rx(struct fw *fw)
{
	const struct dfly_topo *topo = fw->topo;
	const struct dfly_regs_mech_ctrs *mech = &fw->regs->mech;
	uint32_t vg = fw->par.vc_global;

	for (uint32_t port = topo->first_local; port < topo->first_global; port++) {
		uint64_t count = mech->pb_rx_count[port];
		uint32_t vec, rho;

		if (count == fw->pb.rx_count[port])
			continue;
		fw->pb.rx_count[port] = count;
		vec = mech->pb_rx_vec[port];
		rho = dfly_topo_local_peer(topo, fw->rho, port);
		for (uint32_t q = 0; q < topo->h; q++)
			fw->pb.rows[rho][q] = (uint8_t)(vec >> (q * vg)) & fw->pb.vmask;
		stat_add(fw, FW_STAT_PB_INBAND_RX, 1);
	}
}

/* Write the group table into the ASIC's inactive bank, or defer if it is still in use. */
static void pb_publish(struct fw *fw, uint64_t now)
{
	struct dfly_tbl_pb *t;

	fw->pb.tried = now + 1;
	if (!fw->pb.dirty && fw->pb.ever_published &&
	    memcmp(fw->pb.published, fw->pb.rows, sizeof(fw->pb.rows)) == 0) {
		/* the live bank already holds these rows: nothing to publish */
		stat_add(fw, FW_STAT_TBL_UNCHANGED, 1);
		return;
	}
	t = dfly_regs_tbl_begin(fw->regs, DFLY_TBL_PB);
	if (t == NULL) {
		/* EBUSY: the ASIC still reads the other bank; try again next tick. */
		fw->pb.dirty = true;
		stat_add(fw, FW_STAT_TBL_BUSY, 1);
		return;
	}
	memset(t, 0, sizeof(*t));
	for (uint32_t rho = 0; rho < fw->topo->a; rho++)
		memcpy(t->sat[rho], fw->pb.rows[rho], fw->topo->h);
	dfly_regs_tbl_publish(fw->regs, DFLY_TBL_PB);
	memcpy(fw->pb.published, fw->pb.rows, sizeof(fw->pb.rows));
	fw->pb.ever_published = true;
	fw->pb.dirty = false;
	stat_add(fw, FW_STAT_TBL_PUBLISH, 1);
}

/* Every pb_period cycles: in-band rows, recompute, send (B) or expose (A) the own bits, publish. */
static void pb_timer(struct fw *fw, uint64_t now, void *arg)
{
	(void)arg;
	if (fw->par.pb_inband)
		pb_inband_rx(fw);
	pb_compute(fw);
	if (fw->par.pb_inband)
		atomic_store_explicit(&fw->regs->fw.pb_own_vec, pb_vec_pack(fw, fw->pb.own),
				      memory_order_release);
	else
		pb_broadcast(fw);
	pb_publish(fw, now);
}

/* After the timers: a deferred publication goes out as soon as the ASIC has made room. */
static void pb_flush(struct fw *fw, uint64_t now)
{
	if (fw->par.pb_enabled && fw->pb.dirty && fw->pb.tried != now + 1)
		pb_publish(fw, now);
}

/* ---------------------------------------------------------------------------------------------
 * ECtN (spec §5.6)
 */

/* DFLY_TBL_ECTN = Σ received copies (+ own snapshot when the ASIC does not add its live one). */
static void ectn_publish(struct fw *fw, uint64_t now)
{
	const struct dfly_topo *t = fw->topo;
	struct dfly_tbl_ectn *tbl;

	fw->ectn.tried = now + 1;
	tbl = dfly_regs_tbl_begin(fw->regs, DFLY_TBL_ECTN);
	if (tbl == NULL) {
		fw->ectn.dirty = true;
		stat_add(fw, FW_STAT_TBL_BUSY, 1);
		return;
	}
	memset(tbl, 0, sizeof(*tbl));
	for (uint32_t D = 0; D < t->g; D++) {
		uint32_t sum = fw->par.ectn_own_live ? 0 : fw->ectn.own[D];

		for (uint32_t rho = 0; rho < t->a; rho++)
			if (rho != fw->rho)
				sum += fw->ectn.rx[rho][D];
		tbl->combined[D] = (uint16_t)sum;
	}
	dfly_regs_tbl_publish(fw->regs, DFLY_TBL_ECTN);
	fw->ectn.dirty = false;
	stat_add(fw, FW_STAT_TBL_PUBLISH, 1);
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
	struct fw_ectn *e = &fw->ectn;

	if (m->ectn.n != t->g - 1) {
		stat_add(fw, FW_STAT_ECTN_BAD_SHAPE, 1);
		return;
	}
	if (m->ectn.format == DFLY_WIRE_ECTN_DELTA) {
		if (e->rx_state[rho] != FW_ECTN_RX_SYNCED ||
		    m->ectn.epoch != (uint8_t)(e->rx_epoch[rho] + 1)) {
			if (e->rx_state[rho] != FW_ECTN_RX_STALE)
				stat_add(fw, FW_STAT_ECTN_GAPS, 1);
			e->rx_state[rho] = FW_ECTN_RX_STALE;
			stat_add(fw, FW_STAT_ECTN_DELTA_STALE, 1);
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
	stat_add(fw, FW_STAT_ECTN_RX, 1);
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
			stat_add(fw, FW_STAT_ECTN_SATURATED, 1);
		v = ectn_own_sat(fw, D);
		k = dfly_wire_ectn_index(fw->group, D);
		m.ectn.ctr[k] = v;
		if ((fmt == DFLY_WIRE_ECTN_SPARSE && v != 0) ||
		    (fmt == DFLY_WIRE_ECTN_DELTA && v != fw->ectn.own[D])) {
			dfly_wire_ectn_add(&m.ectn, k, v);
			nent++;
		}
		fw->ectn.own[D] = v;
	}
	if (nent > DFLY_WIRE_ECTN_LIST_MAX)
		fmt = DFLY_WIRE_ECTN_FULL;
	m.ectn.format = (uint8_t)fmt;
	fw->ectn.ever_sent = true;
	fw->ectn.last_tx = now;
	len = dfly_wire_ctrl_encode(buf, sizeof(buf), NULL, &m);
	if (len < 0) {
		stat_add(fw, FW_STAT_TX_ENCODE_ERR, t->a - 1);
		return;
	}
	for (uint32_t port = t->first_local; port < t->first_global; port++) {
		if (tx_frame(fw, port, buf, len) < 0)
			continue;
		stat_add(fw, FW_STAT_ECTN_TX, 1);
		stat_add(fw, FW_STAT_ECTN_TX_FULL + fmt, 1);
		if (fmt != DFLY_WIRE_ECTN_FULL)
			stat_add(fw, FW_STAT_ECTN_TX_ENTRIES, nent);
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
			if (fw->ectn.rx_state[rho] != FW_ECTN_RX_NONE &&
			    now - fw->ectn.rx_cycle[rho] >= age) {
				memset(fw->ectn.rx[rho], 0, sizeof(fw->ectn.rx[rho]));
				fw->ectn.rx_state[rho] = FW_ECTN_RX_NONE;
				fw->ectn.dirty = true;
				stat_add(fw, FW_STAT_ECTN_AGED, 1);
			}
	}
	switch (fw->par.ectn_mode) {
	case FW_ECTN_SPARSE:
		fmt = DFLY_WIRE_ECTN_SPARSE;
		break;
	case FW_ECTN_INCREMENTAL:
		/* the whole array first and every ectn_refresh periods: it resynchronises
		 * receivers that found a gap */
		if (fw->ectn.ever_sent && now / fw->par.ectn_period % fw->par.ectn_refresh != 0)
			fmt = DFLY_WIRE_ECTN_DELTA;
		break;
	default:
		break;
	}
	ectn_broadcast(fw, now, fmt);
	if (!fw->par.ectn_own_live)
		fw->ectn.dirty = true;
	if (fw->ectn.dirty)
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
		int d = (int)ectn_own_sat(fw, D) - (int)fw->ectn.own[D];

		jump = D != fw->group && (uint32_t)abs(d) >= fw->par.ectn_async_delta;
	}
	if (!jump)
		return;
	if (fw->ectn.ever_sent && now - fw->ectn.last_tx < fw->par.ectn_async_min_gap) {
		stat_add(fw, FW_STAT_ECTN_ASYNC_HELD, 1);
		return;
	}
	ectn_broadcast(fw, now, DFLY_WIRE_ECTN_FULL);
	stat_add(fw, FW_STAT_ECTN_ASYNC_TX, 1);
	if (!fw->par.ectn_own_live)
		fw->ectn.dirty = true; /* published by ectn_flush() */
}

/* After the receive path and the timers: received arrays go to the ASIC in the same tick. */
static void ectn_flush(struct fw *fw, uint64_t now)
{
	if (fw->par.ectn_enabled && fw->ectn.dirty && fw->ectn.tried != now + 1)
		ectn_publish(fw, now);
}

/* ---------------------------------------------------------------------------------------------
 * Failover (routing.failover, PROPOSAL)
 */

/*
 * What a LINK_STATE says and how far it goes. A router whose own global link is down tells every
 * neighbour (local and global ports) "the link between my group and X is down", ttl
 * FAIL_TTL_OWN; a router that learnt a pair with ttl k passes it on to all its neighbours with
 * ttl k − 1, every period. Three hops reach every router of a Dragonfly (local, global, local).
 * A learnt pair is forgotten fail_age periods after it last came with a ttl at least as large as
 * the one held, so a pair can only be kept alive by a copy that is closer to its source: when
 * the link returns, its routers stop saying it and every copy is gone within fail_age periods
 * after the last relay (no count-to-infinity: ttl falls by one per hop).
 */
#define FAIL_TTL_OWN 3u

static void fail_publish(struct fw *fw, uint64_t now)
{
	struct dfly_tbl_fail *t;
	uint32_t n = 0;

	fw->fail.tried = now + 1;
	t = dfly_regs_tbl_begin(fw->regs, DFLY_TBL_FAIL);
	if (t == NULL) {
		fw->fail.dirty = true;
		stat_add(fw, FW_STAT_TBL_BUSY, 1);
		return;
	}
	memset(t, 0, sizeof(*t));
	memcpy(t->down, fw->fail.rows, sizeof(t->down));
	/* my own group's links are in the rows, exactly and at once (up again included): the
	 * pairs are for the other groups' links only (kept and relayed all the same) */
	for (uint32_t i = 0; i < fw->fail.npairs; i++) {
		if (fw->fail.pairs[i].a == fw->group || fw->fail.pairs[i].b == fw->group)
			continue;
		t->pair[n][0] = fw->fail.pairs[i].a;
		t->pair[n][1] = fw->fail.pairs[i].b;
		n++;
	}
	t->npairs = n;
	dfly_regs_tbl_publish(fw->regs, DFLY_TBL_FAIL);
	fw->fail.dirty = false;
	stat_add(fw, FW_STAT_TBL_PUBLISH, 1);
}

/* Append a pair to a LINK_STATE being built, unless it is there (keep the larger ttl). */
static void fail_msg_add(struct dfly_wire_link_state *ls, uint32_t a, uint32_t b, uint8_t ttl)
{
	uint16_t lo = (uint16_t)(a < b ? a : b), hi = (uint16_t)(a < b ? b : a);

	for (uint32_t i = 0; i < ls->n; i++) {
		if (ls->e[i].a == lo && ls->e[i].b == hi) {
			if (ls->e[i].ttl < ttl)
				ls->e[i].ttl = ttl;
			return;
		}
	}
	if (ls->n >= DFLY_WIRE_FAIL_MAX)
		return; /* more down links than a frame holds: the rest wait (counted) */
	ls->e[ls->n].a = lo;
	ls->e[ls->n].b = hi;
	ls->e[ls->n].ttl = ttl;
	ls->n++;
}

/* LINK_STATE with my down vector and what I know, on every fabric port whose link is up. */
static void fail_broadcast(struct fw *fw, uint64_t now)
{
	const struct dfly_topo *t = fw->topo;
	uint64_t down = atomic_load_explicit(&fw->regs->ports_down, memory_order_relaxed);
	struct dfly_wire_ctrl m;
	uint8_t buf[DFLY_WIRE_ETH_LEN + DFLY_WIRE_CTRL_HDR_LEN + 4 + 4 * DFLY_WIRE_FAIL_MAX];
	uint32_t want = 0;
	int len;

	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_LINK_STATE;
	m.src_router = fw->router;
	m.ls.h = (uint8_t)t->h;
	m.ls.down = fw->fail.own;
	for (uint32_t q = 0; q < t->h; q++) {
		if ((fw->fail.own >> q) & 1u) {
			fail_msg_add(&m.ls, fw->group, dfly_topo_global_peer(t, fw->router, q).router / t->a,
				     FAIL_TTL_OWN);
			want++;
		}
	}
	for (uint32_t i = 0; i < fw->fail.npairs; i++) {
		if (fw->fail.pairs[i].ttl > 1) {
			fail_msg_add(&m.ls, fw->fail.pairs[i].a, fw->fail.pairs[i].b,
				     (uint8_t)(fw->fail.pairs[i].ttl - 1));
			want++;
		}
	}
	if (want > m.ls.n && m.ls.n == DFLY_WIRE_FAIL_MAX)
		stat_add(fw, FW_STAT_FAIL_OVERFLOW, want - m.ls.n);
	len = dfly_wire_ctrl_encode(buf, sizeof(buf), NULL, &m);
	if (len < 0) {
		stat_add(fw, FW_STAT_TX_ENCODE_ERR, 1);
		return;
	}
	fw->fail.sent = now + 1;
	for (uint32_t port = t->first_local; port < t->radix; port++) {
		if ((down >> port) & 1u)
			continue; /* nothing crosses it: the far end knows on its own */
		if (tx_frame(fw, port, buf, len) == 0)
			stat_add(fw, FW_STAT_FAIL_TX, 1);
	}
}

/* A learnt pair: new, refreshed (ttl at least the one held), or a weaker copy (ignored). */
static bool fail_learn(struct fw *fw, const struct dfly_wire_fail_pair *e, uint64_t now)
{
	uint64_t life = (uint64_t)fw->par.fail_period * fw->par.fail_age;
	struct fw_fail *f = &fw->fail;

	for (uint32_t i = 0; i < f->npairs; i++) {
		if (f->pairs[i].a == e->a && f->pairs[i].b == e->b) {
			if (e->ttl >= f->pairs[i].ttl) {
				f->pairs[i].ttl = e->ttl;
				f->pairs[i].expiry = now + life;
			}
			return false;
		}
	}
	if (f->npairs >= DFLY_FAIL_MAX_PAIRS) {
		stat_add(fw, FW_STAT_FAIL_OVERFLOW, 1);
		return false;
	}
	f->pairs[f->npairs].a = e->a;
	f->pairs[f->npairs].b = e->b;
	f->pairs[f->npairs].ttl = e->ttl;
	f->pairs[f->npairs].expiry = now + life;
	f->npairs++;
	stat_add(fw, FW_STAT_FAIL_LEARNT, 1);
	return true;
}

static void fail_broadcast(struct fw *fw, uint64_t now);

static void fail_rx(struct fw *fw, const struct dfly_wire_ctrl *m)
{
	bool changed = false, news = false;

	stat_add(fw, FW_STAT_FAIL_RX, 1);
	if (dfly_topo_group_of(fw->topo, m->src_router) == fw->group) {
		/* a router of my group: its own ports, exactly */
		uint32_t rho = dfly_topo_rho_of(fw->topo, m->src_router);

		fw->fail.rx_cycle[rho] = fw->now;
		if (fw->fail.rows[rho] != m->ls.down) {
			fw->fail.rows[rho] = m->ls.down;
			stat_add(fw, FW_STAT_FAIL_ROWS, 1);
			changed = true;
		}
	}
	for (uint32_t i = 0; i < m->ls.n; i++) {
		if (fail_learn(fw, &m->ls.e[i], fw->now)) {
			changed = true;
			news = true;
		}
	}
	if (news && fw->fail.sent != fw->now + 1)
		fail_broadcast(fw, fw->now); /* news travel at once; refreshes wait for the timer */
	if (changed)
		fail_publish(fw, fw->now);
}

/* Every tick: my own links, from the hardware bits; a change goes out at once. */
static void fail_poll(struct fw *fw, uint64_t now)
{
	uint64_t down = atomic_load_explicit(&fw->regs->ports_down, memory_order_relaxed);
	uint16_t own = (uint16_t)((down >> fw->topo->first_global) & ((1u << fw->topo->h) - 1));

	if (own != fw->fail.own) {
		fw->fail.own = own;
		fw->fail.rows[fw->rho] = own;
		stat_add(fw, FW_STAT_FAIL_CHANGES, 1);
		fail_broadcast(fw, now);
		fail_publish(fw, now);
	} else if (fw->fail.dirty && fw->fail.tried != now + 1) {
		fail_publish(fw, now);
	}
}

/* Is there a learnt pair I pass on (ttl > 1)? */
static bool fail_relays(const struct fw_fail *f)
{
	for (uint32_t i = 0; i < f->npairs; i++)
		if (f->pairs[i].ttl > 1)
			return true;
	return false;
}

/* Every fail_period: age out what nobody refreshed, then say what I know (if anything). */
static void fail_timer(struct fw *fw, uint64_t now, void *arg)
{
	uint64_t life = (uint64_t)fw->par.fail_period * fw->par.fail_age;
	struct fw_fail *f = &fw->fail;
	bool changed = false;

	(void)arg;
	for (uint32_t r = 0; r < fw->topo->a; r++) {
		if (r == fw->rho || f->rows[r] == 0 || f->rx_cycle[r] + life > now)
			continue;
		f->rows[r] = 0;
		stat_add(fw, FW_STAT_FAIL_AGED, 1);
		changed = true;
	}
	for (uint32_t i = 0; i < f->npairs;) {
		if (f->pairs[i].expiry > now) {
			i++;
			continue;
		}
		f->pairs[i] = f->pairs[--f->npairs];
		stat_add(fw, FW_STAT_FAIL_AGED, 1);
		changed = true;
	}
	if (f->sent != now + 1 && (f->own != 0 || fail_relays(f)))
		fail_broadcast(fw, now);
	if (changed)
		fail_publish(fw, now);
}

/* ---------------------------------------------------------------------------------------------
 * The tick
 */

void fw_tick(struct fw *fw, uint64_t now)
{
	fw->now = now;
	stat_add(fw, FW_STAT_TICKS, 1);
	rx_drain(fw);
	if (fw->par.fail_enabled)
		fail_poll(fw, now);
	timers_run(fw, now);
	if (fw->par.ectn_enabled && fw->par.ectn_mode == FW_ECTN_ASYNC)
		ectn_async(fw, now);
	pb_flush(fw, now);
	ectn_flush(fw, now);
	if (fw->lia != NULL) {
		const struct lia_stats *ls;

		lia_tick(fw->lia, now);
		ls = lia_stats(fw->lia);
		fw->st.lia_recompute = ls->recompute;
		fw->st.lia_publish = ls->publish;
		fw->st.lia_busy = ls->busy;
		fw->st.lia_l1_flips = ls->l1_flips;
		fw->st.lia_l2_flips = ls->l2_flips;
		fw->st.lia_level_flips = ls->level_flips;
		fw->st.acor_changes = ls->acor_changes;
	}
	atomic_store_explicit(&fw->regs->fw.heartbeat, now + 1, memory_order_release);
}

uint64_t fw_follow(struct fw *fw, uint64_t *next, uint64_t max_catchup, uint64_t *skipped)
{
	uint64_t steps = atomic_load_explicit(&fw->regs->steps, memory_order_acquire);
	uint64_t ticks = 0;

	if (steps > *next + max_catchup) {
		*skipped += steps - 1 - *next;
		*next = steps - 1;
	}
	while (*next < steps) {
		fw_tick(fw, (*next)++);
		ticks++;
	}
	return ticks;
}
