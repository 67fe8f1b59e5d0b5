/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The `dfly` command: the user's entry point. A table of subcommands (as OVS's all_commands[]),
 * each in a file of its own in this folder, looked up by name; `dfly --help` is printed from the
 * table, and a subcommand that runs another (dfly repro runs sim and transient) finds it here
 * too (dfly_cmd_find) instead of calling its file.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmds.h"

static const struct dfly_cmd commands[] = {
    {"sim", NULL, cmd_sim, "run a network in virtual time"},
    {"topo", NULL, cmd_topo, "describe a network's topology"},
    {"bench", NULL, cmd_bench, "measure emulation speed"},
    {"transient", NULL, cmd_transient,
     "switch patterns after the warm-up, record the response cycle by cycle"},
    {"repro", "claims|transient|steady|threshold|lia", cmd_repro,
     "rerun the papers' transient, steady-state, threshold and LIA experiments and draw "
     "their figures"},
    {"stats", NULL, cmd_stats, "read the routers' counters live from shared memory"},
    {"testbed", NULL, cmd_testbed,
     "generate, start and stop a testbed of dfly-switch processes, hosts in namespaces"},
    {"trace", NULL, cmd_trace,
     "analyse pcap captures: latency, hops, path kinds, misrouting over time, link and node "
     "loads"},
    {"plot", NULL, cmd_plot, "draw the CSVs of sim, transient and trace as PNG with gnuplot"},
    {"verify", NULL, cmd_verify,
     "check a lockstep run of dfly-switch against the model, counter for counter"},
    {"clean", NULL, cmd_clean,
     "remove the register files in /dev/shm that a killed run of an instance left"},
    {NULL, NULL, NULL, NULL},
};

const struct dfly_cmd *dfly_cmd_find(const char *name)
{
	for (const struct dfly_cmd *c = commands; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/* One command: its name from column 2, the summary (after the argument words, if any) from column
 * 13, wrapped at 80 columns with the same indent, "(dfly NAME --help)" at the end. One column for
 * every command, as help2man needs to make a man page's list of them (man/help2man.sh). */
static void usage_cmd(FILE *f, const struct dfly_cmd *c)
{
	char text[512];
	bool first = true;
	int col;

	snprintf(text, sizeof(text), "%s%s%s (dfly %s --help)", c->args ? c->args : "",
		 c->args ? ": " : "", c->summary, c->name);
	col = fprintf(f, "  %-11s", c->name);
	for (char *w = strtok(text, " "); w != NULL; w = strtok(NULL, " ")) {
		int n = (int)strlen(w);

		if (!first && col + 1 + n > 80)
			col = fprintf(f, "\n%13s%s", "", w) - 1;
		else
			col += fprintf(f, "%s%s", first ? "" : " ", w);
		first = false;
	}
	fprintf(f, "\n");
}

static void usage_main(FILE *f)
{
	fprintf(f, "usage: dfly COMMAND [ARGS]\n\ncommands:\n");
	for (const struct dfly_cmd *c = commands; c->name != NULL; c++)
		usage_cmd(f, c);
	fprintf(f, "\nEvery command takes --help. dfly --version: the version and commit.\n");
}

int main(int argc, char **argv)
{
	const struct dfly_cmd *c;

	if (argc < 2) {
		usage_main(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage_main(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		dfly_cli_print_version(stdout, "dfly");
		return 0;
	}
	c = dfly_cmd_find(argv[1]);
	if (c == NULL)
		return dfly_cli_usage_error("dfly", "unknown %s '%s'",
					    argv[1][0] == '-' ? "option" : "command", argv[1]);
	return c->fn(argc - 1, argv + 1);
}
