/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Register file helpers (include/dfly/regs.h): initialisation, layout check, the double-buffered
 * table publication protocol, the CPU-port rings, and the counter name tables generated from the
 * X-macro lists.
 */
#include <errno.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "dfly/regs.h"
#include "dfly/wire.h"

#define DFLY__NAME(E, n, d) #n,
#define DFLY__DESC(E, n, d) d,
const char *const dfly_port_ctr_names[DFLY_PORT_CTR_COUNT] = {DFLY_FOREACH_PORT_CTR(DFLY__NAME)};
const char *const dfly_vc_ctr_names[DFLY_VC_CTR_COUNT] = {DFLY_FOREACH_VC_CTR(DFLY__NAME)};
const char *const dfly_vc_gauge_names[DFLY_VC_GAUGE_COUNT] = {DFLY_FOREACH_VC_GAUGE(DFLY__NAME)};
const char *const dfly_drop_names[DFLY_DROP_COUNT] = {DFLY_FOREACH_DROP(DFLY__NAME)};
const char *const dfly_route_ctr_names[DFLY_ROUTE_CTR_COUNT] = {DFLY_FOREACH_ROUTE_CTR(DFLY__NAME)};
const char *const dfly_drop_descs[DFLY_DROP_COUNT] = {DFLY_FOREACH_DROP(DFLY__DESC)};

enum dfly_drop dfly_drop_of_wire_err(int err)
{
	switch (err < 0 ? -err : err) {
	case DFLY_WIRE_E_TRUNCATED:
		return DFLY_DROP_DECODE_TRUNCATED;
	case DFLY_WIRE_E_BAD_VERSION:
		return DFLY_DROP_DECODE_VERSION;
	case DFLY_WIRE_E_BAD_TYPE:
		return DFLY_DROP_DECODE_TYPE;
	case DFLY_WIRE_E_BAD_NODE:
	case DFLY_WIRE_E_BAD_ROUTER:
	case DFLY_WIRE_E_BAD_VC:
	case DFLY_WIRE_E_BAD_HOPS:
	case DFLY_WIRE_E_BAD_PORT:
	case DFLY_WIRE_E_BAD_INDEX:
		return DFLY_DROP_DECODE_RANGE;
	default:
		return DFLY_DROP_DECODE;
	}
}
const char *const dfly_route_ctr_descs[DFLY_ROUTE_CTR_COUNT] = {DFLY_FOREACH_ROUTE_CTR(DFLY__DESC)};
#undef DFLY__NAME
#undef DFLY__DESC

void dfly_regs_init(struct dfly_regs *regs, uint32_t router, uint32_t nports)
{
	memset(regs, 0, sizeof(*regs));
	regs->version = DFLY_REGS_VERSION;
	regs->size = sizeof(*regs);
	regs->router = router;
	regs->nports = nports;
	for (int t = 0; t < DFLY_TBL_COUNT; t++) {
		atomic_init(&regs->tbl_gen[t], 0);
		atomic_init(&regs->tbl_seen[t], 0);
	}
	atomic_init(&regs->cpu_rx.head, 0);
	atomic_init(&regs->cpu_rx.tail, 0);
	atomic_init(&regs->cpu_tx.head, 0);
	atomic_init(&regs->cpu_tx.tail, 0);
	atomic_init(&regs->fw.pb_own_vec, 0);
	atomic_init(&regs->fw.heartbeat, 0);
	atomic_init(&regs->steps, 0);
	atomic_init(&regs->lockstep, 0);
	atomic_init(&regs->steps_sleepers, 0);
	atomic_init(&regs->hb_sleepers, 0);
	/* the magic last: a process mapping the file from shared memory sees 0 until the rest
	 * is in place */
	atomic_thread_fence(memory_order_release);
	regs->magic = DFLY_REGS_MAGIC;
}

int dfly_regs_check(const struct dfly_regs *regs)
{
	if (regs->magic != DFLY_REGS_MAGIC || regs->version != DFLY_REGS_VERSION ||
	    regs->size != sizeof(*regs) || regs->nports > DFLY_MAX_PORTS)
		return -EPROTO;
	return 0;
}

void *dfly_regs_tbl_begin(struct dfly_regs *regs, enum dfly_tbl t)
{
	uint64_t gen, seen;
	size_t off;
	char *next;

	if ((unsigned)t >= DFLY_TBL_COUNT) {
		errno = EINVAL;
		return NULL;
	}
	gen = atomic_load_explicit(&regs->tbl_gen[t], memory_order_acquire);
	seen = atomic_load_explicit(&regs->tbl_seen[t], memory_order_acquire);
	off = dfly_tbl_offset(t);
	if (seen != gen) {
		errno = EBUSY;
		return NULL;
	}
	next = (char *)&regs->tables[(gen + 1) & 1] + off;
	/* start from the live bank so a writer only changes what it means to */
	memcpy(next, (const char *)&regs->tables[gen & 1] + off, dfly_tbl_size(t));
	return next;
}

void dfly_regs_tbl_publish(struct dfly_regs *regs, enum dfly_tbl t)
{
	atomic_fetch_add_explicit(&regs->tbl_gen[t], 1, memory_order_release);
}

/* ---------------------------------------------------------------------------------------------
 * CPU port rings (single producer, single consumer)
 */

int dfly_cpu_ring_put(struct dfly_cpu_ring *r, uint16_t port, uint64_t cycle, const void *frame,
		      uint16_t len)
{
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint32_t head = atomic_load_explicit(&r->head, memory_order_acquire);
	struct dfly_cpu_slot *s;

	if (len > DFLY_CPU_FRAME_MAX)
		return -EMSGSIZE;
	if (tail - head >= DFLY_CPU_RING_SLOTS) {
		r->full++;
		return -ENOBUFS;
	}
	s = &r->slot[tail & (DFLY_CPU_RING_SLOTS - 1)];
	s->port = port;
	s->len = len;
	s->reserved = 0;
	s->cycle = cycle;
	memcpy(s->frame, frame, len);
	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
	return 0;
}

const struct dfly_cpu_slot *dfly_cpu_ring_peek(struct dfly_cpu_ring *r)
{
	uint32_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);

	if (head == tail)
		return NULL;
	return &r->slot[head & (DFLY_CPU_RING_SLOTS - 1)];
}

void dfly_cpu_ring_pop(struct dfly_cpu_ring *r)
{
	uint32_t head = atomic_load_explicit(&r->head, memory_order_relaxed);

	atomic_store_explicit(&r->head, head + 1, memory_order_release);
}

const char *dfly_link_state_name(unsigned st)
{
	static const char *const names[] = {"unused", "wait_hello", "up", "miswired"};

	return st < sizeof(names) / sizeof(names[0]) ? names[st] : "unknown";
}

void dfly_regs_dump(const struct dfly_regs *regs, FILE *f)
{
	fprintf(f, "router %u cycle %llu\n", regs->router, (unsigned long long)regs->cycle);
	for (uint32_t p = 0; p < regs->nports; p++) {
		if (regs->link_state[p] != DFLY_LINK_UNUSED)
			fprintf(f, "  port%u.link_state %s\n", p,
				dfly_link_state_name(regs->link_state[p]));
		for (int c = 0; c < DFLY_PORT_CTR_COUNT; c++)
			if (regs->port_ctr[p][c])
				fprintf(f, "  port%u.%s %llu\n", p, dfly_port_ctr_names[c],
					(unsigned long long)regs->port_ctr[p][c]);
		for (uint32_t v = 0; v < regs->nvcs[p]; v++) {
			for (int c = 0; c < DFLY_VC_CTR_COUNT; c++)
				if (regs->vc_ctr[p][v][c])
					fprintf(f, "  port%u.vc%u.%s %llu\n", p, v,
						dfly_vc_ctr_names[c],
						(unsigned long long)regs->vc_ctr[p][v][c]);
			for (int c = 0; c < DFLY_VC_GAUGE_COUNT; c++)
				if (regs->vc_gauge[p][v][c])
					fprintf(f, "  port%u.vc%u.%s %lld\n", p, v,
						dfly_vc_gauge_names[c],
						(long long)regs->vc_gauge[p][v][c]);
		}
	}
	for (int c = 0; c < DFLY_DROP_COUNT; c++)
		if (regs->drop[c])
			fprintf(f, "  drop.%s %llu\n", dfly_drop_names[c],
				(unsigned long long)regs->drop[c]);
	for (int c = 0; c < DFLY_ROUTE_CTR_COUNT; c++)
		if (regs->route[c])
			fprintf(f, "  route.%s %llu\n", dfly_route_ctr_names[c],
				(unsigned long long)regs->route[c]);
	/* contention counters and ECtN arrays (spec 5.2, 5.6): gauges, 0 once drained */
	for (uint32_t p = 0; p < regs->nports && p < DFLY_MAX_PORTS; p++) {
		if (regs->mech.cc[p])
			fprintf(f, "  port%u.cc %u\n", p, regs->mech.cc[p]);
		if (regs->mech.cc_est_q8[p])
			fprintf(f, "  port%u.cc_est_q8 %u\n", p, regs->mech.cc_est_q8[p]);
	}
	for (uint32_t g = 0; g < regs->ngroups && g < DFLY_MAX_GROUPS; g++) {
		if (regs->mech.ectn_partial[g])
			fprintf(f, "  ectn.partial.g%u %u\n", g, regs->mech.ectn_partial[g]);
		if (regs->mech.ectn_combined[g])
			fprintf(f, "  ectn.combined.g%u %u\n", g, regs->mech.ectn_combined[g]);
		if (regs->mech.lia_injected[g])
			fprintf(f, "  lia.injected.g%u %u\n", g, regs->mech.lia_injected[g]);
		if (regs->mech.lia_stored[g])
			fprintf(f, "  lia.stored.g%u %u\n", g, regs->mech.lia_stored[g]);
	}
}

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "dfly_regs_sleep() waits on the low 32 bits of a 64-bit counter: little-endian only"
#endif

void dfly_regs_sleep(const _Atomic uint64_t *ctr, uint64_t want, _Atomic uint32_t *sleepers,
		     long timeout_ns)
{
	struct timespec ts = {timeout_ns / 1000000000L, timeout_ns % 1000000000L};
	uint64_t v;

	atomic_fetch_add(sleepers, 1); /* seq_cst: before the load below */
	v = atomic_load(ctr);
	if (v < want)
		syscall(SYS_futex, (const uint32_t *)ctr, FUTEX_WAIT, (uint32_t)v, &ts, NULL, 0);
	atomic_fetch_sub(sleepers, 1);
}

void dfly_regs_wake(const _Atomic uint64_t *ctr, const _Atomic uint32_t *sleepers)
{
	atomic_thread_fence(memory_order_seq_cst); /* the caller's store of *ctr, then the load */
	if (atomic_load_explicit(sleepers, memory_order_relaxed) != 0)
		syscall(SYS_futex, (const uint32_t *)ctr, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}
