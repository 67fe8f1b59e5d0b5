/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfly-controld: the routing firmware as a separate daemon (DESIGN.md §3). It maps the register
 * file of every router of a testbed instance from POSIX shared memory (control/regs_shm.h) and
 * runs, for each, exactly the firmware of `dfly sim` (control/fw.c) with the parameters of the
 * network configuration. It follows each ASIC: a router's firmware ticks cycle c once the ASIC
 * has completed its step of cycle c (regs->steps > c). A daemon that attaches late, or comes back
 * after being killed, starts at the ASIC's current cycle and publishes its tables at once; while
 * it is away the ASIC keeps forwarding on its last tables.
 *
 * Writers today: `dfly sim --firmware-instance NAME` (virtual time, lockstep); later dfly-switch.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "fw.h"
#include "netcfg.h"
#include "regs_shm.h"

#define MAX_SETS    128
#define MAX_CATCHUP 100000u /* cycles a router's firmware replays before it skips ahead */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: dfly-controld CONFIG --instance NAME [options]\n"
	    "\n"
	    "Run the routing firmware of every router of the network CONFIG against the\n"
	    "register files in POSIX shared memory /dfly.NAME.r<router> (created, mode 0600,\n"
	    "by the dataplane: today `dfly sim CONFIG --firmware-instance NAME`). Each router's\n"
	    "firmware ticks once per cycle its ASIC has stepped; objects that do not exist yet\n"
	    "are attached when they appear. SIGINT/SIGTERM stop it and print its counters; it\n"
	    "may be killed (even with SIGKILL) and restarted at any time: the ASICs keep\n"
	    "forwarding on their last tables and the restarted firmware republishes them.\n"
	    "\n"
	    "options:\n"
	    "  --instance NAME   testbed instance ([A-Za-z0-9_-], up to 32 characters); required\n"
	    "  --set PATH=VALUE  override a setting of CONFIG, as dfly sim does (repeatable);\n"
	    "                    use the same settings as the dataplane\n"
	    "  --idle-exit MS    exit 0 when no attached ASIC has stepped for MS (> 0)\n"
	    "                    milliseconds (default: run until signalled)\n"
	    "  --quiet           no attach/exit messages\n"
	    "  --help            this text\n"
	    "  --version         the version and the commit it was built from\n"
	    "\n"
	    "Exit status: 0 on a signal or --idle-exit, 1 on a runtime error, 2 on a usage or\n"
	    "configuration error.\n");
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

struct router_fw {
	struct dfly_regs_shm shm;
	struct fw *fw;
	uint64_t next;      /* next cycle to tick */
	uint64_t skipped;   /* cycles skipped after falling more than MAX_CATCHUP behind */
	uint64_t bad_since; /* ms: first refusal of the object's layout (0: none) */
};

int main(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"instance", required_argument, NULL, 'i'},
	    {"set", required_argument, NULL, 's'},
	    {"idle-exit", required_argument, NULL, 'x'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {NULL, 0, NULL, 0},
	};
	const char *sets[MAX_SETS], *instance = NULL;
	int nsets = 0, opt, status = 0;
	uint64_t idle_exit = 0, last_progress, ticks = 0;
	uint32_t attached = 0;
	bool quiet = false;
	char err[DFLY_NETCFG_ERRLEN];
	struct dfly_netcfg cfg;
	struct dfly_topo *topo;
	struct fw_params fp;
	struct router_fw *rt;
	struct sigaction sa;

	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			instance = optarg;
			break;
		case 's':
			if (nsets >= MAX_SETS) {
				fprintf(stderr, "dfly-controld: too many --set options\n");
				return 2;
			}
			sets[nsets++] = optarg;
			break;
		case 'x':
			if (dfly_cli_parse_u64("dfly-controld", "--idle-exit", optarg, 1,
					       UINT64_MAX / 2, "milliseconds", &idle_exit) != 0)
				return DFLY_CLI_USAGE;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			dfly_cli_print_version(stdout, "dfly-controld");
			return 0;
		default:
			return dfly_cli_opt_error("dfly-controld", opts, opt, argv);
		}
	}
	if (optind == argc)
		return dfly_cli_usage_error("dfly-controld", "a network file (CONFIG) is required");
	if (optind < argc - 1)
		return dfly_cli_usage_error("dfly-controld", "unexpected argument '%s'",
					    argv[optind + 1]);
	if (instance == NULL)
		return dfly_cli_usage_error("dfly-controld", "--instance NAME is required");
	{
		char name[DFLY_SHM_NAME_MAX];

		if (dfly_regs_shm_name(name, sizeof(name), instance, 0) < 0) {
			fprintf(stderr,
				"dfly-controld: --instance %s: expected 1 to 32 characters "
				"of [A-Za-z0-9_-]\n",
				instance);
			return 2;
		}
	}
	if (dfly_netcfg_load(&cfg, argv[optind], sets, nsets, err, sizeof(err)) != 0) {
		fprintf(stderr, "dfly-controld: %s\n", err);
		return 2;
	}
	topo = dfly_topo_create(cfg.p, cfg.a, cfg.h, cfg.t, cfg.arr, cfg.sigma);
	rt = calloc(topo ? topo->routers : 1, sizeof(*rt));
	if (topo == NULL || rt == NULL) {
		fprintf(stderr, "dfly-controld: %s\n", strerror(errno));
		return 1;
	}
	dfly_netcfg_fw_params(&cfg, &fp);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	last_progress = now_ms();
	while (!stop) {
		bool progress = false;

		for (uint32_t r = 0; r < topo->routers; r++) {
			struct router_fw *x = &rt[r];
			uint64_t steps;

			if (x->fw == NULL) {
				int rc = dfly_regs_shm_open(&x->shm, instance, r);

				if (rc == -ENOENT || rc == -EAGAIN)
					continue; /* not created, or not initialised, yet */
				if (rc == -EPROTO) {
					/* the creator may be re-initialising it: refuse only a
					 * layout that stays wrong for a second */
					if (x->bad_since == 0)
						x->bad_since = now_ms();
					if (now_ms() - x->bad_since < 1000)
						continue;
				}
				if (rc < 0) {
					fprintf(
					    stderr, "dfly-controld: router %u: /dfly.%s.r%u: %s\n",
					    r, instance, r,
					    rc == -EPROTO ? "another register-file layout or router"
							  : strerror(-rc));
					status = 1;
					goto out;
				}
				x->fw = fw_create(topo, r, x->shm.regs, &fp);
				if (x->fw == NULL) {
					fprintf(stderr, "dfly-controld: router %u: firmware: %s\n",
						r, strerror(errno));
					dfly_regs_shm_close(&x->shm);
					status = 1;
					goto out;
				}
				steps =
				    atomic_load_explicit(&x->shm.regs->steps, memory_order_acquire);
				x->next = steps ? steps - 1 : 0;
				attached++;
				if (!quiet && attached == topo->routers)
					fprintf(
					    stderr,
					    "dfly-controld: attached to %u routers of %s at cycle "
					    "%llu\n",
					    attached, instance, (unsigned long long)x->next);
			}
			{
				uint64_t n = fw_follow(x->fw, &x->next, MAX_CATCHUP, &x->skipped);

				ticks += n;
				progress |= n > 0;
				if (n > 0) /* a lockstep driver may sleep on the heartbeat */
					dfly_regs_wake(&x->shm.regs->fw.heartbeat,
						       &x->shm.regs->hb_sleepers);
			}
		}
		if (progress) {
			last_progress = now_ms();
		} else {
			struct dfly_regs *r0 = rt[0].fw != NULL ? rt[0].shm.regs : NULL;

			if (idle_exit && attached && now_ms() - last_progress > idle_exit)
				break;
			if (r0 != NULL &&
			    atomic_load_explicit(&r0->lockstep, memory_order_relaxed)) {
				/* dfly sim in lockstep wakes us when it has stepped router 0 (it
				 * steps every router before it waits for any heartbeat); 1 ms
				 * bounds the checks of the other routers, of stop and idle-exit */
				dfly_regs_sleep(&r0->steps, rt[0].next + 1, &r0->steps_sleepers,
						1000000L);
			} else if (now_ms() - last_progress > 2) {
				struct timespec ts = {0, 50000};

				nanosleep(&ts, NULL);
			}
		}
	}
out:
	if (!quiet) {
		uint64_t skipped = 0;

		for (uint32_t r = 0; r < topo->routers; r++)
			skipped += rt[r].skipped;
		fprintf(stderr,
			"dfly-controld: %s: %u of %u routers attached, %llu firmware ticks, %llu "
			"cycles skipped\n",
			stop ? "stopped by a signal" : "exiting", attached, topo->routers,
			(unsigned long long)ticks, (unsigned long long)skipped);
	}
	for (uint32_t r = 0; r < topo->routers; r++) {
		fw_destroy(rt[r].fw);
		dfly_regs_shm_close(&rt[r].shm);
	}
	free(rt);
	dfly_topo_destroy(topo);
	return status;
}
