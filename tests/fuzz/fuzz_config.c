/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz the configuration loaders: the input is written to a file and loaded as a network file
 * (dfly_netcfg_load) and as a deployment file (dp_deploy_load, whose seeds name the network file
 * "n.cfg" beside it: a copy of configs/h1.cfg). Either succeeds or fails with a message that
 * names the file; nothing may crash, leak or read out of bounds.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "deploy.h"
#include "fuzz.h"
#include "netcfg.h"

static char dir[] = "/tmp/dfly-fuzz-config-XXXXXX";
static char input[sizeof(dir) + 16];

static void copy_file(const char *from, const char *to)
{
	char buf[4096];
	size_t n;
	FILE *in = fopen(from, "r"), *out = fopen(to, "w");

	if (in == NULL || out == NULL)
		abort();
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			abort();
	fclose(in);
	fclose(out);
}

static void cleanup(void)
{
	char p[sizeof(dir) + 16];

	snprintf(p, sizeof(p), "%s/n.cfg", dir);
	unlink(p);
	unlink(input);
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char p[sizeof(dir) + 16];

	(void)argc;
	(void)argv;
	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(p, sizeof(p), "%s/n.cfg", dir);
	copy_file(DFLY_SOURCE_DIR "/configs/h1.cfg", p);
	snprintf(input, sizeof(input), "%s/in.cfg", dir);
	atexit(cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[DFLY_NETCFG_ERRLEN];
	struct dfly_netcfg cfg;
	struct dp_deploy dep;
	FILE *f = fopen(input, "w");
	int rc;

	if (f == NULL || fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	err[0] = '\0';
	rc = dfly_netcfg_load(&cfg, input, NULL, 0, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || (memchr(err, '\0', sizeof(err)) && strstr(err, input) != NULL),
		   "network file: rc %d, message \"%s\"", rc, err);
	memset(&dep, 0, sizeof(dep));
	err[0] = '\0';
	rc = dp_deploy_load(&dep, input, NULL, 0, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || (memchr(err, '\0', sizeof(err)) && err[0] != '\0'),
		   "deployment file: rc %d, no message", rc);
	if (rc == 0)
		dp_deploy_free(&dep);
	return 0;
}
