/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command-line conventions of every dfly binary (cli.h): the version and commit they were
 * built from, usage errors that say what is wrong and where the help is, and the parsers of
 * positive durations and counts.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "dfly_rev.h"

/* Upper bounds too large to be worth saying in a message: a count of 2^53 or more, a time of
 * 10^6 seconds (11 days) or more. */
#define CLI_UNBOUNDED (1ull << 53)
#define CLI_LONG_S    1e6

#ifndef DFLY_VERSION
#error "DFLY_VERSION comes from meson.build (config/meson.build: c_args)"
#endif

const char *dfly_cli_version(void)
{
	return DFLY_VERSION;
}

const char *dfly_cli_rev(void)
{
	return DFLY_REV;
}

void dfly_cli_print_version(FILE *f, const char *name)
{
	fprintf(f, "%s %s (%s)\n", name, DFLY_VERSION, DFLY_REV);
}

int dfly_cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee '%s --help'\n", cmd);
	return DFLY_CLI_USAGE;
}

/* The long option @p word ("--name" or "--name=value") names exactly, or NULL; with @p val
 * not 0, the option of that val whose name @p word abbreviates (as getopt_long() allows). */
static const struct option *cli_long_find(const struct option *opts, const char *word, int val)
{
	size_t n = strcspn(word + 2, "=");

	for (const struct option *o = opts; o->name != NULL; o++)
		if (strlen(o->name) == n && strncmp(o->name, word + 2, n) == 0)
			return o;
	for (const struct option *o = opts; val != 0 && o->name != NULL; o++)
		if (o->val == val && o->flag == NULL && strncmp(o->name, word + 2, n) == 0)
			return o;
	return NULL;
}

int dfly_cli_opt_error(const char *cmd, const struct option *opts, int opt, char *const *argv)
{
	const char *word = optind > 0 ? argv[optind - 1] : "";
	bool is_long = strncmp(word, "--", 2) == 0 && word[2] != '\0';
	const struct option *o = is_long ? cli_long_find(opts, word, optopt) : NULL;
	int n = is_long ? (int)strcspn(word, "=") : 0;
	char cands[256] = "";
	size_t len = 0;
	int ncand = 0;

	/* a short option inside a group (-xq) leaves optind on its word: trust optopt there */
	if (optopt != 0 && is_long && (o == NULL || o->val != optopt))
		is_long = false;
	if (opt == ':') {
		if (is_long)
			return dfly_cli_usage_error(cmd, "option '%.*s' needs a value", n, word);
		return dfly_cli_usage_error(cmd, "option '-%c' needs a value", optopt);
	}
	if (!is_long)
		return dfly_cli_usage_error(cmd, "unknown option '-%c'", optopt);
	if (o != NULL && word[n] == '=' && o->has_arg == no_argument)
		return dfly_cli_usage_error(cmd, "option '%.*s' takes no value", n, word);
	for (const struct option *c = opts; c->name != NULL; c++) {
		if (strncmp(c->name, word + 2, (size_t)n - 2) != 0)
			continue;
		ncand++;
		if (len < sizeof(cands))
			len += (size_t)snprintf(cands + len, sizeof(cands) - len, "%s--%s",
						len ? ", " : "", c->name);
	}
	if (ncand > 1)
		return dfly_cli_usage_error(cmd, "option '%.*s' is ambiguous (%s)", n, word, cands);
	return dfly_cli_usage_error(cmd, "unknown option '%.*s'", n, word);
}

int dfly_cli_parse_u64(const char *cmd, const char *opt, const char *arg, uint64_t min,
		       uint64_t max, const char *unit, uint64_t *out)
{
	unsigned long long v = 0;
	char *end = NULL;

	if (*arg >= '0' && *arg <= '9') {
		errno = 0;
		v = strtoull(arg, &end, 10);
	}
	if (end != NULL && *end == '\0' && errno == 0 && v >= min && v <= max) {
		*out = v;
		return 0;
	}
	if (max >= CLI_UNBOUNDED && min <= 1)
		fprintf(stderr, "%s: %s %s: expected a whole number of %s%s\n", cmd, opt, arg, unit,
			min == 1 ? " > 0" : "");
	else if (max >= CLI_UNBOUNDED)
		fprintf(stderr, "%s: %s %s: expected a whole number of %s >= %llu\n", cmd, opt, arg,
			unit, (unsigned long long)min);
	else
		fprintf(stderr, "%s: %s %s: expected a whole number of %s from %llu to %llu\n", cmd,
			opt, arg, unit, (unsigned long long)min, (unsigned long long)max);
	return -EINVAL;
}

int dfly_cli_parse_seconds(const char *cmd, const char *opt, const char *arg, double max,
			   double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end != arg && *end == '\0' && errno == 0 && isfinite(v) && v > 0 && v <= max) {
		*out = v;
		return 0;
	}
	if (max < CLI_LONG_S)
		fprintf(stderr, "%s: %s %s: expected a number of seconds > 0, at most %g\n", cmd,
			opt, arg, max);
	else
		fprintf(stderr, "%s: %s %s: expected a number of seconds > 0\n", cmd, opt, arg);
	return -EINVAL;
}
