/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the libraries' log (include/dfly/log.h, asic-emu/log.c): names, levels per
 * component, the handler, and the rate limit's burst and count of messages left out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "dfly/log.h"

static unsigned got;
static char last[512];
static enum dfly_log_type last_type;
static enum dfly_log_level last_level;

static void grab(enum dfly_log_type type, enum dfly_log_level level, const char *msg)
{
	got++;
	last_type = type;
	last_level = level;
	snprintf(last, sizeof(last), "%s", msg);
}

static int setup(void **state)
{
	(void)state;
	got = 0;
	last[0] = '\0';
	dfly_log_set_handler(grab);
	for (int t = 0; t < DFLY_LOG_TYPE_COUNT; t++)
		dfly_log_set_level((enum dfly_log_type)t, DFLY_LOG_NOTICE);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dfly_log_set_handler(NULL);
	return 0;
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(dfly_log_type_name(DFLY_LOG_ASIC), "asic");
	assert_string_equal(dfly_log_type_name(DFLY_LOG_SIM), "sim");
	assert_string_equal(dfly_log_type_name(DFLY_LOG_TYPE_COUNT), "?");
	assert_string_equal(dfly_log_type_name((enum dfly_log_type) - 1), "?");
}

static void test_levels(void **state)
{
	(void)state;
	/* NOTICE by default: INFO and DEBUG are dropped, ERR to NOTICE pass */
	dfly_log(DFLY_LOG_FW, DFLY_LOG_INFO, "not this");
	assert_int_equal(got, 0);
	dfly_log(DFLY_LOG_FW, DFLY_LOG_ERR, "table %d", 3);
	assert_int_equal(got, 1);
	assert_string_equal(last, "table 3");
	assert_int_equal(last_type, DFLY_LOG_FW);
	assert_int_equal(last_level, DFLY_LOG_ERR);
	/* one component's level leaves the others alone */
	dfly_log_set_level(DFLY_LOG_FW, DFLY_LOG_DEBUG);
	assert_true(dfly_log_enabled(DFLY_LOG_FW, DFLY_LOG_DEBUG));
	assert_false(dfly_log_enabled(DFLY_LOG_ASIC, DFLY_LOG_INFO));
	dfly_log(DFLY_LOG_FW, DFLY_LOG_DEBUG, "now");
	dfly_log(DFLY_LOG_ASIC, DFLY_LOG_DEBUG, "not this");
	assert_int_equal(got, 2);
	assert_string_equal(last, "now");
	dfly_log_set_level(DFLY_LOG_CONFIG, DFLY_LOG_ERR);
	dfly_log(DFLY_LOG_CONFIG, DFLY_LOG_WARNING, "not this");
	assert_int_equal(got, 2);
	assert_false(dfly_log_enabled(DFLY_LOG_TYPE_COUNT, DFLY_LOG_ERR));
}

static void test_rate_limit(void **state)
{
	/* a window of an hour: nothing ages out during the test */
	struct dfly_log_rl rl = DFLY_LOG_RL_INIT(3600 * 1000, 3);

	(void)state;
	for (int i = 0; i < 3; i++)
		assert_true(dfly_log_rl_pass(&rl, DFLY_LOG_TRAFFIC));
	for (int i = 0; i < 5; i++)
		assert_false(dfly_log_rl_pass(&rl, DFLY_LOG_TRAFFIC));
	assert_int_equal(rl.missed, 5);
	assert_int_equal(got, 0);
	/* a new window: the count of those left out is said first, as a warning */
	rl.begin_ms -= 3600 * 1000;
	assert_true(dfly_log_rl_pass(&rl, DFLY_LOG_TRAFFIC));
	assert_int_equal(got, 1);
	assert_string_equal(last, "5 message(s) left out by the rate limit");
	assert_int_equal(last_type, DFLY_LOG_TRAFFIC);
	assert_int_equal(last_level, DFLY_LOG_WARNING);
	assert_int_equal(rl.missed, 0);
}

static void test_rate_limit_macro(void **state)
{
	(void)state;
	for (int i = 0; i < 25; i++)
		DFLY_LOG_RL(DFLY_LOG_SIM, DFLY_LOG_ERR, "burst %d", i);
	/* 10 per 5 s: the test runs well within one window */
	assert_int_equal(got, 10);
	assert_string_equal(last, "burst 9");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_names, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_levels, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rate_limit, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rate_limit_macro, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
