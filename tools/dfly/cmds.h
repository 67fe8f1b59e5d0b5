/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The `dfly` subcommands implemented outside main.c.
 */
#ifndef DFLY_CMDS_H
#define DFLY_CMDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/** Monotonic wall-clock seconds (main.c). */
double now_s(void);

/** The directory of the running executable into @p buf (main.c). @return @p buf, or NULL. */
const char *self_dir(char *buf, size_t len);

/** Parse a decimal unsigned 64-bit number, digits only (main.c). @return 0 or -EINVAL. */
int transient_parse_u64(const char *s, uint64_t *out);

struct dfly_netcfg;
struct dfly_topo;

/** dfly sim (main.c): runs over mechanisms, patterns, loads and seeds; returns the exit status. */
int cmd_sim(int argc, char **argv);

/**
 * The contention-threshold rule of spec §5.8 for network @p cfg with topology @p t: th >= 2·v̄
 * and th <= p; printed to @p f (the line of `dfly topo`) unless @p f is NULL.
 * @return the lower bound ceil(2·v̄).
 */
uint32_t dfly_cc_rule(FILE *f, const struct dfly_netcfg *cfg, const struct dfly_topo *t);

/** dfly transient (main.c): one transient experiment; returns the exit status. */
int cmd_transient(int argc, char **argv);

/** Print one shell word, single-quoted if it needs to be (repro.c). */
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

#endif /* DFLY_CMDS_H */
