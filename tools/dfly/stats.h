/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The parts of `dfly stats` (stats.c) that do no I/O: the router LIST syntax of --router and
 * --list ("0-5,8"), read and written. Unit-tested by tests/unit/test_stats.c.
 */
#ifndef DFLY_STATS_H
#define DFLY_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "dfly/regs.h"

/** Router ids a LIST may name: [0, DFLY_STATS_MAX_ROUTERS), g·a at the largest sizes. */
#define DFLY_STATS_MAX_ROUTERS (DFLY_MAX_GROUPS * DFLY_MAX_A)

/**
 * Parse a router LIST: comma-separated ids and inclusive ranges A-B (A ≤ B), decimal digits
 * only, no spaces, e.g. "0-5,8". Repeated and overlapping items are merged.
 * @return the number of distinct ids written to @p ids in increasing order (at least 1),
 *         -EINVAL (empty LIST or item, another character, A > B), -ERANGE (an id ≥
 *         DFLY_STATS_MAX_ROUTERS) or -E2BIG (more than @p max ids).
 */
/**
 * Parse one decimal id at *@p p (digits only) and advance *@p p past it.
 * @return 0, -EINVAL (no digit) or -ERANGE (≥ DFLY_STATS_MAX_ROUTERS).
 */
int dfly_stats_parse_id(const char **p, uint32_t *id);

int dfly_stats_parse_routers(const char *s, uint32_t *ids, size_t max);

/**
 * Write @p n strictly increasing ids as a LIST, runs of consecutive ids as ranges ("0-5,8";
 * "" for n = 0). Truncates like snprintf.
 * @return the length of the whole LIST (as snprintf), or -EINVAL if @p ids is not strictly
 *         increasing.
 */
int dfly_stats_format_routers(const uint32_t *ids, size_t n, char *buf, size_t len);

#endif /* DFLY_STATS_H */
