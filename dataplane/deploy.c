/* SPDX-License-Identifier: BSD-3-Clause */
/* Deployment file loader (deploy.h). */
#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libconfig.h>

#include "deploy.h"
#include "host.h"

struct dp_ctx {
	struct dp_deploy *d;
	config_t lc;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 4, 5))) static int fail(struct dp_ctx *c, const config_setting_t *s,
						      const char *setting, const char *fmt, ...)
{
	char msg[384];
	va_list ap;
	int line = s != NULL ? config_setting_source_line(s) : 0;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line > 0)
		snprintf(c->err, c->errlen, "%s:%d: %s: %s", c->d->path, line, setting, msg);
	else
		snprintf(c->err, c->errlen, "%s: %s: %s", c->d->path, setting, msg);
	return -EINVAL;
}

static const char *const top_names[] = {"network", "instance", "firmware", "routers",
					"lcores",  "ports",    "hosts",    "generators",
					"link",    "run",      NULL};
static const char *const port_names[] = {"router", "port", "dev", "args", NULL};
static const char *const host_names[] = {"node", "mac", "ip", "dev", "args", NULL};
static const char *const lcore_names[] = {"lcore", "routers", NULL};
static const char *const link_names[] = {"replay",
					 "rto_us",
					 "ack_every",
					 "ack_delay_us",
					 "keepalive_us",
					 "nak_us",
					 "credit_delay_us",
					 "credit_refresh_us",
					 "hello_us",
					 "dead_us",
					 "loss_ppm",
					 "bundle",
					 NULL};
static const char *const run_names[] = {
    "duration_s", "stats_interval_s", "max_steps", "mbufs", "epoch_ns", "idle", NULL};

/* Refuse a member of group @p g that is not in @p names (a typo must not be ignored). */
static int check_names(struct dp_ctx *c, const config_setting_t *g, const char *where,
		       const char *const *names)
{
	for (int i = 0; i < config_setting_length(g); i++) {
		const config_setting_t *m = config_setting_get_elem(g, (unsigned)i);
		const char *n = config_setting_name(m);
		bool ok = false;

		if (n == NULL)
			continue;
		for (const char *const *k = names; *k && !ok; k++)
			ok = strcmp(*k, n) == 0;
		if (!ok)
			return fail(c, m, where[0] ? where : n, "unknown setting '%s'", n);
	}
	return 0;
}

static int get_u32(struct dp_ctx *c, const config_setting_t *g, const char *name, const char *where,
		   uint32_t *out, uint32_t min, uint32_t max, bool required)
{
	const config_setting_t *s = config_setting_get_member(g, name);
	long long v;

	if (s == NULL) {
		if (required)
			return fail(c, g, where, "missing '%s'", name);
		return 0;
	}
	if (config_setting_type(s) != CONFIG_TYPE_INT &&
	    config_setting_type(s) != CONFIG_TYPE_INT64)
		return fail(c, s, where, "'%s' must be an integer", name);
	v = config_setting_get_int64(s);
	if (v < (long long)min || v > (long long)max)
		return fail(c, s, where, "'%s' = %lld out of range [%u, %u]", name, v, min, max);
	*out = (uint32_t)v;
	return 0;
}

static int get_bool(struct dp_ctx *c, const config_setting_t *g, const char *name,
		    const char *where, bool *out)
{
	const config_setting_t *s = config_setting_get_member(g, name);

	if (s == NULL)
		return 0;
	if (config_setting_type(s) != CONFIG_TYPE_BOOL)
		return fail(c, s, where, "'%s' must be true or false", name);
	*out = config_setting_get_bool(s) != 0;
	return 0;
}

static int get_str(struct dp_ctx *c, const config_setting_t *g, const char *name, const char *where,
		   char *out, size_t len, bool required)
{
	const config_setting_t *s = config_setting_get_member(g, name);
	const char *v;

	if (s == NULL) {
		if (required)
			return fail(c, g, where, "missing '%s'", name);
		return 0;
	}
	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		return fail(c, s, where, "'%s' must be a string", name);
	v = config_setting_get_string(s);
	if (strlen(v) >= len)
		return fail(c, s, where, "'%s' longer than %zu characters", name, len - 1);
	snprintf(out, len, "%s", v);
	return 0;
}

/* A list/array of router ids, each hosted (if @p hosted_only) and not repeated. */
static int router_list(struct dp_ctx *c, const config_setting_t *s, const char *where,
		       uint32_t **out, uint32_t *n, bool hosted_only)
{
	uint32_t cnt;
	bool *seen;

	if (!config_setting_is_aggregate(s) || config_setting_length(s) == 0)
		return fail(c, s, where, "must be a non-empty list of router ids");
	cnt = (uint32_t)config_setting_length(s);
	*out = calloc(cnt, sizeof(**out));
	seen = calloc(c->d->routers, sizeof(*seen));
	if (*out == NULL || seen == NULL) {
		free(seen);
		return fail(c, s, where, "out of memory");
	}
	for (uint32_t i = 0; i < cnt; i++) {
		const config_setting_t *e = config_setting_get_elem(s, i);
		long long v;

		if (config_setting_type(e) != CONFIG_TYPE_INT) {
			free(seen);
			return fail(c, s, where, "element %u is not an integer", i);
		}
		v = config_setting_get_int(e);
		if (v < 0 || v >= c->d->routers) {
			free(seen);
			return fail(c, s, where, "router %lld out of range [0, %u)", v,
				    c->d->routers);
		}
		if (seen[v]) {
			free(seen);
			return fail(c, s, where, "router %lld listed twice", v);
		}
		if (hosted_only && !c->d->hosted[v]) {
			free(seen);
			return fail(c, s, where,
				    "router %lld is not in 'routers' (not hosted here)", v);
		}
		seen[v] = true;
		(*out)[i] = (uint32_t)v;
	}
	*n = cnt;
	free(seen);
	return 0;
}

static int load_dev(struct dp_ctx *c, const config_setting_t *e, const char *where,
		    struct dp_dev_cfg *dev)
{
	int rc = get_str(c, e, "dev", where, dev->name, sizeof(dev->name), true);

	if (rc == 0)
		rc = get_str(c, e, "args", where, dev->args, sizeof(dev->args), false);
	dev->line = config_setting_source_line(e);
	if (rc == 0 && dev->name[0] == '\0')
		rc = fail(c, e, where, "'dev' is empty");
	return rc;
}

/*
 * Every fabric port of a hosted router whose peer router is not hosted here needs a device in
 * 'ports' (@p ps, NULL when the file has none): without one the port would have no link and
 * the router would step a packet onto nothing. Ports to a hosted peer are wired in process;
 * terminal ports eject to the host edge and take no device. The error points at 'ports', or
 * at 'routers' (which hosts the router) when there is no 'ports'.
 */
static int check_wired(struct dp_ctx *c, const struct dfly_topo *t, const config_setting_t *ps)
{
	const struct dp_deploy *d = c->d;
	const config_setting_t *at = ps != NULL ? ps : config_lookup(&c->lc, "routers");

	for (uint32_t r = 0; r < d->routers; r++) {
		if (!d->hosted[r])
			continue;
		for (uint32_t port = t->first_local; port < t->radix; port++) {
			uint32_t pr, pp;
			bool found = false;

			dfly_topo_port_peer(t, r, port, &pr, &pp);
			if (d->hosted[pr])
				continue;
			for (uint32_t j = 0; j < d->nports && !found; j++)
				found = d->ports[j].router == r && d->ports[j].port == port;
			if (!found)
				return fail(
				    c, at, "ports",
				    "%srouter %u port %u leads to router %u port %u, which is "
				    "not hosted here: it needs a device",
				    ps != NULL ? "" : "missing: ", r, port, pr, pp);
		}
	}
	return 0;
}

static int load_ports(struct dp_ctx *c, const struct dfly_topo *t)
{
	const config_setting_t *ps = config_lookup(&c->lc, "ports");
	struct dp_deploy *d = c->d;
	int rc;

	if (ps == NULL)
		return check_wired(c, t, NULL);
	if (!config_setting_is_list(ps))
		return fail(c, ps, "ports", "must be a list of groups ( {...}, ... )");
	d->nports = (uint32_t)config_setting_length(ps);
	d->ports = calloc(d->nports ? d->nports : 1, sizeof(*d->ports));
	if (d->ports == NULL)
		return fail(c, ps, "ports", "out of memory");
	for (uint32_t i = 0; i < d->nports; i++) {
		const config_setting_t *e = config_setting_get_elem(ps, i);
		struct dp_port_cfg *p = &d->ports[i];
		char where[32];
		uint32_t pr, pp;

		snprintf(where, sizeof(where), "ports[%u]", i);
		if (!config_setting_is_group(e))
			return fail(c, e, where, "must be a group { router; port; dev; args; }");
		if ((rc = check_names(c, e, where, port_names)) ||
		    (rc = get_u32(c, e, "router", where, &p->router, 0, d->routers - 1, true)) ||
		    (rc = get_u32(c, e, "port", where, &p->port, 0, t->radix - 1, true)) ||
		    (rc = load_dev(c, e, where, &p->dev)))
			return rc;
		if (!d->hosted[p->router])
			return fail(c, e, where, "router %u is not hosted here", p->router);
		if (p->port < t->first_local)
			return fail(
			    c, e, where,
			    "port %u of router %u is a terminal port (nodes connect through "
			    "'hosts' or 'generators')",
			    p->port, p->router);
		dfly_topo_port_peer(t, p->router, p->port, &pr, &pp);
		if (d->hosted[pr])
			return fail(
			    c, e, where,
			    "router %u port %u leads to router %u, hosted here too: that link "
			    "is in-process and takes no device",
			    p->router, p->port, pr);
		for (uint32_t j = 0; j < i; j++) {
			if (d->ports[j].router == p->router && d->ports[j].port == p->port)
				return fail(c, e, where,
					    "router %u port %u already has a device "
					    "(ports[%u])",
					    p->router, p->port, j);
			if (strcmp(d->ports[j].dev.name, p->dev.name) == 0 &&
			    strcmp(p->dev.name, DP_DEV_PEER) != 0)
				return fail(c, e, where, "device %s already used by ports[%u]",
					    p->dev.name, j);
		}
	}
	return check_wired(c, t, ps);
}

static int load_hosts(struct dp_ctx *c, const struct dfly_topo *t)
{
	const config_setting_t *hs = config_lookup(&c->lc, "hosts");
	struct dp_deploy *d = c->d;
	int rc;

	if (hs == NULL)
		return 0;
	if (!config_setting_is_list(hs))
		return fail(c, hs, "hosts", "must be a list of groups ( {...}, ... )");
	d->nhosts = (uint32_t)config_setting_length(hs);
	d->hosts = calloc(d->nhosts ? d->nhosts : 1, sizeof(*d->hosts));
	if (d->hosts == NULL)
		return fail(c, hs, "hosts", "out of memory");
	for (uint32_t i = 0; i < d->nhosts; i++) {
		const config_setting_t *e = config_setting_get_elem(hs, i);
		struct dp_host_cfg *h = &d->hosts[i];
		char where[32], mac[32] = "", ip[32] = "";

		snprintf(where, sizeof(where), "hosts[%u]", i);
		if (!config_setting_is_group(e))
			return fail(c, e, where, "must be a group { node; mac; ip; dev; args; }");
		h->line = config_setting_source_line(e);
		if ((rc = check_names(c, e, where, host_names)) ||
		    (rc = get_u32(c, e, "node", where, &h->node, 0, t->nodes - 1, true)) ||
		    (rc = get_str(c, e, "mac", where, mac, sizeof(mac), true)) ||
		    (rc = get_str(c, e, "ip", where, ip, sizeof(ip), false)))
			return rc;
		if (dp_host_parse_mac(mac, h->mac) < 0)
			return fail(c, e, where,
				    "mac \"%s\" is not six hex pairs aa:bb:cc:dd:ee:ff", mac);
		if (ip[0] && dp_host_parse_ipv4(ip, &h->ip) < 0)
			return fail(c, e, where, "ip \"%s\" is not a dotted IPv4 address", ip);
		if (config_setting_get_member(e, "dev") != NULL) {
			if ((rc = load_dev(c, e, where, &h->dev)))
				return rc;
			h->has_dev = true;
			if (strcmp(h->dev.name, DP_DEV_PEER) == 0)
				return fail(c, e, where,
					    "a host cannot be a loopback peer (dev \"%s\" "
					    "is for fabric ports)",
					    DP_DEV_PEER);
			if (!d->hosted[h->node / t->p])
				return fail(
				    c, e, where,
				    "node %u belongs to router %u, not hosted here: it takes "
				    "no device in this file",
				    h->node, h->node / t->p);
			for (uint32_t j = 0; j < d->nports; j++)
				if (strcmp(d->ports[j].dev.name, h->dev.name) == 0)
					return fail(c, e, where,
						    "device %s already used by ports[%u]",
						    h->dev.name, j);
			for (uint32_t j = 0; j < i; j++)
				if (d->hosts[j].has_dev &&
				    strcmp(d->hosts[j].dev.name, h->dev.name) == 0)
					return fail(c, e, where,
						    "device %s already used by hosts[%u]",
						    h->dev.name, j);
		}
	}
	/* the host table's own rules (duplicates, multicast MACs) */
	{
		struct dp_host_entry *ent = calloc(d->nhosts ? d->nhosts : 1, sizeof(*ent));
		struct dp_host_table *tbl = NULL;
		char msg[256];

		if (ent == NULL)
			return fail(c, hs, "hosts", "out of memory");
		for (uint32_t i = 0; i < d->nhosts; i++) {
			ent[i].node = d->hosts[i].node;
			memcpy(ent[i].mac, d->hosts[i].mac, 6);
			ent[i].ip = d->hosts[i].ip;
		}
		rc = dp_host_table_create(&tbl, ent, d->nhosts, t->nodes, msg, sizeof(msg));
		free(ent);
		dp_host_table_destroy(tbl);
		if (rc < 0)
			return fail(c, hs, "hosts", "%s", msg);
	}
	return 0;
}

static int load_generators(struct dp_ctx *c, const struct dfly_topo *t)
{
	const config_setting_t *g = config_lookup(&c->lc, "generators");
	struct dp_deploy *d = c->d;
	bool all = true;

	d->gen = calloc(t->nodes, sizeof(*d->gen));
	if (d->gen == NULL)
		return fail(c, NULL, "generators", "out of memory");
	if (g != NULL && config_setting_type(g) == CONFIG_TYPE_STRING) {
		const char *v = config_setting_get_string(g);

		if (strcmp(v, "none") == 0)
			return 0;
		if (strcmp(v, "all") != 0)
			return fail(c, g, "generators",
				    "\"%s\": expected \"all\", \"none\" or a list "
				    "of nodes",
				    v);
	} else if (g != NULL) {
		if (!config_setting_is_aggregate(g))
			return fail(c, g, "generators",
				    "expected \"all\", \"none\" or a list of nodes");
		all = false;
		for (int i = 0; i < config_setting_length(g); i++) {
			const config_setting_t *e = config_setting_get_elem(g, (unsigned)i);
			long long n;

			if (config_setting_type(e) != CONFIG_TYPE_INT)
				return fail(c, g, "generators", "element %d is not an integer", i);
			n = config_setting_get_int(e);
			if (n < 0 || n >= t->nodes)
				return fail(c, g, "generators", "node %lld out of range [0, %u)", n,
					    t->nodes);
			if (!d->hosted[n / t->p])
				return fail(c, g, "generators",
					    "node %lld belongs to router %lld, not hosted here", n,
					    n / t->p);
			d->gen[n] = true;
		}
	}
	for (uint32_t n = 0; n < t->nodes; n++) {
		bool host = false;

		for (uint32_t j = 0; j < d->nhosts && !host; j++)
			host = d->hosts[j].has_dev && d->hosts[j].node == n;
		if (all)
			d->gen[n] = d->hosted[n / t->p] && !host;
		else if (d->gen[n] && host)
			return fail(c, g, "generators",
				    "node %u is a host (hosts[]): it cannot also "
				    "run a generator",
				    n);
	}
	return 0;
}

static int load_lcores(struct dp_ctx *c)
{
	const config_setting_t *ls = config_lookup(&c->lc, "lcores");
	struct dp_deploy *d = c->d;
	uint32_t *owner;
	int rc;

	if (ls == NULL)
		return 0;
	if (!config_setting_is_list(ls) || config_setting_length(ls) == 0)
		return fail(c, ls, "lcores", "must be a non-empty list of groups");
	d->nlcores = (uint32_t)config_setting_length(ls);
	if (d->nlcores > DP_MAX_LCORES)
		return fail(c, ls, "lcores", "more than %u lcores", DP_MAX_LCORES);
	d->lcores = calloc(d->nlcores, sizeof(*d->lcores));
	owner = malloc(d->routers * sizeof(*owner));
	if (d->lcores == NULL || owner == NULL) {
		free(owner);
		return fail(c, ls, "lcores", "out of memory");
	}
	memset(owner, 0xff, d->routers * sizeof(*owner));
	for (uint32_t i = 0; i < d->nlcores; i++) {
		const config_setting_t *e = config_setting_get_elem(ls, i);
		struct dp_lcore_cfg *l = &d->lcores[i];
		char where[32];

		snprintf(where, sizeof(where), "lcores[%u]", i);
		if (!config_setting_is_group(e) || (rc = check_names(c, e, where, lcore_names)) ||
		    (rc = get_u32(c, e, "lcore", where, &l->lcore, 0, 1023, true))) {
			free(owner);
			return config_setting_is_group(e) ? rc
							  : fail(c, e, where, "must be a group");
		}
		for (uint32_t j = 0; j < i; j++)
			if (d->lcores[j].lcore == l->lcore) {
				free(owner);
				return fail(c, e, where, "lcore %u listed twice", l->lcore);
			}
		if (config_setting_get_member(e, "routers") == NULL) {
			free(owner);
			return fail(c, e, where, "missing 'routers'");
		}
		rc = router_list(c, config_setting_get_member(e, "routers"), where, &l->routers,
				 &l->nrouters, true);
		if (rc) {
			free(owner);
			return rc;
		}
		for (uint32_t k = 0; k < l->nrouters; k++) {
			if (owner[l->routers[k]] != UINT32_MAX) {
				uint32_t prev = owner[l->routers[k]];

				free(owner);
				return fail(c, e, where, "router %u already on lcores[%u]",
					    l->routers[k], prev);
			}
			owner[l->routers[k]] = i;
		}
	}
	for (uint32_t r = 0; r < d->routers; r++)
		if (d->hosted[r] && owner[r] == UINT32_MAX) {
			free(owner);
			return fail(c, ls, "lcores", "hosted router %u is on no lcore", r);
		}
	free(owner);
	return 0;
}

static int load_link_run(struct dp_ctx *c)
{
	struct dp_deploy *d = c->d;
	const config_setting_t *l = config_lookup(&c->lc, "link");
	const config_setting_t *r = config_lookup(&c->lc, "run");
	struct dp_link_cfg *k = &d->link;
	int rc;

	*k = (struct dp_link_cfg){.replay = 1024,
				  .rto_us = 2000,
				  .ack_every = 16,
				  .ack_delay_us = 20,
				  .keepalive_us = 1000,
				  .nak_us = 500,
				  .credit_delay_us = 10,
				  .credit_refresh_us = 1000,
				  .hello_us = 100000,
				  .dead_us = 200000,
				  .bundle = true};
	d->run = (struct dp_run_cfg){.stats_interval_s = 1.0, .max_steps = 64};
	if (l != NULL) {
		if (!config_setting_is_group(l))
			return fail(c, l, "link", "must be a group");
		if ((rc = check_names(c, l, "link", link_names)) ||
		    (rc = get_u32(c, l, "replay", "link.replay", &k->replay, 2, 1u << 16, false)) ||
		    (rc = get_u32(c, l, "rto_us", "link.rto_us", &k->rto_us, 1, 10000000, false)) ||
		    (rc = get_u32(c, l, "ack_every", "link.ack_every", &k->ack_every, 1, 65536,
				  false)) ||
		    (rc = get_u32(c, l, "ack_delay_us", "link.ack_delay_us", &k->ack_delay_us, 0,
				  10000000, false)) ||
		    (rc = get_u32(c, l, "keepalive_us", "link.keepalive_us", &k->keepalive_us, 1,
				  10000000, false)) ||
		    (rc = get_u32(c, l, "nak_us", "link.nak_us", &k->nak_us, 1, 10000000, false)) ||
		    (rc = get_u32(c, l, "credit_delay_us", "link.credit_delay_us",
				  &k->credit_delay_us, 0, 10000000, false)) ||
		    (rc = get_u32(c, l, "credit_refresh_us", "link.credit_refresh_us",
				  &k->credit_refresh_us, 1, 10000000, false)) ||
		    (rc = get_u32(c, l, "hello_us", "link.hello_us", &k->hello_us, 1000, 100000000,
				  false)) ||
		    (rc = get_u32(c, l, "dead_us", "link.dead_us", &k->dead_us, 0, 100000000,
				  false)) ||
		    (rc = get_u32(c, l, "loss_ppm", "link.loss_ppm", &k->loss_ppm, 0, 500000,
				  false)) ||
		    (rc = get_bool(c, l, "bundle", "link.bundle", &k->bundle)))
			return rc;
		if (k->replay & (k->replay - 1))
			return fail(c, config_setting_get_member(l, "replay"), "link.replay",
				    "%u is not a power of two", k->replay);
	}
	if (r != NULL) {
		const config_setting_t *s;

		if (!config_setting_is_group(r))
			return fail(c, r, "run", "must be a group");
		if ((rc = check_names(c, r, "run", run_names)) ||
		    (rc = get_u32(c, r, "max_steps", "run.max_steps", &d->run.max_steps, 1, 1000000,
				  false)) ||
		    (rc = get_u32(c, r, "mbufs", "run.mbufs", &d->run.mbufs, 0, 1u << 24, false)))
			return rc;
		s = config_setting_get_member(r, "duration_s");
		if (s != NULL) {
			if (config_setting_type(s) != CONFIG_TYPE_FLOAT &&
			    config_setting_type(s) != CONFIG_TYPE_INT)
				return fail(c, s, "run.duration_s", "must be a number");
			d->run.duration_s = config_setting_type(s) == CONFIG_TYPE_INT
						? config_setting_get_int(s)
						: config_setting_get_float(s);
			if (d->run.duration_s < 0)
				return fail(c, s, "run.duration_s", "must be ≥ 0");
		}
		s = config_setting_get_member(r, "stats_interval_s");
		if (s != NULL) {
			if (config_setting_type(s) != CONFIG_TYPE_FLOAT &&
			    config_setting_type(s) != CONFIG_TYPE_INT)
				return fail(c, s, "run.stats_interval_s", "must be a number");
			d->run.stats_interval_s = config_setting_type(s) == CONFIG_TYPE_INT
						      ? config_setting_get_int(s)
						      : config_setting_get_float(s);
			if (d->run.stats_interval_s < 0)
				return fail(c, s, "run.stats_interval_s", "must be ≥ 0");
		}
		s = config_setting_get_member(r, "epoch_ns");
		if (s != NULL) {
			if (config_setting_type(s) != CONFIG_TYPE_INT64 &&
			    config_setting_type(s) != CONFIG_TYPE_INT)
				return fail(c, s, "run.epoch_ns", "must be an integer (e.g. 123L)");
			if (config_setting_get_int64(s) < 0)
				return fail(c, s, "run.epoch_ns", "must be ≥ 0");
			d->run.epoch_ns = (uint64_t)config_setting_get_int64(s);
		}
		s = config_setting_get_member(r, "idle");
		if (s != NULL) {
			const char *v = config_setting_get_string(s);

			if (v != NULL && strcmp(v, "sleep") == 0)
				d->run.idle = DP_IDLE_SLEEP;
			else if (v != NULL && strcmp(v, "spin") == 0)
				d->run.idle = DP_IDLE_SPIN;
			else
				return fail(c, s, "run.idle", "expected \"sleep\" or \"spin\"");
		}
	}
	return 0;
}

const char *dp_fw_mode_name(enum dp_fw_mode m)
{
	return m == DP_FW_THREAD ? "thread" : m == DP_FW_EXTERNAL ? "external" : "none";
}

int dp_deploy_load(struct dp_deploy *d, const char *path, const char *const *sets, int nsets,
		   char *err, size_t errlen)
{
	struct dp_ctx c = {.d = d, .err = err, .errlen = errlen};
	const config_setting_t *s;
	char net[512] = "", fw[32] = "thread", *dir = NULL, *tmp;
	struct dfly_topo *t = NULL;
	uint32_t *list = NULL, nlist = 0;
	int rc;

	memset(d, 0, sizeof(*d));
	snprintf(d->path, sizeof(d->path), "%s", path);
	config_init(&c.lc);
	if (config_read_file(&c.lc, path) != CONFIG_TRUE) {
		if (config_error_type(&c.lc) == CONFIG_ERR_PARSE)
			snprintf(err, errlen, "%s:%d: syntax error: %s",
				 config_error_file(&c.lc) ? config_error_file(&c.lc) : path,
				 config_error_line(&c.lc), config_error_text(&c.lc));
		else
			snprintf(err, errlen, "%s: %s", path, config_error_text(&c.lc));
		rc = config_error_type(&c.lc) == CONFIG_ERR_PARSE ? -EINVAL : -ENOENT;
		goto out;
	}
	if ((rc = check_names(&c, config_root_setting(&c.lc), "", top_names)) ||
	    (rc = get_str(&c, config_root_setting(&c.lc), "network", "network", net, sizeof(net),
			  true)) ||
	    (rc = get_str(&c, config_root_setting(&c.lc), "instance", "instance", d->instance,
			  sizeof(d->instance), false)) ||
	    (rc = get_str(&c, config_root_setting(&c.lc), "firmware", "firmware", fw, sizeof(fw),
			  false)))
		goto out;
	for (const char *p = d->instance; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_')) {
			rc = fail(&c, config_lookup(&c.lc, "instance"), "instance",
				  "\"%s\": use letters, digits, '-' and '_' only", d->instance);
			goto out;
		}
	if (strcmp(fw, "thread") == 0) {
		d->firmware = DP_FW_THREAD;
	} else if (strcmp(fw, "external") == 0) {
		d->firmware = DP_FW_EXTERNAL;
	} else if (strcmp(fw, "none") == 0) {
		d->firmware = DP_FW_NONE;
	} else {
		rc = fail(&c, config_lookup(&c.lc, "firmware"), "firmware",
			  "\"%s\": expected \"thread\", \"external\" or \"none\"", fw);
		goto out;
	}
	if (d->firmware == DP_FW_EXTERNAL && d->instance[0] == '\0') {
		rc = fail(&c, config_lookup(&c.lc, "firmware"), "firmware",
			  "\"external\" needs an 'instance' (shared-memory register files)");
		goto out;
	}
	/* the network file, relative to the deployment file */
	tmp = strdup(path);
	if (tmp == NULL) {
		rc = fail(&c, NULL, "network", "out of memory");
		goto out;
	}
	dir = dirname(tmp);
	if (net[0] == '/')
		snprintf(d->network, sizeof(d->network), "%s", net);
	else
		snprintf(d->network, sizeof(d->network), "%s/%s", dir, net);
	free(tmp);
	rc = dfly_netcfg_load(&d->net, d->network, sets, nsets, err, errlen);
	if (rc < 0)
		goto out;
	if (dfly_mode_is(d->net.mode, DFLY_MODEF_ORACLE)) {
		rc = fail(&c, NULL, "network",
			  "%s: routing.mechanism %s reads other routers' queues (a non-physical "
			  "oracle, spec 4.5): dfly sim only",
			  d->network, dfly_mode_name(d->net.mode));
		goto out;
	}
	if (d->net.mincred) {
		/* the CREDIT frames carry per-VC running totals, none for minimal packets yet */
		rc = fail(&c, NULL, "network",
			  "%s: routing.mincred needs credits flagged minimal, which the CREDIT "
			  "frames do not carry yet: dfly sim only",
			  d->network);
		goto out;
	}
	t = dfly_topo_create(d->net.p, d->net.a, d->net.h, d->net.t, d->net.arr, d->net.sigma);
	if (t == NULL) {
		rc = fail(&c, NULL, "network", "%s: invalid topology", d->network);
		goto out;
	}
	d->routers = t->routers;
	d->hosted = calloc(t->routers, sizeof(*d->hosted));
	if (d->hosted == NULL) {
		rc = fail(&c, NULL, "routers", "out of memory");
		goto out;
	}
	s = config_lookup(&c.lc, "routers");
	if (s == NULL) {
		rc = fail(&c, config_root_setting(&c.lc), "routers",
			  "missing: which routers run "
			  "here");
		goto out;
	}
	rc = router_list(&c, s, "routers", &list, &nlist, false);
	if (rc)
		goto out;
	for (uint32_t i = 0; i < nlist; i++)
		d->hosted[list[i]] = true;
	d->nhosted = nlist;
	if ((rc = load_lcores(&c)) || (rc = load_ports(&c, t)) || (rc = load_hosts(&c, t)) ||
	    (rc = load_generators(&c, t)) || (rc = load_link_run(&c)))
		goto out;
	/* a host frame must fit in the smallest buffer it crosses */
	if (d->nhosts) {
		uint32_t minbuf = dfly_netcfg_min_buf(&d->net);
		size_t maxf = dp_host_max_frame(minbuf, d->net.phit_bytes);

		if (maxf < 1514) {
			rc = fail(
			    &c, config_lookup(&c.lc, "hosts"), "hosts",
			    "the smallest buffer of %s (%u phits of %u bytes) holds a %zu-byte "
			    "host frame; hosts need 1514 (raise buffers.* or packet.phit_bytes)",
			    d->network, minbuf, d->net.phit_bytes, maxf);
			goto out;
		}
	}
	rc = 0;
out:
	free(list);
	dfly_topo_destroy(t);
	config_destroy(&c.lc);
	if (rc)
		dp_deploy_free(d);
	return rc;
}

void dp_deploy_free(struct dp_deploy *d)
{
	for (uint32_t i = 0; i < d->nlcores; i++)
		free(d->lcores[i].routers);
	free(d->lcores);
	free(d->ports);
	free(d->hosts);
	free(d->gen);
	free(d->hosted);
	d->lcores = NULL;
	d->ports = NULL;
	d->hosts = NULL;
	d->gen = NULL;
	d->hosted = NULL;
	d->nlcores = d->nports = d->nhosts = 0;
}
