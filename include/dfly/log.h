/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Logging of the portable libraries (asic-emu, control, config, traffic, sim): one log type per
 * component with its own level, as DPDK's RTE_LOG_REGISTER, and a rate limit for anything that
 * can fire per packet or per cycle (DFLY_LOG_RL, as Linux's net_ratelimit). Messages go to a
 * handler that the front-end sets: stderr by default; dfly-switch sends them to rte_log under its
 * own log types. No library writes to stderr directly, and none reads the environment: levels
 * are set by the front-ends (dfly_log_set_level).
 */
#ifndef DFLY_LOG_H
#define DFLY_LOG_H

#include <stdbool.h>
#include <stdint.h>

/* X(ENUM, name): the components that log. */
#define DFLY_FOREACH_LOG_TYPE(X)                                                                   \
	X(ASIC, "asic")                                                                            \
	X(FW, "fw")                                                                                \
	X(CONFIG, "config")                                                                        \
	X(TRAFFIC, "traffic")                                                                      \
	X(SIM, "sim")

enum dfly_log_type {
#define DFLY__LOG_ENUM(E, n) DFLY_LOG_##E,
	DFLY_FOREACH_LOG_TYPE(DFLY__LOG_ENUM)
#undef DFLY__LOG_ENUM
	    DFLY_LOG_TYPE_COUNT
};

/** Levels, most severe first (the values of syslog and rte_log minus one). */
enum dfly_log_level {
	DFLY_LOG_ERR = 0,
	DFLY_LOG_WARNING,
	DFLY_LOG_NOTICE,
	DFLY_LOG_INFO,
	DFLY_LOG_DEBUG,
};

/** A handler: gets every message at or above its type's level, without a trailing newline. */
typedef void dfly_log_fn(enum dfly_log_type type, enum dfly_log_level level, const char *msg);

/** The component's name ("asic", ...), or "?" for a value out of range. */
const char *dfly_log_type_name(enum dfly_log_type type);

/** Send messages to @p fn (NULL: back to the default, "dfly TYPE: message" on stderr). */
void dfly_log_set_handler(dfly_log_fn *fn);

/** Messages of @p type above @p level are dropped before formatting (default: NOTICE). */
void dfly_log_set_level(enum dfly_log_type type, enum dfly_log_level level);

/** Whether a message of @p type at @p level would be logged. */
bool dfly_log_enabled(enum dfly_log_type type, enum dfly_log_level level);

/** Log a message (printf format; a trailing newline is not needed). */
void dfly_log(enum dfly_log_type type, enum dfly_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/**
 * A rate limit: at most @p burst messages per @p interval_ms of wall time; the messages left out
 * are counted and their number is said with the next one that passes. Zero-initialise with
 * DFLY_LOG_RL_INIT. Not thread-safe: one per call site and thread of the packet path, or a rare
 * lost count.
 */
struct dfly_log_rl {
	uint32_t interval_ms; /**< length of a window */
	uint32_t burst;       /**< messages per window */
	uint64_t begin_ms;    /**< start of the current window */
	uint32_t printed;     /**< messages passed in the current window */
	uint64_t missed;      /**< messages left out since the last one passed */
};
#define DFLY_LOG_RL_INIT(ms, n)                                                                    \
	{                                                                                          \
		.interval_ms = (ms), .burst = (n)                                                  \
	}

/** @return true if a message of @p type may pass now (and counts it; the number left out before
 *  it is logged first, as a warning of @p type), false if it is left out. */
bool dfly_log_rl_pass(struct dfly_log_rl *rl, enum dfly_log_type type);

/** Log at most 10 messages per 5 s from this call site (as Linux's net_ratelimit). */
#define DFLY_LOG_RL(type, level, ...)                                                              \
	do {                                                                                       \
		static struct dfly_log_rl dfly__rl = DFLY_LOG_RL_INIT(5000, 10);                   \
		if (dfly_log_enabled(type, level) && dfly_log_rl_pass(&dfly__rl, type))            \
			dfly_log(type, level, __VA_ARGS__);                                        \
	} while (0)

#endif /* DFLY_LOG_H */
