/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz the control-frame decoder (0x88B6: CREDIT, PB_STATE, ECTN_PARTIAL in every format,
 * HELLO, ACK) and check, for every frame it accepts, that encoding what it decoded gives a frame
 * it accepts again and that a second round gives the same bytes. HELLO frames are also checked
 * against the topology (dfly_wire_hello_check), which must not read out of bounds. The same
 * input is read as a BUNDLE (0x88B7): every record it hands out must fit the frame it came from
 * and go through the control decoder.
 */
#include <string.h>

#include "dfly/topo.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dfly_topo *topo;
	static uint8_t e1[4096], e2[4096];
	struct dfly_wire_limits lim;
	struct dfly_wire_ctrl m, m2;
	int n1, n2;

	if (topo == NULL)
		topo = dfly_topo_create(2, 4, 2, 1, DFLY_ARR_PALMTREE, -1);
	fuzz_limits(&lim);
	{
		struct dfly_wire_bundle_iter it;
		int k = dfly_wire_bundle_open(data, size, &it), n, got = 0;
		size_t sum = 0;

		if (k > 0) {
			while ((n = dfly_wire_bundle_next(&it, e1, sizeof(e1))) > 0) {
				sum += (size_t)n - DFLY_WIRE_ETH_LEN;
				got++;
				(void)dfly_wire_ctrl_decode(e1, (size_t)n, &lim, &m);
			}
			FUZZ_CHECK(got == k && n == 0 && sum <= size,
				   "BUNDLE of %d records gave %d (%d), %zu bytes of %zu", k, got, n,
				   sum, size);
		}
	}
	if (dfly_wire_ctrl_decode(data, size, &lim, &m) != 0)
		return 0;
	if (m.type == DFLY_WIRE_CTRL_HELLO && size >= 2)
		(void)dfly_wire_hello_check(&m, topo, data[0] % 40, data[1] % 10, 0);
	n1 = dfly_wire_ctrl_encode(e1, sizeof(e1), NULL, &m);
	FUZZ_CHECK(n1 > 0, "encode of an accepted %s frame: %d", dfly_wire_ctrl_name(m.type), n1);
	FUZZ_CHECK(dfly_wire_ctrl_decode(e1, (size_t)n1, &lim, &m2) == 0, "re-decode of %s failed",
		   dfly_wire_ctrl_name(m.type));
	n2 = dfly_wire_ctrl_encode(e2, sizeof(e2), NULL, &m2);
	FUZZ_CHECK(n2 == n1 && memcmp(e1, e2, (size_t)n1) == 0, "second round of %s differs",
		   dfly_wire_ctrl_name(m.type));
	return 0;
}
