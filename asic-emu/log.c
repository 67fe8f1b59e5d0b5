/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The log of the portable libraries (include/dfly/log.h): levels per component, the handler the
 * front-end sets, and the rate limit. It sits in the lowest library so that every layer can log.
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "dfly/log.h"

static const char *const type_names[DFLY_LOG_TYPE_COUNT] = {
#define DFLY__LOG_NAME(E, n) n,
    DFLY_FOREACH_LOG_TYPE(DFLY__LOG_NAME)
#undef DFLY__LOG_NAME
};

static dfly_log_fn *handler;
static enum dfly_log_level levels[DFLY_LOG_TYPE_COUNT] = {
#define DFLY__LOG_DEFAULT(E, n) [DFLY_LOG_##E] = DFLY_LOG_NOTICE,
    DFLY_FOREACH_LOG_TYPE(DFLY__LOG_DEFAULT)
#undef DFLY__LOG_DEFAULT
};

const char *dfly_log_type_name(enum dfly_log_type type)
{
	return (unsigned)type < DFLY_LOG_TYPE_COUNT ? type_names[type] : "?";
}

void dfly_log_set_handler(dfly_log_fn *fn)
{
	handler = fn;
}

void dfly_log_set_level(enum dfly_log_type type, enum dfly_log_level level)
{
	if ((unsigned)type < DFLY_LOG_TYPE_COUNT)
		levels[type] = level;
}

bool dfly_log_enabled(enum dfly_log_type type, enum dfly_log_level level)
{
	return (unsigned)type < DFLY_LOG_TYPE_COUNT && level <= levels[type];
}

void dfly_log(enum dfly_log_type type, enum dfly_log_level level, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (!dfly_log_enabled(type, level))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (handler != NULL)
		handler(type, level, msg);
	else
		fprintf(stderr, "dfly %s: %s\n", dfly_log_type_name(type), msg);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

bool dfly_log_rl_pass(struct dfly_log_rl *rl, enum dfly_log_type type)
{
	uint64_t t = now_ms();

	if (rl->begin_ms == 0 || t - rl->begin_ms >= rl->interval_ms) {
		rl->begin_ms = t ? t : 1;
		rl->printed = 0;
	}
	if (rl->printed >= rl->burst) {
		rl->missed++;
		return false;
	}
	rl->printed++;
	if (rl->missed) {
		dfly_log(type, DFLY_LOG_WARNING, "%llu message(s) left out by the rate limit",
			 (unsigned long long)rl->missed);
		rl->missed = 0;
	}
	return true;
}
