/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The failover state machine of the firmware (routing.failover, PROPOSAL), a struct fw_mech
 * (fw_mech.h): every router tells its neighbours which of its global links are down
 * (regs->ports_down) and relays what it learnt in LINK_STATE frames, at once on a change and every
 * fail_period cycles while anything is known to be down; it publishes DFLY_TBL_FAIL. Soft state:
 * what is not refreshed for fail_age periods is taken as up again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fw_mech.h"

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
	bool dirty;     /* a publication is pending */
	uint64_t tried; /* cycle of the last attempt + 1 */
	uint64_t sent;  /* cycle of the last broadcast + 1 */
};

static inline struct fw_fail *fail_of(const struct fw *fw)
{
	return fw_state(fw, DFLY_FW_FAILOVER);
}

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

	fail_of(fw)->tried = now + 1;
	t = dfly_regs_tbl_begin(fw->regs, DFLY_TBL_FAIL);
	if (t == NULL) {
		fail_of(fw)->dirty = true;
		fw_stat_add(fw, FW_STAT_TBL_BUSY, 1);
		return;
	}
	memset(t, 0, sizeof(*t));
	memcpy(t->down, fail_of(fw)->rows, sizeof(t->down));
	/* my own group's links are in the rows, exactly and at once (up again included): the
	 * pairs are for the other groups' links only (kept and relayed all the same) */
	for (uint32_t i = 0; i < fail_of(fw)->npairs; i++) {
		if (fail_of(fw)->pairs[i].a == fw->group || fail_of(fw)->pairs[i].b == fw->group)
			continue;
		t->pair[n][0] = fail_of(fw)->pairs[i].a;
		t->pair[n][1] = fail_of(fw)->pairs[i].b;
		n++;
	}
	t->npairs = n;
	dfly_regs_tbl_publish(fw->regs, DFLY_TBL_FAIL);
	fail_of(fw)->dirty = false;
	fw_stat_add(fw, FW_STAT_TBL_PUBLISH, 1);
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
	m.ls.down = fail_of(fw)->own;
	for (uint32_t q = 0; q < t->h; q++) {
		if ((fail_of(fw)->own >> q) & 1u) {
			fail_msg_add(&m.ls, fw->group,
				     dfly_topo_global_peer(t, fw->router, q).router / t->a,
				     FAIL_TTL_OWN);
			want++;
		}
	}
	for (uint32_t i = 0; i < fail_of(fw)->npairs; i++) {
		if (fail_of(fw)->pairs[i].ttl > 1) {
			fail_msg_add(&m.ls, fail_of(fw)->pairs[i].a, fail_of(fw)->pairs[i].b,
				     (uint8_t)(fail_of(fw)->pairs[i].ttl - 1));
			want++;
		}
	}
	if (want > m.ls.n && m.ls.n == DFLY_WIRE_FAIL_MAX)
		fw_stat_add(fw, FW_STAT_FAIL_OVERFLOW, want - m.ls.n);
	len = dfly_wire_ctrl_encode(buf, sizeof(buf), NULL, &m);
	if (len < 0) {
		fw_stat_add(fw, FW_STAT_TX_ENCODE_ERR, 1);
		return;
	}
	fail_of(fw)->sent = now + 1;
	for (uint32_t port = t->first_local; port < t->radix; port++) {
		if ((down >> port) & 1u)
			continue; /* nothing crosses it: the far end knows on its own */
		if (fw_tx_frame(fw, port, buf, len) == 0)
			fw_stat_add(fw, FW_STAT_FAIL_TX, 1);
	}
}

/* A learnt pair: new, refreshed (ttl at least the one held), or a weaker copy (ignored). */
static bool fail_learn(struct fw *fw, const struct dfly_wire_fail_pair *e, uint64_t now)
{
	uint64_t life = (uint64_t)fw->par.fail_period * fw->par.fail_age;
	struct fw_fail *f = fail_of(fw);

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
		fw_stat_add(fw, FW_STAT_FAIL_OVERFLOW, 1);
		return false;
	}
	f->pairs[f->npairs].a = e->a;
	f->pairs[f->npairs].b = e->b;
	f->pairs[f->npairs].ttl = e->ttl;
	f->pairs[f->npairs].expiry = now + life;
	f->npairs++;
	fw_stat_add(fw, FW_STAT_FAIL_LEARNT, 1);
	return true;
}

static int fail_rx(struct fw *fw, void *state, uint32_t port, const struct dfly_wire_ctrl *m)
{
	bool changed = false, news = false;

	(void)state;
	(void)port;
	fw_stat_add(fw, FW_STAT_FAIL_RX, 1);
	if (dfly_topo_group_of(fw->topo, m->src_router) == fw->group) {
		/* a router of my group: its own ports, exactly */
		uint32_t rho = dfly_topo_rho_of(fw->topo, m->src_router);

		fail_of(fw)->rx_cycle[rho] = fw->now;
		if (fail_of(fw)->rows[rho] != m->ls.down) {
			fail_of(fw)->rows[rho] = m->ls.down;
			fw_stat_add(fw, FW_STAT_FAIL_ROWS, 1);
			changed = true;
		}
	}
	for (uint32_t i = 0; i < m->ls.n; i++) {
		if (fail_learn(fw, &m->ls.e[i], fw->now)) {
			changed = true;
			news = true;
		}
	}
	if (news && fail_of(fw)->sent != fw->now + 1)
		fail_broadcast(fw, fw->now); /* news travel at once; refreshes wait for the timer */
	if (changed)
		fail_publish(fw, fw->now);
	return 0;
}

/* Every tick, before the timers: my own links, from the hardware bits; a change goes out at
 * once. */
static void fail_poll(struct fw *fw, void *state, uint64_t now)
{
	uint64_t down = atomic_load_explicit(&fw->regs->ports_down, memory_order_relaxed);
	uint16_t own = (uint16_t)((down >> fw->topo->first_global) & ((1u << fw->topo->h) - 1));

	(void)state;
	if (own != fail_of(fw)->own) {
		fail_of(fw)->own = own;
		fail_of(fw)->rows[fw->rho] = own;
		fw_stat_add(fw, FW_STAT_FAIL_CHANGES, 1);
		fail_broadcast(fw, now);
		fail_publish(fw, now);
	} else if (fail_of(fw)->dirty && fail_of(fw)->tried != now + 1) {
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
	struct fw_fail *f = fail_of(fw);
	bool changed = false;

	(void)arg;
	for (uint32_t r = 0; r < fw->topo->a; r++) {
		if (r == fw->rho || f->rows[r] == 0 || f->rx_cycle[r] + life > now)
			continue;
		f->rows[r] = 0;
		fw_stat_add(fw, FW_STAT_FAIL_AGED, 1);
		changed = true;
	}
	for (uint32_t i = 0; i < f->npairs;) {
		if (f->pairs[i].expiry > now) {
			i++;
			continue;
		}
		f->pairs[i] = f->pairs[--f->npairs];
		fw_stat_add(fw, FW_STAT_FAIL_AGED, 1);
		changed = true;
	}
	if (f->sent != now + 1 && (f->own != 0 || fail_relays(f)))
		fail_broadcast(fw, now);
	if (changed)
		fail_publish(fw, now);
}

static bool fail_wanted(const struct fw_params *par)
{
	return par->fail_enabled;
}

static bool fail_params_ok(const struct dfly_topo *topo, const struct fw_params *par)
{
	(void)topo;
	return par->fail_period >= 1 && par->fail_age >= 1;
}

static void *fail_init(struct fw *fw)
{
	struct fw_fail *f = calloc(1, sizeof(*f));

	if (f == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	if (fw_timer_add(fw, "fail", fw->par.fail_period, 0, fail_timer, NULL) < 0) {
		free(f);
		errno = EINVAL;
		return NULL;
	}
	return f;
}

const struct fw_mech fw_mech_failover = {
    .name = "failover",
    .machines = DFLY_FW_BIT(FAILOVER),
    .rx_types = FW_CTRL_BIT(LINK_STATE),
    .wanted = fail_wanted,
    .params_ok = fail_params_ok,
    .init = fail_init,
    .poll = fail_poll,
    .rx = fail_rx,
};
