/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The router/node LIST syntax ("0-5,8") of `dfly stats --router` and `dfly testbed
 * --host-nodes` (stats.h): no I/O. Unit-tested by tests/unit/test_stats.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"

/* ---------------------------------------------------------------------------------------------
 * Router LISTs (stats.h)
 */

int dfly_stats_parse_id(const char **p, uint32_t *id)
{
	const char *s = *p;
	uint32_t v = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (uint32_t)(*s - '0');
		if (v >= DFLY_STATS_MAX_ROUTERS)
			return -ERANGE;
	}
	*id = v;
	*p = s;
	return 0;
}

int dfly_stats_parse_routers(const char *s, uint32_t *ids, size_t max)
{
	static const unsigned words = (DFLY_STATS_MAX_ROUTERS + 63) / 64;
	uint64_t set[(DFLY_STATS_MAX_ROUTERS + 63) / 64] = {0};
	const char *p = s;
	size_t n = 0;

	if (s == NULL || *s == '\0')
		return -EINVAL;
	for (;;) {
		uint32_t a, b;
		int rc = dfly_stats_parse_id(&p, &a);

		if (rc < 0)
			return rc;
		b = a;
		if (*p == '-') {
			p++;
			rc = dfly_stats_parse_id(&p, &b);
			if (rc < 0)
				return rc;
			if (b < a)
				return -EINVAL;
		}
		for (uint32_t i = a; i <= b; i++)
			set[i / 64] |= 1ull << (i % 64);
		if (*p == '\0')
			break;
		if (*p++ != ',')
			return -EINVAL;
	}
	for (unsigned w = 0; w < words; w++) {
		for (unsigned bit = 0; set[w] != 0 && bit < 64; bit++) {
			if (!(set[w] & (1ull << bit)))
				continue;
			if (n == max)
				return -E2BIG;
			ids[n++] = w * 64 + bit;
		}
	}
	return (int)n;
}

int dfly_stats_format_routers(const uint32_t *ids, size_t n, char *buf, size_t len)
{
	size_t out = 0;

	if (len > 0)
		buf[0] = '\0';
	for (size_t i = 0; i < n;) {
		char *dst = out < len ? buf + out : NULL;
		size_t room = out < len ? len - out : 0;
		size_t j = i;
		int w;

		while (j + 1 < n && ids[j + 1] == ids[j] + 1)
			j++;
		if (j + 1 < n && ids[j + 1] <= ids[j])
			return -EINVAL;
		if (j == i)
			w = snprintf(dst, room, "%s%u", i ? "," : "", ids[i]);
		else
			w = snprintf(dst, room, "%s%u-%u", i ? "," : "", ids[i], ids[j]);
		if (w < 0)
			return -EINVAL;
		out += (size_t)w;
		i = j + 1;
	}
	return (int)out;
}
