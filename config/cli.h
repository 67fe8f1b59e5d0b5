/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The command-line conventions every dfly binary shares (dfly and its subcommands, dfly-switch,
 * dfly-controld): `--version`, usage errors (one line saying what is wrong, one line saying where
 * the help is, exit status 2: never the whole help), and the parsers of the durations and counts
 * options take (positive, said with the option the user typed). It sits in config/, the lowest
 * layer the three binaries link, beside the `--set PATH=VALUE` overrides of netcfg.h.
 */
#ifndef DFLY_CLI_H
#define DFLY_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

/** The exit status of a usage or configuration error, in every binary. */
#define DFLY_CLI_USAGE 2

/** The project's version, meson.build's project(version:), e.g. "0.1.0". */
const char *dfly_cli_version(void);

/** The commit the binaries were built from (`git describe --always --dirty`), or "unknown". */
const char *dfly_cli_rev(void);

/** `--version`: "NAME VERSION (REV)" and a newline on @p f. */
void dfly_cli_print_version(FILE *f, const char *name);

/**
 * A usage error of command @p cmd ("dfly sim", "dfly-switch"): "CMD: MESSAGE" and "see 'CMD
 * --help'" on stderr.
 * @return DFLY_CLI_USAGE.
 */
__attribute__((format(printf, 2, 3))) int dfly_cli_usage_error(const char *cmd, const char *fmt,
							       ...);

/**
 * What to say after getopt_long() returned @p opt, '?' or ':', for command @p cmd whose options
 * are @p opts: an unknown option, an ambiguous abbreviation (and what it could mean), a value
 * given to an option that takes none, or a value missing (':', with an optstring that starts
 * with ':'). Reads optind and optopt; call it right after getopt_long(). Said as
 * dfly_cli_usage_error() does.
 * @return DFLY_CLI_USAGE.
 */
int dfly_cli_opt_error(const char *cmd, const struct option *opts, int opt, char *const *argv);

/**
 * Parse @p arg, the value of option @p opt ("--runs") of command @p cmd, as a whole number
 * (digits only) in [@p min, @p max]; @p unit names what it counts ("runs", "cycles"). On an
 * error, "CMD: OPT ARG: expected a whole number of UNIT ..." on stderr (with @p max unless it
 * is 2^53 or more).
 * @return 0 with the value in @p out, or -EINVAL.
 */
int dfly_cli_parse_u64(const char *cmd, const char *opt, const char *arg, uint64_t min,
		       uint64_t max, const char *unit, uint64_t *out);

/**
 * Parse @p arg, the value of option @p opt of command @p cmd, as a number of seconds, finite,
 * > 0 and at most @p max. On an error, "CMD: OPT ARG: expected a number of seconds > 0" on
 * stderr (and @p max if below 10^6 s).
 * @return 0 with the value in @p out, or -EINVAL.
 */
int dfly_cli_parse_seconds(const char *cmd, const char *opt, const char *arg, double max,
			   double *out);

#endif /* DFLY_CLI_H */
