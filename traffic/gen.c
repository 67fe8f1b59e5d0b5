/* SPDX-License-Identifier: BSD-3-Clause */
/* Synthetic traffic sources and patterns (gen.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "gen.h"

/* Node-level derangement: uniform permutation, redrawn until no fixed point. */
static int make_derangement(struct dfly_gen *g)
{
	uint32_t N = g->topo->nodes;
	uint32_t *perm;
	struct dfly_rng r;
	bool ok = false;

	if (N < 2)
		return -EINVAL;
	perm = malloc(N * sizeof(*perm));
	if (perm == NULL)
		return -ENOMEM;
	dfly_rng_seed(&r, g->seed, 0x200000000ull);
	while (!ok) {
		for (uint32_t i = 0; i < N; i++)
			perm[i] = i;
		for (uint32_t i = N - 1; i > 0; i--) {
			uint32_t j = dfly_rng_below(&r, i + 1), x = perm[i];

			perm[i] = perm[j];
			perm[j] = x;
		}
		ok = true;
		for (uint32_t i = 0; i < N && ok; i++)
			ok = perm[i] != i;
	}
	for (uint32_t i = 0; i < N; i++)
		g->node[i].perm_dst = perm[i];
	free(perm);
	return 0;
}

int dfly_gen_set_pattern(struct dfly_gen *g, enum dfly_pattern pattern, int adv_offset)
{
	int64_t ng = g->topo->g;

	if (pattern >= DFLY_PAT_COUNT ||
	    (pattern == DFLY_PAT_ADV && (((int64_t)adv_offset % ng) + ng) % ng == 0))
		return -EINVAL;
	g->pattern = pattern;
	g->adv_offset = adv_offset;
	return pattern == DFLY_PAT_PERM ? make_derangement(g) : 0;
}

void dfly_gen_set_load(struct dfly_gen *g, double load, uint32_t pkt_phits)
{
	double p = load / pkt_phits;

	g->on = load > 0;
	g->p_gen = p >= 1.0 ? UINT64_MAX : (uint64_t)ldexp(p, 64);
}

int dfly_gen_init(struct dfly_gen *g, const struct dfly_topo *topo, enum dfly_pattern pattern,
		  int adv_offset, double load, uint32_t pkt_phits, uint64_t seed)
{
	int rc;

	g->topo = topo;
	g->seed = seed;
	g->node = calloc(topo->nodes, sizeof(*g->node));
	if (g->node == NULL)
		return -ENOMEM;
	for (uint32_t n = 0; n < topo->nodes; n++)
		dfly_rng_seed(&g->node[n].rng, seed, n);
	rc = dfly_gen_set_pattern(g, pattern, adv_offset);
	if (rc < 0) {
		dfly_gen_fini(g);
		return rc;
	}
	dfly_gen_set_load(g, load, pkt_phits);
	return 0;
}

void dfly_gen_fini(struct dfly_gen *g)
{
	free(g->node);
	g->node = NULL;
}

/*
 * C1 (spec §7.2, LIA §6.4, PROPOSAL): four areas of consecutive groups, area A = ⌊4G/g⌋ (g/4
 * groups each, rounded: 9, 8, 8, 8 for g = 33), running UN, ADV+1, ADV+h and ADVc; nodes talk
 * only inside their area, ADV offsets are taken modulo the area's group count.
 */
static uint32_t pick_c1(struct dfly_gen *g, uint32_t n)
{
	const struct dfly_topo *t = g->topo;
	struct dfly_gen_node *s = &g->node[n];
	uint32_t gsz = t->a * t->p, G = n / gsz, A = G * 4 / t->g;
	uint32_t first = (A * t->g + 3) / 4, last = ((A + 1) * t->g + 3) / 4; /* [first, last) */
	uint32_t na = last - first, d, k;

	switch (A) {
	case 0: /* UN over the other nodes of the area */
		d = dfly_rng_below(&s->rng, na * gsz - 1);
		d += first * gsz;
		return d >= n ? d + 1 : d;
	case 1:
		return (first + (G - first + 1) % na) * gsz + dfly_rng_below(&s->rng, gsz);
	case 2:
		return (first + (G - first + t->h) % na) * gsz + dfly_rng_below(&s->rng, gsz);
	default: /* ADVc: the h groups following G, inside the area */
		k = dfly_rng_below(&s->rng, t->h * gsz);
		return (first + (G - first + 1 + k / gsz) % na) * gsz + k % gsz;
	}
}

uint32_t dfly_gen_pick_dst(struct dfly_gen *g, uint32_t n)
{
	const struct dfly_topo *t = g->topo;
	struct dfly_gen_node *s = &g->node[n];
	uint32_t gsz = t->a * t->p, G = n / gsz, d;

	switch (g->pattern) {
	case DFLY_PAT_UN:
		d = dfly_rng_below(&s->rng, t->nodes - 1);
		return d >= n ? d + 1 : d;
	case DFLY_PAT_ADV: {
		int64_t off = g->adv_offset % (int64_t)t->g;
		uint32_t Gd = (uint32_t)((G + off + t->g) % t->g);

		return Gd * gsz + dfly_rng_below(&s->rng, gsz);
	}
	case DFLY_PAT_ADVC: {
		/* the h groups following the source group: the groups of R_out for σ = −1 */
		uint32_t k = dfly_rng_below(&s->rng, t->h * gsz);
		uint32_t Gd = (G + 1 + k / gsz) % t->g;

		return Gd * gsz + k % gsz;
	}
	case DFLY_PAT_PERM:
		return s->perm_dst;
	case DFLY_PAT_C1:
		return pick_c1(g, n);
	case DFLY_PAT_C2: {
		/* odd nodes ADV+1, even nodes ADV+h, each to a node of its own parity (parity of
		 * the index in the group: the node id's when a·p is even, as in balanced networks)
		 */
		uint32_t par = n % gsz % 2, off = par ? 1 : t->h, Gd = (G + off) % t->g;
		uint32_t k = dfly_rng_below(&s->rng, (gsz + 1 - par) / 2);

		return Gd * gsz + 2 * k + par;
	}
	default:
		return n;
	}
}
