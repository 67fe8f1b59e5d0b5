/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfly clean: remove the register files a run of an instance left in /dev/shm (a run killed with
 * SIGKILL, or crashed: SIGINT and SIGTERM let dfly sim, dfly-switch and dfly-controld clean up),
 * so that the instance can run again. A file still mapped by a process (found in /proc/PID/maps:
 * a run, dfly-controld or dfly stats on it) belongs to a live run: then nothing is removed.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmds.h"
#include "regs_shm.h"

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: dfly clean --instance NAME [--dry-run]\n"
	    "\n"
	    "Remove the register files " DFLY_SHM_DIR "/dfly.NAME.* of testbed instance NAME\n"
	    "that a run left behind: `dfly sim --firmware-instance NAME`, or dfly-switch with\n"
	    "instance = \"NAME\", killed with SIGKILL or crashed (SIGINT and SIGTERM let them\n"
	    "remove their files). A run that finds a file of its instance refuses to start.\n"
	    "\n"
	    "Nothing is removed while a process maps one of the files (a run, dfly-controld\n"
	    "or dfly stats still on the instance, found in /proc/PID/maps among the processes\n"
	    "this user may read): stop it first. The check is not a lock: do not start a run\n"
	    "of NAME while dfly clean runs.\n"
	    "\n"
	    "options:\n"
	    "  --instance NAME   the instance (1..32 characters of A-Z a-z 0-9 _ -); required\n"
	    "  --dry-run         list the files (\"would remove FILE\") and remove nothing\n"
	    "  -h, --help        this text\n"
	    "\n"
	    "Output: a line \"removed FILE\" per file, or \"no register files of instance NAME\".\n"
	    "Exit status: 0 (also with nothing to remove); 1 if a process maps a file (nothing\n"
	    "removed) or a file could not be removed; 2 on a usage error.\n");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/*
 * The names in DFLY_SHM_DIR that begin with @p prefix ("dfly.NAME."), sorted. @return how many
 * (*out to free with free_names), or -errno.
 */
static int list_files(const char *prefix, char ***out)
{
	size_t n = 0, cap = 0, plen = strlen(prefix);
	char **v = NULL;
	struct dirent *de;
	DIR *d = opendir(DFLY_SHM_DIR);

	*out = NULL;
	if (d == NULL)
		return -errno;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, prefix, plen) != 0)
			continue;
		if (n == cap) {
			size_t ncap = cap ? 2 * cap : 64;
			char **nv = realloc(v, ncap * sizeof(*v));

			if (nv == NULL)
				goto nomem;
			v = nv;
			cap = ncap;
		}
		v[n] = strdup(de->d_name);
		if (v[n] == NULL)
			goto nomem;
		n++;
	}
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	return (int)n;
nomem:
	closedir(d);
	free_names(v, n);
	return -ENOMEM;
}

/*
 * The first process other than this one that maps a file whose path begins with @p path_prefix
 * ("/dev/shm/dfly.NAME."), not deleted: its pid (the file in @p file, its command in @p comm),
 * or 0. Processes whose maps this user may not read are passed over.
 */
static long find_holder(const char *path_prefix, char *file, size_t flen, char *comm, size_t clen)
{
	long self = (long)getpid();
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		char path[64], line[4096];
		long pid;
		FILE *f;
		bool held = false;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = strtol(de->d_name, NULL, 10);
		if (pid == self)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/maps", pid);
		f = fopen(path, "r");
		if (f == NULL)
			continue; /* gone, or not ours to read */
		while (!held && fgets(line, sizeof(line), f) != NULL) {
			char *p = strstr(line, path_prefix);

			if (p == NULL || strstr(p, " (deleted)") != NULL)
				continue;
			p[strcspn(p, "\n")] = '\0';
			snprintf(file, flen, "%s", p);
			held = true;
		}
		fclose(f);
		if (!held)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		snprintf(comm, clen, "?");
		f = fopen(path, "r");
		if (f != NULL) {
			if (fgets(comm, (int)clen, f) != NULL)
				comm[strcspn(comm, "\n")] = '\0';
			fclose(f);
		}
		closedir(d);
		return pid;
	}
	closedir(d);
	return 0;
}

int cmd_clean(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"instance", required_argument, NULL, 'i'},
	    {"dry-run", no_argument, NULL, 'n'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *instance = NULL;
	char name[DFLY_SHM_NAME_MAX], prefix[DFLY_SHM_NAME_MAX], path_prefix[128];
	char file[512], comm[64];
	bool dry = false;
	char **files;
	int opt, n, status = 0;
	long pid;

	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			instance = optarg;
			break;
		case 'n':
			dry = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return dfly_cli_opt_error("dfly clean", opts, opt, argv);
		}
	}
	if (optind != argc)
		return dfly_cli_usage_error("dfly clean", "unexpected argument '%s'", argv[optind]);
	if (instance == NULL)
		return dfly_cli_usage_error("dfly clean", "--instance NAME is required");
	if (dfly_regs_shm_name(name, sizeof(name), instance, 0) < 0)
		return dfly_cli_usage_error(
		    "dfly clean", "--instance %s: expected 1 to 32 characters of [A-Za-z0-9_-]",
		    instance);
	/* the instance has no dot: "dfly.NAME." is no other instance's prefix */
	snprintf(prefix, sizeof(prefix), "dfly.%s.", instance);
	snprintf(path_prefix, sizeof(path_prefix), DFLY_SHM_DIR "/%s", prefix);
	n = list_files(prefix, &files);
	if (n < 0) {
		fprintf(stderr, "dfly clean: %s: %s\n", DFLY_SHM_DIR, strerror(-n));
		return 1;
	}
	if (n == 0) {
		printf("no register files of instance %s in " DFLY_SHM_DIR "\n", instance);
		return 0;
	}
	pid = find_holder(path_prefix, file, sizeof(file), comm, sizeof(comm));
	if (pid != 0) {
		fprintf(stderr,
			"dfly clean: %s is mapped by process %ld (%s): a run of instance %s is "
			"still on it; stop it first (nothing removed)\n",
			file, pid, comm, instance);
		free_names(files, (size_t)n);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		snprintf(file, sizeof(file), DFLY_SHM_DIR "/%s", files[i]);
		if (dry) {
			printf("would remove %s\n", file);
		} else if (unlink(file) == 0 || errno == ENOENT) {
			printf("removed %s\n", file);
		} else {
			fprintf(stderr, "dfly clean: %s: %s\n", file, strerror(errno));
			status = 1;
		}
	}
	free_names(files, (size_t)n);
	return status;
}
