/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The batch machinery of `dfly repro` (repro.h): a job is one `dfly` subcommand run in a forked
 * child with its command line printed; jobs run a few at a time, a script of their command lines
 * is kept beside the results. Used by `dfly repro transient` (repro.c) and the sweeps
 * (repro_sweep.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "repro.h"

#ifndef DFLY_SOURCE_DIR
#define DFLY_SOURCE_DIR "."
#endif

void repro_cmdline(FILE *f, const char *prog, const char *const *argv, int skip,
		   const char *redirect)
{
	dfly_sh_word(f, prog);
	for (int i = skip; argv[i] != NULL; i++) {
		fputc(' ', f);
		dfly_sh_word(f, argv[i]);
	}
	if (redirect) {
		fputs(" > ", f);
		dfly_sh_word(f, redirect);
	}
	fputc('\n', f);
}

int repro_mkdirs(const char *path)
{
	char buf[512];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * A file of the source tree: @p rel itself if it is readable from the current directory (so the
 * printed commands stay short when run from the tree), else DFLY_SOURCE_DIR/rel.
 */
void repro_src_path(const char *rel, char *buf, size_t len)
{
	size_t n = strlen(DFLY_SOURCE_DIR), m = strlen(rel);

	if (access(rel, R_OK) == 0 || n + 1 + m + 1 > len) {
		snprintf(buf, len, "%s", rel);
		return;
	}
	memcpy(buf, DFLY_SOURCE_DIR, n);
	buf[n] = '/';
	memcpy(buf + n + 1, rel, m + 1);
}

void repro_self(char *buf, size_t len)
{
	char exe[512], cwd[512];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t c;

	if (n <= 0) {
		snprintf(buf, len, "dfly");
		return;
	}
	exe[n] = '\0';
	if (getcwd(cwd, sizeof(cwd)) != NULL && (c = strlen(cwd)) > 0 &&
	    strncmp(exe, cwd, c) == 0 && exe[c] == '/')
		snprintf(buf, len, ".%s", exe + c);
	else
		snprintf(buf, len, "%s", exe);
}

void repro_job_init(struct repro_job *j, int (*cmd)(int, char **), const char *prog)
{
	memset(j, 0, sizeof(*j));
	j->cmd = cmd;
	j->status = -1;
	j->argv[j->argc++] = prog;
}

void repro_arg(struct repro_job *j, const char *s)
{
	if (j->argc >= REPRO_MAX_ARGS - 1)
		abort(); /* a table of this file is wrong, not the user's input */
	j->argv[j->argc++] = s;
	j->argv[j->argc] = NULL;
}

void repro_argf(struct repro_job *j, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (j->nstrs >= REPRO_MAX_STRS)
		abort();
	va_start(ap, fmt);
	n = vsnprintf(j->strs[j->nstrs], sizeof(j->strs[0]), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(j->strs[0]))
		abort();
	repro_arg(j, j->strs[j->nstrs++]);
}

/* Start @p j: fork a child that runs j->cmd with its stdout in j->txt. */
static int repro_start(struct repro_job *j)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open(j->txt, O_WRONLY | O_CREAT | O_TRUNC, 0666);

		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
			fprintf(stderr, "dfly repro: %s: %s\n", j->txt, strerror(errno));
			_exit(2);
		}
		close(fd);
		exit(j->cmd(j->argc, (char **)j->argv));
	}
	j->pid = pid;
	j->start = now_s();
	return 0;
}

/* Wait for any started job; record its status. @return the job, NULL if none is running. */
static struct repro_job *repro_wait(struct repro_job *const *jobs, unsigned n)
{
	int st;
	pid_t pid;

	for (;;) {
		pid = waitpid(-1, &st, 0);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			return NULL;
		for (unsigned i = 0; i < n; i++) {
			struct repro_job *j = jobs[i];

			if (j->pid != pid)
				continue;
			j->pid = 0;
			j->wall = now_s() - j->start;
			j->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
			return j;
		}
	}
}

int repro_run_jobs(struct repro_job *const *jobs, unsigned n, unsigned par, const char *self,
		   double wall0)
{
	unsigned next = 0, running = 0, done = 0;
	int failed = 0;

	while (done < n) {
		while (next < n && running < par) {
			struct repro_job *j = jobs[next];

			if (j->group[0] &&
			    (next == 0 || strcmp(jobs[next - 1]->group, j->group) != 0))
				printf("== %s\n", j->group);
			printf("[%u/%u] %s: ", next + 1, n, j->name);
			repro_cmdline(stdout, self, j->argv, 0, j->txt);
			if (repro_start(j) != 0) {
				fprintf(stderr, "dfly repro: %s: fork: %s\n", j->name,
					strerror(errno));
				j->status = 1;
				failed++;
				done++;
			} else {
				running++;
			}
			next++;
		}
		if (running == 0)
			continue;
		{
			struct repro_job *j = repro_wait(jobs, n);

			if (j == NULL) {
				fprintf(stderr, "dfly repro: waitpid: %s\n", strerror(errno));
				return -1;
			}
			running--;
			done++;
			if (j->status != 0)
				failed++;
			printf("[%u/%u done] %s: %s in %.0f s (%.0f s elapsed)\n", done, n, j->name,
			       j->status == 0 ? "ok" : "FAILED", j->wall, now_s() - wall0);
			fflush(stdout);
		}
	}
	return failed;
}

int repro_exec(const char *const *argv)
{
	int st;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execvp(argv[0], (char **)argv);
		fprintf(stderr, "dfly repro: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

FILE *repro_commands_begin(const char *path, const char *title, struct repro_job *const *jobs,
			   unsigned n, const char *self)
{
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		fprintf(stderr, "dfly repro: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	fprintf(f, "#!/bin/sh\n# %s\nset -e\n", title);
	for (unsigned i = 0; i < n; i++)
		repro_cmdline(f, self, jobs[i]->argv, 0, jobs[i]->txt);
	return f;
}

int repro_commands_end(FILE *f, const char *path)
{
	if (fclose(f) != 0) {
		fprintf(stderr, "dfly repro: %s: write failed\n", path);
		return -1;
	}
	chmod(path, 0755);
	return 0;
}

void repro_cat(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[2048];

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		fputs(line, stdout);
	fclose(f);
}
