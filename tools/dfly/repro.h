/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The batch machinery shared by the `dfly repro` experiments (repro.c: transient; repro_sweep.c:
 * steady, threshold and lia): a job is one `dfly` subcommand (cmd_transient(), cmd_sim()) run in a
 * forked child with its stdout in a file, its command line printable as a shell command; the
 * helpers run a list of jobs J at a time, write them to a commands.sh, find the source tree's
 * files and run the plot scripts.
 */
#ifndef DFLY_REPRO_H
#define DFLY_REPRO_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#define REPRO_MAX_ARGS 48 /* arguments of one job, NULL included */
#define REPRO_MAX_STRS 12 /* formatted arguments a job keeps (repro_argf) */

/** One child process of a batch. */
struct repro_job {
	char name[32];                     /**< progress lines, base of its file names */
	char group[160];                   /**< "== GROUP" before the first job of a group, or "" */
	int (*cmd)(int argc, char **argv); /**< the subcommand: cmd_transient, cmd_sim */
	char txt[512];                     /**< its stdout, DIR/NAME.txt */
	char csv[512];                     /**< the CSV it writes, DIR/NAME.csv */
	char strs[REPRO_MAX_STRS][64];     /**< storage of the formatted arguments */
	unsigned nstrs;                    /**< entries of strs used */
	const char *argv[REPRO_MAX_ARGS];  /**< argv[0] is the subcommand; NULL-terminated */
	int argc;                          /**< entries of argv */
	pid_t pid;                         /**< while running, else 0 */
	double start, wall;                /**< wall clock at start, seconds taken */
	int status;                        /**< exit status, -1 not finished */
};

/** Reset @p j for subcommand @p cmd named @p prog (argv[0]). */
void repro_job_init(struct repro_job *j, int (*cmd)(int, char **), const char *prog);

/** Append @p s, which must outlive the job, to the job's arguments. */
void repro_arg(struct repro_job *j, const char *s);

/** Append a formatted argument, kept in the job (at most REPRO_MAX_STRS, 63 characters). */
void repro_argf(struct repro_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** Print a command line: @p prog, then argv[skip..], then "> redirect" if not NULL. */
void repro_cmdline(FILE *f, const char *prog, const char *const *argv, int skip,
		   const char *redirect);

/** mkdir -p. @return 0 or -errno. */
int repro_mkdirs(const char *path);

/** A file of the source tree: @p rel if readable from the current directory, else under it. */
void repro_src_path(const char *rel, char *buf, size_t len);

/** The path of this executable, relative to the current directory when it lies below it. */
void repro_self(char *buf, size_t len);

/**
 * Run @p n jobs, @p par at a time, printing "== GROUP" lines, each command line as it starts
 * (@p self as the program) and a line as it ends. @return the number of jobs that failed (exit
 * status not 0), or -1 if waitpid() failed (message printed).
 */
int repro_run_jobs(struct repro_job *const *jobs, unsigned n, unsigned par, const char *self,
		   double wall0);

/** Run a program (argv[0] found by execvp) and wait for it. @return its exit status, -1. */
int repro_exec(const char *const *argv);

/**
 * Create the script @p path: "#!/bin/sh", "# TITLE", "set -e", then every job's command line.
 * @return the open file for more lines, or NULL (message printed).
 */
FILE *repro_commands_begin(const char *path, const char *title, struct repro_job *const *jobs,
			   unsigned n, const char *self);

/** Close the script of repro_commands_begin() and make it executable. @return 0, -1 (printed). */
int repro_commands_end(FILE *f, const char *path);

/** Copy the file @p path to stdout (the dry runs print their commands.sh). */
void repro_cat(const char *path);

/** dfly repro steady (repro_sweep.c): load sweeps of `dfly sim` (H8-H11). */
int repro_steady(int argc, char **argv);

/** dfly repro threshold (repro_sweep.c): Base's threshold sweep (H17). */
int repro_threshold(int argc, char **argv);

/** dfly repro lia (repro_sweep.c): the LIA paper's load sweeps and ADVc per switch (H31-H37). */
int repro_lia(int argc, char **argv);

/** dfly repro claims (claims.c): the verdicts of spec §9's claims, computed (H1-H44). */
int repro_claims(int argc, char **argv);

#endif /* DFLY_REPRO_H */
