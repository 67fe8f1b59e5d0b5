/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the libFuzzer harnesses (tests/fuzz/README.md): the decoder limits of the h=2
 * network, small enough that random ids often fall inside, and a check that aborts with a
 * message (libFuzzer then saves the input as a crash).
 */
#ifndef DFLY_FUZZ_H
#define DFLY_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "dfly/wire.h"

#define FUZZ_CHECK(cond, ...)                                                                      \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "fuzz check failed: %s: ", #cond);                         \
			fprintf(stderr, __VA_ARGS__);                                              \
			fprintf(stderr, "\n");                                                     \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

/* configs/h2.cfg: p = 2, a = 4, h = 2, 9 groups; VCs as its global/local ports */
static inline void fuzz_limits(struct dfly_wire_limits *lim)
{
	lim->nodes = 72;
	lim->routers = 36;
	lim->p = 2;
	lim->a = 4;
	lim->h = 2;
	lim->t = 1;
	lim->vcs = 4;
	lim->max_phits = 4096;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
