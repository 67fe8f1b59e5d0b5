/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reproducible pseudo-random numbers for the emulator: xoshiro256** seeded through splitmix64
 * (Blackman and Vigna). Every router and every traffic source owns one stream derived from the
 * run seed and its id, so results depend only on (config, seed), never on stepping order.
 */
#ifndef DFLY_RNG_H
#define DFLY_RNG_H

#include <stdint.h>

struct dfly_rng {
	uint64_t s[4]; /**< xoshiro256** state; never all zero */
};

static inline uint64_t dfly_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/** Seed stream @p stream of run seed @p seed (e.g. stream = router id or node id + offset). */
static inline void dfly_rng_seed(struct dfly_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed * 0xd1342543de82ef95ull + stream * 0x9e3779b97f4a7c15ull + 1;

	for (int i = 0; i < 4; i++)
		r->s[i] = dfly_splitmix64(&x);
}

static inline uint64_t dfly_rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t dfly_rng_next(struct dfly_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = dfly_rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = dfly_rng_rotl(s[3], 45);
	return res;
}

static inline uint32_t dfly_rng_u32(struct dfly_rng *r)
{
	return (uint32_t)(dfly_rng_next(r) >> 32);
}

/** Uniform in [0, n), n > 0 (multiply-shift on 32 bits). */
static inline uint32_t dfly_rng_below(struct dfly_rng *r, uint32_t n)
{
	return (uint32_t)(((uint64_t)dfly_rng_u32(r) * n) >> 32);
}

/** Bernoulli trial with probability @p p given as a 2^-64 fraction (p = prob · 2^64). */
static inline int dfly_rng_chance(struct dfly_rng *r, uint64_t p64)
{
	return dfly_rng_next(r) < p64;
}

#endif /* DFLY_RNG_H */
