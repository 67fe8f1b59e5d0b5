/* SPDX-License-Identifier: BSD-3-Clause */
/* Synthetic traffic sources and patterns (gen.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

	if (pattern >= DFLY_PAT_COUNT || ((pattern == DFLY_PAT_ADV || pattern == DFLY_PAT_MIX) &&
					  (((int64_t)adv_offset % ng) + ng) % ng == 0))
		return -EINVAL;
	g->pattern = pattern;
	g->adv_offset = adv_offset;
	if (pattern == DFLY_PAT_BURSTY)
		for (uint32_t n = 0; n < g->topo->nodes; n++)
			g->node[n].burst_on = false;
	if (pattern == DFLY_PAT_A2A)
		return dfly_gen_set_placement(g, false);
	if (pattern == DFLY_PAT_HALO) {
		static const uint32_t autogrid[3] = {0, 0, 0};

		return dfly_gen_set_halo(g, autogrid, 32, 80, 1, false);
	}
	return pattern == DFLY_PAT_PERM ? make_derangement(g) : 0;
}

int dfly_gen_set_mix_offsets(struct dfly_gen *g, const int *offs, uint32_t n)
{
	int64_t ng = g->topo->g;
	int red[DFLY_MIX_MAX_OFFSETS];

	if (n == 0 || n > DFLY_MIX_MAX_OFFSETS || offs == NULL)
		return -EINVAL;
	for (uint32_t i = 0; i < n; i++) {
		red[i] = (int)(((int64_t)offs[i] % ng + ng) % ng);
		if (red[i] == 0)
			return -EINVAL;
		for (uint32_t j = 0; j < i; j++)
			if (red[j] == red[i])
				return -EINVAL;
	}
	memcpy(g->mix_offs, red, n * sizeof(*red));
	g->mix_noffs = n;
	return 0;
}

int dfly_gen_set_placement(struct dfly_gen *g, bool random)
{
	uint32_t N = g->topo->nodes;
	struct dfly_rng r;

	if (g->pattern != DFLY_PAT_A2A && g->pattern != DFLY_PAT_HALO &&
	    g->pattern != DFLY_PAT_G500)
		return -EINVAL;
	if (g->a2a_node == NULL && (g->a2a_node = malloc(N * sizeof(*g->a2a_node))) == NULL)
		return -ENOMEM;
	for (uint32_t i = 0; i < N; i++)
		g->a2a_node[i] = i;
	if (random) {
		dfly_rng_seed(&r, g->seed, 0x300000000ull);
		for (uint32_t i = N - 1; i > 0; i--) {
			uint32_t j = dfly_rng_below(&r, i + 1), x = g->a2a_node[i];

			g->a2a_node[i] = g->a2a_node[j];
			g->a2a_node[j] = x;
		}
	}
	for (uint32_t t = 0; t < N; t++) {
		g->node[g->a2a_node[t]].a2a_task = t;
		g->node[g->a2a_node[t]].a2a_round = 1;
	}
	return 0;
}

void dfly_gen_halo_grid(uint32_t nodes, uint32_t dims[3])
{
	uint32_t best[3] = {nodes, 1, 1};

	for (uint32_t a = 1; a <= nodes; a++) {
		if (nodes % a)
			continue;
		for (uint32_t b = a; (uint64_t)b * b <= nodes / a; b++) {
			uint32_t c;

			if ((nodes / a) % b)
				continue;
			c = nodes / a / b; /* a <= b <= c */
			if (c < best[0] || (c == best[0] && a > best[2])) {
				best[0] = c;
				best[1] = b;
				best[2] = a;
			}
		}
	}
	memcpy(dims, best, sizeof(best));
}

int dfly_gen_set_halo(struct dfly_gen *g, const uint32_t dims[3], uint32_t cube, uint32_t pkt_bytes,
		      uint32_t iters, bool random)
{
	const uint64_t bytes[4] = {0, (uint64_t)cube * cube * 8, (uint64_t)cube * 8, 8};
	uint32_t N = g->topo->nodes;
	int rc;

	if (g->pattern != DFLY_PAT_HALO || cube == 0 || pkt_bytes == 0 || iters == 0)
		return -EINVAL;
	if (dims[0] == 0 && dims[1] == 0 && dims[2] == 0)
		dfly_gen_halo_grid(N, g->halo_dims);
	else if ((uint64_t)dims[0] * dims[1] * dims[2] != N)
		return -EINVAL;
	else
		memcpy(g->halo_dims, dims, sizeof(g->halo_dims));
	rc = dfly_gen_set_placement(g, random);
	if (rc < 0)
		return rc;
	/* the 26 neighbours, (dx, dy, dz) in lexicographic order; those a grid of 1 along an
	 * axis folds onto the process itself send nothing (a grid of 2 gives two messages to
	 * the same neighbour, as periodic boundaries do) */
	g->halo_nmsg = g->halo_ppi = 0;
	for (int dx = -1; dx <= 1; dx++)
		for (int dy = -1; dy <= 1; dy++)
			for (int dz = -1; dz <= 1; dz++) {
				const int d[3] = {dx, dy, dz};
				unsigned nz = (dx != 0) + (dy != 0) + (dz != 0);
				bool self = true;
				struct dfly_gen_halo_msg *m;

				for (int k = 0; k < 3; k++)
					if (d[k] != 0 && g->halo_dims[k] > 1)
						self = false;
				if (nz == 0 || self)
					continue;
				m = &g->halo_msg[g->halo_nmsg++];
				m->d[0] = (int8_t)dx;
				m->d[1] = (int8_t)dy;
				m->d[2] = (int8_t)dz;
				m->pkts = (uint32_t)((bytes[nz] + pkt_bytes - 1) / pkt_bytes);
				g->halo_ppi += m->pkts;
			}
	if (g->halo_ppi == 0)
		return -EINVAL; /* one process: no neighbour */
	g->halo_iters = iters;
	g->halo_open = 1;
	for (uint32_t n = 0; n < N; n++)
		g->node[n].halo_iter = g->node[n].halo_k = 0;
	return 0;
}

uint32_t dfly_gen_halo_release(struct dfly_gen *g)
{
	if (g->halo_open < g->halo_iters)
		g->halo_open++;
	return g->halo_open;
}

/* Halo3D: the node of the process at offset @p d of task @p t's, periodic. */
static uint32_t halo_neighbour(const struct dfly_gen *g, uint32_t t, const int8_t d[3])
{
	const uint32_t *P = g->halo_dims;
	uint32_t c[3] = {t % P[0], t / P[0] % P[1], t / P[0] / P[1]};

	for (int k = 0; k < 3; k++)
		c[k] = (uint32_t)(((int64_t)c[k] + d[k] + P[k]) % P[k]);
	return g->a2a_node[c[0] + P[0] * (c[1] + P[1] * c[2])];
}

int dfly_gen_set_graph500(struct dfly_gen *g, const struct dfly_g5_params *p, uint32_t processes,
			  bool random)
{
	uint32_t N = g->topo->nodes;
	int rc;

	if (g->pattern != DFLY_PAT_G500)
		return -EINVAL;
	if ((rc = dfly_gen_set_placement(g, random)) < 0)
		return rc;
	if (g->g5 == NULL && (g->g5 = calloc(1, sizeof(*g->g5))) == NULL)
		return -ENOMEM;
	dfly_g5_fini(g->g5);
	return dfly_g5_init(g->g5, p, g->a2a_node, processes ? processes : N, N, g->seed);
}

bool dfly_gen_done(const struct dfly_gen *g)
{
	if (g->pattern == DFLY_PAT_G500)
		return g->g5 == NULL || g->g5->done;
	for (uint32_t n = 0; n < g->topo->nodes; n++)
		if (g->pattern == DFLY_PAT_HALO ? g->node[n].halo_iter < g->halo_iters
						: g->node[n].a2a_round < g->topo->nodes)
			return false;
	return true;
}

/* A probability as a 2^-64 fraction for dfly_rng_chance(). */
static uint64_t prob64(double p)
{
	if (p <= 0)
		return 0;
	return p >= 1.0 ? UINT64_MAX : (uint64_t)ldexp(p, 64);
}

/* Bursty-UN's transition probabilities from P_ON and B (spec §7.3, eqs. 1.4–1.7). */
static void bursty_probs(struct dfly_gen *g)
{
	double P = g->p_on < 1.0 ? g->p_on : 1.0, B = g->burst_len;

	g->p_leave = prob64(1.0 / B);
	g->p_enter = prob64(P / (B + P * (1.0 - B)));
}

void dfly_gen_set_load(struct dfly_gen *g, double load, uint32_t pkt_phits)
{
	double p = load / pkt_phits;

	g->on = load > 0;
	g->p_gen = p >= 1.0 ? UINT64_MAX : (uint64_t)ldexp(p, 64);
	g->p_on = p;
	bursty_probs(g);
}

int dfly_gen_set_shape(struct dfly_gen *g, double burst_len, double mix_un)
{
	if (!(burst_len >= 1.0) || !(mix_un >= 0.0 && mix_un <= 1.0))
		return -EINVAL;
	g->burst_len = burst_len;
	g->p_mix_un = prob64(mix_un);
	bursty_probs(g);
	return 0;
}

int dfly_gen_set_advc_groups(struct dfly_gen *g, uint32_t n)
{
	if (n > g->topo->h)
		return -EINVAL;
	g->advc_groups = n;
	return 0;
}

int dfly_gen_init(struct dfly_gen *g, const struct dfly_topo *topo, enum dfly_pattern pattern,
		  int adv_offset, double load, uint32_t pkt_phits, uint64_t seed)
{
	int rc;

	g->topo = topo;
	g->seed = seed;
	g->a2a_node = NULL;
	g->g5 = NULL;
	g->node = calloc(topo->nodes, sizeof(*g->node));
	if (g->node == NULL)
		return -ENOMEM;
	for (uint32_t n = 0; n < topo->nodes; n++)
		dfly_rng_seed(&g->node[n].rng, seed, n);
	g->burst_len = DFLY_GEN_BURST_LEN;
	g->p_mix_un = prob64(DFLY_GEN_MIX_UN);
	g->advc_groups = 0;
	g->mix_offs[0] = 1 % (int)topo->g;
	g->mix_noffs = 1;
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
	free(g->a2a_node);
	if (g->g5 != NULL)
		dfly_g5_fini(g->g5);
	free(g->g5);
	g->node = NULL;
	g->a2a_node = NULL;
	g->g5 = NULL;
}

/* UN: uniform over the other nodes. */
static inline uint32_t pick_un(const struct dfly_topo *t, struct dfly_rng *r, uint32_t n)
{
	uint32_t d = dfly_rng_below(r, t->nodes - 1);

	return d >= n ? d + 1 : d;
}

/*
 * Bursty-UN (spec §7.3), in the PROPOSAL's order: an ON source generates one packet to its
 * burst's destination, then leaves ON with p_on→off and, having left, re-enters at once with
 * p_off→on and a new uniform destination; an OFF source enters ON with p_off→on and generates
 * from the next cycle. The stationary ON fraction is P_ON, so the load is λ, and a burst (one
 * destination) lasts B packets on average.
 */
bool dfly_gen_fire_bursty(struct dfly_gen *g, uint32_t n)
{
	struct dfly_gen_node *s = &g->node[n];

	if (!s->burst_on) {
		if (dfly_rng_chance(&s->rng, g->p_enter)) {
			s->burst_on = true;
			s->burst_dst = pick_un(g->topo, &s->rng, n);
		}
		return false;
	}
	s->pkt_dst = s->burst_dst;
	if (dfly_rng_chance(&s->rng, g->p_leave)) {
		if (dfly_rng_chance(&s->rng, g->p_enter))
			s->burst_dst = pick_un(g->topo, &s->rng, n);
		else
			s->burst_on = false;
	}
	return true;
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
	uint32_t gsz = t->a * t->p, G = n / gsz;

	switch (g->pattern) {
	case DFLY_PAT_UN:
		return pick_un(t, &s->rng, n);
	case DFLY_PAT_MIX:
		/* A-7.2 (PROPOSAL): UN or ADV+1 drawn per packet */
		if (dfly_rng_chance(&s->rng, g->p_mix_un))
			return pick_un(t, &s->rng, n);
		/* fall through */
	case DFLY_PAT_ADV: {
		int64_t off = g->adv_offset % (int64_t)t->g;
		uint32_t Gd = (uint32_t)((G + off + t->g) % t->g);

		return Gd * gsz + dfly_rng_below(&s->rng, gsz);
	}
	case DFLY_PAT_ADVMIX: {
		/* one draw over (offset, node of the group): A-7.2's per-packet choice */
		uint32_t k = dfly_rng_below(&s->rng, g->mix_noffs * gsz);
		uint32_t Gd = (G + (uint32_t)g->mix_offs[k / gsz]) % t->g;

		return Gd * gsz + k % gsz;
	}
	case DFLY_PAT_ADVC: {
		/* the h groups following the source group: the groups of R_out for σ = −1 (or
		 * the first advc_groups of them) */
		uint32_t span = g->advc_groups ? g->advc_groups : t->h;
		uint32_t k = dfly_rng_below(&s->rng, span * gsz);
		uint32_t Gd = (G + 1 + k / gsz) % t->g;

		return Gd * gsz + k % gsz;
	}
	case DFLY_PAT_PERM:
		return s->perm_dst;
	case DFLY_PAT_BURSTY:
		return s->pkt_dst;
	case DFLY_PAT_C1:
		return pick_c1(g, n);
	case DFLY_PAT_A2A: {
		/* round j: task i sends to task (i + j) mod N (spec 7.6) */
		uint32_t N = t->nodes, j = s->a2a_round++;

		return g->a2a_node[(s->a2a_task + j) % N];
	}
	case DFLY_PAT_HALO: {
		/* packet k of the iteration: its message, in the order of halo_msg */
		uint32_t k = s->halo_k, m = 0;

		while (k >= g->halo_msg[m].pkts)
			k -= g->halo_msg[m++].pkts;
		if (++s->halo_k == g->halo_ppi) {
			s->halo_k = 0;
			s->halo_iter++;
		}
		return halo_neighbour(g, s->a2a_task, g->halo_msg[m].d);
	}
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
