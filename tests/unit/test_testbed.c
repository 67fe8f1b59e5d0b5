/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of the plan of `dfly testbed` (tools/dfly/testbed.h, tbplan.c). For h=1 and h=2,
 * every split (one, group, router) × link device (memif, veth) × host mode (none, veth, tap):
 * the deployment files are written and loaded back with dfly-switch's own loader
 * (dataplane/deploy.c), then checked against the topology:
 *  - every router is hosted by exactly one process, the one the split says;
 *  - every link between two processes has exactly one device port at each end, every link
 *    inside a process has none; memif ends share one socket, server in the lower process;
 *    veth ends are a pair of distinct names of at most 15 characters, unique in the testbed;
 *  - every host appears in every process's host table (proxy ARP needs them all), with its
 *    device only in the process of its router; device names are unique within a process;
 *  - generators run on hosted nodes that are not hosts, or nowhere.
 * Then the errors: names, node LISTs, a missing network file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deploy.h"
#include "testbed.h"

#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond))                                                                       \
			fail_msg(__VA_ARGS__);                                                     \
	} while (0)

static char cfgdir[512];

static void net_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/configs/%s", DFLY_SOURCE_DIR, name);
}

static int make_dir(void **state)
{
	(void)state;
	snprintf(cfgdir, sizeof(cfgdir), "/tmp/dfly-tbtest.XXXXXX");
	return mkdtemp(cfgdir) != NULL ? 0 : -1;
}

static int remove_dir(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cfgdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void check_combo(const char *net, enum tb_split split, enum tb_link link,
			enum tb_hosts hosts, bool gens)
{
	static const char *const sets[] = {"packet.phit_bytes=64", "buffers.local=64",
					   "buffers.output=64"};
	struct tb_opts o;
	struct tb_plan p;
	struct dp_deploy *d;
	char path[600], err[1024], what[160];
	uint32_t *owner;

	memset(&o, 0, sizeof(o));
	net_path(path, sizeof(path), net);
	o.network = path;
	o.dir = cfgdir;
	snprintf(o.name, sizeof(o.name), "ut");
	o.split = split;
	o.link = link;
	o.hosts = hosts;
	o.generators = gens;
	o.cores = 2;
	o.sets = sets;
	o.nsets = 3;
	/* --dead-us and --loss-ppm, alone and together, reach every process's link settings */
	o.dead_us = gens ? 600000 : 0;
	o.loss_ppm = link == TB_LINK_VETH ? 100 : 0;
	snprintf(what, sizeof(what), "%s split %s link %s hosts %s gens %d", net,
		 tb_split_name(split), tb_link_name(link), tb_hosts_name(hosts), gens);
	CHECK(tb_plan_build(&p, &o, err, sizeof(err)) == 0, "%s: %s", what, err);
	CHECK(tb_plan_write(&p, err, sizeof(err)) == 0, "%s: %s", what, err);
	CHECK(p.proc_ns == (link == TB_LINK_VETH || hosts != TB_HOSTS_NONE), "%s: proc_ns", what);
	CHECK(p.nproc == (split == TB_SPLIT_ONE     ? 1
			  : split == TB_SPLIT_GROUP ? p.topo->g
						    : p.routers),
	      "%s: %u processes", what, p.nproc);

	d = calloc(p.nproc, sizeof(*d));
	owner = calloc(p.routers, sizeof(*owner));
	assert_non_null(d);
	assert_non_null(owner);
	for (uint32_t r = 0; r < p.routers; r++)
		owner[r] = UINT32_MAX;
	for (uint32_t i = 0; i < p.nproc; i++) {
		tb_plan_cfg_path(&p, i, path, sizeof(path));
		CHECK(dp_deploy_load(&d[i], path, NULL, 0, err, sizeof(err)) == 0, "%s: %s", what,
		      err);
		CHECK(strcmp(d[i].instance, "ut") == 0, "%s: instance", what);
		CHECK(d[i].link.dead_us == (o.dead_us ? o.dead_us : 200000u), "%s: dead_us %u",
		      what, d[i].link.dead_us);
		CHECK(d[i].link.loss_ppm == o.loss_ppm, "%s: loss_ppm %u", what,
		      d[i].link.loss_ppm);
		for (uint32_t r = 0; r < p.routers; r++) {
			if (!d[i].hosted[r])
				continue;
			CHECK(owner[r] == UINT32_MAX, "%s: router %u hosted twice", what, r);
			owner[r] = i;
		}
		/* device names unique in the process */
		for (uint32_t a = 0; a < d[i].nports; a++)
			for (uint32_t b = a + 1; b < d[i].nports; b++)
				CHECK(strcmp(d[i].ports[a].dev.name, d[i].ports[b].dev.name) != 0,
				      "%s: p%u: %s twice", what, i, d[i].ports[a].dev.name);
		for (uint32_t a = 0; a < d[i].nhosts; a++)
			for (uint32_t b = 0; b < d[i].nports && d[i].hosts[a].has_dev; b++)
				CHECK(strcmp(d[i].hosts[a].dev.name, d[i].ports[b].dev.name) != 0,
				      "%s: p%u: host and port share %s", what, i,
				      d[i].hosts[a].dev.name);
	}
	for (uint32_t r = 0; r < p.routers; r++) {
		uint32_t want = split == TB_SPLIT_ONE     ? 0
				: split == TB_SPLIT_GROUP ? dfly_topo_group_of(p.topo, r)
							  : r;

		CHECK(owner[r] == want, "%s: router %u in process %u, expected %u", what, r,
		      owner[r], want);
	}

	/* every fabric port: a device iff its peer is in another process */
	for (uint32_t r = 0; r < p.routers; r++)
		for (uint32_t port = p.topo->first_local; port < p.topo->radix; port++) {
			uint32_t pr, pp, found = 0;
			const struct dp_port_cfg *mine = NULL, *theirs = NULL;

			assert_int_equal(dfly_topo_port_peer(p.topo, r, port, &pr, &pp), 0);
			for (uint32_t k = 0; k < d[owner[r]].nports; k++)
				if (d[owner[r]].ports[k].router == r &&
				    d[owner[r]].ports[k].port == port) {
					found++;
					mine = &d[owner[r]].ports[k];
				}
			CHECK(found == (owner[r] != owner[pr] ? 1u : 0u),
			      "%s: router %u port %u: %u devices", what, r, port, found);
			if (mine == NULL)
				continue;
			for (uint32_t k = 0; k < d[owner[pr]].nports; k++)
				if (d[owner[pr]].ports[k].router == pr &&
				    d[owner[pr]].ports[k].port == pp)
					theirs = &d[owner[pr]].ports[k];
			CHECK(theirs != NULL, "%s: %u:%u has no far end", what, r, port);
			if (link == TB_LINK_MEMIF) {
				const char *s1 = strstr(mine->dev.args, "socket="),
					   *s2 = strstr(theirs->dev.args, "socket=");
				bool server = owner[r] < owner[pr];

				CHECK(strncmp(mine->dev.name, "net_memif", 9) == 0, "%s: memif",
				      what);
				CHECK(s1 != NULL && s2 != NULL &&
					  strcspn(s1, ",") == strcspn(s2, ",") &&
					  strncmp(s1, s2, strcspn(s1, ",")) == 0,
				      "%s: %u:%u: sockets %s / %s", what, r, port, mine->dev.args,
				      theirs->dev.args);
				CHECK(strstr(mine->dev.args,
					     server ? "role=server" : "role=client") != NULL,
				      "%s: %u:%u: %s", what, r, port, mine->dev.args);
				CHECK(strstr(mine->dev.args, "socket-abstract=no") != NULL,
				      "%s: memif sockets must be files (namespaces)", what);
			} else {
				const char *i1 = strstr(mine->dev.args, "iface="),
					   *i2 = strstr(theirs->dev.args, "iface=");

				CHECK(strncmp(mine->dev.name, "net_af_packet", 13) == 0, "%s: afp",
				      what);
				CHECK(i1 != NULL && i2 != NULL && strcmp(i1, i2) != 0 &&
					  strlen(i1 + 6) <= 15 && strlen(i1 + 6) >= 3 &&
					  strncmp(i1 + 6, i2 + 6, strlen(i1 + 6) - 1) == 0,
				      "%s: %u:%u: veth ends %s / %s", what, r, port, mine->dev.args,
				      theirs->dev.args);
			}
		}
	/* veth names unique over the testbed */
	for (uint32_t a = 0; a < p.nxl; a++)
		for (uint32_t b = 0; b < p.nxl && link == TB_LINK_VETH; b++)
			for (int e = 0; e < 2; e++)
				for (int f = 0; f < 2; f++)
					CHECK((a == b && e == f) ||
						  strcmp(p.xl[a].veth[e], p.xl[b].veth[f]) != 0,
					      "%s: veth %s twice", what, p.xl[a].veth[e]);

	/* hosts: in every table, a device only where their router is */
	CHECK(p.nhost == (hosts == TB_HOSTS_NONE ? 0 : p.nodes), "%s: %u hosts", what, p.nhost);
	for (uint32_t i = 0; i < p.nproc; i++) {
		CHECK(d[i].nhosts == p.nhost, "%s: p%u lists %u hosts", what, i, d[i].nhosts);
		for (uint32_t k = 0; k < d[i].nhosts; k++) {
			const struct dp_host_cfg *h = &d[i].hosts[k];
			uint32_t r = dfly_topo_router_of_node(p.topo, h->node);

			CHECK(h->has_dev == (owner[r] == i), "%s: p%u host %u dev", what, i,
			      h->node);
			CHECK(h->ip == TB_IP_BASE + h->node + 1, "%s: host %u ip", what, h->node);
			CHECK(h->mac[0] == 0x02 && h->mac[5] == (uint8_t)h->node, "%s: host mac",
			      what);
			if (h->has_dev)
				CHECK(strncmp(h->dev.name,
					      hosts == TB_HOSTS_TAP ? "net_tap" : "net_af_packet",
					      7) == 0,
				      "%s: host dev %s", what, h->dev.name);
		}
		for (uint32_t n = 0; n < p.nodes; n++) {
			uint32_t r = dfly_topo_router_of_node(p.topo, n);
			bool want = gens && owner[r] == i && hosts == TB_HOSTS_NONE;

			CHECK(d[i].gen[n] == want, "%s: p%u node %u generator %d", what, i, n,
			      d[i].gen[n]);
		}
	}
	for (uint32_t i = 0; i < p.nproc; i++)
		dp_deploy_free(&d[i]);
	free(d);
	free(owner);
	tb_plan_free(&p);
}

static void test_all_combos(void **state)
{
	static const char *const nets[] = {"h1.cfg", "h2.cfg"};

	(void)state;
	for (unsigned n = 0; n < 2; n++)
		for (int s = 0; s < 3; s++)
			for (int l = 0; l < 2; l++)
				for (int h = 0; h < 3; h++)
					check_combo(nets[n], (enum tb_split)s, (enum tb_link)l,
						    (enum tb_hosts)h, h == 0);
}

static void test_host_nodes(void **state)
{
	struct tb_opts o;
	struct tb_plan p;
	char path[600], err[1024];

	(void)state;
	memset(&o, 0, sizeof(o));
	net_path(path, sizeof(path), "h2.cfg");
	o.network = path;
	o.dir = cfgdir;
	snprintf(o.name, sizeof(o.name), "ut");
	o.cores = 1;
	o.hosts = TB_HOSTS_VETH;
	o.host_nodes = "0-2,71";
	assert_int_equal(tb_plan_build(&p, &o, err, sizeof(err)), 0);
	assert_int_equal(p.nhost, 4);
	assert_int_equal(p.host[3].node, 71);
	assert_true(p.is_host[71] && !p.is_host[3]);
	assert_string_equal(p.host[3].ns, "ut-h71");
	assert_string_equal(p.host[3].ifname, "uth71");
	tb_plan_free(&p);

	o.host_nodes = "0,72";
	assert_int_equal(tb_plan_build(&p, &o, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--host-nodes: node 72 out of range [0, 72)");
	tb_plan_free(&p);
	o.host_nodes = "3-1";
	assert_int_equal(tb_plan_build(&p, &o, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--host-nodes 3-1: not a node LIST (0-5,8)");
	tb_plan_free(&p);
}

static void test_errors(void **state)
{
	struct tb_opts o;
	struct tb_plan p;
	char path[600], err[1024];

	(void)state;
	assert_int_equal(tb_name_check("tb"), 0);
	assert_int_equal(tb_name_check("abc123"), 0);
	assert_int_equal(tb_name_check(""), -EINVAL);
	assert_int_equal(tb_name_check("abcdefg"), -EINVAL);
	assert_int_equal(tb_name_check("Tb"), -EINVAL);
	assert_int_equal(tb_name_check("t-b"), -EINVAL);

	memset(&o, 0, sizeof(o));
	net_path(path, sizeof(path), "h1.cfg");
	o.network = path;
	o.dir = cfgdir;
	o.cores = 1;
	snprintf(o.name, sizeof(o.name), "T");
	assert_int_equal(tb_plan_build(&p, &o, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "testbed name \"T\""));
	tb_plan_free(&p);

	snprintf(o.name, sizeof(o.name), "ut");
	o.network = "/nonexistent/net.cfg";
	assert_int_equal(tb_plan_build(&p, &o, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "/nonexistent/net.cfg: No such file or directory");
	tb_plan_free(&p);

	/* a bad --set is reported as the network loader words it */
	{
		static const char *const bad[] = {"router.speedup=9"};

		o.network = path;
		o.sets = bad;
		o.nsets = 1;
		assert_int_equal(tb_plan_build(&p, &o, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "router.speedup"));
		tb_plan_free(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_all_combos),
	    cmocka_unit_test(test_host_nodes),
	    cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
