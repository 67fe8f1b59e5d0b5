/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Link-level retry, go-back-N (llr.h): the sender's replay buffer and retry timer, the
 * receiver's verdicts and ACK/NAK scheduling. Portable: libc and include/dfly only, so the same
 * state machine is unit-tested on a simulated lossy channel and driven by dfly-switch on DPDK.
 * Sequence arithmetic is modulo 2^32 throughout: distances are u32 differences.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "dfly/wire.h"
#include "llr.h"

int dp_llr_tx_init_seq(struct dp_llr_tx *tx, uint32_t capacity, uint32_t first_seq)
{
	if (capacity < 2 || capacity > DP_LLR_CAPACITY_MAX || (capacity & (capacity - 1)) != 0)
		return -EINVAL;
	tx->frame = calloc(capacity, sizeof(*tx->frame));
	if (!tx->frame)
		return -ENOMEM;
	tx->next_seq = first_seq;
	tx->acked = first_seq;
	tx->resend = first_seq;
	tx->tail = first_seq;
	tx->mask = capacity - 1;
	tx->last_progress_ns = 0;
	tx->ack_cont = false;
	return 0;
}

int dp_llr_tx_init(struct dp_llr_tx *tx, uint32_t capacity)
{
	return dp_llr_tx_init_seq(tx, capacity, 0);
}

void dp_llr_tx_fini(struct dp_llr_tx *tx)
{
	if (!tx)
		return;
	free(tx->frame);
	tx->frame = NULL;
}

uint32_t dp_llr_tx_push(struct dp_llr_tx *tx, void *frame, uint64_t now_ns)
{
	uint32_t seq = tx->next_seq;

	if (dp_llr_tx_inflight(tx) == 0)
		tx->last_progress_ns = now_ns;
	tx->frame[seq & tx->mask] = frame;
	/* Sent by the caller now, so not in [resend, next_seq). If a replay was pending against
	 * the contract, resend stays put and the frame goes again with it: harmless. */
	if (tx->resend == seq)
		tx->resend = seq + 1;
	tx->next_seq = seq + 1;
	return seq;
}

/* Hand back up to @p max acknowledged frames, oldest first. */
static unsigned llr_tx_release(struct dp_llr_tx *tx, void **freed, unsigned max)
{
	unsigned n = 0;

	while (n < max && tx->tail != tx->acked) {
		uint32_t slot = tx->tail & tx->mask;

		freed[n++] = tx->frame[slot];
		tx->frame[slot] = NULL;
		tx->tail++;
	}
	return n;
}

unsigned dp_llr_tx_ack(struct dp_llr_tx *tx, uint32_t ack, bool nak, uint64_t now_ns, void **freed,
		       unsigned max, struct dp_llr_stats *st)
{
	unsigned n;

	if (tx->ack_cont && ack == tx->acked)
		goto release;

	st->ack_rx++;
	/* In window: acked <= ack <= next_seq, as distances from acked. */
	if (ack - tx->acked > tx->next_seq - tx->acked) {
		st->stale_ack++;
		goto release;
	}
	if (ack != tx->acked) {
		tx->acked = ack;
		tx->last_progress_ns = now_ns;
	}
	if (nak) {
		st->nak_rx++;
		tx->resend = ack;
		tx->last_progress_ns = now_ns;
	} else if (dfly_wire_seq_before(tx->resend, ack)) {
		tx->resend = ack;
	}
release:
	n = llr_tx_release(tx, freed, max);
	tx->ack_cont = max > 0 && n == max;
	return n;
}

unsigned dp_llr_tx_resend(struct dp_llr_tx *tx, uint64_t now_ns, uint64_t rto_ns, void **frames,
			  uint32_t *seqs, unsigned max, struct dp_llr_stats *st)
{
	unsigned n = 0;

	if (dp_llr_tx_inflight(tx) != 0 && now_ns - tx->last_progress_ns >= rto_ns) {
		st->timeouts++;
		tx->resend = tx->acked;
		tx->last_progress_ns = now_ns;
	}
	while (n < max && tx->resend != tx->next_seq) {
		frames[n] = tx->frame[tx->resend & tx->mask];
		seqs[n] = tx->resend;
		n++;
		tx->resend++;
	}
	st->retx += n;
	return n;
}

void dp_llr_tx_unsend(struct dp_llr_tx *tx, uint32_t seq)
{
	if (!dfly_wire_seq_before(seq, tx->resend))
		return;
	tx->resend = dfly_wire_seq_before(seq, tx->acked) ? tx->acked : seq;
}

unsigned dp_llr_tx_drain(struct dp_llr_tx *tx, void **frames, unsigned max)
{
	unsigned n;

	tx->acked = tx->next_seq;
	tx->resend = tx->next_seq;
	tx->ack_cont = false;
	n = llr_tx_release(tx, frames, max);
	return n;
}

void dp_llr_rx_init_seq(struct dp_llr_rx *rx, uint32_t first_seq)
{
	*rx = (struct dp_llr_rx){.expect = first_seq};
}

void dp_llr_rx_init(struct dp_llr_rx *rx)
{
	dp_llr_rx_init_seq(rx, 0);
}

enum dp_llr_verdict dp_llr_rx_check(struct dp_llr_rx *rx, uint32_t seq, struct dp_llr_stats *st)
{
	if (seq == rx->expect) {
		rx->expect++;
		rx->unacked++;
		rx->ack_pending = true;
		rx->nak_pending = false;
		rx->nak_sent_for_gap = false;
		rx->gap_since_nak = false;
		return DP_LLR_ACCEPT;
	}
	if (dfly_wire_seq_before(seq, rx->expect)) {
		st->dup_rx++;
		rx->ack_pending = true;
		return DP_LLR_DUP;
	}
	st->gap_rx++;
	if (!rx->nak_sent_for_gap) {
		rx->nak_sent_for_gap = true;
		rx->nak_pending = true;
	} else if (!rx->nak_pending) {
		rx->gap_since_nak = true;
	}
	return DP_LLR_GAP;
}

bool dp_llr_rx_ack_due(struct dp_llr_rx *rx, uint64_t now_ns, uint32_t every, uint64_t delay_ns,
		       uint64_t keepalive_ns, uint64_t nak_ns, uint32_t *ack, bool *nak,
		       struct dp_llr_stats *st)
{
	uint64_t since = now_ns - rx->last_ack_ns;

	if (rx->gap_since_nak && now_ns - rx->last_nak_ns >= nak_ns)
		rx->nak_pending = true;
	if (!rx->nak_pending && !(every != 0 && rx->unacked >= every) &&
	    !(rx->ack_pending && since >= delay_ns) &&
	    !(keepalive_ns != 0 && since >= keepalive_ns))
		return false;

	*ack = rx->expect;
	*nak = rx->nak_pending;
	st->ack_tx++;
	if (rx->nak_pending) {
		st->nak_tx++;
		rx->nak_pending = false;
		rx->gap_since_nak = false;
		rx->last_nak_ns = now_ns;
	}
	rx->unacked = 0;
	rx->ack_pending = false;
	rx->last_ack_ns = now_ns;
	return true;
}

void dp_llr_stats_dump(const struct dp_llr_stats *st, const char *prefix, bool nz, FILE *f)
{
#define DP_LLR_STAT_DUMP_(name, desc)                                                              \
	if (!nz || st->name != 0)                                                                  \
		fprintf(f, "%s.%s %" PRIu64 "\n", prefix, #name, st->name);
	DP_FOREACH_LLR_STAT(DP_LLR_STAT_DUMP_)
#undef DP_LLR_STAT_DUMP_
}
