/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The state and bandwidth model of a router (spec §10, §11; IAR §6.6, CBAR §VI-B): per mechanism,
 * the bits of state a router adds to the baseline's input buffers, and the share of a local link
 * its control frames or flits take. A function of the network file only (sizes, VCs, buffers,
 * latencies, packet length, the mechanisms' settings): `dfly topo --state` prints it, `dfly repro
 * claims` checks H29 with it.
 */
#ifndef DFLY_STATE_H
#define DFLY_STATE_H

#include <stdint.h>

#include "netcfg.h"

/** One line of the model. */
struct dfly_state_row {
	const char *name;  /**< "baseline", or the mechanism's config name */
	int modelled;      /**< 0: the mechanism's state is not modelled (bits, bw unset) */
	uint64_t bits;     /**< baseline: its total; a mechanism: what it adds (bits per router) */
	uint64_t alt_bits; /**< a second reading where one exists (RES: IAR's separate waiting
			       buffer added; PAR: IAR's extra VC on every input port), else equal
			       to bits */
	char alt_what[80]; /**< that reading ("" if none) */
	char what[200];    /**< how the bits are counted */
	double bw;         /**< share of a local link (each direction) its control traffic takes,
			       at offered load 1 where it depends on load; 0 if none */
	char bw_what[160]; /**< how the bandwidth is counted ("" if none) */
};

/**
 * The model of @p cfg: rows[0] the baseline (input buffers: ports × VCs × phits × bits per phit,
 * IAR §6.6's metric), then one row per mechanism of the registry, in its order.
 * @return the number of rows written (at most @p max).
 */
unsigned dfly_state_model(const struct dfly_netcfg *cfg, struct dfly_state_row *rows, unsigned max);

#endif /* DFLY_STATE_H */
