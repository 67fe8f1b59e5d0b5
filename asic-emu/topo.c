/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Canonical Dragonfly topology tables (include/dfly/topo.h): builds the global-link peer table
 * and its inverse for the palmtree and consecutive arrangements once, so that every per-packet
 * lookup in the ASIC route stage is an array read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dfly/topo.h"

static uint32_t mod(int64_t x, uint32_t m)
{
	int64_t r = x % (int64_t)m;

	return (uint32_t)(r < 0 ? r + m : r);
}

/* Far end of (group G, router ρ, port q) under the configured arrangement. */
static void arrangement_peer(const struct dfly_topo *topo, uint32_t G, uint32_t rho, uint32_t q,
			     uint32_t *G2, uint32_t *rho2, uint32_t *q2)
{
	uint32_t h = topo->h, a = topo->a;

	if (topo->arr == DFLY_ARR_PALMTREE) {
		uint32_t apt = a / topo->t;
		uint32_t j = rho % apt; /* router S_{j + k·a/t}, spec §1.4 trunking */

		*G2 = mod((int64_t)G + (int64_t)topo->sigma * (int64_t)(h * j + q + 1), topo->g);
		*rho2 = a - 1 - rho;
		*q2 = h - 1 - q;
	} else {
		uint32_t k = rho * h + q;
		uint32_t k2;

		*G2 = k < G ? k : k + 1;
		k2 = G < *G2 ? G : G - 1;
		*rho2 = k2 / h;
		*q2 = k2 % h;
	}
}

struct dfly_topo *dfly_topo_create(uint32_t p, uint32_t a, uint32_t h, uint32_t t,
				   enum dfly_arrangement arr, int sigma)
{
	struct dfly_topo *topo;
	size_t links;

	/* radix summed in 64 bits: in 32 bits a huge p, a or h wraps it below the limit */
	if (p == 0 || a == 0 || h == 0 || t == 0 || a % t != 0 || (sigma != 1 && sigma != -1) ||
	    (arr != DFLY_ARR_PALMTREE && arr != DFLY_ARR_CONSECUTIVE) ||
	    (arr == DFLY_ARR_CONSECUTIVE && t != 1) || (uint64_t)p + a - 1 + h > DFLY_MAX_PORTS ||
	    a * h / t + 1 > DFLY_MAX_GROUPS) {
		errno = EINVAL;
		return NULL;
	}
	topo = calloc(1, sizeof(*topo));
	if (topo == NULL)
		return NULL;
	topo->p = p;
	topo->a = a;
	topo->h = h;
	topo->t = t;
	topo->g = a * h / t + 1;
	topo->routers = topo->g * a;
	topo->nodes = topo->routers * p;
	topo->radix = p + a - 1 + h;
	topo->first_local = p;
	topo->first_global = p + a - 1;
	topo->sigma = sigma;
	topo->arr = arr;

	links = (size_t)topo->routers * h;
	topo->peer = calloc(links, sizeof(*topo->peer));
	topo->group_link = malloc((size_t)topo->g * topo->g * t * sizeof(*topo->group_link));
	if (topo->peer == NULL || topo->group_link == NULL)
		goto out_free;
	memset(topo->group_link, 0xff, (size_t)topo->g * topo->g * t * sizeof(*topo->group_link));

	for (uint32_t G = 0; G < topo->g; G++) {
		for (uint32_t rho = 0; rho < a; rho++) {
			for (uint32_t q = 0; q < h; q++) {
				uint32_t G2, rho2, q2, *slot;
				uint32_t R = G * a + rho;

				arrangement_peer(topo, G, rho, q, &G2, &rho2, &q2);
				topo->peer[R * h + q].router = G2 * a + rho2;
				topo->peer[R * h + q].q = (uint16_t)q2;
				/* inverse: the k-th link of G towards G2; k counts routers in order
				 */
				slot = &topo->group_link[((size_t)G * topo->g + G2) * t];
				for (uint32_t k = 0; k < t; k++) {
					if (slot[k] == UINT32_MAX) {
						slot[k] = rho * h + q;
						break;
					}
				}
			}
		}
	}
	return topo;

out_free:
	dfly_topo_destroy(topo);
	errno = ENOMEM;
	return NULL;
}

void dfly_topo_destroy(struct dfly_topo *topo)
{
	if (topo == NULL)
		return;
	free(topo->peer);
	free(topo->group_link);
	free(topo);
}

void dfly_topo_dump(const struct dfly_topo *topo, FILE *f)
{
	fprintf(f,
		"dragonfly p=%u a=%u h=%u t=%u: g=%u groups, %u routers, %u nodes, radix %u, "
		"%s%s\n",
		topo->p, topo->a, topo->h, topo->t, topo->g, topo->routers, topo->nodes,
		topo->radix, topo->arr == DFLY_ARR_PALMTREE ? "palmtree" : "consecutive",
		topo->arr == DFLY_ARR_PALMTREE ? (topo->sigma < 0 ? " sigma=-1" : " sigma=+1")
					       : "");
}

int dfly_topo_port_peer(const struct dfly_topo *topo, uint32_t router, uint32_t port,
			uint32_t *peer_router, uint32_t *peer_port)
{
	uint32_t rho = router % topo->a, G = router / topo->a;

	if (router >= topo->routers || port >= topo->radix || port < topo->first_local)
		return -EINVAL;
	if (port < topo->first_global) {
		uint32_t l = port - topo->first_local;

		*peer_router = G * topo->a + dfly_topo_local_peer(topo, rho, port);
		*peer_port = topo->first_local + (topo->a - 2 - l);
	} else {
		struct dfly_gport gp =
		    dfly_topo_global_peer(topo, router, port - topo->first_global);

		*peer_router = gp.router;
		*peer_port = topo->first_global + gp.q;
	}
	return 0;
}

uint32_t dfly_topo_trunk_select(const struct dfly_topo *topo, uint32_t router, uint32_t D,
				uint32_t dst_node)
{
	uint32_t G = router / topo->a, rho = router % topo->a;

	if (topo->t == 1)
		return 0;
	for (uint32_t k = 0; k < topo->t; k++) {
		uint32_t r, q;

		dfly_topo_link_to_group(topo, G, D, k, &r, &q);
		if (r == rho)
			return k;
	}
	return dst_node % topo->t;
}

uint32_t dfly_topo_min_port(const struct dfly_topo *topo, uint32_t router, uint32_t dst_router,
			    uint32_t dst_node)
{
	uint32_t G = router / topo->a, rho = router % topo->a;
	uint32_t Gd = dst_router / topo->a, rhod = dst_router % topo->a;
	uint32_t rg, q;

	if (router == dst_router)
		return dst_node % topo->p;
	if (G == Gd)
		return dfly_topo_local_port(topo, rho, rhod);
	dfly_topo_link_to_group(topo, G, Gd, dfly_topo_trunk_select(topo, router, Gd, dst_node),
				&rg, &q);
	if (rg == rho)
		return topo->first_global + q;
	return dfly_topo_local_port(topo, rho, rg);
}

unsigned dfly_topo_min_path(const struct dfly_topo *topo, uint32_t src_router, uint32_t dst_router,
			    uint32_t dst_node, struct dfly_hop hops[3])
{
	uint32_t cur = src_router;
	unsigned n = 0;

	while (cur != dst_router && n < 3) {
		uint32_t port = dfly_topo_min_port(topo, cur, dst_router, dst_node);
		uint32_t next, pp;

		hops[n].router = cur;
		hops[n].port = (uint16_t)port;
		hops[n].kind = dfly_topo_port_kind(topo, port);
		n++;
		dfly_topo_port_peer(topo, cur, port, &next, &pp);
		cur = next;
	}
	return n;
}

/* Uniform group in [0, g) \ {a, b} (a may equal b). */
static uint32_t pick_group_excluding(const struct dfly_topo *topo, uint32_t x, uint32_t y,
				     uint32_t r)
{
	uint32_t lo = x < y ? x : y, hi = x < y ? y : x;
	uint32_t n = topo->g - (x == y ? 1 : 2);
	uint32_t k = dfly_uniform(r, n);

	if (k >= lo)
		k++;
	if (x != y && k >= hi)
		k++;
	return k;
}

uint32_t dfly_topo_val_root(const struct dfly_topo *topo, enum dfly_val_variant v, uint32_t router,
			    uint32_t dst_group, uint32_t r1, uint32_t r2)
{
	return dfly_topo_val_root_ex(topo, v, DFLY_VAL_EXCL_SRC_DST, router, dst_group, r1, r2);
}

uint32_t dfly_topo_val_root_ex(const struct dfly_topo *topo, enum dfly_val_variant v,
			       enum dfly_val_exclude excl, uint32_t router, uint32_t dst_group,
			       uint32_t r1, uint32_t r2)
{
	uint32_t G = router / topo->a, h = topo->h;
	uint32_t cand[DFLY_MAX_PORTS];
	uint32_t n = 0, Gi;
	/* the second excluded group: dst_group, or G again when only the source is excluded */
	uint32_t X = excl == DFLY_VAL_EXCL_SRC ? G : dst_group;

	if (topo->g <= (G == X ? 1u : 2u))
		return UINT32_MAX;

	if (v == DFLY_VAL__GL || v == DFLY_VAL__G_) {
		for (uint32_t q = 0; q < h; q++) {
			uint32_t pg = topo->peer[router * h + q].router / topo->a;

			if (pg != X)
				cand[n++] = q;
		}
		if (n == 0)
			v = v == DFLY_VAL__GL ? DFLY_VAL_LGL : DFLY_VAL_LG_;
	}
	switch (v) {
	case DFLY_VAL_LGL:
		Gi = pick_group_excluding(topo, G, X, r1);
		return Gi * topo->a + dfly_uniform(r2, topo->a);
	case DFLY_VAL_LG_: {
		uint32_t rho, q;

		Gi = pick_group_excluding(topo, G, X, r1);
		dfly_topo_link_to_group(topo, G, Gi, dfly_uniform(r2, topo->t), &rho, &q);
		return topo->peer[(G * topo->a + rho) * h + q].router;
	}
	case DFLY_VAL__GL: {
		struct dfly_gport gp = topo->peer[router * h + cand[dfly_uniform(r1, n)]];

		return (gp.router / topo->a) * topo->a + dfly_uniform(r2, topo->a);
	}
	case DFLY_VAL__G_:
		return topo->peer[router * h + cand[dfly_uniform(r1, n)]].router;
	default:
		return UINT32_MAX;
	}
}

int dfly_topo_local_type(const struct dfly_topo *topo, uint32_t local_index)
{
	int d = (int)local_index + 1;

	return d <= (int)topo->a / 2 ? d : d - (int)topo->a;
}

int dfly_topo_group_offset(const struct dfly_topo *topo, uint32_t S, uint32_t D)
{
	int d = (int)mod((int64_t)D - (int64_t)S, topo->g);

	return d <= (int)(topo->g - 1) / 2 ? d : d - (int)topo->g;
}

static const char *const val_names[DFLY_VAL_VARIANT_COUNT] = {"lgl", "lg-", "-gl", "-g-"};

const char *dfly_val_variant_name(enum dfly_val_variant v)
{
	return (unsigned)v < DFLY_VAL_VARIANT_COUNT ? val_names[v] : "?";
}

int dfly_val_variant_parse(const char *name)
{
	for (int i = 0; name != NULL && i < DFLY_VAL_VARIANT_COUNT; i++)
		if (strcmp(name, val_names[i]) == 0)
			return i;
	return -1;
}
