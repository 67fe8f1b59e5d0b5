/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CRT, Credit Round Trip (spec §4.8; IAR §3.1, §6.6; Kim et al.): backpressure made stiffer by
 * delaying credits. Per global channel GC and downstream VC, a timestamp FIFO: a packet sent on
 * GC pushes (cycle, phits), its credit coming back pops it, and the round trip is t_crt = now −
 * that cycle; t_crt0 is the zero-load round trip, taken as the smallest sample seen (spec:
 * "measured at zero load"); t_d(GC) = t_crt − t_crt0, the latest sample. When a packet leaves a
 * *local* input buffer towards GC, the credit returned upstream is held for t_d(GC) − min over the
 * router's global channels of t_d, so the upstream router's UGAL-L (route_src.c, ROUTE_SRC(CRT))
 * sees the remote global channel's congestion in its local queue. Credits of global and injection
 * inputs are never held (spec §4.8 PROPOSAL: no upstream router for injection).
 *
 * State allocated when the router first steps in CRT mode (asic_crt_enable()): the rings of its
 * global outputs, sized by the downstream VC's buffer (a packet is at least a phit), and a list
 * of held credits (their number is bounded by the packets the local inputs hold). Counters:
 * port_ctr crt_held and crt_held_cycles at the local input, crt_td (a gauge) at the global port.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "asic_priv.h"

struct crt_ring {
	uint64_t *ts;
	uint16_t *len; /* phits of the entry not yet credited back */
	uint32_t mask, head, tail;
};

struct crt_hold {
	uint64_t release;
	uint16_t phits;
	uint8_t in, vc, min;
};

struct asic_crt {
	struct crt_ring q[DFLY_MAX_PORTS][DFLY_MAX_VCS]; /* global outputs only */
	uint32_t t0[DFLY_MAX_PORTS];                     /* smallest round trip seen */
	uint32_t td[DFLY_MAX_PORTS];                     /* t_d, the latest sample */
	struct crt_hold *held;
	uint32_t nheld, cap;
};

int asic_crt_enable(struct asic *as)
{
	const struct dfly_topo *t = as->topo;
	struct asic_crt *c;

	if (as->crt != NULL)
		return 0;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	for (uint32_t o = t->first_global; o < t->radix; o++) {
		struct asic_out *out = &as->out[o];

		c->t0[o] = UINT32_MAX;
		for (uint32_t v = 0; v < out->ncvc && out->link != NULL; v++) {
			struct crt_ring *r = &c->q[o][v];
			uint32_t n = pow2_at_least(out->credit_cap[v] + 1);

			r->ts = malloc(n * sizeof(*r->ts));
			r->len = malloc(n * sizeof(*r->len));
			if (r->ts == NULL || r->len == NULL) {
				as->crt = c;
				asic_crt_free(as);
				return -ENOMEM;
			}
			r->mask = n - 1;
		}
	}
	as->crt = c;
	return 0;
}

void asic_crt_free(struct asic *as)
{
	struct asic_crt *c = as->crt;

	if (c == NULL)
		return;
	for (uint32_t o = 0; o < DFLY_MAX_PORTS; o++)
		for (uint32_t v = 0; v < DFLY_MAX_VCS; v++) {
			free(c->q[o][v].ts);
			free(c->q[o][v].len);
		}
	free(c->held);
	free(c);
	as->crt = NULL;
}

void asic_crt_sent(struct asic *as, uint32_t o, uint32_t vc, uint16_t phits, uint64_t now)
{
	struct crt_ring *r = &as->crt->q[o][vc];

	if (r->ts == NULL || r->tail - r->head > r->mask)
		return; /* cannot happen: the credits bound what is outstanding */
	r->ts[r->tail & r->mask] = now;
	r->len[r->tail & r->mask] = phits;
	r->tail++;
}

void asic_crt_credit(struct asic *as, uint32_t o, uint32_t vc, uint32_t phits, uint64_t now)
{
	struct asic_crt *c = as->crt;
	struct crt_ring *r = &c->q[o][vc];

	while (phits > 0 && r->head != r->tail) {
		uint16_t *left = &r->len[r->head & r->mask];
		uint32_t take = *left < phits ? *left : phits;

		*left = (uint16_t)(*left - take);
		phits -= take;
		if (*left == 0) {
			uint64_t ts = r->ts[r->head++ & r->mask];
			uint32_t rt = now > ts ? (uint32_t)(now - ts) : 0;

			if (rt < c->t0[o])
				c->t0[o] = rt;
			c->td[o] = rt - c->t0[o];
			as->regs->port_ctr[o][DFLY_CRT_TD] = c->td[o];
		}
	}
}

uint32_t asic_crt_delay(const struct asic *as, uint32_t o)
{
	const struct dfly_topo *t = as->topo;
	const struct asic_crt *c = as->crt;
	uint32_t mn = UINT32_MAX;

	for (uint32_t g = t->first_global; g < t->radix; g++)
		if (as->out[g].link != NULL && c->td[g] < mn)
			mn = c->td[g];
	return mn == UINT32_MAX ? 0 : c->td[o] - mn;
}

bool asic_crt_hold(struct asic *as, uint32_t in, uint32_t vc, uint16_t phits, bool min,
		   uint32_t delay, uint64_t now)
{
	struct asic_crt *c = as->crt;

	if (c->nheld == c->cap) {
		uint32_t cap = c->cap ? 2 * c->cap : 64;
		struct crt_hold *h = realloc(c->held, cap * sizeof(*h));

		if (h == NULL)
			return false; /* the caller returns the credit now */
		c->held = h;
		c->cap = cap;
	}
	c->held[c->nheld++] = (struct crt_hold){now + delay, phits, (uint8_t)in, (uint8_t)vc, min};
	as->regs->port_ctr[in][DFLY_CRT_HELD]++;
	as->regs->port_ctr[in][DFLY_CRT_HELD_CYCLES] += delay;
	return true;
}

void asic_crt_release(struct asic *as, uint64_t now)
{
	struct asic_crt *c = as->crt;

	for (uint32_t k = 0; k < c->nheld;) {
		struct crt_hold *h = &c->held[k];
		struct asic_in *in = &as->in[h->in];

		if (h->release > now) {
			k++;
			continue;
		}
		link_put_credit(in->link, h->vc, h->phits, now + in->link->latency, h->min);
		as->regs->port_ctr[h->in][DFLY_CREDITS_TX] += h->phits;
		c->held[k] = c->held[--c->nheld];
	}
}

uint32_t asic_crt_held(const struct asic *as)
{
	return as->crt != NULL ? as->crt->nheld : 0;
}
