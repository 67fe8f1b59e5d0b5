/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz the host-port path of dfly-switch without DPDK: the first input byte picks the host the
 * frame comes from, the rest is the frame. dp_host_classify() decides (forward, proxy-ARP
 * reply, drop); a forwarded frame is then encapsulated as the payload of a 0x88B5 data frame,
 * as dp_host_rx() does, and decoded back: the payload must come out byte for byte, its size in
 * phits as dp_host_frame_phits() says. A reply must be a 42-byte ARP reply from the host asked
 * for; a drop must name a host drop reason.
 */
#include <string.h>

#include "fuzz.h"
#include "host.h"

#define NHOSTS 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dp_host_table *tab;
	static uint8_t enc[16384];
	struct dp_host_entry e[NHOSTS];
	struct dfly_wire_limits lim;
	uint8_t reply[DP_HOST_ARP_LEN];
	size_t reply_len = 0, max_frame = 1514;
	enum dfly_drop why = DFLY_DROP_COUNT;
	uint32_t dst = UINT32_MAX, in_node;
	enum dp_host_verdict v;

	if (tab == NULL) {
		char err[256];

		for (uint32_t i = 0; i < NHOSTS; i++) {
			e[i].node = i * 5;
			dp_host_default_mac(e[i].node, e[i].mac);
			e[i].ip = dp_host_default_ip(0x0a4d0001u, e[i].node);
		}
		if (dp_host_table_create(&tab, e, NHOSTS, 72, err, sizeof(err)) != 0)
			abort();
	}
	if (size < 1)
		return 0;
	in_node = (uint32_t)(data[0] % NHOSTS) * 5;
	data++;
	size--;
	v = dp_host_classify(tab, in_node, data, size, max_frame, &dst, reply, sizeof(reply),
			     &reply_len, &why);
	switch (v) {
	case DP_HOST_FORWARD: {
		struct dfly_wire_data d = {0}, d2;
		struct dfly_wire_eth eth = {{0x02, 0xdf, 0xfe, 0, 0, 1},
					    {0x02, 0xdf, 0xfe, 0, 0, 2}};
		int n;

		FUZZ_CHECK(dst < 72 && dst != in_node && dp_host_by_node(tab, dst) != NULL,
			   "forwarded to node %u", dst);
		FUZZ_CHECK(size <= max_frame, "forwarded a %zu-byte frame", size);
		d.type = DFLY_WIRE_PKT_HOST;
		d.src_node = in_node;
		d.dst_node = dst;
		d.via_router = DFLY_WIRE_NO_ROUTER;
		d.size_phits = (uint16_t)dp_host_frame_phits(size, 10);
		d.payload_len = (uint16_t)size;
		n = dfly_wire_data_encode(enc, sizeof(enc), &eth, &d, data);
		FUZZ_CHECK(n == (int)(DFLY_WIRE_ETH_LEN + DFLY_WIRE_DATA_HDR_LEN + size),
			   "encapsulation: %d", n);
		fuzz_limits(&lim);
		FUZZ_CHECK(dfly_wire_data_decode(enc, (size_t)n, &lim, &d2) == 0, "decapsulation");
		FUZZ_CHECK(d2.payload_len == size && memcmp(enc + d2.payload_off, data, size) == 0,
			   "payload changed");
		FUZZ_CHECK(d2.size_phits == d.size_phits && d2.dst_node == dst, "header changed");
		break;
	}
	case DP_HOST_REPLY:
		FUZZ_CHECK(reply_len == DP_HOST_ARP_LEN, "reply of %zu bytes", reply_len);
		FUZZ_CHECK(dp_host_by_mac(tab, reply + 6) != NULL, "reply not from a host");
		break;
	case DP_HOST_DROP:
		FUZZ_CHECK(why < DFLY_DROP_COUNT, "drop without a reason");
		break;
	default:
		FUZZ_CHECK(0, "verdict %d", (int)v);
	}
	return 0;
}
