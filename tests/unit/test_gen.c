/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the traffic patterns (traffic/gen.c, spec §7.2) on h4 (g = 33, 32 nodes per
 * group): 200 destinations drawn for every node, and for each pattern the rule it must keep:
 * UN never picks the node itself; ADV+N the group G+N; ADVc one of G+1..G+h; perm a fixed
 * derangement; C1 the node's own area (9, 8, 8, 8 groups) and its rule there (UN; ADV+1 and
 * ADV+h modulo the area; ADVc inside the area) with every destination group of the rule seen;
 * C2 ADV+1 for odd nodes and ADV+h for even ones, each to its own parity.
 *
 * Bursty-UN (spec §7.3) on h2 (72 nodes), seed 11, load 0.2 with 8-phit packets (P_ON = 0.025),
 * its unit test: the long-run load (packets per node-cycle, i.e. the ON fraction) is P_ON within
 * 3%, the mean burst (packets in a row to one destination) is B within 3%, for the default B = 5
 * and for B = 20; destinations never the node itself and uniform (chi-square of the offsets
 * d − n mod N over the N − 1 = 71 values below 70 + 6·sqrt(140)). The 3% bounds are about 4 of
 * the chain's standard deviations (its lag-one correlation (1 − 1/B)(1 − p_off→on) inflates the
 * variance of the load by (1 + ρ)/(1 − ρ)); the seed is fixed, so the values never move.
 *
 * Mix (§7.2, A-7.2) on h4, seed 5, mix_un = 0.3: every packet not sent to group G+1 is UN, and
 * the UN share estimated from the share f sent to G+1, (1 − f)/(1 − 32/1055), is 0.3 within
 * 0.01 (its standard deviation is 0.001); mix_un = 0 sends everything to G+1.
 *
 * adv-mix (LIA §6.1.2's even mixes of adversarial offsets, per packet as) on h4, seed 9, 200
 * draws per node (211,200 packets): every destination is a node of G+N for one of the listed N
 * ({+2,+4}, {+3,+9}, {-3,+9,+17}); each offset's share is 1/n within 0.005 (its standard deviation
 * is sqrt(p(1-p)/211200) <= 0.0011, so the bound is > 4.5 of them); the node inside the group is
 * uniform (chi-square of the 32 positions below 31 + 6·sqrt(62) per offset list). Refused: no
 * offset, more than DFLY_MIX_MAX_OFFSETS, an offset ≡ 0 mod g, two naming the same group; and by
 * the loader, with the file's line and the setting, an offset ≡ 0 mod g and adv-mix without
 * offsets.
 *
 * All-to-all (spec §7.6) on h4 (1056 nodes): each node fires exactly N − 1 times and reaches
 * every other node exactly once, in the linear-shift order of its task (consecutive: round j of
 * node i goes to (i + j) mod N); random placement is a permutation drawn from the seed (the
 * same for the same seed, another for another) with the same coverage; done only when every
 * node has sent all. (Spec §7.6's sanity bound, completion ≥ (N − 1) · L cycles, is checked on
 * whole runs: tests/sim/test_patterns.c.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>

#include "gen.h"

#define DRAWS 200

static struct dfly_topo *h4(void)
{
	struct dfly_topo *t = dfly_topo_create(4, 8, 4, 1, DFLY_ARR_PALMTREE, -1);

	assert_non_null(t);
	return t;
}

static void test_basic_patterns(void **state)
{
	struct dfly_topo *t = h4();
	struct dfly_gen g;
	const uint32_t gsz = 32;

	(void)state;
	assert_int_equal(dfly_gen_init(&g, t, DFLY_PAT_UN, 0, 0.1, 8, 1), 0);
	for (uint32_t n = 0; n < t->nodes; n++)
		for (int i = 0; i < DRAWS; i++) {
			uint32_t d = dfly_gen_pick_dst(&g, n);

			assert_true(d < t->nodes && d != n);
		}
	assert_int_equal(dfly_gen_set_pattern(&g, DFLY_PAT_ADV, -3), 0);
	for (uint32_t n = 0; n < t->nodes; n++)
		for (int i = 0; i < DRAWS; i++)
			assert_int_equal(dfly_gen_pick_dst(&g, n) / gsz, (n / gsz + 33 - 3) % 33);
	assert_int_equal(dfly_gen_set_pattern(&g, DFLY_PAT_ADVC, 0), 0);
	for (uint32_t n = 0; n < t->nodes; n++)
		for (int i = 0; i < DRAWS; i++) {
			uint32_t off = (dfly_gen_pick_dst(&g, n) / gsz + 33 - n / gsz) % 33;

			assert_true(off >= 1 && off <= 4);
		}
	/* traffic.advc_groups = h - 1 (FOGSim v5's ADVc): G+1 .. G+3 only, each of them drawn */
	assert_int_equal(dfly_gen_set_advc_groups(&g, 5), -EINVAL);
	assert_int_equal(dfly_gen_set_advc_groups(&g, 3), 0);
	{
		uint32_t seen = 0;

		for (uint32_t n = 0; n < t->nodes; n++)
			for (int i = 0; i < DRAWS; i++) {
				uint32_t off = (dfly_gen_pick_dst(&g, n) / gsz + 33 - n / gsz) % 33;

				assert_true(off >= 1 && off <= 3);
				seen |= 1u << off;
			}
		assert_int_equal(seen, 0xe);
	}
	assert_int_equal(dfly_gen_set_advc_groups(&g, 0), 0);
	assert_int_equal(dfly_gen_set_pattern(&g, DFLY_PAT_ADV, 33), -EINVAL);
	dfly_gen_fini(&g);
	dfly_topo_destroy(t);
}

static void test_c1(void **state)
{
	static const uint32_t first[5] = {0, 9, 17, 25, 33};
	struct dfly_topo *t = h4();
	struct dfly_gen g;
	const uint32_t gsz = 32;
	uint64_t seen[4] = {0}; /* bit: offset inside the area seen, per area */

	(void)state;
	assert_int_equal(dfly_gen_init(&g, t, DFLY_PAT_C1, 0, 0.1, 8, 7), 0);
	for (uint32_t n = 0; n < t->nodes; n++) {
		uint32_t G = n / gsz, A = 0, na;

		while (G >= first[A + 1])
			A++;
		na = first[A + 1] - first[A];
		for (int i = 0; i < DRAWS; i++) {
			uint32_t d = dfly_gen_pick_dst(&g, n), Gd = d / gsz, off;

			assert_true(d != n);
			assert_true(Gd >= first[A] && Gd < first[A + 1]); /* inside its area */
			off = (Gd - first[A] + na - (G - first[A])) % na;
			seen[A] |= 1ull << off;
			switch (A) {
			case 1:
				assert_int_equal(off, 1);
				break;
			case 2:
				assert_int_equal(off, 4);
				break;
			case 3:
				assert_true(off >= 1 && off <= 4);
				break;
			default:
				break;
			}
		}
	}
	assert_int_equal(seen[0], (1ull << 9) - 1); /* UN: every group of the area, own too */
	assert_int_equal(seen[1], 1ull << 1);
	assert_int_equal(seen[2], 1ull << 4);
	assert_int_equal(seen[3], 0x1eull);
	dfly_gen_fini(&g);
	dfly_topo_destroy(t);
}

static void test_c2(void **state)
{
	struct dfly_topo *t = h4();
	struct dfly_gen g;
	const uint32_t gsz = 32;
	uint32_t hits[2][32] = {{0}};

	(void)state;
	assert_int_equal(dfly_gen_init(&g, t, DFLY_PAT_C2, 0, 0.1, 8, 3), 0);
	for (uint32_t n = 0; n < t->nodes; n++)
		for (int i = 0; i < DRAWS; i++) {
			uint32_t d = dfly_gen_pick_dst(&g, n);

			assert_int_equal(d % 2, n % 2);
			assert_int_equal(d / gsz, (n / gsz + (n % 2 ? 1 : 4)) % 33);
			hits[n % 2][d % gsz]++;
		}
	for (uint32_t k = 0; k < gsz; k++)
		assert_true((hits[k % 2][k] > 0) && hits[1 - k % 2][k] == 0);
	dfly_gen_fini(&g);
	dfly_topo_destroy(t);
}

static struct dfly_topo *h2(void)
{
	struct dfly_topo *t = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);

	assert_non_null(t);
	return t;
}

/* Run @p cycles of bursty-un with B = @p burst_len and check load, bursts and destinations. */
static void check_bursty(double burst_len, uint64_t cycles)
{
	struct dfly_topo *t = h2();
	const uint32_t N = t->nodes;
	const double P = 0.2 / 8;
	struct dfly_gen g;
	uint64_t pkts = 0, bursts = 0, chi_n[72] = {0};
	uint32_t last_dst[72];
	bool last_on[72] = {false};
	double chi = 0, e, load, blen;

	assert_int_equal(N, 72);
	assert_int_equal(dfly_gen_init(&g, t, DFLY_PAT_BURSTY, 0, 0.2, 8, 11), 0);
	if (burst_len != DFLY_GEN_BURST_LEN)
		assert_int_equal(dfly_gen_set_shape(&g, burst_len, DFLY_GEN_MIX_UN), 0);
	for (uint64_t c = 0; c < cycles; c++)
		for (uint32_t n = 0; n < N; n++) {
			uint32_t d;

			if (!dfly_gen_fire(&g, n)) {
				last_on[n] = false;
				continue;
			}
			d = dfly_gen_pick_dst(&g, n);
			assert_true(d < N && d != n);
			pkts++;
			if (!last_on[n] || d != last_dst[n]) {
				bursts++;
				chi_n[(d + N - n) % N]++;
			}
			last_on[n] = true;
			last_dst[n] = d;
		}
	load = (double)pkts / ((double)cycles * N);
	blen = (double)pkts / (double)bursts;
	e = (double)bursts / (N - 1);
	for (uint32_t k = 1; k < N; k++)
		chi += ((double)chi_n[k] - e) * ((double)chi_n[k] - e) / e;
	printf("bursty-un B=%g seed 11: load %.5f (P_ON %.5f), mean burst %.3f, chi2 %.1f (71 "
	       "offsets)\n",
	       burst_len, load, P, blen, chi);
	assert_int_equal(chi_n[0], 0);
	assert_true(fabs(load / P - 1) < 0.03);
	assert_true(fabs(blen / burst_len - 1) < 0.03);
	assert_true(chi < 70 + 6 * sqrt(140));
	dfly_gen_fini(&g);
	dfly_topo_destroy(t);
}

static void test_bursty(void **state)
{
	(void)state;
	check_bursty(DFLY_GEN_BURST_LEN, 100000);
	check_bursty(20, 300000);
}

static void test_bursty_args(void **state)
{
	struct dfly_topo *t = h2();
	struct dfly_gen a, b;

	(void)state;
	assert_int_equal(dfly_gen_init(&a, t, DFLY_PAT_BURSTY, 0, 0.3, 8, 4), 0);
	assert_int_equal(dfly_gen_set_shape(&a, 0.5, 0.5), -EINVAL);
	assert_int_equal(dfly_gen_set_shape(&a, 5, 1.5), -EINVAL);
	assert_int_equal(dfly_gen_set_shape(&a, 5, -0.1), -EINVAL);
	/* same seed, same packets */
	assert_int_equal(dfly_gen_init(&b, t, DFLY_PAT_BURSTY, 0, 0.3, 8, 4), 0);
	for (int c = 0; c < 2000; c++)
		for (uint32_t n = 0; n < t->nodes; n++) {
			bool fa = dfly_gen_fire(&a, n);

			assert_int_equal(fa, dfly_gen_fire(&b, n));
			if (fa)
				assert_int_equal(dfly_gen_pick_dst(&a, n),
						 dfly_gen_pick_dst(&b, n));
		}
	/* load 0: no draw, no packet */
	dfly_gen_set_load(&a, 0, 8);
	for (uint32_t n = 0; n < t->nodes; n++)
		assert_false(dfly_gen_fire(&a, n));
	dfly_gen_fini(&a);
	dfly_gen_fini(&b);
	dfly_topo_destroy(t);
}

static void test_mix(void **state)
{
	struct dfly_topo *t = h4();
	struct dfly_gen g;
	const uint32_t gsz = 32;
	uint64_t adv = 0, total = 0, groups = 0;
	double un;

	(void)state;
	assert_int_equal(dfly_gen_init(&g, t, DFLY_PAT_MIX, 1, 0.1, 8, 5), 0);
	assert_int_equal(dfly_gen_set_shape(&g, DFLY_GEN_BURST_LEN, 0.3), 0);
	for (uint32_t n = 0; n < t->nodes; n++)
		for (int i = 0; i < DRAWS; i++) {
			uint32_t d = dfly_gen_pick_dst(&g, n), Gd = d / gsz;

			assert_true(d < t->nodes && d != n);
			total++;
			if (Gd == (n / gsz + 1) % 33)
				adv++;
			else if (n < gsz)
				groups |= 1ull << Gd; /* UN from group 0: any group but 1 */
		}
	un = (1 - (double)adv / (double)total) / (1 - 32.0 / 1055);
	printf("mix seed 5 mix_un 0.3: %" PRIu64 " of %" PRIu64 " packets to G+1, UN share %.4f\n",
	       adv, total, un);
	assert_true(fabs(un - 0.3) < 0.01);
	assert_int_equal(groups, ((1ull << 33) - 1) & ~2ull);
	/* mix_un = 0: every packet ADV+1 */
	assert_int_equal(dfly_gen_set_shape(&g, DFLY_GEN_BURST_LEN, 0), 0);
	for (uint32_t n = 0; n < t->nodes; n++)
		for (int i = 0; i < 20; i++)
			assert_int_equal(dfly_gen_pick_dst(&g, n) / gsz, (n / gsz + 1) % 33);
	assert_int_equal(dfly_gen_set_pattern(&g, DFLY_PAT_MIX, 33), -EINVAL);
	dfly_gen_fini(&g);
	dfly_topo_destroy(t);
}

/* One adv-mix offset list on h4 (g = 33): the rule, the shares, the node inside the group. */
static void adv_mix_case(const int *offs, uint32_t n)
{
	struct dfly_topo *t = h4();
	struct dfly_gen g;
	const uint32_t gsz = 32;
	uint64_t per_off[DFLY_MIX_MAX_OFFSETS] = {0}, pos[32] = {0}, total = 0;
	double chi = 0, e;

	assert_int_equal(dfly_gen_init(&g, t, DFLY_PAT_ADVMIX, 0, 0.1, 8, 9), 0);
	assert_int_equal(dfly_gen_set_mix_offsets(&g, offs, n), 0);
	for (uint32_t v = 0; v < t->nodes; v++)
		for (int i = 0; i < DRAWS; i++) {
			uint32_t d = dfly_gen_pick_dst(&g, v), G = v / gsz, k;

			assert_true(d < t->nodes);
			for (k = 0; k < n; k++)
				if (d / gsz == (uint32_t)(((int)G + offs[k] + 33 * 33) % 33))
					break;
			assert_true(k < n); /* a node of G+N for one of the offsets */
			per_off[k]++;
			pos[d % gsz]++;
			total++;
		}
	printf("adv-mix seed 9, offsets");
	for (uint32_t k = 0; k < n; k++)
		printf(" %+d", offs[k]);
	printf(":");
	for (uint32_t k = 0; k < n; k++) {
		double share = (double)per_off[k] / (double)total;

		printf(" %.4f", share);
		assert_true(fabs(share - 1.0 / n) < 0.005);
	}
	e = (double)total / gsz;
	for (uint32_t i = 0; i < gsz; i++)
		chi += ((double)pos[i] - e) * ((double)pos[i] - e) / e;
	printf(" (shares of %" PRIu64 " packets); node in group chi-square %.1f (31 dof)\n", total,
	       chi);
	assert_true(chi < 31 + 6 * sqrt(62));
	dfly_gen_fini(&g);
	dfly_topo_destroy(t);
}

static void test_adv_mix(void **state)
{
	static const int m24[] = {2, 4}, m39[] = {3, 9}, m3[] = {-3, 9, 17};
	static const int zero[] = {2, 33}, same[] = {2, -31}, many[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
	struct dfly_topo *t = h4();
	struct dfly_gen g;

	(void)state;
	adv_mix_case(m24, 2);
	adv_mix_case(m39, 2);
	adv_mix_case(m3, 3);
	assert_int_equal(dfly_gen_init(&g, t, DFLY_PAT_ADVMIX, 0, 0.1, 8, 9), 0);
	assert_int_equal(g.mix_noffs, 1); /* {+1} until set */
	assert_int_equal(dfly_gen_pick_dst(&g, 0) / 32, 1);
	assert_int_equal(dfly_gen_set_mix_offsets(&g, m24, 0), -EINVAL);
	assert_int_equal(dfly_gen_set_mix_offsets(&g, zero, 2), -EINVAL);
	assert_int_equal(dfly_gen_set_mix_offsets(&g, same, 2), -EINVAL);
	assert_int_equal(dfly_gen_set_mix_offsets(&g, many, 9), -EINVAL);
	dfly_gen_fini(&g);
	dfly_topo_destroy(t);
}

/* Load @p text (an h4 network, g = 33) with @p set; @return the loader's error ("" if none). */
static void adv_mix_load(const char *text, const char *set, char *err, size_t len, char *path)
{
	struct dfly_netcfg cfg;
	const char *sets[1] = {set};
	FILE *f;
	int fd;

	snprintf(path, 64, "/tmp/dfly-gen-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	err[0] = '\0';
	dfly_netcfg_load(&cfg, path, sets, set ? 1 : 0, err, len);
	unlink(path);
}

static void test_adv_mix_loader(void **state)
{
	static const char net[] = "topology = { p = 4; a = 8; h = 4; };\n" /* 1 */
				  "routing = { mechanism = \"min\"; };\n"  /* 2 */
				  "traffic = {\n"                          /* 3 */
				  "\tpattern = \"adv-mix\";\n"             /* 4 */
				  "\tmix_offsets = \"+2, +33\";\n"         /* 5 */
				  "};\n";                                  /* 6 */
	static const char none[] = "topology = { p = 4; a = 8; h = 4; };\n"
				   "routing = { mechanism = \"min\"; };\n"
				   "traffic = {\n"
				   "\tpattern = \"adv-mix\";\n"
				   "};\n";
	char err[DFLY_NETCFG_ERRLEN], want[DFLY_NETCFG_ERRLEN], path[64];
	struct dfly_netcfg cfg;

	(void)state;
	adv_mix_load(net, NULL, err, sizeof(err), path);
	snprintf(want, sizeof(want),
		 "%s:5: traffic.mix_offsets: offset +33 sends its packets to their own group "
		 "(expected N mod g != 0, g = 33)",
		 path);
	assert_string_equal(err, want);
	adv_mix_load(net, "traffic.mix_offsets=-66,+1", err, sizeof(err), path);
	assert_string_equal(err, "--set traffic.mix_offsets=-66,+1: traffic.mix_offsets: offset "
				 "-66 sends its packets to their own group (expected N mod g != "
				 "0, g = 33)");
	adv_mix_load(net, "traffic.mix_offsets=+2,x", err, sizeof(err), path);
	assert_string_equal(err, "--set traffic.mix_offsets=+2,x: traffic.mix_offsets: bad offset "
				 "list '+2,x' (expected signed integers separated by commas, e.g. "
				 "\"+2,+4\")");
	adv_mix_load(none, NULL, err, sizeof(err), path);
	snprintf(want, sizeof(want),
		 "%s:3: traffic.mix_offsets: adv-mix needs at least one group offset (expected "
		 "e.g. \"+2,+4\")",
		 path);
	assert_string_equal(err, want);
	/* accepted: the offsets reach the configuration, and the pattern's name lists them */
	adv_mix_load(net, "traffic.mix_offsets=+2,-4", err, sizeof(err), path);
	assert_string_equal(err, "");
	{
		FILE *f;
		int fd;

		snprintf(path, sizeof(path), "/tmp/dfly-gen-XXXXXX");
		fd = mkstemp(path);
		assert_true(fd >= 0);
		f = fdopen(fd, "w");
		assert_non_null(f);
		fputs(none, f);
		assert_int_equal(fclose(f), 0);
		assert_int_equal(
		    dfly_netcfg_load(&cfg, path, (const char *const[]){"traffic.mix_offsets=+2,-4"},
				     1, err, sizeof(err)),
		    0);
		unlink(path);
	}
	assert_int_equal(cfg.pattern, DFLY_PAT_ADVMIX);
	assert_int_equal(cfg.mix_noffs, 2);
	assert_int_equal(cfg.mix_offs[0], 2);
	assert_int_equal(cfg.mix_offs[1], -4);
	assert_string_equal(dfly_pattern_name(&cfg, err, sizeof(err)), "adv-mix+2-4");
}

static void a2a_cover(struct dfly_gen *g, bool consecutive)
{
	uint32_t N = g->topo->nodes;
	uint8_t *seen = calloc((size_t)N * N, 1);

	assert_non_null(seen);
	for (uint32_t n = 0; n < N; n++) {
		for (uint32_t j = 1; j < N; j++) {
			uint32_t d;

			assert_true(dfly_gen_fire(g, n));
			d = dfly_gen_pick_dst(g, n);
			assert_true(d < N && d != n);
			assert_int_equal(seen[(size_t)n * N + d], 0);
			seen[(size_t)n * N + d] = 1;
			if (consecutive)
				assert_int_equal(d, (n + j) % N);
		}
		assert_false(dfly_gen_fire(g, n));
		if (n + 1 < N)
			assert_false(dfly_gen_done(g));
	}
	assert_true(dfly_gen_done(g));
	free(seen);
}

static void test_all_to_all(void **state)
{
	struct dfly_topo *t = h4();
	struct dfly_gen g, g2;
	uint32_t same = 0, moved = 0;

	(void)state;
	assert_int_equal(dfly_gen_init(&g, t, DFLY_PAT_A2A, 0, 0.0, 8, 3), 0);
	a2a_cover(&g, true);
	assert_int_equal(dfly_gen_set_placement(&g, true), 0);
	assert_false(dfly_gen_done(&g));
	assert_int_equal(dfly_gen_init(&g2, t, DFLY_PAT_A2A, 0, 0.0, 8, 4), 0);
	assert_int_equal(dfly_gen_set_placement(&g2, true), 0);
	for (uint32_t k = 0; k < t->nodes; k++) {
		moved += g.a2a_node[k] != k;
		same += g.a2a_node[k] == g2.a2a_node[k];
	}
	assert_true(moved > t->nodes / 2 && same < t->nodes / 2);
	a2a_cover(&g, false);
	assert_int_equal(dfly_gen_set_pattern(&g, DFLY_PAT_UN, 0), 0);
	assert_int_equal(dfly_gen_set_placement(&g, true), -EINVAL);
	dfly_gen_fini(&g);
	dfly_gen_fini(&g2);
	dfly_topo_destroy(t);
}

/*
 * Halo3D (spec §7.8, proposal-defined): the most cubic grid (72 = 6 x 4 x 3; 16,512, CFG-T's
 * nodes, = 43 x 24 x 16; a prime stays a line), per iteration one message per neighbour in
 * packets (cube 8, 80-byte packets: faces 512 B = 7 packets, edges 64 B = 1, corners 1: 62),
 * every one of a process's 26 neighbours on the periodic 6 x 4 x 3 grid receiving its message's
 * packets, the iteration barrier holding a node that sent its share until the next release, and
 * a grid of 1 along an axis dropping the messages that fold onto the process itself (the others
 * fold onto the neighbours along the remaining axes).
 */
static void test_halo3d(void **state)
{
	struct dfly_topo *t = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1); /* 72 nodes */
	const uint32_t autogrid[3] = {0, 0, 0}, flat[3] = {72, 1, 1}, bad[3] = {5, 5, 3};
	uint32_t dims[3], *got = calloc(t->nodes, sizeof(*got));
	struct dfly_gen g;

	(void)state;
	dfly_gen_halo_grid(72, dims);
	assert_true(dims[0] == 6 && dims[1] == 4 && dims[2] == 3);
	dfly_gen_halo_grid(16512, dims);
	assert_true(dims[0] == 43 && dims[1] == 24 && dims[2] == 16);
	dfly_gen_halo_grid(13, dims);
	assert_true(dims[0] == 13 && dims[1] == 1 && dims[2] == 1);

	assert_int_equal(dfly_gen_init(&g, t, DFLY_PAT_HALO, 0, 0.0, 8, 3), 0);
	assert_int_equal(dfly_gen_set_halo(&g, bad, 8, 80, 2, false), -EINVAL);
	assert_int_equal(dfly_gen_set_halo(&g, autogrid, 8, 80, 2, false), 0);
	assert_int_equal(g.halo_nmsg, 26);
	assert_int_equal(g.halo_ppi, 6 * 7 + 12 * 1 + 8 * 1);
	/* node 0 (task 0 at (0, 0, 0), consecutive placement): its first iteration */
	for (uint32_t k = 0; k < g.halo_ppi; k++) {
		assert_true(dfly_gen_fire(&g, 0));
		got[dfly_gen_pick_dst(&g, 0)]++;
	}
	assert_false(dfly_gen_fire(&g, 0)); /* the barrier */
	assert_false(dfly_gen_done(&g));
	for (int dx = -1; dx <= 1; dx++)
		for (int dy = -1; dy <= 1; dy++)
			for (int dz = -1; dz <= 1; dz++) {
				uint32_t x = (uint32_t)(dx + 6) % 6, y = (uint32_t)(dy + 4) % 4,
					 z = (uint32_t)(dz + 3) % 3;
				unsigned nz = (dx != 0) + (dy != 0) + (dz != 0);

				assert_int_equal(got[x + 6 * (y + 4 * z)], nz == 0   ? 0
									   : nz == 1 ? 7
										     : 1);
			}
	assert_int_equal(dfly_gen_halo_release(&g), 2);
	assert_true(dfly_gen_fire(&g, 0));
	assert_int_equal(dfly_gen_halo_release(&g), 2); /* no third iteration */
	/* a line: the offsets along y and z alone fold onto the process (dropped); the others
	 * reach the two x neighbours, each a face, 4 edges and 4 corners: 2 x (7 + 4 + 4) */
	assert_int_equal(dfly_gen_set_halo(&g, flat, 8, 80, 1, true), 0);
	assert_int_equal(g.halo_nmsg, 18);
	assert_int_equal(g.halo_ppi, 30);
	dfly_gen_fini(&g);
	free(got);
	dfly_topo_destroy(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_basic_patterns),
	    cmocka_unit_test(test_c1),
	    cmocka_unit_test(test_c2),
	    cmocka_unit_test(test_bursty),
	    cmocka_unit_test(test_bursty_args),
	    cmocka_unit_test(test_mix),
	    cmocka_unit_test(test_adv_mix),
	    cmocka_unit_test(test_adv_mix_loader),
	    cmocka_unit_test(test_all_to_all),
	    cmocka_unit_test(test_halo3d),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
