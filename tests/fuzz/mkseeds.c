/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Write the seed corpus of the harnesses into tests/fuzz/corpus/ (run once; the files are
 * committed): valid frames of every type, from the encoders, and valid configuration files.
 *   cc -Iinclude -Idataplane -o /tmp/mkseeds tests/fuzz/mkseeds.c asic-emu/wire.c asic-emu/topo.c \
 *      dataplane/host.c && /tmp/mkseeds tests/fuzz/corpus .
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfly/wire.h"
#include "host.h"

static const char *dir;

static void put(const char *sub, const char *name, const void *b, size_t n)
{
	char p[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s/%s", dir, sub, name);
	f = fopen(p, "w");
	if (f == NULL || fwrite(b, 1, n, f) != n) {
		perror(p);
		exit(1);
	}
	fclose(f);
}

static void data_seeds(void)
{
	struct dfly_wire_eth eth = {{0x02, 0xdf, 0xfe, 0, 1, 2}, {0x02, 0xdf, 0xfe, 0, 0, 2}};
	struct dfly_wire_data d = {.type = DFLY_WIRE_PKT_SYNTH,
				   .vc = 1,
				   .size_phits = 8,
				   .src_node = 3,
				   .dst_node = 70,
				   .via_router = 20,
				   .seq = 7,
				   .gen_cycle = 12345,
				   .tag = 9,
				   .flags = DFLY_WIRE_F_NONMIN,
				   .global_hops = 1,
				   .local_hops = 1,
				   .path_lhops = 2};
	uint8_t b[2048], payload[64];
	int n;

	n = dfly_wire_data_encode(b, sizeof(b), &eth, &d, NULL);
	put("wire_data", "synth", b, (size_t)n);
	for (unsigned i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)i;
	d.type = DFLY_WIRE_PKT_HOST;
	d.payload_len = sizeof(payload);
	d.size_phits = 12;
	d.via_router = DFLY_WIRE_NO_ROUTER;
	d.flags = 0;
	n = dfly_wire_data_encode(b, sizeof(b), &eth, &d, payload);
	put("wire_data", "host64", b, (size_t)n);
	/* the same behind an 802.1Q tag */
	{
		uint8_t t[2048];

		memcpy(t, b, 12);
		t[12] = 0x81;
		t[13] = 0x00;
		t[14] = 0x00;
		t[15] = 0x05;
		memcpy(t + 16, b + 12, (size_t)n - 12);
		put("wire_data", "host64-vlan", t, (size_t)n + 4);
	}
	memset(&d, 0, sizeof(d));
	d.type = DFLY_WIRE_PKT_INFO;
	d.flags = DFLY_WIRE_F_PB;
	d.size_phits = 1;
	d.via_router = DFLY_WIRE_NO_ROUTER;
	d.pb_vec = 0x5;
	n = dfly_wire_data_encode(b, sizeof(b), &eth, &d, NULL);
	put("wire_data", "info", b, (size_t)n);
	/* RES flits: a request and its granted reply */
	{
		struct dfly_wire_res r = {.cookie = 7, .rbar = 12, .len = 10, .gc = 1};
		uint8_t body[DFLY_WIRE_RES_LEN];

		memset(&d, 0, sizeof(d));
		d.type = DFLY_WIRE_PKT_RES_REQ;
		d.size_phits = 1;
		d.via_router = DFLY_WIRE_NO_ROUTER;
		d.payload_len = DFLY_WIRE_RES_LEN;
		dfly_wire_res_put(body, &r);
		n = dfly_wire_data_encode(b, sizeof(b), &eth, &d, body);
		put("wire_data", "res-req", b, (size_t)n);
		d.type = DFLY_WIRE_PKT_RES_REP;
		r.grant = 1;
		dfly_wire_res_put(body, &r);
		n = dfly_wire_data_encode(b, sizeof(b), &eth, &d, body);
		put("wire_data", "res-rep", b, (size_t)n);
	}
}

static void ctrl_seeds(void)
{
	struct dfly_wire_ctrl m;
	uint8_t b[2048];
	int n;

	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_CREDIT;
	m.credit.due = 99999;
	m.src_router = 1;
	m.credit.n = 2;
	m.credit.e[0] =
	    (struct dfly_wire_credit){.vc = 0, .flags = DFLY_WIRE_CREDIT_F_ABS, .phits = 0};
	m.credit.e[1] =
	    (struct dfly_wire_credit){.vc = 1, .flags = DFLY_WIRE_CREDIT_F_ABS, .phits = 96};
	n = dfly_wire_ctrl_encode(b, sizeof(b), NULL, &m);
	put("wire_ctrl", "credit", b, (size_t)n);

	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_PB_STATE;
	m.src_router = 2;
	m.pb.h = 2;
	m.pb.vg = 2;
	m.pb.sat[1] = 1;
	n = dfly_wire_ctrl_encode(b, sizeof(b), NULL, &m);
	put("wire_ctrl", "pb_state", b, (size_t)n);

	for (int f = 0; f < DFLY_WIRE_ECTN_FMT_COUNT; f++) {
		char name[32];

		memset(&m, 0, sizeof(m));
		m.type = DFLY_WIRE_CTRL_ECTN_PARTIAL;
		m.src_router = 3;
		m.ectn.epoch = 4;
		m.ectn.format = (uint8_t)f;
		m.ectn.n = 8;
		m.ectn.ctr[2] = 3;
		m.ectn.ctr[5] = 15;
		dfly_wire_ectn_add(&m.ectn, 2, 3);
		dfly_wire_ectn_add(&m.ectn, 5, 15);
		n = dfly_wire_ctrl_encode(b, sizeof(b), NULL, &m);
		if (n < 0)
			continue;
		snprintf(name, sizeof(name), "ectn-%d", f);
		put("wire_ctrl", name, b, (size_t)n);
	}

	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_HELLO;
	m.src_router = 1;
	m.hello = (struct dfly_wire_hello){
	    .port = 2, .arr = 0, .sigma = -1, .p = 2, .a = 4, .h = 2, .t = 1};
	n = dfly_wire_ctrl_encode(b, sizeof(b), NULL, &m);
	put("wire_ctrl", "hello", b, (size_t)n);

	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_ACK;
	m.src_router = 1;
	m.ack.ack = 1000;
	m.ack.flags = DFLY_WIRE_ACK_F_NAK;
	m.ack.taken = 123456;
	n = dfly_wire_ctrl_encode(b, sizeof(b), NULL, &m);
	put("wire_ctrl", "ack-nak", b, (size_t)n);

	memset(&m, 0, sizeof(m));
	m.type = DFLY_WIRE_CTRL_LINK_STATE;
	m.src_router = 5;
	m.ls.h = 2;
	m.ls.down = 0x2;
	m.ls.n = 2;
	m.ls.e[0] = (struct dfly_wire_fail_pair){.a = 1, .b = 4, .ttl = 3};
	m.ls.e[1] = (struct dfly_wire_fail_pair){.a = 0, .b = 8, .ttl = 1};
	n = dfly_wire_ctrl_encode(b, sizeof(b), NULL, &m);
	put("wire_ctrl", "link_state", b, (size_t)n);
}

static void host_seeds(void)
{
	uint8_t f[1 + 128], mac0[6], mac5[6];
	uint32_t ip10 = 0x0a4d0001u + 10;

	memset(f, 0, sizeof(f));
	dp_host_default_mac(0, mac0);
	dp_host_default_mac(5, mac5);
	/* host 0 -> host 5: IPv4 */
	f[0] = 0;
	memcpy(f + 1, mac5, 6);
	memcpy(f + 7, mac0, 6);
	f[13] = 0x08;
	f[14] = 0x00;
	f[15] = 0x45;
	put("host", "ipv4", f, 1 + 98);
	/* host 0 asks for 10.77.0.11 (node 10): ARP request */
	memset(f + 1, 0xff, 6);
	f[13] = 0x08;
	f[14] = 0x06;
	f[15] = 0x00;
	f[16] = 0x01; /* htype 1 */
	f[17] = 0x08;
	f[18] = 0x00; /* ptype IPv4 */
	f[19] = 6;
	f[20] = 4;
	f[21] = 0x00;
	f[22] = 0x01; /* request */
	memcpy(f + 23, mac0, 6);
	f[29] = 10;
	f[30] = 77;
	f[31] = 0;
	f[32] = 1;
	memset(f + 33, 0, 6);
	f[39] = (uint8_t)(ip10 >> 24);
	f[40] = (uint8_t)(ip10 >> 16);
	f[41] = (uint8_t)(ip10 >> 8);
	f[42] = (uint8_t)ip10;
	put("host", "arp", f, 1 + 42);
	/* a spoofed fabric frame from a host */
	memcpy(f + 1, mac5, 6);
	f[13] = 0x88;
	f[14] = 0xb5;
	put("host", "spoof", f, 1 + 64);
}

static void config_seeds(const char *src)
{
	static const char *files[] = {"configs/h1.cfg", "configs/h2.cfg", "configs/h4-l.cfg"};
	static const char deploy[] =
	    "network = \"n.cfg\";\ninstance = \"\";\nfirmware = \"thread\";\n"
	    "routers = [0, 1, 2];\nlcores = ( { lcore = 0; routers = [0, 1, 2]; } );\n"
	    "ports = ( { router = 1; port = 2; dev = \"net_memif0\"; args = \"role=server\"; },\n"
	    "  { router = 2; port = 2; dev = \"peer\"; } );\n"
	    "hosts = ( { node = 0; mac = \"02:df:00:00:00:00\"; ip = \"10.77.0.1\"; "
	    "dev = \"net_tap0\"; } );\n"
	    "generators = [1, 2];\nlink = { replay = 1024; credit_delay_us = 0; };\n"
	    "run = { max_steps = 16; duration_s = 1.5; };\n";

	for (unsigned i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char p[1024], buf[65536];
		size_t n;
		FILE *f;

		snprintf(p, sizeof(p), "%s/%s", src, files[i]);
		f = fopen(p, "r");
		if (f == NULL) {
			perror(p);
			exit(1);
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		put("config", strrchr(files[i], '/') + 1, buf, n);
	}
	put("config", "deployment.cfg", deploy, sizeof(deploy) - 1);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: mkseeds CORPUS_DIR SOURCE_DIR\n");
		return 2;
	}
	dir = argv[1];
	data_seeds();
	ctrl_seeds();
	host_seeds();
	config_seeds(argv[2]);
	return 0;
}
