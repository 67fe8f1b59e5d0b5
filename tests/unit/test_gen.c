/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the traffic patterns (traffic/gen.c, spec §7.2) on h4 (g = 33, 32 nodes per
 * group): 200 destinations drawn for every node, and for each pattern the rule it must keep:
 * UN never picks the node itself; ADV+N the group G+N; ADVc one of G+1..G+h; perm a fixed
 * derangement; C1 the node's own area (9, 8, 8, 8 groups) and its rule there (UN; ADV+1 and
 * ADV+h modulo the area; ADVc inside the area) with every destination group of the rule seen;
 * C2 ADV+1 for odd nodes and ADV+h for even ones, each to its own parity.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_basic_patterns),
	    cmocka_unit_test(test_c1),
	    cmocka_unit_test(test_c2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
