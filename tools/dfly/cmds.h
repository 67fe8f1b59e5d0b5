/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The `dfly` front-end: its table of subcommands (main.c), one file each, and the helpers they
 * share (cli.c).
 */
#ifndef DFLY_CMDS_H
#define DFLY_CMDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Most --set options one command line takes. */
#define DFLY_MAX_SETS 128
/** Most items of a comma-separated list option (--mechanisms, --patterns). */
#define DFLY_MAX_LIST 64

/** A subcommand's entry point: argv[0] is its name; returns the exit status. */
typedef int dfly_cmd_fn(int argc, char **argv);

/** One subcommand of `dfly` (main.c's table). */
struct dfly_cmd {
	const char *name;    /**< the word after `dfly` */
	const char *args;    /**< words `dfly --help` shows before the summary, or NULL */
	dfly_cmd_fn *fn;     /**< runs it; never NULL */
	const char *summary; /**< one sentence for `dfly --help` */
};

/** The subcommand named @p name, or NULL (main.c). */
const struct dfly_cmd *dfly_cmd_find(const char *name);

/**
 * DFLY_SIM_THREADS=N in the environment overrides sim.threads of @p cfg (the front-ends' part:
 * the fabric library reads no environment), so a whole suite can be run threaded to show it
 * gives the same results (cli.c). @return 0, or -EINVAL (not 1..64, said in @p err).
 */
struct dfly_netcfg;
int dfly_sim_threads_env(struct dfly_netcfg *cfg, char *err, size_t errlen);

/** Monotonic wall-clock seconds (cli.c). */
double now_s(void);

/** The directory of the running executable into @p buf (cli.c). @return @p buf, or NULL. */
const char *self_dir(char *buf, size_t len);

/**
 * Find another dfly binary (dfly-switch, dfly-controld) beside the running dfly: in its folder
 * (an install) or in the build tree's (dataplane/, tools/). @return 0 with its path in @p out,
 * or -ENOENT with @p name alone in @p out (for a look-up in PATH).
 */
int dfly_find_tool(const char *name, char *out, size_t len);

/** Parse a decimal unsigned 64-bit number, digits only (cli.c). @return 0 or -EINVAL. */
int transient_parse_u64(const char *s, uint64_t *out);

/**
 * Split the comma-separated list @p s in place into at most @p max items (cli.c).
 * @return the number of items, -EINVAL for an empty item (a,,b, a trailing comma, an empty
 * list), or -E2BIG for more than @p max.
 */
int dfly_split_list(char *s, char **out, int max);

/** What went wrong with list @p list (as given) after dfly_split_list() returned @p rc, into
 *  @p err. @return @p rc. */
int dfly_split_list_error(const char *list, int rc, int max, char *err, size_t errlen);

/**
 * Parse offered loads, a list (0.1,0.3) or a range A:B:STEP (A <= B, STEP > 0), into at most
 * @p max values, each in [0, 1] (cli.c).
 * @return how many (at least 1), or -EINVAL / -E2BIG with what is wrong in @p err (without the
 * option: "the range runs backwards ...").
 */
int dfly_parse_loads(const char *arg, double *loads, int max, char *err, size_t errlen);

struct dfly_netcfg;
struct dfly_topo;

/** dfly sim (sim.c): runs over mechanisms, patterns, loads and seeds; returns the exit status. */
int cmd_sim(int argc, char **argv);

/** dfly topo (topo.c): a network's topology, paths and VC needs; returns the exit status. */
int cmd_topo(int argc, char **argv);

/**
 * The contention-threshold rule of spec §5.8 for network @p cfg with topology @p t: th >= 2·v̄
 * and th <= p; printed to @p f (the line of `dfly topo`) unless @p f is NULL.
 * @return the lower bound ceil(2·v̄).
 */
uint32_t dfly_cc_rule(FILE *f, const struct dfly_netcfg *cfg, const struct dfly_topo *t);

/** dfly transient (transient.c): one transient experiment; returns the exit status. */
int cmd_transient(int argc, char **argv);

/** Print one shell word, single-quoted if it needs to be (cli.c). */
void dfly_sh_word(FILE *f, const char *s);

/** dfly repro (repro.c): the papers' experiments as batches of other subcommands. */
int cmd_repro(int argc, char **argv);

/** dfly bench (bench.c): emulation speed; returns the exit status. */
int cmd_bench(int argc, char **argv);

/** dfly stats (stats.c): the routers' register files read live from shared memory. */
int cmd_stats(int argc, char **argv);

/** dfly testbed (testbed.c): generate, start and stop a testbed of dfly-switch processes. */
int cmd_testbed(int argc, char **argv);

/** dfly trace (trace.c): analyse captures of dfly sim --capture and dfly-switch. */
int cmd_trace(int argc, char **argv);

/** dfly plot (plot.c): gnuplot PNGs from the CSVs of dfly sim, transient and trace. */
int cmd_plot(int argc, char **argv);

/** dfly clean (clean.c): remove the register files a killed run of an instance left. */
int cmd_clean(int argc, char **argv);
int cmd_verify(int argc, char **argv);

#endif /* DFLY_CMDS_H */
