/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers the `dfly` subcommands share (cmds.h): wall-clock time, the executable's folder, and
 * the parsers of lists, loads and numbers on their command lines.
 */
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "netcfg.h"

/* Split a comma-separated list in place; an empty item is an error, not skipped. */
int dfly_split_list(char *s, char **out, int max)
{
	int n = 0;

	for (char *tok = strsep(&s, ","); tok != NULL; tok = strsep(&s, ",")) {
		if (*tok == '\0')
			return -EINVAL;
		if (n == max)
			return -E2BIG;
		out[n++] = tok;
	}
	return n;
}

int dfly_split_list_error(const char *list, int rc, int max, char *err, size_t errlen)
{
	if (rc == -E2BIG)
		snprintf(err, errlen, "more than %d items", max);
	else if (*list == '\0')
		snprintf(err, errlen, "an empty list");
	else
		snprintf(err, errlen, "an empty item (two commas, or one at an end)");
	return rc;
}

/* One load of --loads: a number in [0, 1], said in @p err otherwise. */
static int load_check(double x, char *err, size_t errlen)
{
	if (x >= 0 && x <= 1)
		return 0;
	snprintf(err, errlen, "%g is out of range (expected loads from 0 to 1)", x);
	return -EINVAL;
}

int dfly_parse_loads(const char *arg, double *loads, int max, char *err, size_t errlen)
{
	double a, b, step;
	int n = 0, used = 0;
	char *end;

	if (strchr(arg, ':') != NULL) {
		if (sscanf(arg, "%lf:%lf:%lf%n", &a, &b, &step, &used) != 3 || arg[used] != '\0') {
			snprintf(err, errlen, "expected a range A:B:STEP of three numbers");
			return -EINVAL;
		}
		if (!(step > 0)) {
			snprintf(err, errlen, "the step %g is not > 0", step);
			return -EINVAL;
		}
		if (b < a) {
			snprintf(err, errlen,
				 "the range runs backwards (from %g down to %g); A:B:STEP goes "
				 "up from A to B, so write %g:%g:%g",
				 a, b, b, a, step);
			return -EINVAL;
		}
		if (load_check(a, err, errlen) != 0 || load_check(b, err, errlen) != 0)
			return -EINVAL;
		for (int k = 0;; k++) {
			double x = a + k * step;

			if (x > b + step * 1e-6)
				break;
			if (n == max) {
				snprintf(err, errlen, "more than %d loads (raise STEP)", max);
				return -E2BIG;
			}
			loads[n++] = round(x * 1e9) / 1e9;
		}
		return n;
	}
	for (const char *p = arg;; p = end + 1) {
		double x = strtod(p, &end);

		if (*p == ',' || *p == '\0') {
			snprintf(err, errlen, "an empty item (two commas, or one at an end)");
			return -EINVAL;
		}
		if (end == p || (*end != ',' && *end != '\0')) {
			snprintf(err, errlen,
				 "expected a list of loads (0.1,0.3) or a range A:B:STEP");
			return -EINVAL;
		}
		if (load_check(x, err, errlen) != 0)
			return -EINVAL;
		if (n == max) {
			snprintf(err, errlen, "more than %d loads", max);
			return -E2BIG;
		}
		loads[n++] = x;
		if (*end == '\0')
			return n;
	}
}

const char *self_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash == NULL)
		return NULL;
	*slash = '\0';
	return buf;
}

int dfly_sim_threads_env(struct dfly_netcfg *cfg, char *err, size_t errlen)
{
	const char *env = getenv("DFLY_SIM_THREADS");
	unsigned long v;
	char *end;

	if (env == NULL || *env == '\0')
		return 0;
	v = strtoul(env, &end, 10);
	if (*end != '\0' || v < 1 || v > 64) {
		snprintf(err, errlen, "DFLY_SIM_THREADS=%s: expected 1 to 64", env);
		return -EINVAL;
	}
	cfg->threads = (uint32_t)v;
	return 0;
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Parse a whole unsigned decimal number. */
int transient_parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end != '\0' ? -EINVAL : 0;
}

/* The folders, relative to the dfly executable's, where the other binaries are: beside it (an
 * install, and dfly-controld in the build tree) or in the build tree's dataplane/ (dfly-switch). */
static const char *const tool_dirs[] = {".", "../dataplane", NULL};

int dfly_find_tool(const char *name, char *out, size_t len)
{
	char dir[4096];

	if (self_dir(dir, sizeof(dir)) != NULL) {
		for (int i = 0; tool_dirs[i] != NULL; i++) {
			int n = snprintf(out, len, "%s/%s/%s", dir, tool_dirs[i], name);

			if (n > 0 && (size_t)n < len && access(out, X_OK) == 0)
				return 0;
		}
	}
	snprintf(out, len, "%s", name);
	return -ENOENT;
}

/* Print one shell word, quoted if it needs to be (cmds.h). */
void dfly_sh_word(FILE *f, const char *s)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_-+=./,:@%";

	if (*s && strspn(s, safe) == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}
