/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Canonical Dragonfly topology: parameters (p, a, h, t, g), the identifier and port numbering of
 * spec §1.2, the global-link arrangements of §1.4 (palmtree with orientation σ, consecutive), the
 * inverse lookup (which router and port of a group holds the link to another group), minimal
 * paths (§1.5) and the Valiant Path-A choices (§4.3, §4.4). Everything else in dfly (the ASIC
 * route stage, the firmware, the generators, the analysis tools) asks this module; nothing else
 * computes a port number.
 *
 * Numbering (spec §1.2):
 *   group G in [0, g); router in group ρ in [0, a); router id R = G·a + ρ; node n = R·p + c.
 *   ports [0, p) terminals, [p, p+a-1) local, [p+a-1, p+a-1+h) global.
 *   local index ℓ connects ρ to (ρ + ℓ + 1) mod a; the peer uses local index a − 2 − ℓ.
 */
#ifndef DFLY_TOPO_H
#define DFLY_TOPO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Largest radix any table in dfly is sized for (h = 16 balanced: 16 + 31 + 16 = 63). */
#define DFLY_MAX_PORTS 64
/** Largest group count (g = a·h/t + 1). */
#define DFLY_MAX_GROUPS 1024

/** Groups a Valiant intermediate may not be in (spec §4.3 "intermediate group exclusion"). */
enum dfly_val_exclude {
	DFLY_VAL_EXCL_SRC_DST = 0, /**< source and destination groups (spec PROPOSAL, default) */
	DFLY_VAL_EXCL_SRC = 1,     /**< source group only: S_ROOT may be in the destination group,
					whose path then has one global hop [xcheck: FOGSim] */
};

/** Global-link arrangement inside the group (spec §1.4). */
enum dfly_arrangement {
	DFLY_ARR_PALMTREE = 0,    /**< G' = G + σ(hρ + q + 1) mod g; the papers' default */
	DFLY_ARR_CONSECUTIVE = 1, /**< link k = ρh + q goes to group k (k < G) or k + 1 */
};

/** Kind of a router port. */
enum dfly_port_kind {
	DFLY_PORT_TERMINAL = 0,
	DFLY_PORT_LOCAL = 1,
	DFLY_PORT_GLOBAL = 2,
};

/** Valiant Path-A variant (spec §4.3). */
enum dfly_val_variant {
	DFLY_VAL_LGL = 0, /**< S_ROOT uniform over routers of groups ∉ {src, dst} (RRG) */
	DFLY_VAL_LG_ = 1, /**< intermediate group uniform (RRG); S_ROOT = landing router */
	DFLY_VAL__GL = 2, /**< one of the current router's global ports (CRG); S_ROOT uniform */
	DFLY_VAL__G_ = 3, /**< one of the current router's global ports (CRG); S_ROOT = landing */
	DFLY_VAL_VARIANT_COUNT
};

/** One end of a global link. */
struct dfly_gport {
	uint32_t router; /**< global router id */
	uint16_t q;      /**< global port index in [0, h) */
};

/** A canonical Dragonfly with its precomputed link tables. Create with dfly_topo_create(). */
struct dfly_topo {
	uint32_t p;                /**< terminals per router */
	uint32_t a;                /**< routers per group */
	uint32_t h;                /**< global links per router */
	uint32_t t;                /**< trunking: parallel global links per group pair */
	uint32_t g;                /**< groups: a·h/t + 1 */
	uint32_t routers;          /**< g·a */
	uint32_t nodes;            /**< routers·p */
	uint32_t radix;            /**< p + a − 1 + h */
	uint32_t first_local;      /**< first local port: p */
	uint32_t first_global;     /**< first global port: p + a − 1 */
	int sigma;                 /**< palmtree orientation, +1 or −1 */
	enum dfly_arrangement arr; /**< global-link arrangement */
	struct dfly_gport *peer;   /**< [R·h + q]: far end of router R's global port q */
	/** [G·g·t + D·t + k]: the k-th link of group G towards group D, as (ρ·h + q); ~0 if G == D
	 */
	uint32_t *group_link;
};

/** Hop of a router-level path. */
struct dfly_hop {
	uint32_t router;          /**< router the hop leaves from */
	uint16_t port;            /**< output port taken */
	enum dfly_port_kind kind; /**< DFLY_PORT_LOCAL or DFLY_PORT_GLOBAL */
};

/**
 * Build a Dragonfly. g = a·h/t + 1.
 *
 * @return the topology, or NULL with errno EINVAL (a parameter out of range: p, a, h ≥ 1,
 *   t ≥ 1 dividing a, σ = ±1, consecutive only with t = 1, radix ≤ DFLY_MAX_PORTS,
 *   g ≤ DFLY_MAX_GROUPS) or ENOMEM.
 */
struct dfly_topo *dfly_topo_create(uint32_t p, uint32_t a, uint32_t h, uint32_t t,
				   enum dfly_arrangement arr, int sigma);

/** Free a topology; NULL is accepted. */
void dfly_topo_destroy(struct dfly_topo *topo);

/** Print the parameters and derived sizes. */
void dfly_topo_dump(const struct dfly_topo *topo, FILE *f);

static inline uint32_t dfly_topo_group_of(const struct dfly_topo *topo, uint32_t router)
{
	return router / topo->a;
}

static inline uint32_t dfly_topo_rho_of(const struct dfly_topo *topo, uint32_t router)
{
	return router % topo->a;
}

static inline uint32_t dfly_topo_router_of_node(const struct dfly_topo *topo, uint32_t node)
{
	return node / topo->p;
}

static inline enum dfly_port_kind dfly_topo_port_kind(const struct dfly_topo *topo, uint32_t port)
{
	if (port < topo->first_local)
		return DFLY_PORT_TERMINAL;
	return port < topo->first_global ? DFLY_PORT_LOCAL : DFLY_PORT_GLOBAL;
}

/** Local port of router ρ that leads to router ρ_to of the same group (ρ ≠ ρ_to). */
static inline uint32_t dfly_topo_local_port(const struct dfly_topo *topo, uint32_t rho,
					    uint32_t rho_to)
{
	return topo->first_local + (rho_to + topo->a - rho - 1) % topo->a;
}

/** Router index ρ reached through local port @p port of router ρ. */
static inline uint32_t dfly_topo_local_peer(const struct dfly_topo *topo, uint32_t rho,
					    uint32_t port)
{
	return (rho + (port - topo->first_local) + 1) % topo->a;
}

/** Far end of global port @p q of @p router. */
static inline struct dfly_gport dfly_topo_global_peer(const struct dfly_topo *topo, uint32_t router,
						      uint32_t q)
{
	return topo->peer[router * topo->h + q];
}

/**
 * Peer of any non-terminal port: the router it connects to and the port index there.
 * @return 0, or -EINVAL for a terminal or out-of-range port.
 */
int dfly_topo_port_peer(const struct dfly_topo *topo, uint32_t router, uint32_t port,
			uint32_t *peer_router, uint32_t *peer_port);

/**
 * Inverse lookup (spec §1.4): the router ρ of group @p G and global port q holding the k-th
 * (k < t) link towards group @p D ≠ G.
 */
static inline void dfly_topo_link_to_group(const struct dfly_topo *topo, uint32_t G, uint32_t D,
					   uint32_t k, uint32_t *rho, uint32_t *q)
{
	uint32_t v = topo->group_link[((size_t)G * topo->g + D) * topo->t + k];

	*rho = v / topo->h;
	*q = v % topo->h;
}

/**
 * Which of the t trunked links a minimal path from @p router towards group @p D uses: the link
 * leaving the current router if it has one, otherwise the one selected by @p dst_node mod t.
 * Always 0 with t = 1.
 */
uint32_t dfly_topo_trunk_select(const struct dfly_topo *topo, uint32_t router, uint32_t D,
				uint32_t dst_node);

/**
 * Minimal output port (spec §1.5) at @p router for a packet to destination router @p dst_router;
 * @p dst_node selects the terminal port when dst_router == router (and the trunk when t > 1).
 */
uint32_t dfly_topo_min_port(const struct dfly_topo *topo, uint32_t router, uint32_t dst_router,
			    uint32_t dst_node);

/**
 * Minimal router-level path from @p src_router to @p dst_router (dst_node picks the trunk).
 * @return the number of hops written to @p hops (0..3); the shapes are L, G, LG, GL, LGL.
 */
unsigned dfly_topo_min_path(const struct dfly_topo *topo, uint32_t src_router, uint32_t dst_router,
			    uint32_t dst_node, struct dfly_hop hops[3]);

/**
 * Valiant intermediate router S_ROOT (spec §4.3) for a packet at @p router going to group
 * @p dst_group. @p r1 and @p r2 are uniform random 32-bit values (the caller's PRNG, so the
 * choice is reproducible). Groups ∉ {source group, dst_group} only. -GL and -G- choose among
 * the current router's global ports that do not lead to dst_group; when there is none they fall
 * back to LGL / LG- respectively.
 *
 * @return the S_ROOT router id, or UINT32_MAX when no group outside {source, dst_group} exists
 *   (g = 2 with distinct groups, g = 1).
 */
uint32_t dfly_topo_val_root(const struct dfly_topo *topo, enum dfly_val_variant v, uint32_t router,
			    uint32_t dst_group, uint32_t r1, uint32_t r2);

/**
 * dfly_topo_val_root() with a choice of excluded groups: with DFLY_VAL_EXCL_SRC the destination
 * group is a valid intermediate group (and -GL/-G- may take the port that leads to it).
 * @return the S_ROOT router id, or UINT32_MAX when no allowed group exists.
 */
uint32_t dfly_topo_val_root_ex(const struct dfly_topo *topo, enum dfly_val_variant v,
			       enum dfly_val_exclude excl, uint32_t router, uint32_t dst_group,
			       uint32_t r1, uint32_t r2);

/** Map a uniform 32-bit random value to [0, n) without division (Lemire's multiply-shift). */
static inline uint32_t dfly_uniform(uint32_t r, uint32_t n)
{
	return (uint32_t)(((uint64_t)r * n) >> 32);
}

/**
 * Signed local-link type δ of local port index ℓ (spec §1.3): ℓ+1 if ℓ+1 ≤ a/2, else ℓ+1−a.
 */
int dfly_topo_local_type(const struct dfly_topo *topo, uint32_t local_index);

/** Group offset Δ = (D − S) mod g mapped to [−(g−1)/2, +(g−1)/2] (spec §0.3). */
int dfly_topo_group_offset(const struct dfly_topo *topo, uint32_t S, uint32_t D);

/** Name of a Path-A variant ("lgl", "lg-", "-gl", "-g-"), and its inverse (-1 if unknown or NULL).
 */
const char *dfly_val_variant_name(enum dfly_val_variant v);
int dfly_val_variant_parse(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* DFLY_TOPO_H */
