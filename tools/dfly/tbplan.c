/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The plan of a `dfly testbed` (testbed.h): processes, cross-process links, hosts, and the
 * deployment files. No process, namespace or interface is touched here.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dfly/topo.h"
#include "host.h"
#include "stats.h"
#include "testbed.h"

static int perr(char *err, size_t len, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int perr(char *err, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return rc;
}

const char *tb_split_name(enum tb_split s)
{
	static const char *const n[] = {"one", "group", "router"};

	return (unsigned)s < 3 ? n[s] : "?";
}

const char *tb_link_name(enum tb_link l)
{
	return l == TB_LINK_MEMIF ? "memif" : l == TB_LINK_VETH ? "veth" : "?";
}

const char *tb_hosts_name(enum tb_hosts h)
{
	static const char *const n[] = {"none", "veth", "tap"};

	return (unsigned)h < 3 ? n[h] : "?";
}

int tb_name_check(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n >= TB_NAME_MAX)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9')))
			return -EINVAL;
	return 0;
}

/* An absolute, normalised path; @p must_exist: realpath(), else the parent's realpath(). */
static int abs_path(const char *in, char *out, size_t len, bool must_exist)
{
	char buf[PATH_MAX];

	if (must_exist) {
		if (realpath(in, buf) == NULL)
			return -errno;
	} else if (in[0] == '/') {
		snprintf(buf, sizeof(buf), "%s", in);
	} else {
		char cwd[PATH_MAX];

		if (getcwd(cwd, sizeof(cwd)) == NULL)
			return -errno;
		if (snprintf(buf, sizeof(buf), "%s/%s", cwd, in) >= (int)sizeof(buf))
			return -ENAMETOOLONG;
	}
	if (strlen(buf) >= len)
		return -ENAMETOOLONG;
	memcpy(out, buf, strlen(buf) + 1);
	return 0;
}

static uint32_t proc_of_router(const struct tb_plan *p, uint32_t r)
{
	switch (p->o.split) {
	case TB_SPLIT_GROUP:
		return dfly_topo_group_of(p->topo, r);
	case TB_SPLIT_ROUTER:
		return r;
	default:
		return 0;
	}
}

/* Per-process counters of the DPDK device names in use (names are per process). */
struct devnum {
	uint32_t memif, afp, tap;
};

static int plan_links(struct tb_plan *p, struct devnum *dn, char *err, size_t errlen)
{
	const struct dfly_topo *t = p->topo;

	p->xl = calloc((size_t)t->routers * t->radix, sizeof(*p->xl));
	if (p->xl == NULL)
		return perr(err, errlen, -ENOMEM, "out of memory");
	for (uint32_t r = 0; r < t->routers; r++) {
		for (uint32_t port = t->first_local; port < t->radix; port++) {
			uint32_t pr, pp;
			struct tb_xlink *x;

			if (dfly_topo_port_peer(t, r, port, &pr, &pp) != 0)
				return perr(err, errlen, -EINVAL, "router %u port %u: no peer", r,
					    port);
			/* links inside a process are in memory; the others once, from the
			 * end in the lower process */
			if (p->proc_of[r] >= p->proc_of[pr])
				continue;
			x = &p->xl[p->nxl];
			x->router[0] = r;
			x->port[0] = port;
			x->router[1] = pr;
			x->port[1] = pp;
			if (p->o.link == TB_LINK_MEMIF)
				snprintf(x->sock, TB_PATH_MAX, "%s/l%u.sock", p->dir, p->nxl);
			for (int e = 0; e < 2; e++) {
				uint32_t pi = p->proc_of[x->router[e]];

				x->proc[e] = pi;
				if (p->o.link == TB_LINK_MEMIF) {
					snprintf(x->dev[e], TB_DEV_MAX, "net_memif%u",
						 dn[pi].memif++);
					if (snprintf(x->args[e], TB_ARGS_MAX,
						     "role=%s,socket=%s,socket-abstract=no,id=0",
						     e == 0 ? "server" : "client",
						     x->sock) >= (int)TB_ARGS_MAX)
						return perr(err, errlen, -ENAMETOOLONG,
							    "%s: directory path too long", p->dir);
				} else {
					if (snprintf(x->veth[e], TB_IFNAME_MAX, "%sl%u%c",
						     p->o.name, p->nxl,
						     e == 0 ? 'a' : 'b') >= (int)TB_IFNAME_MAX)
						return perr(err, errlen, -ENAMETOOLONG,
							    "link %u: interface name too long",
							    p->nxl);
					snprintf(x->dev[e], TB_DEV_MAX, "net_af_packet%u",
						 dn[pi].afp++);
					snprintf(x->args[e], TB_ARGS_MAX, "iface=%s", x->veth[e]);
				}
			}
			p->nxl++;
		}
	}
	return 0;
}

static int plan_hosts(struct tb_plan *p, struct devnum *dn, char *err, size_t errlen)
{
	const struct dfly_topo *t = p->topo;

	p->is_host = calloc(t->nodes, sizeof(*p->is_host));
	p->host = calloc(t->nodes, sizeof(*p->host));
	if (p->is_host == NULL || p->host == NULL)
		return perr(err, errlen, -ENOMEM, "out of memory");
	if (p->o.hosts == TB_HOSTS_NONE)
		return 0;
	if (p->o.host_nodes == NULL) {
		for (uint32_t n = 0; n < t->nodes; n++)
			p->is_host[n] = true;
	} else {
		uint32_t *ids = calloc(DFLY_STATS_MAX_ROUTERS, sizeof(*ids));
		int k;

		if (ids == NULL)
			return perr(err, errlen, -ENOMEM, "out of memory");
		k = dfly_stats_parse_routers(p->o.host_nodes, ids, DFLY_STATS_MAX_ROUTERS);
		if (k < 0) {
			free(ids);
			return perr(err, errlen, -EINVAL,
				    "--host-nodes %s: not a node LIST (0-5,8)", p->o.host_nodes);
		}
		for (int i = 0; i < k; i++) {
			if (ids[i] >= t->nodes) {
				uint32_t bad = ids[i];

				free(ids);
				return perr(err, errlen, -EINVAL,
					    "--host-nodes: node %u out of range [0, %u)", bad,
					    t->nodes);
			}
			p->is_host[ids[i]] = true;
		}
		free(ids);
	}
	if (t->nodes > 4096u)
		return perr(err, errlen, -E2BIG, "at most 4096 host namespaces (use --host-nodes)");
	for (uint32_t n = 0; n < t->nodes; n++) {
		struct tb_host *h;

		if (!p->is_host[n])
			continue;
		h = &p->host[p->nhost++];
		h->node = n;
		h->router = dfly_topo_router_of_node(t, n);
		h->proc = p->proc_of[h->router];
		dp_host_default_mac(n, h->mac);
		h->ip = dp_host_default_ip(TB_IP_BASE, n);
		snprintf(h->ns, sizeof(h->ns), "%s-h%u", p->o.name, n);
		/* name ≤ 6 characters and node < 4096: at most 11 characters */
		if (snprintf(h->ifname, TB_IFNAME_MAX, "%s%c%u", p->o.name,
			     p->o.hosts == TB_HOSTS_VETH ? 'h' : 't', n) >= (int)TB_IFNAME_MAX)
			return perr(err, errlen, -ENAMETOOLONG, "node %u: interface name too long",
				    n);
		if (p->o.hosts == TB_HOSTS_VETH)
			snprintf(h->dev, TB_DEV_MAX, "net_af_packet%u", dn[h->proc].afp++);
		else
			snprintf(h->dev, TB_DEV_MAX, "net_tap%u", dn[h->proc].tap++);
		snprintf(h->args, TB_ARGS_MAX, "iface=%s", h->ifname);
	}
	return 0;
}

int tb_plan_build(struct tb_plan *p, const struct tb_opts *o, char *err, size_t errlen)
{
	struct devnum *dn = NULL;
	int rc;

	memset(p, 0, sizeof(*p));
	p->o = *o;
	if (tb_name_check(o->name) != 0)
		return perr(err, errlen, -EINVAL,
			    "testbed name \"%s\": 1 to %u characters of [a-z0-9] (it prefixes "
			    "interface names, which have at most 15)",
			    o->name, TB_NAME_MAX - 1);
	if (o->cores == 0)
		return perr(err, errlen, -EINVAL, "--cores: at least 1");
	rc = abs_path(o->network, p->network, sizeof(p->network), true);
	if (rc != 0)
		return perr(err, errlen, rc, "%s: %s", o->network, strerror(-rc));
	rc = abs_path(o->dir, p->dir, sizeof(p->dir), false);
	if (rc != 0)
		return perr(err, errlen, rc, "%s: %s", o->dir, strerror(-rc));
	/* memif socket paths (sun_path: 108 bytes) live in the directory */
	if (strlen(p->dir) > 80)
		return perr(err, errlen, -ENAMETOOLONG,
			    "%s: at most 80 characters (memif socket paths live there)", p->dir);
	p->o.network = p->network;
	p->o.dir = p->dir;
	rc = dfly_netcfg_load(&p->net, p->network, o->sets, o->nsets, err, errlen);
	if (rc != 0)
		return rc;
	p->topo =
	    dfly_topo_create(p->net.p, p->net.a, p->net.h, p->net.t, p->net.arr, p->net.sigma);
	if (p->topo == NULL)
		return perr(err, errlen, -errno, "%s: cannot build the topology: %s", p->network,
			    strerror(errno));
	p->routers = p->topo->routers;
	p->nodes = p->topo->nodes;
	p->proc_of = calloc(p->routers, sizeof(*p->proc_of));
	if (p->proc_of == NULL)
		return perr(err, errlen, -ENOMEM, "out of memory");
	for (uint32_t r = 0; r < p->routers; r++) {
		p->proc_of[r] = proc_of_router(p, r);
		if (p->proc_of[r] + 1 > p->nproc)
			p->nproc = p->proc_of[r] + 1;
	}
	dn = calloc(p->nproc, sizeof(*dn));
	if (dn == NULL)
		return perr(err, errlen, -ENOMEM, "out of memory");
	rc = plan_links(p, dn, err, errlen);
	if (rc == 0)
		rc = plan_hosts(p, dn, err, errlen);
	free(dn);
	if (rc != 0)
		return rc;
	if (p->o.link == TB_LINK_VETH || p->o.hosts != TB_HOSTS_NONE)
		p->proc_ns = true;
	return 0;
}

void tb_plan_cfg_path(const struct tb_plan *p, uint32_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%s/p%u.cfg", p->dir, i);
}

void tb_plan_proc_ns(const struct tb_plan *p, uint32_t i, char *buf, size_t len)
{
	if (p->proc_ns)
		snprintf(buf, len, "%s-s%u", p->o.name, i);
	else if (len > 0)
		buf[0] = '\0';
}

void tb_plan_routers(const struct tb_plan *p, uint32_t i, char *buf, size_t len)
{
	uint32_t *ids = calloc(p->routers, sizeof(*ids));
	size_t n = 0;

	if (ids == NULL) {
		snprintf(buf, len, "?");
		return;
	}
	for (uint32_t r = 0; r < p->routers; r++)
		if (p->proc_of[r] == i)
			ids[n++] = r;
	if (dfly_stats_format_routers(ids, n, buf, len) < 0)
		snprintf(buf, len, "?");
	free(ids);
}

static int write_proc(const struct tb_plan *p, uint32_t i, FILE *f)
{
	const char *sep = "";

	fprintf(f,
		"# Generated by `dfly testbed` (testbed %s: split %s, links %s, hosts %s):\n"
		"# the deployment of dfly-switch process %u of %u (dataplane/deploy.h).\n"
		"network = \"network.cfg\";\n"
		"instance = \"%s\";\n"
		"firmware = \"%s\";\n"
		"routers = [",
		p->o.name, tb_split_name(p->o.split), tb_link_name(p->o.link),
		tb_hosts_name(p->o.hosts), i, p->nproc, p->o.name,
		p->o.firmware == TB_FW_THREAD ? "thread" : "external");
	for (uint32_t r = 0; r < p->routers; r++) {
		if (p->proc_of[r] != i)
			continue;
		fprintf(f, "%s%u", sep, r);
		sep = ", ";
	}
	fprintf(f, "];\n");
	sep = "ports = (\n";
	for (uint32_t k = 0; k < p->nxl; k++) {
		const struct tb_xlink *x = &p->xl[k];

		for (int e = 0; e < 2; e++) {
			if (x->proc[e] != i)
				continue;
			fprintf(f,
				"%s\t# to router %u port %u (process %u)\n"
				"\t{ router = %u; port = %u; dev = \"%s\"; args = \"%s\"; }",
				sep, x->router[!e], x->port[!e], x->proc[!e], x->router[e],
				x->port[e], x->dev[e], x->args[e]);
			sep = ",\n";
		}
	}
	if (sep[0] == ',')
		fprintf(f, "\n);\n");
	sep = "hosts = (\n";
	for (uint32_t k = 0; k < p->nhost; k++) {
		const struct tb_host *h = &p->host[k];
		char mac[DP_HOST_MAC_STRLEN], ip[DP_HOST_IPV4_STRLEN];

		dp_host_format_mac(h->mac, mac);
		dp_host_format_ipv4(h->ip, ip);
		fprintf(f, "%s\t{ node = %u; mac = \"%s\"; ip = \"%s\";", sep, h->node, mac, ip);
		if (h->proc == i)
			fprintf(f, " dev = \"%s\"; args = \"%s\";", h->dev, h->args);
		fprintf(f, " }");
		sep = ",\n";
	}
	if (sep[0] == ',')
		fprintf(f, "\n);\n");
	fprintf(f, "generators = \"%s\";\n", p->o.generators ? "all" : "none");
	if (p->o.loss_ppm || p->o.dead_us) {
		if (p->o.loss_ppm)
			fprintf(f, "# a lossy medium: each receiver discards this many per million "
				   "fabric frames\n");
		if (p->o.dead_us)
			fprintf(f, "# a link silent this long is declared down (--dead-us)\n");
		fprintf(f, "link = {");
		if (p->o.loss_ppm)
			fprintf(f, " loss_ppm = %u;", p->o.loss_ppm);
		if (p->o.dead_us)
			fprintf(f, " dead_us = %u;", p->o.dead_us);
		fprintf(f, " };\n");
	}
	return ferror(f) ? -EIO : 0;
}

int tb_plan_write(const struct tb_plan *p, char *err, size_t errlen)
{
	char path[TB_PATH_MAX + 32];
	FILE *f;

	if (mkdir(p->dir, 0700) != 0 && errno != EEXIST)
		return perr(err, errlen, -errno, "%s: %s", p->dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/network.cfg", p->dir);
	f = fopen(path, "w");
	if (f == NULL)
		return perr(err, errlen, -errno, "%s: %s", path, strerror(errno));
	fprintf(f, "# Generated by `dfly testbed` from %s", p->network);
	for (int k = 0; k < p->o.nsets; k++)
		fprintf(f, " --set %s", p->o.sets[k]);
	fprintf(f, ":\n# every setting, as every process of the testbed uses it.\n");
	dfly_netcfg_dump(&p->net, f);
	if (fclose(f) != 0)
		return perr(err, errlen, -EIO, "%s: write failed", path);
	for (uint32_t i = 0; i < p->nproc; i++) {
		int rc;

		tb_plan_cfg_path(p, i, path, sizeof(path));
		f = fopen(path, "w");
		if (f == NULL)
			return perr(err, errlen, -errno, "%s: %s", path, strerror(errno));
		rc = write_proc(p, i, f);
		if (fclose(f) != 0 || rc != 0)
			return perr(err, errlen, -EIO, "%s: write failed", path);
	}
	return 0;
}

void tb_plan_free(struct tb_plan *p)
{
	dfly_topo_destroy(p->topo);
	free(p->proc_of);
	free(p->xl);
	free(p->host);
	free(p->is_host);
	memset(p, 0, sizeof(*p));
}
