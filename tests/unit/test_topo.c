/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the topology module (include/dfly/topo.h, asic-emu/topo.c): parameter checks,
 * derived sizes (spec §1.1), the palmtree and consecutive arrangements (§1.4) checked against
 * the spec's worked example and exhaustively for symmetry, trunking, the inverse lookup, minimal
 * paths (§1.5), the Valiant Path-A choices (§4.3) and the small helpers. Random samples come from
 * a deterministic PRNG whose seed is printed (override with DFLY_TEST_SEED).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfly/topo.h"

/* Assert with a formatted message; used inside the exhaustive loops to name the failing case. */
#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond))                                                                       \
			fail_msg(__VA_ARGS__);                                                     \
	} while (0)

/* ---- deterministic PRNG (splitmix64) ---------------------------------------------------- */

static uint64_t prng_seed = 0x7d0fa11e5eedULL;
static uint64_t prng_state;

static void prng_reset(void)
{
	prng_state = prng_seed;
}

static uint32_t prng_next(void)
{
	uint64_t z = (prng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* ---- helpers ----------------------------------------------------------------------------- */

struct shape {
	uint32_t p, a, h, t;
	enum dfly_arrangement arr;
	int sigma;
};

static struct dfly_topo *make(const struct shape *s, char *ctx, size_t ctx_len)
{
	struct dfly_topo *topo = dfly_topo_create(s->p, s->a, s->h, s->t, s->arr, s->sigma);

	snprintf(ctx, ctx_len, "p=%u a=%u h=%u t=%u %s sigma=%+d", s->p, s->a, s->h, s->t,
		 s->arr == DFLY_ARR_PALMTREE ? "palmtree" : "consecutive", s->sigma);
	CHECK(topo != NULL, "%s: dfly_topo_create failed (errno %d)", ctx, errno);
	return topo;
}

static struct shape balanced(uint32_t h, enum dfly_arrangement arr, int sigma)
{
	return (struct shape){.p = h, .a = 2 * h, .h = h, .t = 1, .arr = arr, .sigma = sigma};
}

/* x mod m in [0, m). */
static uint32_t umod(int64_t x, uint32_t m)
{
	int64_t r = x % (int64_t)m;

	return (uint32_t)(r < 0 ? r + m : r);
}

/* Group reached through global port q of router R. */
static uint32_t gport_group(const struct dfly_topo *topo, uint32_t R, uint32_t q)
{
	return dfly_topo_group_of(topo, dfly_topo_global_peer(topo, R, q).router);
}

/* Does router R have a global port leading to group G? */
static bool has_link_to(const struct dfly_topo *topo, uint32_t R, uint32_t G)
{
	for (uint32_t q = 0; q < topo->h; q++)
		if (gport_group(topo, R, q) == G)
			return true;
	return false;
}

/*
 * Global links: peer(peer(x)) == x, the peer is in another group, every ordered pair of distinct
 * groups is joined by exactly t links, and those t links leave from t different routers and land
 * on t different routers.
 */
static void check_global_links(const struct dfly_topo *topo, const char *ctx)
{
	uint32_t g = topo->g, a = topo->a, h = topo->h, t = topo->t;
	uint32_t *cnt = calloc((size_t)g * g, sizeof(*cnt));
	uint32_t *from = calloc((size_t)g * g * t, sizeof(*from));
	uint32_t *to = calloc((size_t)g * g * t, sizeof(*to));

	assert_non_null(cnt);
	assert_non_null(from);
	assert_non_null(to);
	for (uint32_t R = 0; R < topo->routers; R++) {
		for (uint32_t q = 0; q < h; q++) {
			struct dfly_gport gp = dfly_topo_global_peer(topo, R, q), back;
			uint32_t G = R / a, G2, c;

			CHECK(gp.router < topo->routers && gp.q < h, "%s: R=%u q=%u peer (%u,%u)",
			      ctx, R, q, gp.router, gp.q);
			back = dfly_topo_global_peer(topo, gp.router, gp.q);
			CHECK(back.router == R && back.q == q,
			      "%s: R=%u q=%u -> (%u,%u) -> (%u,%u): not symmetric", ctx, R, q,
			      gp.router, gp.q, back.router, back.q);
			G2 = gp.router / a;
			CHECK(G2 != G, "%s: R=%u q=%u links inside its own group %u", ctx, R, q, G);
			c = cnt[(size_t)G * g + G2]++;
			CHECK(c < t, "%s: more than t=%u links from group %u to group %u", ctx, t,
			      G, G2);
			from[((size_t)G * g + G2) * t + c] = R;
			to[((size_t)G * g + G2) * t + c] = gp.router;
		}
	}
	for (uint32_t G = 0; G < g; G++) {
		for (uint32_t D = 0; D < g; D++) {
			size_t base = ((size_t)G * g + D) * t;

			CHECK(cnt[(size_t)G * g + D] == (G == D ? 0 : t),
			      "%s: groups %u -> %u joined by %u links, want %u", ctx, G, D,
			      cnt[(size_t)G * g + D], G == D ? 0 : t);
			if (G == D)
				continue;
			for (uint32_t i = 0; i < t; i++) {
				for (uint32_t j = i + 1; j < t; j++) {
					CHECK(from[base + i] != from[base + j],
					      "%s: groups %u -> %u: two links leave router %u", ctx,
					      G, D, from[base + i]);
					CHECK(to[base + i] != to[base + j],
					      "%s: groups %u -> %u: two links land on router %u",
					      ctx, G, D, to[base + i]);
				}
			}
		}
	}
	free(cnt);
	free(from);
	free(to);
}

/* dfly_topo_port_peer on every port of every router, local and global. */
static void check_port_peers(const struct dfly_topo *topo, const char *ctx)
{
	uint32_t a = topo->a;
	uint8_t seen[DFLY_MAX_PORTS];

	for (uint32_t R = 0; R < topo->routers; R++) {
		memset(seen, 0, sizeof(seen));
		for (uint32_t port = 0; port < topo->radix; port++) {
			uint32_t pr = UINT32_MAX, pp = UINT32_MAX, br = UINT32_MAX, bp = UINT32_MAX;
			enum dfly_port_kind kind = dfly_topo_port_kind(topo, port);
			int rc = dfly_topo_port_peer(topo, R, port, &pr, &pp);

			if (port < topo->first_local) {
				CHECK(kind == DFLY_PORT_TERMINAL && rc == -EINVAL,
				      "%s: R=%u terminal port %u: kind %d rc %d", ctx, R, port,
				      kind, rc);
				continue;
			}
			CHECK(rc == 0, "%s: R=%u port %u: rc %d", ctx, R, port, rc);
			CHECK(pr < topo->routers && pp >= topo->first_local && pp < topo->radix,
			      "%s: R=%u port %u -> (%u,%u) out of range", ctx, R, port, pr, pp);
			CHECK(dfly_topo_port_kind(topo, pp) == kind,
			      "%s: R=%u port %u: peer port %u of another kind", ctx, R, port, pp);
			rc = dfly_topo_port_peer(topo, pr, pp, &br, &bp);
			CHECK(rc == 0 && br == R && bp == port,
			      "%s: R=%u port %u -> (%u,%u) -> (%u,%u): not symmetric", ctx, R, port,
			      pr, pp, br, bp);
			if (kind == DFLY_PORT_LOCAL) {
				uint32_t rho = R % a, rho2 = pr % a;

				CHECK(pr / a == R / a && pr != R,
				      "%s: R=%u local port %u leads to router %u", ctx, R, port,
				      pr);
				CHECK(!seen[rho2], "%s: R=%u has two local links to rho %u", ctx, R,
				      rho2);
				seen[rho2] = 1;
				CHECK(dfly_topo_local_peer(topo, rho, port) == rho2 &&
					  dfly_topo_local_port(topo, rho, rho2) == port,
				      "%s: R=%u local port %u: local_peer/local_port disagree", ctx,
				      R, port);
			} else {
				struct dfly_gport gp =
				    dfly_topo_global_peer(topo, R, port - topo->first_global);

				CHECK(
				    kind == DFLY_PORT_GLOBAL && gp.router == pr &&
					topo->first_global + gp.q == pp,
				    "%s: R=%u global port %u: port_peer disagrees with global_peer",
				    ctx, R, port);
			}
		}
		/* all a − 1 other routers of the group reached exactly once */
		for (uint32_t rho2 = 0; rho2 < a; rho2++)
			CHECK(seen[rho2] == (rho2 != R % a), "%s: R=%u local link to rho %u: %u",
			      ctx, R, rho2, seen[rho2]);
	}
}

/*
 * Inverse lookup: the k-th link of G towards D is a (ρ, q) of G whose peer is in D, the t links
 * are distinct, and for t = 1 the closed forms of spec §1.4 hold.
 */
static void check_inverse(const struct dfly_topo *topo, const char *ctx)
{
	uint32_t g = topo->g, a = topo->a, h = topo->h, t = topo->t;

	for (uint32_t G = 0; G < g; G++) {
		for (uint32_t D = 0; D < g; D++) {
			uint32_t got[DFLY_MAX_PORTS];

			if (D == G)
				continue;
			for (uint32_t k = 0; k < t; k++) {
				uint32_t rho = UINT32_MAX, q = UINT32_MAX;

				dfly_topo_link_to_group(topo, G, D, k, &rho, &q);
				CHECK(rho < a && q < h, "%s: link %u of %u->%u is (%u,%u)", ctx, k,
				      G, D, rho, q);
				CHECK(gport_group(topo, G * a + rho, q) == D,
				      "%s: link %u of %u->%u (rho %u, q %u) leads to group %u", ctx,
				      k, G, D, rho, q, gport_group(topo, G * a + rho, q));
				got[k] = rho * h + q;
				for (uint32_t j = 0; j < k; j++)
					CHECK(got[j] != got[k],
					      "%s: links %u and %u of %u->%u equal", ctx, j, k, G,
					      D);
			}
			if (t != 1)
				continue;
			CHECK(dfly_topo_trunk_select(topo, G * a, D, G * a * topo->p) == 0,
			      "%s: trunk_select != 0 with t = 1", ctx);
			if (topo->arr == DFLY_ARR_PALMTREE) {
				uint32_t d = umod((int64_t)topo->sigma * ((int64_t)D - G), g);
				uint32_t rho, q;

				dfly_topo_link_to_group(topo, G, D, 0, &rho, &q);
				CHECK(d >= 1 && d <= g - 1 && rho == (d - 1) / h &&
					  q == (d - 1) % h,
				      "%s: %u->%u: d=%u, got (rho %u, q %u), formula (%u, %u)", ctx,
				      G, D, d, rho, q, (d - 1) / h, (d - 1) % h);
			} else {
				uint32_t k = D < G ? D : D - 1, rho, q;

				dfly_topo_link_to_group(topo, G, D, 0, &rho, &q);
				CHECK(rho == k / h && q == k % h,
				      "%s: consecutive %u->%u: got (rho %u, q %u), want (%u, %u)",
				      ctx, G, D, rho, q, k / h, k % h);
			}
		}
	}
}

/* One minimal path: shape, length, walk to the destination, and agreement with min_port. */
static void check_one_min_path(const struct dfly_topo *topo, const char *ctx, uint32_t src,
			       uint32_t dst, uint32_t dst_node)
{
	struct dfly_hop hops[3];
	uint32_t a = topo->a, cur = src, globals = 0;
	unsigned n;

	memset(hops, 0xa5, sizeof(hops));
	n = dfly_topo_min_path(topo, src, dst, dst_node, hops);
	if (src == dst) {
		CHECK(n == 0, "%s: path %u -> itself has %u hops", ctx, src, n);
		return;
	}
	CHECK(n >= 1 && n <= 3, "%s: path %u -> %u has %u hops", ctx, src, dst, n);
	CHECK(hops[0].port == dfly_topo_min_port(topo, src, dst, dst_node),
	      "%s: path %u -> %u: first hop port %u, min_port %u", ctx, src, dst, hops[0].port,
	      dfly_topo_min_port(topo, src, dst, dst_node));
	for (unsigned i = 0; i < n; i++) {
		uint32_t next = UINT32_MAX, pp;
		int rc;

		CHECK(hops[i].router == cur, "%s: path %u -> %u: hop %u leaves %u, walk is at %u",
		      ctx, src, dst, i, hops[i].router, cur);
		CHECK(hops[i].kind == dfly_topo_port_kind(topo, hops[i].port),
		      "%s: path %u -> %u: hop %u kind %d for port %u", ctx, src, dst, i,
		      hops[i].kind, hops[i].port);
		CHECK(hops[i].kind == DFLY_PORT_LOCAL || hops[i].kind == DFLY_PORT_GLOBAL,
		      "%s: path %u -> %u: hop %u of kind %d", ctx, src, dst, i, hops[i].kind);
		if (i > 0)
			CHECK(!(hops[i].kind == DFLY_PORT_LOCAL &&
				hops[i - 1].kind == DFLY_PORT_LOCAL),
			      "%s: path %u -> %u: two local hops in a row", ctx, src, dst);
		if (hops[i].kind == DFLY_PORT_GLOBAL)
			globals++;
		rc = dfly_topo_port_peer(topo, cur, hops[i].port, &next, &pp);
		CHECK(rc == 0, "%s: path %u -> %u: hop %u port %u: rc %d", ctx, src, dst, i,
		      hops[i].port, rc);
		cur = next;
	}
	CHECK(cur == dst, "%s: path %u -> %u ends at %u", ctx, src, dst, cur);
	if (src / a == dst / a) {
		CHECK(n == 1 && hops[0].kind == DFLY_PORT_LOCAL,
		      "%s: intra-group path %u -> %u is not a single L", ctx, src, dst);
	} else {
		uint32_t G = src / a, D = dst / a, gi = 0;
		bool own = false, used = false;

		CHECK(globals == 1, "%s: path %u -> %u has %u global hops", ctx, src, dst, globals);
		while (hops[gi].kind != DFLY_PORT_GLOBAL)
			gi++;
		/* the global hop is one of the t links G -> D; L1 only if src holds none */
		for (uint32_t k = 0; k < topo->t; k++) {
			uint32_t rho, q;

			dfly_topo_link_to_group(topo, G, D, k, &rho, &q);
			own |= G * a + rho == src;
			used |= G * a + rho == hops[gi].router &&
				topo->first_global + q == hops[gi].port;
		}
		CHECK(used, "%s: path %u -> %u: global hop is not a link %u -> %u", ctx, src, dst,
		      G, D);
		CHECK(own == (gi == 0), "%s: path %u -> %u: L1 %s although src %s a link to %u",
		      ctx, src, dst, gi ? "taken" : "skipped", own ? "holds" : "lacks", D);
	}
}

/* ---- negative tests ---------------------------------------------------------------------- */

static void expect_einval(uint32_t p, uint32_t a, uint32_t h, uint32_t t, enum dfly_arrangement arr,
			  int sigma)
{
	struct dfly_topo *topo;

	errno = 0;
	topo = dfly_topo_create(p, a, h, t, arr, sigma);
	CHECK(topo == NULL && errno == EINVAL,
	      "create(p=%u a=%u h=%u t=%u arr=%d sigma=%d): topo %p errno %d, want NULL/EINVAL", p,
	      a, h, t, arr, sigma, (void *)topo, errno);
	dfly_topo_destroy(topo);
}

static void test_create_rejects_bad_params(void **state)
{
	(void)state;
	/* zeros */
	expect_einval(0, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	expect_einval(2, 0, 2, 1, DFLY_ARR_PALMTREE, -1);
	expect_einval(2, 4, 0, 1, DFLY_ARR_PALMTREE, -1);
	expect_einval(2, 4, 2, 0, DFLY_ARR_PALMTREE, -1);
	/* t must divide a */
	expect_einval(2, 4, 2, 3, DFLY_ARR_PALMTREE, -1);
	expect_einval(4, 8, 4, 3, DFLY_ARR_PALMTREE, 1);
	expect_einval(2, 4, 2, 8, DFLY_ARR_PALMTREE, -1);
	/* σ must be ±1 */
	expect_einval(2, 4, 2, 1, DFLY_ARR_PALMTREE, 0);
	expect_einval(2, 4, 2, 1, DFLY_ARR_PALMTREE, 2);
	expect_einval(2, 4, 2, 1, DFLY_ARR_PALMTREE, -2);
	expect_einval(2, 4, 2, 1, DFLY_ARR_CONSECUTIVE, 0);
	/* consecutive only with t = 1 */
	expect_einval(2, 4, 2, 2, DFLY_ARR_CONSECUTIVE, -1);
	expect_einval(4, 8, 4, 4, DFLY_ARR_CONSECUTIVE, 1);
	/* unknown arrangement */
	expect_einval(2, 4, 2, 1, (enum dfly_arrangement)2, -1);
	/* radix p + a − 1 + h > DFLY_MAX_PORTS (65) */
	expect_einval(32, 32, 2, 1, DFLY_ARR_PALMTREE, -1);
	expect_einval(1, 1, DFLY_MAX_PORTS, 1, DFLY_ARR_PALMTREE, -1);
	expect_einval(DFLY_MAX_PORTS, 1, 1, 1, DFLY_ARR_PALMTREE, -1);
	/* radix computations that wrap around 2^32 must not sneak through */
	expect_einval(UINT32_MAX, 1, 1, 1, DFLY_ARR_PALMTREE, -1);
	expect_einval(1, UINT32_MAX, 1, 1, DFLY_ARR_PALMTREE, -1);
	expect_einval(1, 1, UINT32_MAX, 1, DFLY_ARR_PALMTREE, -1);
	expect_einval(2, 0x80000000u, 0x7fffffffu, 1, DFLY_ARR_PALMTREE, -1);
	/* g = a·h/t + 1 > DFLY_MAX_GROUPS (radix is exactly 64 here) */
	expect_einval(1, 32, 32, 1, DFLY_ARR_PALMTREE, -1);

	/* the boundaries themselves are accepted: radix 64 with g = 1024 */
	{
		struct dfly_topo *topo = dfly_topo_create(1, 31, 33, 1, DFLY_ARR_PALMTREE, -1);

		assert_non_null(topo);
		assert_int_equal(topo->radix, DFLY_MAX_PORTS);
		assert_int_equal(topo->g, DFLY_MAX_GROUPS);
		dfly_topo_destroy(topo);
	}
	dfly_topo_destroy(NULL);
}

static void test_port_peer_rejects_bad_ports(void **state)
{
	struct dfly_topo *topo = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	uint32_t pr = 1234, pp = 5678;

	(void)state;
	assert_non_null(topo);
	for (uint32_t port = 0; port < topo->p; port++)
		assert_int_equal(dfly_topo_port_peer(topo, 0, port, &pr, &pp), -EINVAL);
	assert_int_equal(dfly_topo_port_peer(topo, 0, topo->radix, &pr, &pp), -EINVAL);
	assert_int_equal(dfly_topo_port_peer(topo, 0, UINT32_MAX, &pr, &pp), -EINVAL);
	assert_int_equal(dfly_topo_port_peer(topo, topo->routers, topo->p, &pr, &pp), -EINVAL);
	assert_int_equal(dfly_topo_port_peer(topo, UINT32_MAX, topo->p, &pr, &pp), -EINVAL);
	/* outputs untouched on error */
	assert_int_equal(pr, 1234);
	assert_int_equal(pp, 5678);
	dfly_topo_destroy(topo);
}

/* ---- sizes and layout -------------------------------------------------------------------- */

static void test_derived_sizes(void **state)
{
	static const struct {
		uint32_t h, p, a, g, N, routers, radix;
	} tab[] = {
	    {2, 2, 4, 9, 72, 36, 7},
	    {4, 4, 8, 33, 1056, 264, 15},
	    {6, 6, 12, 73, 5256, 876, 23},
	    {8, 8, 16, 129, 16512, 2064, 31},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		struct dfly_topo *topo =
		    dfly_topo_create(tab[i].p, tab[i].a, tab[i].h, 1, DFLY_ARR_PALMTREE, -1);

		assert_non_null(topo);
		assert_int_equal(topo->p, tab[i].p);
		assert_int_equal(topo->a, tab[i].a);
		assert_int_equal(topo->h, tab[i].h);
		assert_int_equal(topo->t, 1);
		assert_int_equal(topo->g, tab[i].g);
		assert_int_equal(topo->nodes, tab[i].N);
		assert_int_equal(topo->routers, tab[i].routers);
		assert_int_equal(topo->radix, tab[i].radix);
		assert_int_equal(topo->first_local, tab[i].p);
		assert_int_equal(topo->first_global, tab[i].p + tab[i].a - 1);
		assert_int_equal(topo->sigma, -1);
		assert_int_equal(topo->arr, DFLY_ARR_PALMTREE);
		/* balanced: g = 2h² + 1 */
		assert_int_equal(topo->g, 2 * tab[i].h * tab[i].h + 1);
		dfly_topo_destroy(topo);
	}
	/* trunking divides the group count: g = a·h/t + 1 */
	{
		struct dfly_topo *topo = dfly_topo_create(4, 8, 4, 2, DFLY_ARR_PALMTREE, 1);

		assert_non_null(topo);
		assert_int_equal(topo->g, 17);
		assert_int_equal(topo->routers, 17 * 8);
		assert_int_equal(topo->nodes, 17 * 8 * 4);
		assert_int_equal(topo->radix, 15);
		dfly_topo_destroy(topo);
	}
}

static void test_ids_and_port_kinds(void **state)
{
	struct dfly_topo *topo = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);

	(void)state;
	assert_non_null(topo);
	/* R = G·a + ρ, n = R·p + c */
	assert_int_equal(dfly_topo_group_of(topo, 0), 0);
	assert_int_equal(dfly_topo_group_of(topo, 7), 1);
	assert_int_equal(dfly_topo_rho_of(topo, 7), 3);
	assert_int_equal(dfly_topo_group_of(topo, 35), 8);
	assert_int_equal(dfly_topo_rho_of(topo, 35), 3);
	assert_int_equal(dfly_topo_router_of_node(topo, 0), 0);
	assert_int_equal(dfly_topo_router_of_node(topo, 15), 7);
	assert_int_equal(dfly_topo_router_of_node(topo, 71), 35);
	/* ports [0,2) terminal, [2,5) local, [5,7) global */
	assert_int_equal(dfly_topo_port_kind(topo, 0), DFLY_PORT_TERMINAL);
	assert_int_equal(dfly_topo_port_kind(topo, 1), DFLY_PORT_TERMINAL);
	assert_int_equal(dfly_topo_port_kind(topo, 2), DFLY_PORT_LOCAL);
	assert_int_equal(dfly_topo_port_kind(topo, 4), DFLY_PORT_LOCAL);
	assert_int_equal(dfly_topo_port_kind(topo, 5), DFLY_PORT_GLOBAL);
	assert_int_equal(dfly_topo_port_kind(topo, 6), DFLY_PORT_GLOBAL);
	/* local index ℓ: ρ -> (ρ + ℓ + 1) mod a; the peer uses a − 2 − ℓ */
	assert_int_equal(dfly_topo_local_peer(topo, 0, 2), 1);
	assert_int_equal(dfly_topo_local_peer(topo, 3, 2), 0);
	assert_int_equal(dfly_topo_local_peer(topo, 1, 4), 0);
	assert_int_equal(dfly_topo_local_port(topo, 0, 3), 4);
	assert_int_equal(dfly_topo_local_port(topo, 3, 0), 2);
	{
		uint32_t pr, pp;

		assert_int_equal(dfly_topo_port_peer(topo, 4 + 1, 2, &pr, &pp), 0); /* ℓ = 0 */
		assert_int_equal(pr, 4 + 2);
		assert_int_equal(pp, 2 + 2); /* ℓ' = a − 2 − 0 = 2 */
	}
	dfly_topo_destroy(topo);
}

/* ---- arrangements ------------------------------------------------------------------------ */

static void expect_gpeer(const struct dfly_topo *topo, uint32_t G, uint32_t rho, uint32_t q,
			 uint32_t G2, uint32_t rho2, uint32_t q2)
{
	struct dfly_gport gp = dfly_topo_global_peer(topo, G * topo->a + rho, q);

	CHECK(gp.router == G2 * topo->a + rho2 && gp.q == q2,
	      "(group %u, rho %u, q %u) -> (group %u, rho %u, q %u), want (%u, %u, %u)", G, rho, q,
	      gp.router / topo->a, gp.router % topo->a, gp.q, G2, rho2, q2);
}

static void test_palmtree_spec_example(void **state)
{
	struct dfly_topo *topo = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	uint32_t pr, pp;

	(void)state;
	assert_non_null(topo);
	assert_int_equal(topo->g, 9);
	/* router 0 reaches the preceding groups, router 3 the following ones */
	assert_int_equal(gport_group(topo, 0, 0), 8);
	assert_int_equal(gport_group(topo, 0, 1), 7);
	assert_int_equal(gport_group(topo, 3, 0), 2);
	assert_int_equal(gport_group(topo, 3, 1), 1);
	/* peer of (group 0, router 3, port 1) is (group 1, router 0, port 0) */
	expect_gpeer(topo, 0, 3, 1, 1, 0, 0);
	expect_gpeer(topo, 1, 0, 0, 0, 3, 1);
	/* full peer rule: ρ' = a − 1 − ρ, q' = h − 1 − q */
	expect_gpeer(topo, 0, 0, 0, 8, 3, 1);
	expect_gpeer(topo, 0, 0, 1, 7, 3, 0);
	expect_gpeer(topo, 0, 3, 0, 2, 0, 1);
	/* same through the port-level API: port 1 is global port first_global + 1 */
	assert_int_equal(dfly_topo_port_peer(topo, 3, topo->first_global + 1, &pr, &pp), 0);
	assert_int_equal(pr, 1 * 4 + 0);
	assert_int_equal(pp, topo->first_global + 0);
	dfly_topo_destroy(topo);
}

/* LIA's formula (σ = +1): S_j of group i links to S_{2h−1−j} of groups i+hj+1 … i+hj+h. */
static void test_palmtree_sigma_plus(void **state)
{
	(void)state;
	for (uint32_t h = 1; h <= 6; h++) {
		struct shape s = balanced(h, DFLY_ARR_PALMTREE, 1);
		char ctx[96];
		struct dfly_topo *topo = make(&s, ctx, sizeof(ctx));

		for (uint32_t i = 0; i < topo->g; i++) {
			for (uint32_t j = 0; j < topo->a; j++) {
				for (uint32_t q = 0; q < h; q++) {
					struct dfly_gport gp =
					    dfly_topo_global_peer(topo, i * topo->a + j, q);
					uint32_t want = (i + h * j + q + 1) % topo->g;

					CHECK(gp.router == want * topo->a + (2 * h - 1 - j) &&
						  gp.q == h - 1 - q,
					      "%s: group %u S_%u q %u -> router %u q %u, want "
					      "group %u "
					      "S_%u",
					      ctx, i, j, q, gp.router, gp.q, want, 2 * h - 1 - j);
				}
			}
		}
		dfly_topo_destroy(topo);
	}
	/* the spec example, mirrored: with σ = +1 router 0 reaches the following groups */
	{
		struct dfly_topo *topo = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, 1);

		assert_non_null(topo);
		assert_int_equal(gport_group(topo, 0, 0), 1);
		assert_int_equal(gport_group(topo, 0, 1), 2);
		assert_int_equal(gport_group(topo, 3, 0), 7);
		assert_int_equal(gport_group(topo, 3, 1), 8);
		dfly_topo_destroy(topo);
	}
}

/* Thesis consecutive arrangement: link k = ρh + q of G goes to group k (k < G) or k + 1. */
static void test_consecutive_formula(void **state)
{
	(void)state;
	for (uint32_t h = 1; h <= 4; h++) {
		struct shape s = balanced(h, DFLY_ARR_CONSECUTIVE, -1);
		char ctx[96];
		struct dfly_topo *topo = make(&s, ctx, sizeof(ctx));
		struct dfly_topo *plus = dfly_topo_create(h, 2 * h, h, 1, DFLY_ARR_CONSECUTIVE, 1);

		assert_non_null(plus);
		for (uint32_t G = 0; G < topo->g; G++) {
			for (uint32_t k = 0; k < topo->a * h; k++) {
				uint32_t R = G * topo->a + k / h, q = k % h;
				uint32_t want = k < G ? k : k + 1;

				CHECK(gport_group(topo, R, q) == want,
				      "%s: group %u link %u -> group %u, want %u", ctx, G, k,
				      gport_group(topo, R, q), want);
				/* σ does not matter for the consecutive arrangement */
				CHECK(dfly_topo_global_peer(plus, R, q).router ==
					      dfly_topo_global_peer(topo, R, q).router &&
					  dfly_topo_global_peer(plus, R, q).q ==
					      dfly_topo_global_peer(topo, R, q).q,
				      "%s: group %u link %u depends on sigma", ctx, G, k);
			}
		}
		dfly_topo_destroy(plus);
		dfly_topo_destroy(topo);
	}
}

/* Exhaustive symmetry for h = 1..8 balanced, palmtree σ = ±1 and consecutive. */
static void test_link_symmetry_exhaustive(void **state)
{
	static const struct {
		enum dfly_arrangement arr;
		int sigma;
	} kinds[] = {
	    {DFLY_ARR_PALMTREE, -1},
	    {DFLY_ARR_PALMTREE, 1},
	    {DFLY_ARR_CONSECUTIVE, -1},
	};

	(void)state;
	for (uint32_t h = 1; h <= 8; h++) {
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			struct shape s = balanced(h, kinds[k].arr, kinds[k].sigma);
			char ctx[96];
			struct dfly_topo *topo = make(&s, ctx, sizeof(ctx));

			check_global_links(topo, ctx);
			check_port_peers(topo, ctx);
			dfly_topo_destroy(topo);
		}
	}
}

static const struct shape trunk_shapes[] = {
    {2, 4, 2, 2, DFLY_ARR_PALMTREE, -1}, {2, 4, 2, 2, DFLY_ARR_PALMTREE, 1},
    {4, 8, 4, 2, DFLY_ARR_PALMTREE, -1}, {4, 8, 4, 2, DFLY_ARR_PALMTREE, 1},
    {2, 4, 2, 4, DFLY_ARR_PALMTREE, -1}, {3, 6, 3, 3, DFLY_ARR_PALMTREE, -1},
    {4, 8, 4, 4, DFLY_ARR_PALMTREE, 1},  {6, 12, 6, 2, DFLY_ARR_PALMTREE, -1},
    {1, 2, 1, 2, DFLY_ARR_PALMTREE, -1},
};

/*
 * trunk_select: the link leaving the current router if it holds one towards D, otherwise
 * dst_node mod t; minimal paths from one router towards D therefore spread over all t links.
 */
static void check_trunk_select(const struct dfly_topo *topo, const char *ctx)
{
	uint32_t a = topo->a, t = topo->t;

	for (uint32_t R = 0; R < topo->routers; R++) {
		for (uint32_t D = 0; D < topo->g; D++) {
			uint32_t own = UINT32_MAX;

			if (D == R / a)
				continue;
			for (uint32_t k = 0; k < t; k++) {
				uint32_t rho, q;

				dfly_topo_link_to_group(topo, R / a, D, k, &rho, &q);
				if (rho == R % a)
					own = k;
			}
			for (uint32_t node = D * a * topo->p; node < (D + 1) * a * topo->p;
			     node++) {
				uint32_t k = dfly_topo_trunk_select(topo, R, D, node);

				CHECK(k == (own != UINT32_MAX ? own : node % t),
				      "%s: R=%u D=%u node %u: trunk %u (own link %d)", ctx, R, D,
				      node, k, (int)own);
			}
		}
	}
}

static void test_trunking(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(trunk_shapes) / sizeof(trunk_shapes[0]); i++) {
		char ctx[96];
		struct dfly_topo *topo = make(&trunk_shapes[i], ctx, sizeof(ctx));

		assert_int_equal(topo->g, topo->a * topo->h / topo->t + 1);
		check_global_links(topo, ctx);
		check_port_peers(topo, ctx);
		check_inverse(topo, ctx);
		check_trunk_select(topo, ctx);
		dfly_topo_destroy(topo);
	}
	/* spec §1.4 PROPOSAL: S_{j + k·a/t} uses offset h·j + q + 1 and peers with
	 * S_{a−1−(j+k·a/t)} */
	{
		struct dfly_topo *topo = dfly_topo_create(4, 8, 4, 2, DFLY_ARR_PALMTREE, -1);

		assert_non_null(topo);
		for (uint32_t rho = 0; rho < 8; rho++) {
			for (uint32_t q = 0; q < 4; q++) {
				struct dfly_gport gp = dfly_topo_global_peer(topo, rho, q);
				uint32_t want = (17 - (4 * (rho % 4) + q + 1)) % 17;

				assert_int_equal(gp.router, want * 8 + 7 - rho);
				assert_int_equal(gp.q, 3 - q);
			}
		}
		dfly_topo_destroy(topo);
	}
}

static void test_inverse_lookup(void **state)
{
	(void)state;
	for (uint32_t h = 1; h <= 8; h++) {
		struct shape shapes[] = {
		    balanced(h, DFLY_ARR_PALMTREE, -1),
		    balanced(h, DFLY_ARR_PALMTREE, 1),
		    balanced(h, DFLY_ARR_CONSECUTIVE, -1),
		};

		for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
			char ctx[96];
			struct dfly_topo *topo = make(&shapes[k], ctx, sizeof(ctx));

			check_inverse(topo, ctx);
			dfly_topo_destroy(topo);
		}
	}
	/* unbalanced shapes too (the formulas hold for any a, h) */
	{
		static const struct shape odd[] = {
		    {1, 3, 2, 1, DFLY_ARR_PALMTREE, -1},
		    {3, 5, 1, 1, DFLY_ARR_PALMTREE, 1},
		    {2, 3, 4, 1, DFLY_ARR_CONSECUTIVE, -1},
		    {1, 1, 3, 1, DFLY_ARR_PALMTREE, -1},
		};

		for (size_t k = 0; k < sizeof(odd) / sizeof(odd[0]); k++) {
			char ctx[96];
			struct dfly_topo *topo = make(&odd[k], ctx, sizeof(ctx));

			check_global_links(topo, ctx);
			check_port_peers(topo, ctx);
			check_inverse(topo, ctx);
			dfly_topo_destroy(topo);
		}
	}
}

/* ---- minimal paths ----------------------------------------------------------------------- */

static void test_min_paths(void **state)
{
	(void)state;
	prng_reset();
	/* every pair for h = 1..4, all arrangements */
	for (uint32_t h = 1; h <= 4; h++) {
		struct shape shapes[] = {
		    balanced(h, DFLY_ARR_PALMTREE, -1),
		    balanced(h, DFLY_ARR_PALMTREE, 1),
		    balanced(h, DFLY_ARR_CONSECUTIVE, -1),
		};

		for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
			char ctx[96];
			struct dfly_topo *topo = make(&shapes[k], ctx, sizeof(ctx));

			for (uint32_t s = 0; s < topo->routers; s++)
				for (uint32_t d = 0; d < topo->routers; d++)
					check_one_min_path(topo, ctx, s, d,
							   d * topo->p + (s + d) % topo->p);
			dfly_topo_destroy(topo);
		}
	}
	/* sampled pairs for h = 6, 8 (plus every destination from a few sources) */
	for (uint32_t h = 6; h <= 8; h += 2) {
		struct shape shapes[] = {
		    balanced(h, DFLY_ARR_PALMTREE, -1),
		    balanced(h, DFLY_ARR_CONSECUTIVE, -1),
		};

		for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
			char ctx[96];
			struct dfly_topo *topo = make(&shapes[k], ctx, sizeof(ctx));
			uint32_t srcs[] = {0, topo->a - 1, topo->routers / 2, topo->routers - 1};

			for (uint32_t i = 0; i < 100000; i++) {
				uint32_t s = dfly_uniform(prng_next(), topo->routers);
				uint32_t d = dfly_uniform(prng_next(), topo->routers);

				check_one_min_path(topo, ctx, s, d,
						   d * topo->p +
						       dfly_uniform(prng_next(), topo->p));
			}
			for (size_t i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++)
				for (uint32_t d = 0; d < topo->routers; d++)
					check_one_min_path(topo, ctx, srcs[i], d, d * topo->p);
			dfly_topo_destroy(topo);
		}
	}
	/* trunked shapes: every pair, every destination node (each picks a trunk) */
	for (size_t i = 0; i < sizeof(trunk_shapes) / sizeof(trunk_shapes[0]); i++) {
		char ctx[96];
		struct dfly_topo *topo = make(&trunk_shapes[i], ctx, sizeof(ctx));

		if (topo->routers <= 300) {
			for (uint32_t s = 0; s < topo->routers; s++)
				for (uint32_t d = 0; d < topo->routers; d++)
					for (uint32_t c = 0; c < topo->p; c++)
						check_one_min_path(topo, ctx, s, d,
								   d * topo->p + c);
		} else {
			for (uint32_t n = 0; n < 100000; n++) {
				uint32_t s = dfly_uniform(prng_next(), topo->routers);
				uint32_t node = dfly_uniform(prng_next(), topo->nodes);

				check_one_min_path(topo, ctx, s, node / topo->p, node);
			}
		}
		dfly_topo_destroy(topo);
	}
}

/* With t = 1 the minimal path has the exact shape of spec §1.5. */
static void test_min_path_shapes(void **state)
{
	struct dfly_topo *topo = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	struct dfly_hop hops[3];
	unsigned shapes[4] = {0}; /* G, LG, GL, LGL */

	(void)state;
	assert_non_null(topo);
	/* group 0 router 3 holds the link to group 1 (lands on group 1 router 0) */
	assert_int_equal(dfly_topo_min_path(topo, 3, 4, 8, hops), 1);
	assert_int_equal(hops[0].kind, DFLY_PORT_GLOBAL);
	assert_int_equal(hops[0].port, topo->first_global + 1);
	assert_int_equal(dfly_topo_min_path(topo, 0, 4, 8, hops), 2); /* L G */
	assert_int_equal(hops[0].kind, DFLY_PORT_LOCAL);
	assert_int_equal(hops[0].port, dfly_topo_local_port(topo, 0, 3));
	assert_int_equal(hops[1].router, 3);
	assert_int_equal(hops[1].kind, DFLY_PORT_GLOBAL);
	assert_int_equal(dfly_topo_min_path(topo, 3, 6, 12, hops), 2); /* G L */
	assert_int_equal(hops[0].kind, DFLY_PORT_GLOBAL);
	assert_int_equal(hops[1].router, 4);
	assert_int_equal(hops[1].kind, DFLY_PORT_LOCAL);
	assert_int_equal(dfly_topo_min_path(topo, 1, 7, 14, hops), 3); /* L G L */
	assert_int_equal(dfly_topo_min_path(topo, 1, 2, 4, hops), 1);  /* L */
	assert_int_equal(hops[0].kind, DFLY_PORT_LOCAL);
	assert_int_equal(dfly_topo_min_path(topo, 5, 5, 10, hops), 0);
	/* all four inter-group shapes occur */
	for (uint32_t s = 0; s < topo->routers; s++) {
		for (uint32_t d = 0; d < topo->routers; d++) {
			unsigned n;

			if (s / 4 == d / 4)
				continue;
			n = dfly_topo_min_path(topo, s, d, d * 2, hops);
			if (n == 1)
				shapes[0]++;
			else if (n == 3)
				shapes[3]++;
			else
				shapes[hops[0].kind == DFLY_PORT_LOCAL ? 1 : 2]++;
		}
	}
	/*
	 * 9·8 ordered group pairs, 4×4 router pairs each: 1 source router holds the link and 1
	 * destination router is where it lands, so G 1, LG 3, GL 3, LGL 9 per group pair.
	 */
	assert_int_equal(shapes[0], 72 * 1);
	assert_int_equal(shapes[1], 72 * 3);
	assert_int_equal(shapes[2], 72 * 3);
	assert_int_equal(shapes[3], 72 * 9);
	dfly_topo_destroy(topo);
}

static void test_min_port_own_router(void **state)
{
	(void)state;
	for (uint32_t h = 1; h <= 4; h++) {
		struct shape s = balanced(h, DFLY_ARR_PALMTREE, -1);
		char ctx[96];
		struct dfly_topo *topo = make(&s, ctx, sizeof(ctx));

		for (uint32_t R = 0; R < topo->routers; R++) {
			for (uint32_t c = 0; c < topo->p; c++) {
				uint32_t port = dfly_topo_min_port(topo, R, R, R * topo->p + c);

				CHECK(port == c &&
					  dfly_topo_port_kind(topo, port) == DFLY_PORT_TERMINAL,
				      "%s: R=%u node %u: ejection port %u", ctx, R, R * topo->p + c,
				      port);
			}
			/* documented as dst_node % p, whatever dst_node is */
			CHECK(dfly_topo_min_port(topo, R, R, 12345) == 12345 % topo->p,
			      "%s: R=%u: min_port(own, 12345) != 12345 %% p", ctx, R);
		}
		dfly_topo_destroy(topo);
	}
}

/* ---- Valiant ----------------------------------------------------------------------------- */

static const struct shape val_shapes[] = {
    {2, 4, 2, 1, DFLY_ARR_PALMTREE, -1},    {2, 4, 2, 1, DFLY_ARR_PALMTREE, 1},
    {2, 4, 2, 1, DFLY_ARR_CONSECUTIVE, -1}, {4, 8, 4, 1, DFLY_ARR_PALMTREE, -1},
    {2, 4, 2, 2, DFLY_ARR_PALMTREE, -1},    {4, 8, 4, 2, DFLY_ARR_PALMTREE, 1},
    {1, 2, 1, 1, DFLY_ARR_PALMTREE, -1},    {1, 2, 1, 1, DFLY_ARR_PALMTREE, 1},
    {1, 1, 2, 1, DFLY_ARR_PALMTREE, -1},
};

/* Current router's global ports that do not lead to D: how many. */
static uint32_t crg_candidates(const struct dfly_topo *topo, uint32_t R, uint32_t D)
{
	uint32_t n = 0;

	for (uint32_t q = 0; q < topo->h; q++)
		n += gport_group(topo, R, q) != D;
	return n;
}

static void check_val_root(const struct dfly_topo *topo, const char *ctx, enum dfly_val_variant v,
			   uint32_t R, uint32_t D, uint32_t r1, uint32_t r2)
{
	uint32_t root = dfly_topo_val_root(topo, v, R, D, r1, r2);
	uint32_t G = R / topo->a, Gr = root / topo->a;
	uint32_t ncand = crg_candidates(topo, R, D);
	bool ok = false;

	CHECK(root < topo->routers, "%s %s: R=%u D=%u r1=%#x r2=%#x: root %u", ctx,
	      dfly_val_variant_name(v), R, D, r1, r2, root);
	CHECK(Gr != G && Gr != D, "%s %s: R=%u D=%u r1=%#x r2=%#x: root %u in group %u", ctx,
	      dfly_val_variant_name(v), R, D, r1, r2, root, Gr);
	switch (v) {
	case DFLY_VAL_LGL:
		ok = true;
		break;
	case DFLY_VAL_LG_:
		/* the far end of some global link leaving the source group */
		ok = has_link_to(topo, root, G);
		break;
	case DFLY_VAL__GL:
		if (ncand == 0) /* documented fallback to LGL */
			ok = true;
		for (uint32_t q = 0; q < topo->h; q++)
			ok |= gport_group(topo, R, q) != D && gport_group(topo, R, q) == Gr;
		break;
	case DFLY_VAL__G_:
		if (ncand == 0) /* documented fallback to LG- */
			ok = has_link_to(topo, root, G);
		for (uint32_t q = 0; q < topo->h; q++)
			ok |= gport_group(topo, R, q) != D &&
			      dfly_topo_global_peer(topo, R, q).router == root;
		break;
	default:
		fail();
	}
	CHECK(ok, "%s %s: R=%u D=%u r1=%#x r2=%#x: root %u is not an allowed choice", ctx,
	      dfly_val_variant_name(v), R, D, r1, r2, root);
}

static void test_val_root_rules(void **state)
{
	static const uint32_t edge[][2] = {
	    {0, 0}, {UINT32_MAX, UINT32_MAX}, {0, UINT32_MAX}, {UINT32_MAX, 0}, {0x80000000u, 1},
	};

	(void)state;
	prng_reset();
	for (size_t i = 0; i < sizeof(val_shapes) / sizeof(val_shapes[0]); i++) {
		char ctx[96];
		struct dfly_topo *topo = make(&val_shapes[i], ctx, sizeof(ctx));
		uint32_t samples = topo->routers > 100 ? 8 : 64;

		for (uint32_t R = 0; R < topo->routers; R++) {
			for (uint32_t D = 0; D < topo->g; D++) {
				if (D == R / topo->a)
					continue;
				for (int v = 0; v < DFLY_VAL_VARIANT_COUNT; v++) {
					for (size_t e = 0; e < sizeof(edge) / sizeof(edge[0]); e++)
						check_val_root(topo, ctx, (enum dfly_val_variant)v,
							       R, D, edge[e][0], edge[e][1]);
					for (uint32_t n = 0; n < samples; n++) {
						uint32_t r1 = prng_next(), r2 = prng_next();

						check_val_root(topo, ctx, (enum dfly_val_variant)v,
							       R, D, r1, r2);
					}
				}
			}
		}
		dfly_topo_destroy(topo);
	}
}

/* Sets of S_ROOT reached over many samples on h = 2 are exactly the allowed sets. */
static void test_val_root_coverage(void **state)
{
	enum { SAMPLES = 4000 };
	static const struct shape shapes[] = {
	    {2, 4, 2, 1, DFLY_ARR_PALMTREE, -1},
	    {2, 4, 2, 1, DFLY_ARR_PALMTREE, 1},
	    {2, 4, 2, 1, DFLY_ARR_CONSECUTIVE, -1},
	    {2, 4, 2, 2, DFLY_ARR_PALMTREE, -1},
	};

	(void)state;
	prng_reset();
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		char ctx[96];
		struct dfly_topo *topo = make(&shapes[i], ctx, sizeof(ctx));
		uint32_t a = topo->a;
		uint32_t *hits = calloc(topo->routers, sizeof(*hits));
		bool *allowed = calloc(topo->routers, sizeof(*allowed));

		assert_non_null(hits);
		assert_non_null(allowed);
		for (uint32_t R = 0; R < a; R++) { /* routers of group 0; the rest is symmetric */
			for (uint32_t D = 1; D < topo->g; D++) {
				for (int v = 0; v < DFLY_VAL_VARIANT_COUNT; v++) {
					uint32_t nallowed = 0;

					memset(hits, 0, topo->routers * sizeof(*hits));
					memset(allowed, 0, topo->routers * sizeof(*allowed));
					for (uint32_t X = 0; X < topo->routers; X++) {
						uint32_t GX = X / a;

						if (GX == 0 || GX == D)
							continue;
						switch (v) {
						case DFLY_VAL_LGL:
							allowed[X] = true;
							break;
						case DFLY_VAL_LG_:
							allowed[X] = has_link_to(topo, X, 0);
							break;
						case DFLY_VAL__GL:
							allowed[X] = has_link_to(topo, R, GX);
							break;
						default:
							for (uint32_t q = 0; q < topo->h; q++)
								allowed[X] |= dfly_topo_global_peer(
										  topo, R, q)
										  .router == X;
							break;
						}
						nallowed += allowed[X];
					}
					for (uint32_t n = 0; n < SAMPLES; n++) {
						uint32_t r1 = prng_next(), r2 = prng_next();
						uint32_t root = dfly_topo_val_root(
						    topo, (enum dfly_val_variant)v, R, D, r1, r2);

						assert_true(root < topo->routers);
						hits[root]++;
					}
					for (uint32_t X = 0; X < topo->routers; X++) {
						CHECK(
						    allowed[X] == (hits[X] > 0),
						    "%s %s: R=%u D=%u: router %u allowed %d hit %u",
						    ctx, dfly_val_variant_name(v), R, D, X,
						    allowed[X], hits[X]);
						/* uniform enough: within half and twice the mean */
						CHECK(!allowed[X] ||
							  (hits[X] * nallowed * 2 >= SAMPLES &&
							   hits[X] * nallowed <= 2 * SAMPLES),
						      "%s %s: R=%u D=%u: router %u hit %u of %u "
						      "(%u allowed)",
						      ctx, dfly_val_variant_name(v), R, D, X,
						      hits[X], SAMPLES, nallowed);
					}
				}
			}
		}
		free(hits);
		free(allowed);
		dfly_topo_destroy(topo);
	}
}

static void test_val_root_no_intermediate_group(void **state)
{
	static const struct shape tiny[] = {
	    {1, 1, 1, 1, DFLY_ARR_PALMTREE, -1},
	    {1, 1, 1, 1, DFLY_ARR_PALMTREE, 1},
	    {1, 1, 1, 1, DFLY_ARR_CONSECUTIVE, -1},
	    {3, 2, 1, 2, DFLY_ARR_PALMTREE, -1},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(tiny) / sizeof(tiny[0]); i++) {
		char ctx[96];
		struct dfly_topo *topo = make(&tiny[i], ctx, sizeof(ctx));

		assert_int_equal(topo->g, 2);
		for (uint32_t R = 0; R < topo->routers; R++) {
			uint32_t D = 1 - R / topo->a;

			for (int v = 0; v < DFLY_VAL_VARIANT_COUNT; v++) {
				CHECK(dfly_topo_val_root(topo, (enum dfly_val_variant)v, R, D, 0,
							 0) == UINT32_MAX &&
					  dfly_topo_val_root(topo, (enum dfly_val_variant)v, R, D,
							     UINT32_MAX, 12345) == UINT32_MAX,
				      "%s %s: R=%u: root exists with g = 2", ctx,
				      dfly_val_variant_name((enum dfly_val_variant)v), R);
			}
		}
		dfly_topo_destroy(topo);
	}
}

/* h = 1: a router whose only global port leads to dst falls back to LGL / LG-. */
static void test_val_root_fallback(void **state)
{
	struct dfly_topo *topo = dfly_topo_create(1, 2, 1, 1, DFLY_ARR_PALMTREE, -1);

	(void)state;
	assert_non_null(topo);
	assert_int_equal(topo->g, 3);
	/* σ = −1: group 0 router 0 -> group 2 (router 3), router 1 -> group 1 (router 2) */
	assert_int_equal(dfly_topo_global_peer(topo, 0, 0).router, 5);
	assert_int_equal(dfly_topo_global_peer(topo, 1, 0).router, 2);
	for (uint32_t n = 0; n < 64; n++) {
		uint32_t r1 = n * 0x04000000u, r2 = ~r1;
		uint32_t gl = dfly_topo_val_root(topo, DFLY_VAL__GL, 0, 2, r1, r2);
		uint32_t g_ = dfly_topo_val_root(topo, DFLY_VAL__G_, 0, 2, r1, r2);

		assert_true(gl == 2 || gl == 3); /* any router of group 1 */
		assert_int_equal(g_, 2);         /* landing of group 0's link to group 1 */
		/* router 1 has a usable port: -G- takes it */
		assert_int_equal(dfly_topo_val_root(topo, DFLY_VAL__G_, 1, 2, r1, r2), 2);
	}
	dfly_topo_destroy(topo);
}

/* ---- small helpers ----------------------------------------------------------------------- */

static void test_local_type(void **state)
{
	static const int a4[] = {1, 2, -1};
	static const int a8[] = {1, 2, 3, 4, -3, -2, -1};
	static const int a12[] = {1, 2, 3, 4, 5, 6, -5, -4, -3, -2, -1};
	static const int a5[] = {1, 2, -2, -1};
	struct {
		uint32_t p, a, h;
		const int *want;
	} cases[] = {{2, 4, 2, a4}, {4, 8, 4, a8}, {6, 12, 6, a12}, {1, 5, 2, a5}};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dfly_topo *topo =
		    dfly_topo_create(cases[i].p, cases[i].a, cases[i].h, 1, DFLY_ARR_PALMTREE, -1);

		assert_non_null(topo);
		for (uint32_t l = 0; l + 1 < topo->a; l++) {
			int d = dfly_topo_local_type(topo, l);

			assert_int_equal(d, cases[i].want[l]);
			/* the type is the sender -> receiver offset of local port ℓ */
			for (uint32_t rho = 0; rho < topo->a; rho++)
				assert_int_equal(
				    dfly_topo_local_peer(topo, rho, topo->first_local + l),
				    (uint32_t)((int)rho + d + (int)topo->a) % topo->a);
		}
		dfly_topo_destroy(topo);
	}
}

static void test_group_offset(void **state)
{
	struct dfly_topo *topo = dfly_topo_create(6, 12, 6, 1, DFLY_ARR_PALMTREE, -1);
	static const uint32_t srcs[] = {0, 1, 36, 37, 40, 72};

	(void)state;
	assert_non_null(topo);
	assert_int_equal(topo->g, 73);
	assert_int_equal(dfly_topo_group_offset(topo, 0, 1), 1);
	assert_int_equal(dfly_topo_group_offset(topo, 0, 36), 36);
	assert_int_equal(dfly_topo_group_offset(topo, 0, 37), -36);
	assert_int_equal(dfly_topo_group_offset(topo, 0, 72), -1);
	assert_int_equal(dfly_topo_group_offset(topo, 72, 0), 1);
	assert_int_equal(dfly_topo_group_offset(topo, 5, 3), -2);
	for (size_t i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++) {
		uint32_t S = srcs[i];
		unsigned seen[73] = {0};

		assert_int_equal(dfly_topo_group_offset(topo, S, S), 0);
		for (uint32_t D = 0; D < topo->g; D++) {
			int o = dfly_topo_group_offset(topo, S, D);

			if (D == S)
				continue;
			CHECK(o != 0 && o >= -36 && o <= 36, "S=%u D=%u: offset %d", S, D, o);
			assert_int_equal(dfly_topo_group_offset(topo, D, S), -o);
			assert_int_equal(((int)S + o + 73) % 73, D);
			seen[o + 36]++;
		}
		/* ±1 … ±36, each exactly once */
		for (int o = -36; o <= 36; o++)
			assert_int_equal(seen[o + 36], o == 0 ? 0 : 1);
	}
	dfly_topo_destroy(topo);
}

static void test_val_variant_names(void **state)
{
	static const char *const names[] = {"lgl", "lg-", "-gl", "-g-"};

	(void)state;
	assert_int_equal(DFLY_VAL_VARIANT_COUNT, 4);
	for (int v = 0; v < DFLY_VAL_VARIANT_COUNT; v++) {
		assert_string_equal(dfly_val_variant_name((enum dfly_val_variant)v), names[v]);
		assert_int_equal(dfly_val_variant_parse(names[v]), v);
		assert_int_equal(
		    dfly_val_variant_parse(dfly_val_variant_name((enum dfly_val_variant)v)), v);
	}
	assert_int_equal(DFLY_VAL_LGL, 0);
	assert_int_equal(DFLY_VAL__G_, 3);
	assert_int_equal(dfly_val_variant_parse(""), -1);
	assert_int_equal(dfly_val_variant_parse("val"), -1);
	assert_int_equal(dfly_val_variant_parse("lgl "), -1);
	assert_int_equal(dfly_val_variant_parse("lg"), -1);
	assert_int_equal(dfly_val_variant_parse("-g--"), -1);
	assert_non_null(dfly_val_variant_name(DFLY_VAL_VARIANT_COUNT));
}

static void test_uniform(void **state)
{
	static const uint32_t ns[] = {1,  2,   3,    7,     9,           33,
				      73, 129, 1000, 65536, 0x7fffffffu, UINT32_MAX};
	static const uint32_t rs[] = {0, 1, 0x7fffffffu, 0x80000000u, UINT32_MAX - 1, UINT32_MAX};

	(void)state;
	prng_reset();
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		for (size_t j = 0; j < sizeof(rs) / sizeof(rs[0]); j++)
			CHECK(dfly_uniform(rs[j], ns[i]) < ns[i], "uniform(%#x, %u) = %u", rs[j],
			      ns[i], dfly_uniform(rs[j], ns[i]));
		for (uint32_t k = 0; k < 100000; k++) {
			uint32_t r = prng_next();

			CHECK(dfly_uniform(r, ns[i]) < ns[i], "uniform(%#x, %u) = %u", r, ns[i],
			      dfly_uniform(r, ns[i]));
		}
	}
	for (uint32_t k = 0; k < 1000000; k++) {
		uint32_t r = prng_next(), n = prng_next() | 1;

		CHECK(dfly_uniform(r, n) < n, "uniform(%#x, %u) = %u", r, n, dfly_uniform(r, n));
	}
	/* extremes map to the ends of the range */
	assert_int_equal(dfly_uniform(0, 9), 0);
	assert_int_equal(dfly_uniform(UINT32_MAX, 9), 8);
}

static void test_dump(void **state)
{
	struct dfly_topo *topo = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(topo);
	assert_non_null(f);
	dfly_topo_dump(topo, f);
	fclose(f);
	assert_non_null(strstr(buf, "g=9"));
	assert_non_null(strstr(buf, "36 routers"));
	assert_non_null(strstr(buf, "72 nodes"));
	assert_non_null(strstr(buf, "palmtree"));
	free(buf);
	dfly_topo_destroy(topo);
}

/* routing.val.exclude = src: S_ROOT is never in the source group, and the destination group is
 * a valid intermediate for every variant (h=2: -GL/-G- may take the port to dst_group). */
static void test_val_root_exclude_src(void **state)
{
	struct dfly_topo *topo = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);

	(void)state;
	assert_non_null(topo);
	for (int v = 0; v < DFLY_VAL_VARIANT_COUNT; v++) {
		/* router 3 of group 0 holds the links to groups 1 and 2 (σ = −1) */
		uint32_t R = 3, D = 2, in_dst = 0;

		for (uint32_t i = 0; i < 4000; i++) {
			uint32_t r1 = i * 2654435761u, r2 = (i * 40503u) ^ 0x9e3779b9u;
			uint32_t root = dfly_topo_val_root_ex(topo, (enum dfly_val_variant)v,
							      DFLY_VAL_EXCL_SRC, R, D, r1, r2);

			assert_true(root < topo->routers);
			assert_true(root / topo->a != 0);
			in_dst += root / topo->a == D;
			/* the default exclusion never lands in D */
			assert_true(
			    dfly_topo_val_root(topo, (enum dfly_val_variant)v, R, D, r1, r2) /
				topo->a !=
			    D);
		}
		assert_true(in_dst > 0);
	}
	/* g = 2: excluding only the source still leaves the other group */
	{
		struct dfly_topo *t2 = dfly_topo_create(1, 1, 1, 1, DFLY_ARR_PALMTREE, -1);

		assert_non_null(t2);
		assert_int_equal(
		    dfly_topo_val_root_ex(t2, DFLY_VAL_LGL, DFLY_VAL_EXCL_SRC, 0, 1, 5, 7), 1);
		assert_int_equal(dfly_topo_val_root(t2, DFLY_VAL_LGL, 0, 1, 5, 7), UINT32_MAX);
		dfly_topo_destroy(t2);
	}
	dfly_topo_destroy(topo);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_create_rejects_bad_params),
	    cmocka_unit_test(test_port_peer_rejects_bad_ports),
	    cmocka_unit_test(test_derived_sizes),
	    cmocka_unit_test(test_ids_and_port_kinds),
	    cmocka_unit_test(test_palmtree_spec_example),
	    cmocka_unit_test(test_palmtree_sigma_plus),
	    cmocka_unit_test(test_consecutive_formula),
	    cmocka_unit_test(test_link_symmetry_exhaustive),
	    cmocka_unit_test(test_trunking),
	    cmocka_unit_test(test_inverse_lookup),
	    cmocka_unit_test(test_min_paths),
	    cmocka_unit_test(test_min_path_shapes),
	    cmocka_unit_test(test_min_port_own_router),
	    cmocka_unit_test(test_val_root_rules),
	    cmocka_unit_test(test_val_root_coverage),
	    cmocka_unit_test(test_val_root_no_intermediate_group),
	    cmocka_unit_test(test_val_root_fallback),
	    cmocka_unit_test(test_val_root_exclude_src),
	    cmocka_unit_test(test_local_type),
	    cmocka_unit_test(test_group_offset),
	    cmocka_unit_test(test_val_variant_names),
	    cmocka_unit_test(test_uniform),
	    cmocka_unit_test(test_dump),
	};
	const char *seed = getenv("DFLY_TEST_SEED");

	if (seed != NULL)
		prng_seed = strtoull(seed, NULL, 0);
	printf("test_topo: seed %#" PRIx64 " (set DFLY_TEST_SEED to override)\n", prng_seed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
