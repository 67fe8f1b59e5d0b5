/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet capture of the virtual-time fabric (`dfly sim --capture`): the ASIC's capture points
 * (asic_set_trace) written to pcap files in the format of include/dfly/trace.h, with nanosecond
 * timestamps in emulated time (cycle × clock.cycle_ns).
 *
 * Selection: the capture points (a mask of enum dfly_trace_point), the routers and the ports;
 * sampling by packet (1 in N, decided from the packet's source node and generation cycle, so a
 * sampled packet is captured at every point it crosses and a trace of it stays whole; control
 * frames are not sampled); a snap length; rotation to FILE.1, FILE.2, … once a file reaches
 * rotate_bytes. Everything the writer leaves out is counted, by reason.
 */
#ifndef DFLY_CAPTURE_H
#define DFLY_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "asic.h"
#include "dfly/topo.h"

/** Smallest snap length: metadata, Ethernet and data headers. */
#define DFLY_CAPTURE_SNAP_MIN 110u
/** Largest snap length. */
#define DFLY_CAPTURE_SNAP_MAX 65535u

/** What to capture, where, and how. */
struct dfly_capture_cfg {
	const char *path;       /**< first file; rotation appends .1, .2, … */
	uint32_t points;        /**< bit p: enum dfly_trace_point p */
	const uint8_t *routers; /**< [routers] 1 = captured; NULL: every router */
	uint64_t ports;         /**< bit p: port p captured (all ones: every port) */
	uint32_t sample;        /**< 1 in N packets (1: all) */
	uint32_t snaplen;       /**< bytes of each record kept (metadata header included) */
	uint64_t rotate_bytes;  /**< start a new file at this size, 0: never */
	bool meta;           /**< metadata records (DLT_USER0) instead of plain Ethernet frames */
	double cycle_ns;     /**< emulated ns per cycle (timestamps) */
	uint32_t phit_bytes; /**< bytes per phit (synthesised payload length) */
};

/** What the writer did. */
struct dfly_capture_stats {
	uint64_t records;     /**< records written */
	uint64_t bytes;       /**< bytes written (records and their pcap headers) */
	uint64_t truncated;   /**< records cut to the snap length */
	uint64_t sampled_out; /**< packet events left out by the sampling */
	uint64_t errors;      /**< records not written: an encoder or file error */
	uint64_t ring_full;   /**< dfly-switch: records lost because a capture ring was full */
	uint32_t files;       /**< files written */
};

struct dfly_capture;

/**
 * Open the first file. @return the writer, or NULL with a message in @p err (a bad setting or
 * the file error, with the path).
 */
struct dfly_capture *dfly_capture_open(const struct dfly_capture_cfg *cfg,
				       const struct dfly_topo *topo, char *err, size_t errlen);

/** dfly_capture_format() results besides 0 (negative: an error). */
#define DFLY_CAPTURE_SKIP        1 /**< not selected (port) */
#define DFLY_CAPTURE_SAMPLED_OUT 2 /**< left out by the sampling */
#define DFLY_CAPTURE_RING_FULL   3 /**< dfly_capture_count(): a ring had no room */

struct pcap_pkthdr;

/**
 * Format one event as a pcap record into @p buf (@p size bytes, enough for the whole frame
 * before the snap length cuts it: 48 + 14 + 48 + payload) and its header @p h (timestamp =
 * cycle × cycle_ns). Thread-safe: touches only its arguments. @return 0, DFLY_CAPTURE_SKIP,
 * DFLY_CAPTURE_SAMPLED_OUT, -ENOSPC or -EINVAL.
 */
int dfly_capture_format(const struct dfly_capture_cfg *cfg, uint32_t router,
			const struct asic_trace_ev *ev, uint8_t *buf, size_t size,
			struct pcap_pkthdr *h);

/** Write a formatted record (h->caplen bytes of @p data), rotating files. One thread only.
 *  @return 0 or -EIO. */
int dfly_capture_write(struct dfly_capture *cap, const struct pcap_pkthdr *h, const uint8_t *data);

/** Count @p n events that were not written, by dfly_capture_format() result or
 *  DFLY_CAPTURE_RING_FULL. One thread only (the writer's). */
void dfly_capture_count(struct dfly_capture *cap, int why, uint64_t n);

/** The settings the writer was opened with. */
const struct dfly_capture_cfg *dfly_capture_cfg(const struct dfly_capture *cap);

/** The ASIC capture callback (asic_trace_fn) with @p cap as its context: format and write at
 *  once (virtual time, one thread). */
void dfly_capture_trace(void *cap, const struct asic *as, const struct asic_trace_ev *ev);

struct dfly_netcfg;
/** dfly_capture_open() with the capture.* settings of a network file (netcfg.h) and @p path. */
struct dfly_capture *dfly_capture_open_netcfg(const struct dfly_netcfg *nc,
					      const struct dfly_topo *topo, const char *path,
					      char *err, size_t errlen);

/** Whether @p router is among the routers the writer captures. */
bool dfly_capture_selects(const struct dfly_capture *cap, uint32_t router);

/** Install the writer on @p as for the points, router and ports it selects. */
void dfly_capture_attach(struct dfly_capture *cap, struct asic *as);

/** Flush and close; the stats so far go to @p st (may be NULL). @return 0 or -EIO. */
int dfly_capture_close(struct dfly_capture *cap, struct dfly_capture_stats *st);

#endif /* DFLY_CAPTURE_H */
