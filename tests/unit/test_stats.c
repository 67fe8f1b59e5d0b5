/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the router LIST syntax of `dfly stats` (tools/dfly/stats.h): parsing "0-5,8"
 * into sorted distinct ids and writing ids back as a LIST. Negative tests first. The shared-
 * memory side of `dfly stats` is tested by tests/integration/stats.sh on a running dfly sim.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"

static int parse(const char *s, uint32_t *ids, size_t max)
{
	return dfly_stats_parse_routers(s, ids, max);
}

static void test_parse_invalid(void **state)
{
	static const char *const bad[] = {
	    "",   ",",  "1,",   ",1", "1,,2", "-",   "-1", "1-",    "1--2", "5-2",
	    " 1", "1 ", "1, 2", "a",  "1a",   "0x1", "+1", "1-2-3", "1.5",  "1;2",
	};
	uint32_t ids[8];

	(void)state;
	assert_int_equal(parse(NULL, ids, 8), -EINVAL);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], ids, 8) != -EINVAL)
			fail_msg("\"%s\" was accepted", bad[i]);
	}
}

static void test_parse_range_limits(void **state)
{
	char s[64];
	uint32_t ids[4];

	(void)state;
	snprintf(s, sizeof(s), "%u", (unsigned)DFLY_STATS_MAX_ROUTERS);
	assert_int_equal(parse(s, ids, 4), -ERANGE);
	snprintf(s, sizeof(s), "0-%u", (unsigned)DFLY_STATS_MAX_ROUTERS);
	assert_int_equal(parse(s, ids, 4), -ERANGE);
	assert_int_equal(parse("99999999999999999999", ids, 4), -ERANGE);
	/* more ids than room */
	assert_int_equal(parse("0-4", ids, 4), -E2BIG);
	assert_int_equal(parse("1,2,3,4,5", ids, 4), -E2BIG);
	/* the largest id is fine */
	snprintf(s, sizeof(s), "%u", (unsigned)DFLY_STATS_MAX_ROUTERS - 1);
	assert_int_equal(parse(s, ids, 4), 1);
	assert_int_equal(ids[0], DFLY_STATS_MAX_ROUTERS - 1);
}

static void test_parse_lists(void **state)
{
	uint32_t ids[32];
	int n;

	(void)state;
	n = parse("0-5,8", ids, 32);
	assert_int_equal(n, 7);
	for (int i = 0; i < 6; i++)
		assert_int_equal(ids[i], i);
	assert_int_equal(ids[6], 8);

	assert_int_equal(parse("7", ids, 32), 1);
	assert_int_equal(ids[0], 7);
	assert_int_equal(parse("3-3", ids, 32), 1);
	assert_int_equal(ids[0], 3);
	assert_int_equal(parse("007", ids, 32), 1);
	assert_int_equal(ids[0], 7);

	/* unsorted, repeated and overlapping items: sorted, distinct */
	n = parse("9,2-4,3,0,4-5,9", ids, 32);
	assert_int_equal(n, 6);
	assert_int_equal(ids[0], 0);
	assert_int_equal(ids[1], 2);
	assert_int_equal(ids[2], 3);
	assert_int_equal(ids[3], 4);
	assert_int_equal(ids[4], 5);
	assert_int_equal(ids[5], 9);

	/* exactly as many ids as room */
	assert_int_equal(parse("10-41", ids, 32), 32);
	assert_int_equal(ids[0], 10);
	assert_int_equal(ids[31], 41);
}

static void test_format_invalid(void **state)
{
	const uint32_t down[] = {3, 2};
	const uint32_t dup[] = {1, 2, 2};
	char buf[32];

	(void)state;
	assert_int_equal(dfly_stats_format_routers(down, 2, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(dfly_stats_format_routers(dup, 3, buf, sizeof(buf)), -EINVAL);
}

static void test_format(void **state)
{
	const uint32_t a[] = {0, 1, 2, 3, 4, 5, 8};
	const uint32_t b[] = {1, 3, 4, 6, 10, 11, 12};
	const uint32_t c[] = {35};
	char buf[64];

	(void)state;
	assert_int_equal(dfly_stats_format_routers(a, 7, buf, sizeof(buf)), 5);
	assert_string_equal(buf, "0-5,8");
	assert_int_equal(dfly_stats_format_routers(b, 7, buf, sizeof(buf)), 13);
	assert_string_equal(buf, "1,3-4,6,10-12");
	assert_int_equal(dfly_stats_format_routers(c, 1, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "35");
	assert_int_equal(dfly_stats_format_routers(a, 0, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	/* the length without a buffer, and truncation like snprintf */
	assert_int_equal(dfly_stats_format_routers(b, 7, NULL, 0), 13);
	assert_int_equal(dfly_stats_format_routers(b, 7, buf, 6), 13);
	assert_string_equal(buf, "1,3-4");
}

static void test_round_trip(void **state)
{
	static uint32_t ids[DFLY_STATS_MAX_ROUTERS], back[DFLY_STATS_MAX_ROUTERS];
	static char buf[1 << 16];
	int n, m;

	(void)state;
	/* every id of the largest network, then every third one */
	n = parse("0-32767", ids, DFLY_STATS_MAX_ROUTERS);
	assert_int_equal(n, DFLY_STATS_MAX_ROUTERS);
	assert_int_equal(dfly_stats_format_routers(ids, (size_t)n, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "0-32767");
	for (n = 0; n < DFLY_STATS_MAX_ROUTERS / 3; n++)
		ids[n] = (uint32_t)(3 * n);
	assert_true(dfly_stats_format_routers(ids, (size_t)n, buf, sizeof(buf)) < (int)sizeof(buf));
	m = parse(buf, back, DFLY_STATS_MAX_ROUTERS);
	assert_int_equal(m, n);
	assert_memory_equal(ids, back, (size_t)n * sizeof(ids[0]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_invalid), cmocka_unit_test(test_parse_range_limits),
	    cmocka_unit_test(test_parse_lists),   cmocka_unit_test(test_format_invalid),
	    cmocka_unit_test(test_format),        cmocka_unit_test(test_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
