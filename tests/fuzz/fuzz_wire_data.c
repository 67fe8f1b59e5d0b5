/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz the data-frame decoder (0x88B5, dfly_wire_data_decode) and check, for every frame it
 * accepts, that encoding what it decoded gives a frame it accepts again, and that a second
 * round gives the same bytes (decode and encode agree on every field). The body of a RES flit
 * (RES_REQ, RES_REP) it accepts is read too, and one read body written back gives its bytes.
 */
#include <string.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t e1[16384], e2[16384];
	struct dfly_wire_limits lim;
	struct dfly_wire_data d, d2;
	struct dfly_wire_eth eth;
	int n1, n2;

	fuzz_limits(&lim);
	(void)dfly_wire_classify(data, size);
	if (dfly_wire_data_decode(data, size, &lim, &d) != 0)
		return 0;
	FUZZ_CHECK(d.payload_off + (size_t)d.payload_len <= size, "payload %u+%u > %zu",
		   d.payload_off, d.payload_len, size);
	memcpy(eth.dst, data, 6);
	memcpy(eth.src, data + 6, 6);
	n1 = dfly_wire_data_encode(e1, sizeof(e1), &eth, &d, data + d.payload_off);
	FUZZ_CHECK(n1 == (int)(DFLY_WIRE_ETH_LEN + DFLY_WIRE_DATA_HDR_LEN + d.payload_len),
		   "encode of an accepted header: %d", n1);
	FUZZ_CHECK(dfly_wire_data_decode(e1, (size_t)n1, &lim, &d2) == 0, "re-decode failed");
	n2 = dfly_wire_data_encode(e2, sizeof(e2), &eth, &d2, e1 + d2.payload_off);
	FUZZ_CHECK(n2 == n1 && memcmp(e1, e2, (size_t)n1) == 0, "second round differs");
	if (d.type == DFLY_WIRE_PKT_RES_REQ || d.type == DFLY_WIRE_PKT_RES_REP) {
		struct dfly_wire_res r;
		uint8_t b[DFLY_WIRE_RES_LEN];

		FUZZ_CHECK(d.payload_len == DFLY_WIRE_RES_LEN, "RES body of %u bytes",
			   d.payload_len);
		if (dfly_wire_res_get(data + d.payload_off, d.type, &lim, &r) == 0) {
			dfly_wire_res_put(b, &r);
			FUZZ_CHECK(memcmp(b, data + d.payload_off, sizeof(b)) == 0,
				   "RES body round trip differs");
		}
	}
	return 0;
}
