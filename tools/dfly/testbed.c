/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * `dfly testbed`: generate, start, inspect and stop a whole testbed on one machine (issue #4,
 * DESIGN.md §6). The plan (tbplan.c) writes the deployment files; here they are checked with
 * the loader dfly-switch uses (dataplane/deploy.c), the namespaces and veth pairs are created
 * with iproute2, the dfly-switch processes (and dfly-controld) are started, and `up` returns
 * once every device-backed fabric port reports its link up in the register files.
 *
 * Everything created is written to DIR/testbed.state as it is created, so `down` (or a failed
 * `up`) removes exactly that: processes (checked by start time, so a recycled pid is never
 * signalled), namespaces (which take their veth ends with them), shared-memory register files,
 * memif sockets and DPDK runtime directories.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cmds.h"
#include "deploy.h"
#include "host.h"
#include "regs_shm.h"
#include "testbed.h"

#define MAX_SETS   64
#define MAX_ARGS   96
#define STATE_FILE "testbed.state"

static volatile sig_atomic_t tb_stop;

static void on_signal(int sig)
{
	(void)sig;
	tb_stop = 1;
}

/* ---------------------------------------------------------------------------------------------
 * Commands: run now, or (gen) written to a script
 */

struct argv_buf {
	char *v[MAX_ARGS + 1];
	int n;
	char store[8192];
	size_t used;
};

static void av_init(struct argv_buf *a)
{
	a->n = 0;
	a->used = 0;
	a->v[0] = NULL;
}

static void av_add(struct argv_buf *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void av_add(struct argv_buf *a, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (a->n >= MAX_ARGS)
		return;
	va_start(ap, fmt);
	k = vsnprintf(a->store + a->used, sizeof(a->store) - a->used, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= sizeof(a->store) - a->used)
		return;
	a->v[a->n++] = a->store + a->used;
	a->v[a->n] = NULL;
	a->used += (size_t)k + 1;
}

/* Add the words of @p s (split on spaces). */
static void av_words(struct argv_buf *a, const char *s)
{
	char w[512];

	while (s != NULL && *s != '\0') {
		size_t n = strcspn(s, " ");

		if (n > 0 && n < sizeof(w)) {
			memcpy(w, s, n);
			w[n] = '\0';
			av_add(a, "%s", w);
		}
		s += n;
		s += strspn(s, " ");
	}
}

struct tb {
	struct tb_plan plan;
	const char *dir;
	FILE *script; /* gen: the commands go here instead of running */
	FILE *state;  /* up: what was created */
	FILE *log;    /* up: DIR/setup.log, every command and its output status */
	char switch_path[PATH_MAX];
	char controld_path[PATH_MAX];
	const char *eal_extra;
	/* --hugepages: the hugetlbfs mount every process maps its memory from, and the MB of it
	 * each takes (-m); 0: --no-huge */
	char huge_dir[TB_PATH_MAX + 16];
	uint32_t huge_mb;
	/* --verify N: every process in lockstep to cycle N, snapshots every snap_every cycles */
	uint64_t verify_cycles, snap_every;
	pid_t *pid; /* [process] */
	pid_t controld_pid;
	bool verbose;
};

static void print_argv(FILE *f, char *const *v)
{
	for (int i = 0; v[i] != NULL; i++) {
		if (i)
			fputc(' ', f);
		dfly_sh_word(f, v[i]);
	}
}

/* Run @p a and wait; its output goes to the setup log. @return its exit status (or -errno). */
static int run_argv(struct tb *tb, struct argv_buf *a, bool may_fail)
{
	pid_t pid;
	int st;

	if (tb->script != NULL) {
		print_argv(tb->script, a->v);
		fputs(may_fail ? " || true\n" : "\n", tb->script);
		return 0;
	}
	if (tb->log != NULL) {
		print_argv(tb->log, a->v);
		fputc('\n', tb->log);
		fflush(tb->log);
	}
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = tb->log != NULL ? fileno(tb->log) : open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execvp(a->v[0], a->v);
		fprintf(stderr, "%s: %s\n", a->v[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	st = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (st != 0 && !may_fail) {
		fprintf(stderr, "dfly testbed: failed (exit %d): ", st);
		print_argv(stderr, a->v);
		fprintf(stderr, "\n  (see %s/setup.log)\n", tb->plan.dir);
	}
	return st;
}

static int sh(struct tb *tb, bool may_fail, const char *first, ...)
{
	struct argv_buf a;
	va_list ap;

	av_init(&a);
	va_start(ap, first);
	for (const char *s = first; s != NULL; s = va_arg(ap, const char *))
		av_add(&a, "%s", s);
	va_end(ap);
	return run_argv(tb, &a, may_fail);
}

static void state(struct tb *tb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void state(struct tb *tb, const char *fmt, ...)
{
	va_list ap;

	if (tb->state == NULL)
		return;
	va_start(ap, fmt);
	vfprintf(tb->state, fmt, ap);
	va_end(ap);
	fputc('\n', tb->state);
	fflush(tb->state);
	fsync(fileno(tb->state));
}

/* Field 22 of /proc/PID/stat (start time in clock ticks); 0 if the process is gone. */
static unsigned long long proc_start(pid_t pid, char *st_out)
{
	char path[64], buf[1024], *p;
	unsigned long long v = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (p == NULL)
		return 0;
	if (st_out != NULL)
		*st_out = p[2];
	p += 2;
	for (int field = 3; field < 22 && p != NULL; field++) {
		p = strchr(p, ' ');
		if (p != NULL)
			p++;
	}
	if (p != NULL)
		v = strtoull(p, NULL, 10);
	return v;
}

/* Alive (not a zombie) and still the process that was started. */
static bool proc_alive(pid_t pid, unsigned long long start)
{
	char st = 0;
	unsigned long long s;

	waitpid(pid, NULL, WNOHANG); /* reap our own children */
	s = proc_start(pid, &st);
	return s != 0 && (start == 0 || s == start) && st != 'Z' && st != 'X';
}

/* Copy a C string, cut to @p len - 1 bytes. */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* A sibling of the dfly executable (build/tools/ or the install bin/), else from PATH. */
static void find_tool(const char *given, const char *name, char *out, size_t len)
{
	if (given != NULL)
		copy_str(out, len, given);
	else
		dfly_find_tool(name, out, len);
}

/* ---------------------------------------------------------------------------------------------
 * Set-up
 */

static int setup_netns(struct tb *tb, const char *ns)
{
	int rc = sh(tb, false, "ip", "netns", "add", ns, NULL);

	if (rc != 0)
		return -1;
	state(tb, "netns %s", ns);
	sh(tb, true, "ip", "netns", "exec", ns, "sysctl", "-qw", "net.ipv6.conf.all.disable_ipv6=1",
	   "net.ipv6.conf.default.disable_ipv6=1", NULL);
	return sh(tb, false, "ip", "-n", ns, "link", "set", "lo", "up", NULL) != 0 ? -1 : 0;
}

static void no_offloads(struct tb *tb, const char *ns, const char *ifname)
{
	/* af_packet sees frames as the stack hands them over: no offloaded checksums, no GSO */
	sh(tb, true, "ip", "netns", "exec", ns, "ethtool", "-K", ifname, "tx", "off", "tso", "off",
	   "gso", "off", "gro", "off", NULL);
}

static int setup_links(struct tb *tb)
{
	const struct tb_plan *p = &tb->plan;

	for (uint32_t k = 0; k < p->nxl; k++) {
		const struct tb_xlink *x = &p->xl[k];

		if (p->o.link != TB_LINK_VETH)
			continue;
		char ns0[32], ns1[32];

		tb_plan_proc_ns(p, x->proc[0], ns0, sizeof(ns0));
		tb_plan_proc_ns(p, x->proc[1], ns1, sizeof(ns1));
		if (sh(tb, false, "ip", "-n", ns0, "link", "add", x->veth[0], "mtu", "9000", "type",
		       "veth", "peer", "name", x->veth[1], "mtu", "9000", "netns", ns1,
		       NULL) != 0 ||
		    sh(tb, false, "ip", "-n", ns0, "link", "set", x->veth[0], "up", NULL) != 0 ||
		    sh(tb, false, "ip", "-n", ns1, "link", "set", x->veth[1], "up", NULL) != 0)
			return -1;
	}
	return 0;
}

static int host_addr(struct tb *tb, const struct tb_host *h, const char *ifname)
{
	char mac[DP_HOST_MAC_STRLEN], ip[DP_HOST_IPV4_STRLEN + 8];

	dp_host_format_mac(h->mac, mac);
	dp_host_format_ipv4(h->ip, ip);
	snprintf(ip + strlen(ip), sizeof(ip) - strlen(ip), "/%u", TB_IP_PREFIX);
	if (sh(tb, false, "ip", "-n", h->ns, "link", "set", ifname, "address", mac, NULL) != 0 ||
	    sh(tb, false, "ip", "-n", h->ns, "addr", "add", ip, "dev", ifname, NULL) != 0 ||
	    sh(tb, false, "ip", "-n", h->ns, "link", "set", ifname, "up", NULL) != 0)
		return -1;
	no_offloads(tb, h->ns, ifname);
	return 0;
}

static int setup_hosts(struct tb *tb)
{
	const struct tb_plan *p = &tb->plan;

	for (uint32_t k = 0; k < p->nhost; k++) {
		const struct tb_host *h = &p->host[k];
		char sw[32];

		if (setup_netns(tb, h->ns) != 0)
			return -1;
		if (p->o.hosts != TB_HOSTS_VETH)
			continue; /* the tap arrives once dfly-switch has created it */
		tb_plan_proc_ns(p, h->proc, sw, sizeof(sw));
		if (sh(tb, false, "ip", "-n", sw, "link", "add", h->ifname, "type", "veth", "peer",
		       "name", "eth0", "netns", h->ns, NULL) != 0 ||
		    sh(tb, false, "ip", "-n", sw, "link", "set", h->ifname, "up", NULL) != 0)
			return -1;
		no_offloads(tb, sw, h->ifname);
		if (host_addr(tb, h, "eth0") != 0)
			return -1;
	}
	return 0;
}

/* Taps are created by dfly-switch in its namespace; move each into its host's namespace. */
static int setup_taps(struct tb *tb)
{
	const struct tb_plan *p = &tb->plan;

	if (p->o.hosts != TB_HOSTS_TAP)
		return 0;
	for (uint32_t k = 0; k < p->nhost; k++) {
		const struct tb_host *h = &p->host[k];
		char sw[32];

		tb_plan_proc_ns(p, h->proc, sw, sizeof(sw));
		if (sh(tb, false, "ip", "-n", sw, "link", "set", h->ifname, "netns", h->ns, NULL) !=
			0 ||
		    host_addr(tb, h, h->ifname) != 0)
			return -1;
	}
	return 0;
}

/* The command line of dfly-switch process @p i. */
static void switch_argv(struct tb *tb, uint32_t i, uint64_t epoch_ns, double duration,
			double gen_seconds, struct argv_buf *a)
{
	const struct tb_plan *p = &tb->plan;
	uint32_t ncores = p->o.cores;
	char ns[32];

	av_init(a);
	tb_plan_proc_ns(p, i, ns, sizeof(ns));
	if (ns[0] != '\0') {
		av_add(a, "ip");
		av_add(a, "netns");
		av_add(a, "exec");
		av_add(a, "%s", ns);
	}
	av_add(a, "%s", tb->switch_path);
	if (tb->huge_mb > 0) {
		/* hugepages, shared configuration: DPDK's tools attach (dfly-switch --help) */
		av_add(a, "--huge-dir");
		av_add(a, "%s", tb->huge_dir);
		av_add(a, "-m");
		av_add(a, "%u", tb->huge_mb);
		av_words(a, "--no-pci --log-level=error");
		/* A secondary (dpdk-dumpcap, dpdk-pdump, dpdk-proc-info) maps the primary's memory
		 * at the primary's addresses. EAL's default hint (4 GB) is taken in a process built
		 * with AddressSanitizer (its shadow), so such a primary reserved its 16 GB where
		 * the secondary had its libraries and the secondary failed ("Cannot reserve ...
		 * please use '--base-virtaddr'"); 32 TB is free in both kinds of process. */
		if (tb->eal_extra == NULL || strstr(tb->eal_extra, "--base-virtaddr") == NULL)
			av_words(a, "--base-virtaddr 0x200000000000");
	} else {
		av_words(a, "--no-huge -m 256 --no-pci --no-shconf --log-level=error");
	}
	av_add(a, "-l");
	av_add(a, "%u", i % ncores);
	av_add(a, "--file-prefix");
	av_add(a, "%sp%u", p->o.name, i);
	av_words(a, tb->eal_extra);
	av_add(a, "--");
	av_add(a, "%s/p%u.cfg", p->dir, i);
	av_add(a, "--counters");
	av_add(a, "%s/p%u.counters", p->dir, i);
	if (epoch_ns != 0) {
		av_add(a, "--epoch-ns");
		av_add(a, "%" PRIu64, epoch_ns);
	}
	if (duration > 0) {
		av_add(a, "--duration");
		av_add(a, "%g", duration);
	}
	if (gen_seconds >= 0) {
		av_add(a, "--gen-seconds");
		av_add(a, "%g", gen_seconds);
	}
	if (tb->verify_cycles) {
		av_add(a, "--lockstep");
		av_add(a, "--cycles");
		av_add(a, "%" PRIu64, tb->verify_cycles);
		av_add(a, "--snapshots");
		av_add(a, "%s/p%u.snap", p->dir, i);
		av_add(a, "--snapshot-every");
		av_add(a, "%" PRIu64, tb->snap_every);
	}
}

/* Start @p a in the background, output to @p log. @return its pid or -1. */
static pid_t spawn(struct tb *tb, struct argv_buf *a, const char *log)
{
	pid_t pid;

	if (tb->script != NULL) {
		print_argv(tb->script, a->v);
		fprintf(tb->script, " >");
		dfly_sh_word(tb->script, log);
		fprintf(tb->script, " 2>&1 &\n");
		return 0;
	}
	if (tb->log != NULL) {
		print_argv(tb->log, a->v);
		fprintf(tb->log, " >%s 2>&1 &\n", log);
		fflush(tb->log);
	}
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int nul = open("/dev/null", O_RDONLY);

		setsid(); /* a terminal's ^C goes to `dfly testbed`, which stops them in order */
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		if (nul >= 0)
			dup2(nul, STDIN_FILENO);
		execvp(a->v[0], a->v);
		fprintf(stderr, "%s: %s\n", a->v[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

static void log_tail(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");
	long n = 0;

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL && n++ < 40)
		fprintf(stderr, "  %s", line);
	fclose(f);
}

/*
 * A memif server listens on @p path. The file appears at bind(), a few system calls before
 * listen(), and a client that connects in between is refused (its process then fails), so the
 * test is the listening flag (__SO_ACCEPTCON, 0x10000) of the socket in /proc/net/unix.
 */
/* Is process @p pid listening on the UNIX socket @p path? Read in its own network namespace
 * (/proc/PID/net/unix): with hosts the processes run in NAME-sw, whose sockets the testbed's
 * /proc/net/unix does not list. */
static bool sock_listening(pid_t pid, const char *path)
{
	_Static_assert(TB_PATH_MAX == 512u, "the %513s below is TB_PATH_MAX + 1");
	char line[512 + TB_PATH_MAX], name[TB_PATH_MAX + 2]; /* "@" + path */
	unsigned flags;
	bool found = false;
	FILE *f;

	snprintf(line, sizeof(line), "/proc/%d/net/unix", (int)pid);
	f = fopen(line, "r");

	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f) != NULL) {
		/* Num RefCount Protocol Flags Type St Inode Path */
		if (sscanf(line, "%*s %*s %*s %x %*s %*s %*s %513s", &flags, name) == 2 &&
		    (flags & 0x10000u) != 0 && strcmp(name, path) == 0)
			found = true;
	}
	fclose(f);
	return found;
}

static int start_switches(struct tb *tb, uint64_t epoch_ns, double duration, double gen_seconds,
			  double timeout)
{
	const struct tb_plan *p = &tb->plan;

	for (uint32_t i = 0; i < p->nproc; i++) {
		struct argv_buf a;
		char log[TB_PATH_MAX + 16];

		/* a memif client connects to a listening server: its servers are in lower
		 * processes, already started */
		for (uint32_t k = 0; k < p->nxl; k++) {
			const struct tb_xlink *x = &p->xl[k];
			double t0 = now_s();

			if (p->o.link != TB_LINK_MEMIF || x->proc[1] != i)
				continue;
			if (tb->script != NULL) {
				char ns[32];

				/* in the processes' namespace (hosts: NAME-sw) */
				tb_plan_proc_ns(p, x->proc[0], ns, sizeof(ns));
				fprintf(tb->script,
					"while ! %s%s%sawk -v p=", ns[0] ? "ip netns exec " : "",
					ns, ns[0] ? " " : "");
				dfly_sh_word(tb->script, x->sock);
				fprintf(
				    tb->script,
				    " '$4 == \"00010000\" && $8 == p { f = 1 } END { exit !f }' "
				    "/proc/net/unix; do sleep 0.05; done\n");
				continue;
			}
			while (!sock_listening(tb->pid[x->proc[0]], x->sock)) {
				if (!proc_alive(tb->pid[x->proc[0]], 0) || now_s() - t0 > timeout ||
				    tb_stop) {
					fprintf(stderr,
						"dfly testbed: process %u never listened on %s\n",
						x->proc[0], x->sock);
					snprintf(log, sizeof(log), "%s/p%u.log", p->dir,
						 x->proc[0]);
					log_tail(log);
					return -1;
				}
				usleep(20000);
			}
		}
		switch_argv(tb, i, epoch_ns, duration, gen_seconds, &a);
		snprintf(log, sizeof(log), "%s/p%u.log", p->dir, i);
		tb->pid[i] = spawn(tb, &a, log);
		if (tb->pid[i] < 0) {
			fprintf(stderr, "dfly testbed: cannot start process %u: %s\n", i,
				strerror(errno));
			return -1;
		}
		if (tb->script == NULL)
			state(tb, "pid %d %llu p%u", (int)tb->pid[i], proc_start(tb->pid[i], NULL),
			      i);
		state(tb, "prefix %sp%u", p->o.name, i);
	}
	return 0;
}

static int start_controld(struct tb *tb)
{
	const struct tb_plan *p = &tb->plan;
	struct argv_buf a;
	char log[TB_PATH_MAX + 16];

	if (p->o.firmware != TB_FW_CONTROLD)
		return 0;
	av_init(&a);
	av_add(&a, "%s", tb->controld_path);
	av_add(&a, "%s/network.cfg", p->dir);
	av_add(&a, "--instance");
	av_add(&a, "%s", p->o.name);
	snprintf(log, sizeof(log), "%s/controld.log", p->dir);
	tb->controld_pid = spawn(tb, &a, log);
	if (tb->controld_pid < 0)
		return -1;
	if (tb->script == NULL)
		state(tb, "pid %d %llu controld", (int)tb->controld_pid,
		      proc_start(tb->controld_pid, NULL));
	return 0;
}

/* Every device-backed fabric port of every router is up (HELLO verified). */
static int wait_ready(struct tb *tb, double timeout)
{
	const struct tb_plan *p = &tb->plan;
	struct dfly_regs_shm *shm = calloc(p->routers, sizeof(*shm));
	double t0 = now_s();
	int rc = -1;

	if (shm == NULL)
		return -1;
	for (;;) {
		uint32_t up = 0, want = 0, files = 0, stepping = 0;
		const char *bad = NULL;
		char why[160] = "";

		/* a router steps once its process has started every device: before that, a
		 * net_tap is still being set up (its queues opened by name in the switch's
		 * namespace) and moving it away loses it */
		for (uint32_t r = 0; r < p->routers; r++)
			if (shm[r].regs != NULL || dfly_regs_shm_open(&shm[r], p->o.name, r) == 0) {
				files++;
				stepping += atomic_load_explicit(&shm[r].regs->steps,
								 memory_order_relaxed) > 0;
			}
		for (uint32_t k = 0; k < p->nxl; k++)
			for (int e = 0; e < 2; e++) {
				const struct dfly_regs_shm *s = &shm[p->xl[k].router[e]];
				uint8_t st;

				want++;
				if (s->regs == NULL)
					continue;
				st = __atomic_load_n(&s->regs->link_state[p->xl[k].port[e]],
						     __ATOMIC_RELAXED);
				if (st == DFLY_LINK_UP)
					up++;
				else if (st == DFLY_LINK_MISWIRED)
					bad = "miswired";
				if (bad != NULL && why[0] == '\0')
					snprintf(why, sizeof(why), "router %u port %u: %s",
						 p->xl[k].router[e], p->xl[k].port[e], bad);
			}
		if (why[0] != '\0') {
			fprintf(stderr, "dfly testbed: %s\n", why);
			break;
		}
		if (files == p->routers && stepping == p->routers && up == want) {
			rc = 0;
			printf("testbed %s: %u routers in %u process(es), %u cross-process link "
			       "end(s) up in %.1f s\n",
			       p->o.name, p->routers, p->nproc, want, now_s() - t0);
			break;
		}
		for (uint32_t i = 0; i < p->nproc; i++)
			if (!proc_alive(tb->pid[i], 0)) {
				char log[TB_PATH_MAX + 16];

				snprintf(log, sizeof(log), "%s/p%u.log", p->dir, i);
				fprintf(stderr,
					"dfly testbed: process %u exited during start-up; %s:\n", i,
					log);
				log_tail(log);
				goto out;
			}
		if (now_s() - t0 > timeout || tb_stop) {
			fprintf(stderr,
				"dfly testbed: not ready after %.0f s: %u of %u register files, %u "
				"routers stepping, %u of %u link ends up (see %s/p*.log)\n",
				timeout, files, p->routers, stepping, up, want, p->dir);
			break;
		}
		usleep(20000);
	}
out:
	for (uint32_t r = 0; r < p->routers; r++)
		dfly_regs_shm_close(&shm[r]);
	free(shm);
	return rc;
}

/* ---------------------------------------------------------------------------------------------
 * Tear-down and the final counters
 */

/* A timing line of dfly-switch: timed, late, early, the cycles off summed, the worst of each. */
struct timing {
	uint64_t timed, late, early, late_max, early_max;
	double off;
};

struct totals {
	uint64_t gen, delivered, gen_drops, host_frames, held, measured, fabric_drops;
	double lat_w, mis_w; /* weighted by measured packets */
	/* link and credit timing (dfly-switch's "link timing:" and "credit timing:" lines) */
	struct timing link, credit;
	uint32_t files;
};

static uint64_t field_u64(const char *line, const char *key)
{
	const char *s = strstr(line, key);

	return s != NULL ? strtoull(s + strlen(key), NULL, 10) : 0;
}

static double field_dbl(const char *line, const char *key)
{
	const char *s = strstr(line, key);

	return s != NULL ? strtod(s + strlen(key), NULL) : 0.0;
}

/* "N what, L late and E early by more than 2 cycles (X cycles off a ... on average; worst WL
 * late, WE early)": add it to @p t. */
static void timing_add(struct timing *t, const char *s)
{
	uint64_t n = strtoull(s, NULL, 10), wl, we;
	const char *w = strstr(s, "worst ");

	t->timed += n;
	t->late += field_u64(s, ", ");
	t->early += field_u64(s, " late and ");
	t->off += (double)n * field_dbl(s, " cycles (");
	if (w != NULL) {
		wl = strtoull(w + 6, NULL, 10);
		we = field_u64(w, " late, ");
		t->late_max = wl > t->late_max ? wl : t->late_max;
		t->early_max = we > t->early_max ? we : t->early_max;
	}
}

/* One summed timing line, if anything was timed. */
static void timing_print(const struct timing *t, const char *name, const char *what,
			 const char *unit)
{
	if (t->timed == 0)
		return;
	printf("%s timing: %" PRIu64 " %s, %" PRIu64 " late and %" PRIu64
	       " early by more than 2 cycles (%.2f cycles off a %s on average; worst %" PRIu64
	       " late, %" PRIu64 " early)\n",
	       name, t->timed, what, t->late, t->early, t->off / (double)t->timed, unit,
	       t->late_max, t->early_max);
}

static void totals_read(const char *path, struct totals *t)
{
	char line[1024];
	uint64_t meas = 0;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return;
	t->files++;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "generated ", 10) == 0) {
			t->gen += field_u64(line, "generated ");
			t->delivered += field_u64(line, " delivered ");
			t->gen_drops += field_u64(line, " gen_drops ");
			t->host_frames += field_u64(line, " host_frames ");
			t->held += field_u64(line, " held_in_routers ");
			t->fabric_drops += field_u64(line, " fabric_drops ");
		} else if (strncmp(line, "measured ", 9) == 0) {
			meas = field_u64(line, "measured ");
			t->measured += meas;
		} else if (strncmp(line, "latency avg ", 12) == 0) {
			t->lat_w += (double)meas * field_dbl(line, "latency avg ");
			t->mis_w += (double)meas * field_dbl(line, "misrouted ");
		} else if (strncmp(line, "link timing: ", 13) == 0) {
			timing_add(&t->link, line + 13);
		} else if (strncmp(line, "credit timing: ", 15) == 0) {
			timing_add(&t->credit, line + 15);
		}
	}
	fclose(f);
}

/* DIR/testbed.state, as `up` wrote it while creating things. */
enum st_kind { ST_PID, ST_NETNS, ST_PREFIX };

struct st_entry {
	enum st_kind kind;
	char a[48];               /* namespace or file prefix; ST_PID: what ("p0", "controld") */
	pid_t pid;                /* ST_PID */
	unsigned long long start; /* ST_PID: its start time, so a recycled pid is never touched */
};

struct tb_state {
	char name[TB_NAME_MAX];
	uint32_t procs, routers, links;
	uint32_t huge_n;                 /* hugepages reserved ("huge N PATH"), 0: none */
	char huge_dir[TB_PATH_MAX + 16]; /* where they are mounted */
	struct st_entry *e;
	size_t n;
};

static void state_free(struct tb_state *st)
{
	free(st->e);
	memset(st, 0, sizeof(*st));
}

/* @return 0, or -errno (-ENOENT: no testbed in @p dir). */
static int state_load(const char *dir, struct tb_state *st)
{
	char path[TB_PATH_MAX + 32], line[TB_PATH_MAX + 64];
	size_t cap = 0;
	FILE *f;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "%s/%s", dir, STATE_FILE);
	f = fopen(path, "r");
	if (f == NULL)
		return -errno;
	while (fgets(line, sizeof(line), f) != NULL) {
		struct st_entry x;
		int pid;

		memset(&x, 0, sizeof(x));
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "pid %d %llu %47s", &pid, &x.start, x.a) == 3) {
			x.kind = ST_PID;
			x.pid = (pid_t)pid;
		} else if (strncmp(line, "netns ", 6) == 0) {
			x.kind = ST_NETNS;
			copy_str(x.a, sizeof(x.a), line + 6);
		} else if (strncmp(line, "prefix ", 7) == 0) {
			x.kind = ST_PREFIX;
			copy_str(x.a, sizeof(x.a), line + 7);
		} else {
			if (strncmp(line, "name ", 5) == 0)
				copy_str(st->name, sizeof(st->name), line + 5);
			else if (sscanf(line, "huge %u", &st->huge_n) == 1 &&
				 strchr(line + 5, ' ') != NULL)
				copy_str(st->huge_dir, sizeof(st->huge_dir),
					 strchr(line + 5, ' ') + 1);
			else if (sscanf(line, "procs %u", &st->procs) != 1 &&
				 sscanf(line, "routers %u", &st->routers) != 1)
				sscanf(line, "links %u", &st->links);
			continue;
		}
		if (st->n == cap) {
			struct st_entry *ne =
			    realloc(st->e, (cap = cap ? 2 * cap : 16) * sizeof(*ne));

			if (ne == NULL) {
				fclose(f);
				state_free(st);
				return -ENOMEM;
			}
			st->e = ne;
		}
		st->e[st->n++] = x;
	}
	fclose(f);
	return 0;
}

/* The pool of 2 MB hugepages: /proc/sys/vm/nr_hugepages (@p total) and the free ones. */
static int huge_read(long *total, long *free_pages)
{
	char line[128];
	FILE *f = fopen("/proc/sys/vm/nr_hugepages", "r");

	*total = *free_pages = -1;
	if (f == NULL)
		return -1;
	if (fscanf(f, "%ld", total) != 1)
		*total = -1;
	fclose(f);
	f = fopen("/proc/meminfo", "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "HugePages_Free: %ld", free_pages) == 1)
			break;
	fclose(f);
	return *total >= 0 && *free_pages >= 0 ? 0 : -1;
}

static int huge_write(long total)
{
	FILE *f = fopen("/proc/sys/vm/nr_hugepages", "w");
	int rc;

	if (f == NULL)
		return -1;
	rc = fprintf(f, "%ld\n", total < 0 ? 0 : total) > 0 ? 0 : -1;
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

/* Unmount @p dir and give @p n hugepages back to the kernel. @return 0 or -1. */
static int huge_release(struct tb *tb, const char *dir, uint32_t n)
{
	long total, free_pages;
	int rc = 0;

	if (sh(tb, true, "umount", dir, NULL) != 0 &&
	    sh(tb, true, "mountpoint", "-q", dir, NULL) == 0)
		rc = -1;
	rmdir(dir);
	if (huge_read(&total, &free_pages) != 0 || huge_write(total - (long)n) != 0)
		rc = -1;
	if (rc != 0)
		fprintf(stderr, "dfly testbed: hugepages: %s or %u pages not given back\n", dir, n);
	return rc;
}

static bool entry_alive(const struct st_entry *x)
{
	return x->kind == ST_PID && proc_alive(x->pid, x->start);
}

/* Stop the processes, then remove what the state file lists. @return 0 if all went. */
static int teardown(const char *dir, bool quiet)
{
	char path[TB_PATH_MAX + 32], line[TB_PATH_MAX + 64];
	struct tb_state st;
	struct st_entry *e;
	struct tb tb;
	size_t n;
	int rc = state_load(dir, &st);

	if (rc != 0) {
		fprintf(stderr, "dfly testbed: %s/%s: %s (nothing to stop)\n", dir, STATE_FILE,
			strerror(-rc));
		return -1;
	}
	e = st.e;
	n = st.n;

	/* 1. the dfly-switch processes and dfly-controld: SIGTERM (final counters), then KILL */
	for (int pass = 0; pass < 2; pass++) {
		double t0 = now_s();
		bool any = true;

		for (size_t i = 0; i < n; i++)
			if (entry_alive(&e[i]))
				kill(e[i].pid, pass == 0 ? SIGTERM : SIGKILL);
		while (any && now_s() - t0 < (pass == 0 ? 10.0 : 2.0)) {
			any = false;
			for (size_t i = 0; i < n; i++)
				any |= entry_alive(&e[i]);
			if (any)
				usleep(20000);
		}
		if (!any)
			break;
		if (pass == 0)
			fprintf(stderr,
				"dfly testbed: a process ignored SIGTERM for 10 s: SIGKILL\n");
		else
			rc = -1;
	}
	/* 2. whatever else runs in the namespaces (iperf3 servers, a forgotten ping) */
	memset(&tb, 0, sizeof(tb)); /* commands only: no log, no script */
	for (size_t i = 0; i < n; i++) {
		char pids[64];
		FILE *pp;

		if (e[i].kind != ST_NETNS)
			continue;
		snprintf(line, sizeof(line), "ip netns pids %s 2>/dev/null", e[i].a);
		pp = popen(line, "r");
		if (pp == NULL)
			continue;
		while (fgets(pids, sizeof(pids), pp) != NULL)
			kill((pid_t)atoi(pids), SIGKILL);
		pclose(pp);
	}
	/* 3. the namespaces, host ones first (deleting one deletes its veth ends) */
	for (size_t i = n; i-- > 0;)
		if (e[i].kind == ST_NETNS && sh(&tb, true, "ip", "netns", "del", e[i].a, NULL) != 0)
			rc = -1;
	/* 4. register files, DPDK runtime directories, memif sockets */
	for (uint32_t r = 0; st.name[0] != '\0' && r < st.routers; r++) {
		int u = dfly_regs_shm_unlink(st.name, r);

		if (u != 0 && u != -ENOENT)
			rc = -1;
	}
	for (size_t i = 0; i < n; i++)
		if (e[i].kind == ST_PREFIX) {
			snprintf(path, sizeof(path), "/var/run/dpdk/%s", e[i].a);
			if (sh(&tb, true, "rm", "-rf", path, NULL) != 0)
				rc = -1;
		}
	for (uint32_t k = 0; k < st.links; k++) {
		snprintf(path, sizeof(path), "%s/l%u.sock", dir, k);
		unlink(path);
	}
	/* 5. the hugepages: unmounted (their files go with the mount), then given back */
	if (st.huge_n > 0 && huge_release(&tb, st.huge_dir, st.huge_n) != 0)
		rc = -1;
	state_free(&st);
	snprintf(path, sizeof(path), "%s/%s", dir, STATE_FILE);
	if (rc == 0)
		unlink(path);
	else
		fprintf(stderr, "dfly testbed: some of the testbed could not be removed; %s kept\n",
			path);
	if (!quiet)
		printf("testbed stopped%s\n", rc == 0 ? "; everything it created is removed" : "");
	return rc;
}

static int report(const char *dir, uint32_t nproc, bool check_conservation)
{
	struct totals t;
	char path[TB_PATH_MAX + 32];

	memset(&t, 0, sizeof(t));
	for (uint32_t i = 0; i < nproc; i++) {
		snprintf(path, sizeof(path), "%s/p%u.counters", dir, i);
		totals_read(path, &t);
	}
	if (t.files == 0)
		return 0;
	printf("final counters (%s/p*.counters, %u of %u processes): generated %" PRIu64
	       " delivered %" PRIu64 " gen_drops %" PRIu64 " host_frames %" PRIu64
	       " held_in_routers %" PRIu64 " fabric_drops %" PRIu64 "\n",
	       dir, t.files, nproc, t.gen, t.delivered, t.gen_drops, t.host_frames, t.held,
	       t.fabric_drops);
	if (t.measured)
		printf("measured %" PRIu64 " packets: latency avg %.1f cycles, misrouted %.2f%%\n",
		       t.measured, t.lat_w / (double)t.measured, t.mis_w / (double)t.measured);
	timing_print(&t.link, "link", "packets timed", "packet");
	timing_print(&t.credit, "credit", "CREDIT frames timed", "frame");
	if (check_conservation) {
		if (t.files != nproc || t.gen != t.delivered + t.fabric_drops) {
			printf("LOST: generated %" PRIu64 " delivered %" PRIu64
			       " discarded behind a "
			       "dead link %" PRIu64 " (%u of %u counter files)\n",
			       t.gen, t.delivered, t.fabric_drops, t.files, nproc);
			return 1;
		}
		if (t.fabric_drops)
			printf("conservation: every generated packet was delivered but %" PRIu64
			       " discarded behind a dead link (drop.link_dead)\n",
			       t.fabric_drops);
		else
			printf("conservation: every generated packet was delivered\n");
	}
	return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The command
 */

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: dfly testbed gen    NETWORK.cfg --dir DIR [options]\n"
	    "       dfly testbed up     NETWORK.cfg --dir DIR [options]\n"
	    "       dfly testbed run    NETWORK.cfg --dir DIR --duration S [options]\n"
	    "       dfly testbed status --dir DIR\n"
	    "       dfly testbed down   --dir DIR\n"
	    "\n"
	    "A whole testbed on this machine from a network file: dfly-switch processes hosting\n"
	    "the routers, links between processes over memif or veth pairs, hosts in network\n"
	    "namespaces. `gen` writes the deployment files (DIR/p<i>.cfg, DIR/network.cfg) and\n"
	    "the commands (DIR/up.sh) without running anything; `up` also creates and starts\n"
	    "everything and returns once every cross-process link is up; `run` is up, S\n"
	    "seconds, down; `down` stops the processes (final counters in DIR/p<i>.counters)\n"
	    "and removes every namespace, veth, socket and register file it created.\n"
	    "\n"
	    "options:\n"
	    "  --name NAME        testbed name, [a-z0-9]{1,6} (default tb): register files\n"
	    "                     /dev/shm/dfly.NAME.r<R> (dfly stats --instance NAME),\n"
	    "                     namespaces NAME-sw and NAME-h<node>, interfaces NAME...\n"
	    "  --split one|group|router  routers per dfly-switch process (default one)\n"
	    "  --link memif|veth  devices of the links between processes (default memif);\n"
	    "                     veth: net_af_packet on veth pairs (MTU 9000)\n"
	    "  --hosts none|veth|tap  nodes as hosts in namespaces NAME-h<node>, reached over a\n"
	    "                     veth pair (af_packet) or a tap (default none); host node n has\n"
	    "                     10.77.0.0/16 + n + 1 and MAC 02:df:00:00:00:n\n"
	    "  --host-nodes LIST  only these nodes are hosts (\"0-5,8\"; default all)\n"
	    "  --generators on|off  the other nodes run dfly sim's generators (default: on\n"
	    "                     without hosts, off with hosts)\n"
	    "  --firmware thread|controld  a firmware thread per process (default) or one\n"
	    "                     dfly-controld for the testbed\n"
	    "  --set PATH=VALUE   override a setting of NETWORK.cfg (repeatable); the result is\n"
	    "                     DIR/network.cfg, which every process reads\n"
	    "  --loss-ppm N       every receiver of a cross-process link discards N per million\n"
	    "                     fabric frames (link.loss_ppm; for kernels without sch_netem),\n"
	    "                     which link-level retry must hide\n"
	    "  --dead-us US       link.dead_us of every process: a link silent this long is\n"
	    "                     declared down and routed around (default 200000; a slow\n"
	    "                     machine or a sanitizer build stalls longer at times)\n"
	    "  --cores N          spread the processes over lcores 0..N-1 (default: online CPUs)\n"
	    "  --eal 'ARGS'       more EAL arguments for every dfly-switch\n"
	    "  --hugepages N      reserve N more 2 MB hugepages, mount them at DIR/huge and run\n"
	    "                     the processes on them (N*2/processes MB each, >= 128 MB): "
	    "DPDK's\n"
	    "                     tools (dpdk-proc-info, dpdk-dumpcap, dpdk-pdump) attach with\n"
	    "                     --file-prefix NAMEp<i>; `down` gives them back. Default, or\n"
	    "                     when the kernel cannot give them: --no-huge (said in one line)\n"
	    "  --duration S       run: the testbed is stopped S s after cycle 0 (the clock\n"
	    "                     starts 0.5 s + 0.2 s per process after `run` started)\n"
	    "  --gen-seconds S    the generators stop S s after cycle 0, so the network drains\n"
	    "                     and `run` checks generated = delivered (exit 1 otherwise)\n"
	    "  --verify N         a run for dfly verify: every dfly-switch in lockstep\n"
	    "                     (--lockstep: the model's results exactly, the firmware ticked\n"
	    "                     inline) up to cycle N, its routers' register files written to\n"
	    "                     DIR/p<i>.snap every --snapshot-every K cycles (default N/10);\n"
	    "                     each says \"lockstep: cycle N reached\" in DIR/p<i>.log. Then\n"
	    "                     `dfly testbed down` and `dfly verify DIR`, which replays\n"
	    "                     the hosts' frames at the cycles they entered. Firmware\n"
	    "                     thread only\n"
	    "  --timeout S        seconds `up` waits for the links (default 30)\n"
	    "  --switch PATH, --controld PATH  the executables (default: beside dfly)\n"
	    "  -h, --help         this text\n"
	    "\n"
	    "Hosts and veth links need root (ip netns). Real time: pick clock.cycle_ns so the\n"
	    "routers keep up (dfly-switch prints \"fell behind\" otherwise); hosts need buffers\n"
	    "that hold a 1514-byte frame, e.g. --set packet.phit_bytes=64 --set buffers.local=64\n"
	    "--set buffers.output=64.\n");
}

static int parse_enum(const char *opt, const char *v, const char *const *names, int *out)
{
	for (int i = 0; names[i] != NULL; i++)
		if (strcmp(v, names[i]) == 0) {
			*out = i;
			return 0;
		}
	fprintf(stderr, "dfly testbed: %s %s: expected one of", opt, v);
	for (int i = 0; names[i] != NULL; i++)
		fprintf(stderr, " %s", names[i]);
	fprintf(stderr, "\n");
	return -1;
}

/* Seconds > 0 (0 would stop the testbed, or its generators, before they start). */
static int parse_sec(const char *opt, const char *v, double *out)
{
	return dfly_cli_parse_seconds("dfly testbed", opt, v, 1e6, out);
}

/* Check every generated deployment with the loader dfly-switch uses. */
static int check_files(const struct tb_plan *p)
{
	for (uint32_t i = 0; i < p->nproc; i++) {
		struct dp_deploy d;
		char path[TB_PATH_MAX + 16], err[1024];
		int rc;

		tb_plan_cfg_path(p, i, path, sizeof(path));
		rc = dp_deploy_load(&d, path, NULL, 0, err, sizeof(err));
		if (rc != 0) {
			fprintf(stderr, "dfly testbed: %s\n", err);
			return -1;
		}
		dp_deploy_free(&d);
	}
	return 0;
}

static void print_plan(const struct tb_plan *p)
{
	char buf[256];

	printf("testbed %s: %s, %u routers, %u nodes; %u dfly-switch process(es) (split %s), "
	       "%u link(s) between processes over %s, %u host(s)%s%s\n",
	       p->o.name, p->network, p->routers, p->nodes, p->nproc, tb_split_name(p->o.split),
	       p->nxl, tb_link_name(p->o.link), p->nhost, p->nhost ? " over " : "",
	       p->nhost ? tb_hosts_name(p->o.hosts) : "");
	for (uint32_t i = 0; i < p->nproc; i++) {
		tb_plan_routers(p, i, buf, sizeof(buf));
		printf("  process %u: routers %s, %s/p%u.cfg, log %s/p%u.log\n", i, buf, p->dir, i,
		       p->dir, i);
	}
}

static void print_hosts(const struct tb_plan *p)
{
	for (uint32_t k = 0; k < p->nhost && k < 16; k++) {
		char ip[DP_HOST_IPV4_STRLEN];

		dp_host_format_ipv4(p->host[k].ip, ip);
		printf("  host node %u: ip netns exec %s ... (%s, router %u, process %u)\n",
		       p->host[k].node, p->host[k].ns, ip, p->host[k].router, p->host[k].proc);
	}
	if (p->nhost > 16)
		printf("  ... and %u more hosts (namespaces %s-h<node>)\n", p->nhost - 16,
		       p->o.name);
}

/* Processes of the testbed in @p dir still running; -1: a state file but none running. */
static int state_exists_live(const char *dir)
{
	struct tb_state st;
	int live = 0;

	if (state_load(dir, &st) != 0)
		return 0;
	for (size_t i = 0; i < st.n; i++)
		live += entry_alive(&st.e[i]);
	state_free(&st);
	return live ? live : -1;
}

static int status(const char *dir)
{
	struct tb_state st;
	int alive = 0, dead = 0;

	if (state_load(dir, &st) != 0) {
		printf("no testbed in %s\n", dir);
		return 1;
	}
	for (size_t i = 0; i < st.n; i++) {
		const struct st_entry *x = &st.e[i];

		if (x->kind == ST_PID) {
			bool a = entry_alive(x);

			printf("  %-9s pid %-7d %s\n", x->a, (int)x->pid, a ? "running" : "exited");
			a ? alive++ : dead++;
		} else if (x->kind == ST_NETNS) {
			printf("  namespace %s\n", x->a);
		}
	}
	printf("testbed %s in %s: %d process(es) running, %d exited%s%s\n", st.name, dir, alive,
	       dead, st.name[0] ? "; counters: dfly stats --instance " : "", st.name);
	state_free(&st);
	return dead ? 1 : 0;
}

/* What the command line asks for (tb_parse). */
struct tb_args {
	struct tb_opts o;            /* what the plan is built from */
	const char *sets[MAX_SETS];  /* --set, pointed to by o.sets */
	const char *verb;            /* gen, up, run, status or down */
	const char *dir, *sw, *cd;   /* --dir, --switch, --controld */
	const char *eal_extra;       /* --eal */
	uint32_t hugepages;          /* --hugepages: 2 MB pages to reserve, 0: --no-huge */
	uint64_t verify, snap_every; /* --verify N, --snapshot-every K */
	double duration, gen_seconds, timeout;
	int gen; /* --generators: -1 (default), 0 off, 1 on */
};

/*
 * Parse the command line into @p a. @return -1 to go on, or the exit status to end with (0
 * after --help, 2 on a usage error, said on stderr).
 */
static int tb_parse(int argc, char **argv, struct tb_args *a)
{
	static const char *const splits[] = {"one", "group", "router", NULL};
	static const char *const links[] = {"memif", "veth", NULL};
	static const char *const hostm[] = {"none", "veth", "tap", NULL};
	static const char *const onoff[] = {"off", "on", NULL};
	static const char *const fws[] = {"thread", "controld", NULL};
	static const struct option opts[] = {{"name", required_argument, NULL, 'n'},
					     {"split", required_argument, NULL, 'S'},
					     {"link", required_argument, NULL, 'L'},
					     {"hosts", required_argument, NULL, 'H'},
					     {"host-nodes", required_argument, NULL, 'N'},
					     {"generators", required_argument, NULL, 'g'},
					     {"firmware", required_argument, NULL, 'f'},
					     {"set", required_argument, NULL, 's'},
					     {"cores", required_argument, NULL, 'c'},
					     {"eal", required_argument, NULL, 'e'},
					     {"hugepages", required_argument, NULL, 'U'},
					     {"duration", required_argument, NULL, 'd'},
					     {"gen-seconds", required_argument, NULL, 'G'},
					     {"timeout", required_argument, NULL, 't'},
					     {"switch", required_argument, NULL, 'w'},
					     {"controld", required_argument, NULL, 'C'},
					     {"dir", required_argument, NULL, 'D'},
					     {"loss-ppm", required_argument, NULL, 'p'},
					     {"dead-us", required_argument, NULL, 'X'},
					     {"verify", required_argument, NULL, 'V'},
					     {"snapshot-every", required_argument, NULL, 'K'},
					     {"help", no_argument, NULL, 'h'},
					     {NULL, 0, NULL, 0}};
	struct tb_opts *o = &a->o;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	char cmd[64];
	int opt, v;

	snprintf(o->name, sizeof(o->name), "tb");
	o->sets = a->sets;
	o->cores = cores > 0 ? (uint32_t)cores : 1;
	a->gen_seconds = -1;
	a->timeout = 30;
	a->gen = -1;
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	a->verb = argv[1];
	if (strcmp(a->verb, "gen") != 0 && strcmp(a->verb, "up") != 0 &&
	    strcmp(a->verb, "run") != 0 && strcmp(a->verb, "status") != 0 &&
	    strcmp(a->verb, "down") != 0)
		return dfly_cli_usage_error(
		    "dfly testbed", "unknown verb '%s' (gen, up, run, status, down)", a->verb);
	argc--;
	argv++;
	snprintf(cmd, sizeof(cmd), "dfly testbed %.16s", a->verb);
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			if (tb_name_check(optarg) != 0) {
				fprintf(stderr, "dfly testbed: --name %s: 1 to 6 of [a-z0-9]\n",
					optarg);
				return 2;
			}
			snprintf(o->name, sizeof(o->name), "%s", optarg);
			break;
		case 'S':
			if (parse_enum("--split", optarg, splits, &v) != 0)
				return 2;
			o->split = (enum tb_split)v;
			break;
		case 'L':
			if (parse_enum("--link", optarg, links, &v) != 0)
				return 2;
			o->link = (enum tb_link)v;
			break;
		case 'H':
			if (parse_enum("--hosts", optarg, hostm, &v) != 0)
				return 2;
			o->hosts = (enum tb_hosts)v;
			break;
		case 'N':
			o->host_nodes = optarg;
			break;
		case 'g':
			if (parse_enum("--generators", optarg, onoff, &a->gen) != 0)
				return 2;
			break;
		case 'f':
			if (parse_enum("--firmware", optarg, fws, &v) != 0)
				return 2;
			o->firmware = (enum tb_fw)v;
			break;
		case 's':
			if (o->nsets >= MAX_SETS) {
				fprintf(stderr, "dfly testbed: more than %d --set\n", MAX_SETS);
				return 2;
			}
			a->sets[o->nsets++] = optarg;
			break;
		case 'c': {
			char *end;
			unsigned long c = strtoul(optarg, &end, 10);

			if (*end != '\0' || c == 0 || c > 1024) {
				fprintf(stderr, "dfly testbed: --cores %s: 1..1024\n", optarg);
				return 2;
			}
			o->cores = (uint32_t)c;
			break;
		}
		case 'e':
			a->eal_extra = optarg;
			break;
		case 'U': {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);

			if (*end != '\0' || n == 0 || n > 1048576) {
				fprintf(stderr,
					"dfly testbed: --hugepages %s: 2 MB pages, 1..1048576\n",
					optarg);
				return 2;
			}
			a->hugepages = (uint32_t)n;
			break;
		}
		case 'd':
			if (parse_sec("--duration", optarg, &a->duration) != 0)
				return 2;
			break;
		case 'G':
			if (parse_sec("--gen-seconds", optarg, &a->gen_seconds) != 0)
				return 2;
			break;
		case 't':
			if (parse_sec("--timeout", optarg, &a->timeout) != 0)
				return 2;
			break;
		case 'w':
			a->sw = optarg;
			break;
		case 'C':
			a->cd = optarg;
			break;
		case 'D':
			a->dir = optarg;
			break;
		case 'p': {
			char *end;
			unsigned long ppm = strtoul(optarg, &end, 10);

			if (*optarg == '\0' || *end != '\0' || ppm > 500000) {
				fprintf(stderr, "dfly testbed: --loss-ppm %s: 0..500000\n", optarg);
				return 2;
			}
			o->loss_ppm = (uint32_t)ppm;
			break;
		}
		case 'V':
		case 'K': {
			char *end;
			unsigned long long n = strtoull(optarg, &end, 10);

			if (*optarg == '\0' || *end != '\0' || n == 0 || n > (1ull << 40)) {
				fprintf(stderr, "dfly testbed: --%s %s: cycles, 1..2^40\n",
					opt == 'V' ? "verify" : "snapshot-every", optarg);
				return 2;
			}
			*(opt == 'V' ? &a->verify : &a->snap_every) = n;
			break;
		}
		case 'X': {
			char *end;
			unsigned long us = strtoul(optarg, &end, 10);

			if (*optarg == '\0' || *end != '\0' || us < 1000 || us > 100000000) {
				fprintf(stderr, "dfly testbed: --dead-us %s: 1000..100000000\n",
					optarg);
				return 2;
			}
			o->dead_us = (uint32_t)us;
			break;
		}
		case 'h':
			usage(stdout);
			return 0;
		default:
			return dfly_cli_opt_error(cmd, opts, opt, argv);
		}
	}
	if (a->dir == NULL) {
		fprintf(stderr, "dfly testbed %s: --dir DIR is required\n", a->verb);
		return 2;
	}
	if (strcmp(a->verb, "down") == 0 || strcmp(a->verb, "status") == 0) {
		if (optind != argc) {
			fprintf(stderr, "dfly testbed %s: only --dir DIR\n", a->verb);
			return 2;
		}
		return -1;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "dfly testbed %s: one NETWORK.cfg expected\n", a->verb);
		return 2;
	}
	if (strcmp(a->verb, "run") == 0 && a->duration <= 0) {
		fprintf(stderr, "dfly testbed run: --duration S is required\n");
		return 2;
	}
	if (a->gen_seconds >= 0 && a->duration > 0 && a->gen_seconds >= a->duration) {
		fprintf(stderr, "dfly testbed: --gen-seconds must be below --duration (the network "
				"needs time to drain)\n");
		return 2;
	}
	o->network = argv[optind];
	o->dir = a->dir;
	o->generators = a->gen >= 0 ? a->gen == 1 : o->hosts == TB_HOSTS_NONE;
	return -1;
}

/* dfly testbed down: stop what DIR's state file names, then the report. */
static int tb_down(const char *dir)
{
	struct tb_state st;
	uint32_t nproc = state_load(dir, &st) == 0 ? st.procs : 0;
	int rc;

	state_free(&st);
	rc = teardown(dir, false) == 0 ? 0 : 1;
	report(dir, nproc, false);
	return rc;
}

/*
 * The plan: the processes, links and hosts of the testbed, its files written and checked with
 * the dataplane's loader, the remains of an earlier testbed removed. @return 0, or 2 if the plan
 * cannot be built, 1 if it cannot be written or started here (said on stderr).
 */
static int tb_plan(struct tb *tb, struct tb_args *a)
{
	char err[1024];
	int v;

	if (tb_plan_build(&tb->plan, &a->o, err, sizeof(err)) != 0) {
		fprintf(stderr, "dfly testbed: %s\n", err);
		return 2;
	}
	tb->dir = tb->plan.dir;
	tb->eal_extra = a->eal_extra;
	if (a->snap_every && !a->verify) {
		fprintf(stderr, "dfly testbed: --snapshot-every needs --verify N\n");
		return 2;
	}
	if (a->verify &&
	    (a->o.firmware != TB_FW_THREAD || a->gen_seconds >= 0 || a->o.loss_ppm > 0)) {
		fprintf(stderr,
			"dfly testbed: --verify: firmware thread (ticked inline), no "
			"--gen-seconds (--verify N ends the run), no --loss-ppm (a lost frame "
			"ends the run's exactness)\n");
		return 2;
	}
	tb->verify_cycles = a->verify;
	tb->snap_every = a->snap_every ? a->snap_every : (a->verify + 9) / 10;
	find_tool(a->sw, "dfly-switch", tb->switch_path, sizeof(tb->switch_path));
	find_tool(a->cd, "dfly-controld", tb->controld_path, sizeof(tb->controld_path));
	v = state_exists_live(tb->plan.dir);
	if (v > 0) {
		fprintf(stderr,
			"dfly testbed: %s holds a running testbed; dfly testbed down --dir %s\n",
			tb->plan.dir, a->dir);
		return 2;
	}
	if (v < 0) {
		fprintf(stderr, "dfly testbed: %s: removing the remains of an earlier testbed\n",
			tb->plan.dir);
		teardown(tb->plan.dir, true);
	}
	if (a->hugepages > 0 && 2 * a->hugepages / tb->plan.nproc < 128) {
		fprintf(
		    stderr,
		    "dfly testbed: --hugepages %u gives each of the %u processes %u MB (expected "
		    ">= 128 MB a process: --hugepages %u)\n",
		    a->hugepages, tb->plan.nproc, 2 * a->hugepages / tb->plan.nproc,
		    64 * tb->plan.nproc);
		return 2;
	}
	if (a->hugepages > 0 && geteuid() != 0 && strcmp(a->verb, "gen") != 0) {
		fprintf(stderr, "dfly testbed: --hugepages needs root (/proc/sys/vm/nr_hugepages, "
				"mount)\n");
		return 2;
	}
	if (tb->plan.proc_ns && geteuid() != 0 && strcmp(a->verb, "gen") != 0) {
		fprintf(stderr,
			"dfly testbed: hosts and veth links need root (network namespaces)\n");
		return 2;
	}
	if (tb_plan_write(&tb->plan, err, sizeof(err)) != 0) {
		fprintf(stderr, "dfly testbed: %s\n", err);
		return 2;
	}
	if (check_files(&tb->plan) != 0)
		return 2;
	print_plan(&tb->plan);
	if (tb->plan.net.cycle_ns < 1000.0)
		fprintf(stderr,
			"dfly testbed: warning: clock.cycle_ns = %g: one lcore steps a few hundred "
			"thousand router-cycles per second, so the routers will fall behind real "
			"time; try --set clock.cycle_ns=10000\n",
			tb->plan.net.cycle_ns);
	tb->pid = calloc(tb->plan.nproc, sizeof(*tb->pid));
	return tb->pid == NULL ? 2 : 0;
}

/*
 * Open what the verb writes: gen, the script up.sh; up and run, the state file and the setup log,
 * with the signals that stop a run. @return 0, or -1 (said on stderr); *epoch is cycle 0 of every
 * process (0 for gen).
 */
static int tb_open(struct tb *tb, bool dry, uint64_t *epoch)
{
	char path[TB_PATH_MAX + 32];
	struct sigaction sa;
	struct timespec ts;

	*epoch = 0;
	if (dry) {
		snprintf(path, sizeof(path), "%s/up.sh", tb->plan.dir);
		tb->script = fopen(path, "w");
		if (tb->script == NULL) {
			fprintf(stderr, "dfly testbed: %s: %s\n", path, strerror(errno));
			return -1;
		}
		fprintf(tb->script, "#!/bin/sh\n# Generated by `dfly testbed gen`: what `dfly "
				    "testbed up` runs. Stop with `dfly testbed down`.\nset -e\n");
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s", tb->plan.dir, STATE_FILE);
	tb->state = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/setup.log", tb->plan.dir);
	tb->log = fopen(path, "w");
	if (tb->state == NULL || tb->log == NULL) {
		fprintf(stderr, "dfly testbed: %s: cannot write\n", tb->plan.dir);
		return -1;
	}
	state(tb, "name %s", tb->plan.o.name);
	state(tb, "procs %u", tb->plan.nproc);
	state(tb, "routers %u", tb->plan.routers);
	state(tb, "links %u", tb->plan.nxl);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* cycle 0 of every process: once they all had time to start */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*epoch = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + 500000000ull +
		 200000000ull * tb->plan.nproc;
	return 0;
}

/*
 * --hugepages N: reserve N more 2 MB hugepages (/proc/sys/vm/nr_hugepages), mount a hugetlbfs
 * at DIR/huge and give each process its share (-m); `down` unmounts and gives them back. When
 * the kernel cannot give them all, it takes none and the processes run with --no-huge, said in
 * one line. For gen: the commands that would. @return 0 or -1.
 */
static int huge_setup(struct tb *tb, uint32_t n, bool dry)
{
	long total, free0, total1, free1;

	tb->huge_mb = 0;
	if (n == 0)
		return 0;
	snprintf(tb->huge_dir, sizeof(tb->huge_dir), "%s/huge", tb->plan.dir);
	if (dry) {
		fprintf(tb->script,
			"echo $(( $(cat /proc/sys/vm/nr_hugepages) + %u )) > "
			"/proc/sys/vm/nr_hugepages\nmkdir -p ",
			n);
		dfly_sh_word(tb->script, tb->huge_dir);
		fprintf(tb->script, "\nmount -t hugetlbfs -o pagesize=2M nodev ");
		dfly_sh_word(tb->script, tb->huge_dir);
		fputc('\n', tb->script);
		tb->huge_mb = 2 * n / tb->plan.nproc;
		return 0;
	}
	if (huge_read(&total, &free0) != 0 || huge_write(total + n) != 0 ||
	    huge_read(&total1, &free1) != 0 || free1 - free0 < (long)n) {
		long got = total >= 0 && free0 >= 0 && free1 >= 0 ? free1 - free0 : 0;

		if (total >= 0)
			huge_write(total);
		printf("dfly testbed: %ld of %u hugepages could be reserved: the processes run "
		       "with --no-huge (DPDK's tools cannot attach)\n",
		       got > 0 ? got : 0, n);
		return 0;
	}
	state(tb, "huge %u %s", n, tb->huge_dir);
	if (mkdir(tb->huge_dir, 0700) != 0 && errno != EEXIST) {
		fprintf(stderr, "dfly testbed: %s: %s\n", tb->huge_dir, strerror(errno));
		return -1;
	}
	if (sh(tb, false, "mount", "-t", "hugetlbfs", "-o", "pagesize=2M", "nodev", tb->huge_dir,
	       NULL) != 0)
		return -1;
	tb->huge_mb = 2 * n / tb->plan.nproc;
	printf("dfly testbed: %u hugepages (%u MB a process) at %s: DPDK's tools attach with "
	       "--file-prefix %sp<i>\n",
	       n, tb->huge_mb, tb->huge_dir, tb->plan.o.name);
	return 0;
}

/* Create the namespaces, links and hosts, start the switches and dfly-controld (for gen: write
 * the commands that would). @return 0 or -1. */
static int tb_start(struct tb *tb, const struct tb_args *a, bool dry, uint64_t epoch)
{
	for (uint32_t i = 0; tb->plan.proc_ns && i < tb->plan.nproc; i++) {
		char ns[32];

		tb_plan_proc_ns(&tb->plan, i, ns, sizeof(ns));
		if (setup_netns(tb, ns) != 0)
			return -1;
	}
	/* a stale memif socket would make its server fail ("Address already in use") */
	for (uint32_t k = 0; !dry && k < tb->plan.nxl; k++)
		if (tb->plan.xl[k].sock[0] != '\0')
			unlink(tb->plan.xl[k].sock);
	if (setup_links(tb) != 0 || setup_hosts(tb) != 0 || huge_setup(tb, a->hugepages, dry) != 0)
		return -1;
	if (start_switches(tb, epoch, strcmp(a->verb, "run") == 0 ? 0 : a->duration, a->gen_seconds,
			   a->timeout) != 0 ||
	    start_controld(tb) != 0)
		return -1;
	return 0;
}

/* gen: the taps' commands, then close up.sh and say what was written. */
static void tb_gen_report(struct tb *tb)
{
	char path[TB_PATH_MAX + 32];

	if (tb->plan.o.hosts == TB_HOSTS_TAP)
		fprintf(tb->script, "# once dfly-switch has created the taps:\nsleep 5\n");
	setup_taps(tb);
	fclose(tb->script);
	tb->script = NULL;
	snprintf(path, sizeof(path), "%s/up.sh", tb->plan.dir);
	chmod(path, 0755);
	printf("wrote %s/network.cfg, %s/p0..%u.cfg and %s (nothing started)\n", tb->plan.dir,
	       tb->plan.dir, tb->plan.nproc - 1, path);
}

/* run: wait until `duration` after cycle 0, as the switches count --gen-seconds (so the network
 * drains for duration - gen_seconds), or until a signal or a process that exits early. */
static void tb_run(const struct tb *tb, double duration, uint64_t epoch)
{
	double t0 = (double)epoch * 1e-9, last = now_s();

	while (!tb_stop && now_s() - t0 < duration) {
		bool all = true;

		for (uint32_t i = 0; i < tb->plan.nproc; i++)
			all &= proc_alive(tb->pid[i], 0);
		if (!all) {
			fprintf(stderr, "dfly testbed: a dfly-switch process exited early\n");
			break;
		}
		if (now_s() - last >= 5.0) {
			fprintf(stderr, "dfly testbed: %.0f of %.0f s\n", now_s() - t0, duration);
			last = now_s();
		}
		usleep(50000);
	}
}

/* After a failure: close what is open and remove what was created. */
static void tb_undo(struct tb *tb)
{
	if (tb->script != NULL) {
		fclose(tb->script);
		tb->script = NULL;
	}
	if (tb->state != NULL) {
		fclose(tb->state);
		tb->state = NULL;
		fprintf(stderr, "dfly testbed: removing what was created\n");
		teardown(tb->plan.dir, true);
	}
}

/* gen, up and run, once the command line is parsed. @return the exit status. */
static int tb_up(struct tb *tb, struct tb_args *a)
{
	bool dry = strcmp(a->verb, "gen") == 0;
	uint64_t epoch;
	int rc;

	if ((rc = tb_plan(tb, a)) != 0)
		return rc;
	if (tb_open(tb, dry, &epoch) != 0)
		return 1;
	if (tb_start(tb, a, dry, epoch) != 0)
		goto fail;
	if (dry) {
		tb_gen_report(tb);
		return 0;
	}
	if (wait_ready(tb, a->timeout) != 0 || setup_taps(tb) != 0)
		goto fail;
	print_hosts(&tb->plan);
	if (strcmp(a->verb, "up") == 0) {
		printf("counters: dfly stats --instance %s; status: dfly testbed status --dir "
		       "%s; stop: dfly testbed down --dir %s\n",
		       tb->plan.o.name, a->dir, a->dir);
		return 0;
	}
	tb_run(tb, a->duration, epoch);
	if (tb->state != NULL)
		fclose(tb->state);
	tb->state = NULL;
	rc = teardown(tb->plan.dir, false) == 0 ? 0 : 1;
	if (report(tb->plan.dir, tb->plan.nproc, a->gen_seconds >= 0) != 0)
		rc = 1;
	return rc;
fail:
	tb_undo(tb);
	return 1;
}

int cmd_testbed(int argc, char **argv)
{
	struct tb_args a;
	struct tb tb;
	int rc;

	memset(&a, 0, sizeof(a));
	memset(&tb, 0, sizeof(tb));
	if ((rc = tb_parse(argc, argv, &a)) >= 0)
		return rc;
	if (strcmp(a.verb, "status") == 0)
		return status(a.dir);
	if (strcmp(a.verb, "down") == 0)
		return tb_down(a.dir);
	rc = tb_up(&tb, &a);
	if (tb.state != NULL)
		fclose(tb.state);
	if (tb.log != NULL)
		fclose(tb.log);
	free(tb.pid);
	tb_plan_free(&tb.plan);
	return rc;
}
