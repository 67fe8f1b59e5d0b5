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

/* Split a comma-separated list in place. */
int dfly_split_list(char *s, char **out, int max)
{
	int n = 0;

	for (char *tok = strtok(s, ","); tok != NULL && n < max; tok = strtok(NULL, ","))
		out[n++] = tok;
	return n;
}

int dfly_parse_loads(const char *arg, double *loads, int max)
{
	double a, b, step;
	int n = 0;
	char *end;

	if (strchr(arg, ':') != NULL) {
		if (sscanf(arg, "%lf:%lf:%lf", &a, &b, &step) != 3 || step <= 0 || b < a)
			return -1;
		for (int k = 0; n < max; k++) {
			double x = a + k * step;

			if (x > b + step * 1e-6)
				break;
			loads[n++] = round(x * 1e9) / 1e9;
		}
		return n;
	}
	for (const char *p = arg; *p && n < max;) {
		loads[n++] = strtod(p, &end);
		if (end == p)
			return -1;
		p = *end == ',' ? end + 1 : end;
		if (*end != ',' && *end != '\0')
			return -1;
	}
	return n;
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
