/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The routing firmware's core (fw.h, fw_mech.h): instance lifecycle, the timer facility in
 * emulated cycles, the CPU-port receive path (decode, sender check, dispatch by message type to
 * the mechanism that takes it), the transmit helper and the counters. The state machines are
 * struct fw_mech ops tables in files of their own (pb.c, ectn.c, failover.c, lia.c), run in the
 * order of fw_mechs[]. It touches the ASIC only through struct dfly_regs. No DPDK, libpcap or
 * libconfig here.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fw_mech.h"

#define FW__NAME(E, n, d) #n,
#define FW__DESC(E, n, d) d,
const char *const fw_stat_names[FW_STAT_COUNT] = {FW_FOREACH_STAT(FW__NAME)};
const char *const fw_stat_descs[FW_STAT_COUNT] = {FW_FOREACH_STAT(FW__DESC)};
#undef FW__NAME
#undef FW__DESC

#define FW__OFF(E, n, d) offsetof(struct fw_stats, n),
const size_t fw_stat_off[FW_STAT_COUNT] = {FW_FOREACH_STAT(FW__OFF)};
#undef FW__OFF

/* The RX_<type> counters follow the wire's control types one for one. */
_Static_assert(FW_STAT_RX_SYNC - FW_STAT_RX_CREDIT == DFLY_WIRE_CTRL_SYNC - DFLY_WIRE_CTRL_CREDIT &&
		   DFLY_WIRE_CTRL_COUNT - 1 == DFLY_WIRE_CTRL_SYNC,
	       "FW_FOREACH_STAT rx counters out of step with DFLY_FOREACH_WIRE_CTRL");
_Static_assert(DFLY_WIRE_CTRL_COUNT <= 32, "a mechanism's rx_types is a 32-bit mask");
_Static_assert(DFLY_FW_COUNT <= 32, "a mechanism's machines is a 32-bit mask");

/*
 * The built-in mechanisms, in the order they run. The order reproduces the firmware before the
 * split exactly: timers pb, ectn, fail (registered by init() in this order); poll: failover's
 * own-link check before the timers; after the timers, PB's deferred publication, ECtN's
 * immediate broadcast (ASYNC) and deferred publication, then LIA's tick. (ECtN's broadcast used to
 * come before PB's publication: they touch nothing in common — PB's table and state against the
 * CPU tx ring and ECtN's state — and no mode runs both.)
 */
const struct fw_mech *const fw_mechs[] = {&fw_mech_pb, &fw_mech_ectn, &fw_mech_failover,
					  &fw_mech_lia};
const uint32_t fw_nmechs = sizeof(fw_mechs) / sizeof(fw_mechs[0]);

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

int fw_mech_check(const struct fw_mech *m)
{
	uint32_t types = (1u << DFLY_WIRE_CTRL_COUNT) - 1;

	if (m == NULL || m->name == NULL || m->name[0] == '\0' || m->machines == 0 ||
	    (m->machines & ~((1u << DFLY_FW_COUNT) - 1)) != 0 || m->wanted == NULL ||
	    m->init == NULL)
		return -EINVAL;
	if ((m->rx_types & ~types) != 0 || (m->rx_group & ~m->rx_types) != 0 ||
	    (m->rx_types != 0) != (m->rx != NULL))
		return -EINVAL;
	return 0;
}

/* Settings of the core (the mechanisms check theirs with params_ok()). */
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
	return true;
}

/* Every mechanism keeps its contract, no machine is implemented twice, and the ones that run
 * accept their settings. @return the mask of group-scoped frame types, or -EINVAL. */
static int64_t mechs_ok(const struct dfly_topo *topo, const struct fw_params *par,
			const struct fw_mech *const *mechs, uint32_t n)
{
	uint32_t machines = 0, group = 0, running = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct fw_mech *m = mechs[i];

		if (fw_mech_check(m) < 0 || (machines & m->machines) != 0)
			return -EINVAL;
		machines |= m->machines;
		group |= m->rx_group;
		if (!m->wanted(par))
			continue;
		if (++running > FW_MAX_MECHS || (m->params_ok != NULL && !m->params_ok(topo, par)))
			return -EINVAL;
	}
	return group;
}

struct fw *fw_create_with(const struct dfly_topo *topo, uint32_t router, struct dfly_regs *regs,
			  const struct fw_params *par, const struct fw_mech *const *mechs,
			  uint32_t n)
{
	struct fw *fw;
	int64_t group;

	if (topo == NULL || regs == NULL || par == NULL || (mechs == NULL && n != 0) ||
	    router >= topo->routers || dfly_regs_check(regs) < 0 || regs->router != router ||
	    !params_ok(topo, regs, par)) {
		errno = EINVAL;
		return NULL;
	}
	group = mechs_ok(topo, par, mechs, n);
	if (group < 0) {
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
	fw->rx_group = (uint32_t)group;
	dfly_wire_limits_init(&fw->lim, topo, DFLY_MAX_VCS, FW_MAX_PHITS);

	/* The mechanisms start in a fixed order, and register their timers in it. */
	for (uint32_t i = 0; i < n; i++) {
		const struct fw_mech *m = mechs[i];
		void *st;

		if (!m->wanted(par))
			continue;
		st = m->init(fw);
		if (st == NULL) {
			int e = errno ? errno : EINVAL;

			fw_destroy(fw);
			errno = e;
			return NULL;
		}
		fw->mech[fw->nmech] = m;
		fw->mstate[fw->nmech] = st;
		fw->nmech++;
		fw->state[__builtin_ctz(m->machines)] = st;
	}
	return fw;
}

struct fw *fw_create(const struct dfly_topo *topo, uint32_t router, struct dfly_regs *regs,
		     const struct fw_params *par)
{
	return fw_create_with(topo, router, regs, par, fw_mechs, fw_nmechs);
}

void fw_destroy(struct fw *fw)
{
	if (fw == NULL)
		return;
	for (uint32_t i = fw->nmech; i-- > 0;) {
		if (fw->mech[i]->fini != NULL)
			fw->mech[i]->fini(fw, fw->mstate[i]);
		else
			free(fw->mstate[i]);
	}
	free(fw);
}

const struct lia *fw_lia(const struct fw *fw)
{
	return fw_state(fw, DFLY_FW_LIA);
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
			fw_stat_add(fw, FW_STAT_TIMER_MISSED, (next - t->next) / t->period);
		t->next = next;
		t->armed = true;
		if (now != t->next)
			continue;
		t->next += t->period;
		fw_stat_add(fw, FW_STAT_TIMER_RUNS, 1);
		t->fn(fw, now, t->arg);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Receive path
 */

/* Messages that only routers of one group exchange (rx_group of the registered mechanisms). */
static bool ctrl_is_group_scoped(const struct fw *fw, unsigned type)
{
	return (fw->rx_group >> type) & 1u;
}

/* The first running mechanism that takes frames of @p type, handing it the frame. @return 0 if
 * one handled it. */
static int rx_dispatch(struct fw *fw, uint32_t port, const struct dfly_wire_ctrl *m)
{
	for (uint32_t i = 0; i < fw->nmech; i++)
		if ((fw->mech[i]->rx_types >> m->type) & 1u)
			return fw->mech[i]->rx(fw, fw->mstate[i], port, m);
	return -ENOTSUP;
}

static void rx_one(struct fw *fw, const struct dfly_cpu_slot *s)
{
	struct dfly_wire_ctrl m;
	uint32_t peer, peer_port;
	uint16_t len = s->len < DFLY_CPU_FRAME_MAX ? s->len : DFLY_CPU_FRAME_MAX;

	fw_stat_add(fw, FW_STAT_RX_FRAMES, 1);
	if (dfly_topo_port_peer(fw->topo, fw->router, s->port, &peer, &peer_port) < 0) {
		fw_stat_add(fw, FW_STAT_RX_BAD_PORT, 1);
		return;
	}
	if (dfly_wire_ctrl_decode(s->frame, len, &fw->lim, &m) < 0) {
		fw_stat_add(fw, FW_STAT_RX_DECODE_ERR, 1);
		return;
	}
	if (ctrl_is_group_scoped(fw, m.type) &&
	    dfly_topo_group_of(fw->topo, m.src_router) != fw->group) {
		fw_stat_add(fw, FW_STAT_RX_OTHER_GROUP, 1);
		return;
	}
	if (m.src_router != peer) {
		fw_stat_add(fw, FW_STAT_RX_WRONG_PEER, 1);
		return;
	}
	fw_stat_add(fw, FW_STAT_RX_CREDIT + (m.type - DFLY_WIRE_CTRL_CREDIT), 1);

	if (rx_dispatch(fw, s->port, &m) < 0)
		fw_stat_add(fw, FW_STAT_RX_UNHANDLED, 1);
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

int fw_tx_frame(struct fw *fw, uint32_t port, const void *frame, int len)
{
	int rc =
	    dfly_cpu_ring_put(&fw->regs->cpu_tx, (uint16_t)port, fw->now, frame, (uint16_t)len);

	if (rc == -ENOBUFS) {
		fw_stat_add(fw, FW_STAT_TX_RING_FULL, 1);
		return rc;
	}
	if (rc < 0) {
		fw_stat_add(fw, FW_STAT_TX_ENCODE_ERR, 1);
		return rc;
	}
	fw_stat_add(fw, FW_STAT_TX_FRAMES, 1);
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The tick
 */

void fw_tick(struct fw *fw, uint64_t now)
{
	fw->now = now;
	fw_stat_add(fw, FW_STAT_TICKS, 1);
	rx_drain(fw);
	for (uint32_t i = 0; i < fw->nmech; i++)
		if (fw->mech[i]->poll != NULL)
			fw->mech[i]->poll(fw, fw->mstate[i], now);
	timers_run(fw, now);
	for (uint32_t i = 0; i < fw->nmech; i++)
		if (fw->mech[i]->tick != NULL)
			fw->mech[i]->tick(fw, fw->mstate[i], now);
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
