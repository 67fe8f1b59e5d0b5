/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of link-level retry (dataplane/llr.h), the go-back-N state machine that keeps a
 * dfly-switch fabric link lossless over lossy Ethernet. Negative tests first (bad capacities,
 * stale and out-of-window ACKs), then each mechanism on hand-driven frames with exact values:
 * in-order delivery and cumulative release, NAK, retry timer, window full, unsend, drain,
 * sequence wrap across 2^32, ACK scheduling. Last, a simulated FIFO link on a fake clock that
 * drops 1%, 10% and 30% of the data frames and of the ACKs from a printed seed (override with
 * DFLY_TEST_SEED) until 100000 frames are delivered, checking exactly-once in-order delivery,
 * an empty replay buffer at the end, and that every counter adds up to what the link carried.
 *
 * Frames are tokens: frame i is the pointer value i + 1, never dereferenced.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfly/rng.h"
#include "llr.h"

/* Assert with a formatted message; used inside loops to name the failing case. */
#define CHECK(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond))                                                                       \
			fail_msg(__VA_ARGS__);                                                     \
	} while (0)

#define US 1000ull /* ns */

static uint64_t prng_seed = 0x11f7c0de;

static void *tok(uint32_t i)
{
	return (void *)((uintptr_t)i + 1);
}

static uint32_t untok(const void *p)
{
	return (uint32_t)((uintptr_t)p - 1);
}

/* Push @p n frames with ids first.., checking that they get consecutive seqs from the current
 * next_seq. */
static void push_n(struct dp_llr_tx *tx, uint32_t first, uint32_t n, uint64_t now)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t want = tx->next_seq;

		assert_true(dp_llr_tx_room(tx));
		assert_int_equal(dp_llr_tx_push(tx, tok(first + i), now), want);
	}
}

/* Feed seqs [from, from + n) to @p rx, each expected to get verdict @p v. */
static void rx_feed(struct dp_llr_rx *rx, uint32_t from, uint32_t n, enum dp_llr_verdict v,
		    struct dp_llr_stats *st)
{
	for (uint32_t i = 0; i < n; i++)
		CHECK(dp_llr_rx_check(rx, from + i, st) == v, "seq %#x: verdict != %d", from + i,
		      v);
}

/* ---- negative tests ---------------------------------------------------------------------- */

static void test_init_bad_capacity(void **state)
{
	static const uint32_t bad[] = {
	    0,           1,          3, 6, 100, DP_LLR_CAPACITY_MAX + 1, DP_LLR_CAPACITY_MAX * 2,
	    0x80000000u, 0xffffffffu};
	struct dp_llr_tx tx;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(dp_llr_tx_init(&tx, bad[i]) == -EINVAL, "capacity %u accepted", bad[i]);
	assert_int_equal(dp_llr_tx_init(&tx, 2), 0);
	assert_int_equal(tx.mask, 1);
	assert_int_equal(tx.next_seq, 0);
	assert_int_equal(tx.acked, 0);
	assert_int_equal(tx.resend, 0);
	assert_int_equal(dp_llr_tx_inflight(&tx), 0);
	assert_true(dp_llr_tx_room(&tx));
	dp_llr_tx_fini(&tx);
	assert_null(tx.frame);
	dp_llr_tx_fini(&tx); /* twice */
	dp_llr_tx_fini(NULL);
}

static void test_stale_ack_ignored(void **state)
{
	struct dp_llr_stats st = {0};
	struct dp_llr_tx tx;
	void *freed[8];

	(void)state;
	assert_int_equal(dp_llr_tx_init(&tx, 8), 0);
	push_n(&tx, 0, 6, 100);
	assert_int_equal(dp_llr_tx_ack(&tx, 4, false, 200, freed, 8, &st), 4);
	assert_int_equal(tx.acked, 4);
	assert_int_equal(tx.last_progress_ns, 200);

	/* An older ACK (reordered or delayed copy) and an older NAK: nothing moves. */
	assert_int_equal(dp_llr_tx_ack(&tx, 2, false, 300, freed, 8, &st), 0);
	assert_int_equal(dp_llr_tx_ack(&tx, 3, true, 300, freed, 8, &st), 0);
	assert_int_equal(tx.acked, 4);
	assert_int_equal(tx.resend, 6);
	assert_int_equal(tx.last_progress_ns, 200);
	assert_int_equal(st.ack_rx, 3);
	assert_int_equal(st.stale_ack, 2);
	assert_int_equal(st.nak_rx, 0);

	/* An ACK more than 2^31 behind looks "after" next_seq: out of window as well. */
	assert_int_equal(dp_llr_tx_ack(&tx, 4u + 0x80000000u, false, 300, freed, 8, &st), 0);
	assert_int_equal(st.stale_ack, 3);
	assert_int_equal(dp_llr_tx_inflight(&tx), 2);

	/* The same ack again (a keepalive): in window, counted, nothing released. */
	assert_int_equal(dp_llr_tx_ack(&tx, 4, false, 400, freed, 8, &st), 0);
	assert_int_equal(st.ack_rx, 5);
	assert_int_equal(st.stale_ack, 3);
	assert_int_equal(tx.last_progress_ns, 200);
	dp_llr_tx_drain(&tx, freed, 8);
	dp_llr_tx_fini(&tx);
}

static void test_ack_beyond_next_seq_ignored(void **state)
{
	struct dp_llr_stats st = {0};
	struct dp_llr_tx tx;
	void *freed[8];

	(void)state;
	assert_int_equal(dp_llr_tx_init(&tx, 8), 0);
	/* Nothing sent: any ack other than 0 is invalid. */
	assert_int_equal(dp_llr_tx_ack(&tx, 1, false, 10, freed, 8, &st), 0);
	assert_int_equal(st.stale_ack, 1);
	push_n(&tx, 0, 3, 100);
	assert_int_equal(dp_llr_tx_ack(&tx, 4, false, 200, freed, 8, &st), 0);
	assert_int_equal(dp_llr_tx_ack(&tx, 4, true, 200, freed, 8, &st), 0);
	assert_int_equal(dp_llr_tx_ack(&tx, 0x7fffffffu, false, 200, freed, 8, &st), 0);
	assert_int_equal(st.ack_rx, 4);
	assert_int_equal(st.stale_ack, 4);
	assert_int_equal(st.nak_rx, 0);
	assert_int_equal(tx.acked, 0);
	assert_int_equal(tx.resend, 3);
	assert_int_equal(tx.last_progress_ns, 100);
	assert_int_equal(dp_llr_tx_inflight(&tx), 3);

	/* Exactly next_seq is valid: everything acknowledged. */
	assert_int_equal(dp_llr_tx_ack(&tx, 3, false, 300, freed, 8, &st), 3);
	assert_int_equal(st.stale_ack, 4);
	assert_int_equal(dp_llr_tx_inflight(&tx), 0);
	dp_llr_tx_fini(&tx);
}

/* ---- mechanisms -------------------------------------------------------------------------- */

static void test_in_order_cumulative_ack(void **state)
{
	struct dp_llr_stats st = {0};
	struct dp_llr_tx tx;
	struct dp_llr_rx rx;
	void *freed[16];
	uint32_t ack;
	bool nak;

	(void)state;
	assert_int_equal(dp_llr_tx_init(&tx, 16), 0);
	dp_llr_rx_init(&rx);
	push_n(&tx, 0, 10, 1000);
	assert_int_equal(dp_llr_tx_inflight(&tx), 10);
	assert_int_equal(tx.resend, 10); /* pushed frames are not in the resend range */
	assert_int_equal(tx.last_progress_ns, 1000);

	/* ACK every 4 frames, delay 5 us, keepalive 100 us. */
	rx_feed(&rx, 0, 3, DP_LLR_ACCEPT, &st);
	assert_false(dp_llr_rx_ack_due(&rx, 1100, 4, 5 * US, 100 * US, 50 * US, &ack, &nak, &st));
	rx_feed(&rx, 3, 1, DP_LLR_ACCEPT, &st);
	assert_true(dp_llr_rx_ack_due(&rx, 1200, 4, 5 * US, 100 * US, 50 * US, &ack, &nak, &st));
	assert_int_equal(ack, 4);
	assert_false(nak);
	assert_int_equal(rx.unacked, 0);
	assert_int_equal(rx.last_ack_ns, 1200);

	assert_int_equal(dp_llr_tx_ack(&tx, ack, nak, 2000, freed, 16, &st), 4);
	for (uint32_t i = 0; i < 4; i++)
		assert_ptr_equal(freed[i], tok(i));
	assert_int_equal(tx.acked, 4);
	assert_int_equal(dp_llr_tx_inflight(&tx), 6);
	assert_int_equal(tx.last_progress_ns, 2000);

	/* The rest: 6 accepted, fewer than `every`: due after the delay. */
	rx_feed(&rx, 4, 6, DP_LLR_ACCEPT, &st);
	assert_false(dp_llr_rx_ack_due(&rx, 6199, 8, 5 * US, 100 * US, 50 * US, &ack, &nak, &st));
	assert_true(dp_llr_rx_ack_due(&rx, 6200, 8, 5 * US, 100 * US, 50 * US, &ack, &nak, &st));
	assert_int_equal(ack, 10);
	assert_false(nak);
	assert_int_equal(dp_llr_tx_ack(&tx, ack, nak, 7000, freed, 16, &st), 6);
	for (uint32_t i = 0; i < 6; i++)
		assert_ptr_equal(freed[i], tok(4 + i));
	assert_int_equal(dp_llr_tx_inflight(&tx), 0);
	assert_int_equal(dp_llr_tx_held(&tx), 0);
	assert_int_equal(st.ack_tx, 2);
	assert_int_equal(st.ack_rx, 2);
	assert_int_equal(st.dup_rx + st.gap_rx + st.retx + st.stale_ack + st.nak_tx, 0);
	dp_llr_tx_fini(&tx);
}

static void test_ack_release_in_chunks(void **state)
{
	struct dp_llr_stats st = {0};
	struct dp_llr_tx tx;
	void *freed[4];
	uint32_t next = 0;
	unsigned n;

	(void)state;
	assert_int_equal(dp_llr_tx_init(&tx, 16), 0);
	push_n(&tx, 0, 12, 0);
	/* ACK 10 with room for 3 per call: 3, 3, 3, 1; one ACK counted. */
	static const unsigned want[] = {3, 3, 3, 1};
	for (unsigned c = 0; c < 4; c++) {
		n = dp_llr_tx_ack(&tx, 10, false, 50, freed, 3, &st);
		assert_int_equal(n, want[c]);
		for (unsigned i = 0; i < n; i++)
			assert_ptr_equal(freed[i], tok(next++));
	}
	assert_int_equal(next, 10);
	assert_int_equal(st.ack_rx, 1);
	assert_int_equal(tx.acked, 10);
	assert_int_equal(tx.tail, 10);
	assert_int_equal(dp_llr_tx_held(&tx), 2);

	/* 2 more with 2 per call: 2 (== max, so call again), then 0; still one ACK each. */
	assert_int_equal(dp_llr_tx_ack(&tx, 12, false, 60, freed, 2, &st), 2);
	assert_ptr_equal(freed[0], tok(10));
	assert_ptr_equal(freed[1], tok(11));
	assert_int_equal(dp_llr_tx_ack(&tx, 12, false, 60, freed, 2, &st), 0);
	assert_int_equal(st.ack_rx, 2);
	/* A later duplicate of that ACK is a new frame again. */
	assert_int_equal(dp_llr_tx_ack(&tx, 12, false, 70, freed, 2, &st), 0);
	assert_int_equal(st.ack_rx, 3);
	assert_int_equal(st.stale_ack, 0);
	assert_int_equal(dp_llr_tx_held(&tx), 0);
	dp_llr_tx_fini(&tx);
}

static void test_nak_restarts_from_gap(void **state)
{
	struct dp_llr_stats st = {0};
	struct dp_llr_tx tx;
	struct dp_llr_rx rx;
	void *freed[8], *frames[8];
	uint32_t seqs[8], ack;
	bool nak;

	(void)state;
	assert_int_equal(dp_llr_tx_init(&tx, 8), 0);
	dp_llr_rx_init(&rx);
	push_n(&tx, 0, 8, 0);

	/* Frame 3 lost: 0..2 accepted, 4 arms a NAK, 5..7 are the same gap. */
	rx_feed(&rx, 0, 3, DP_LLR_ACCEPT, &st);
	rx_feed(&rx, 4, 1, DP_LLR_GAP, &st);
	assert_true(rx.nak_pending);
	assert_true(rx.nak_sent_for_gap);
	rx_feed(&rx, 5, 3, DP_LLR_GAP, &st);
	assert_int_equal(st.gap_rx, 4);
	assert_int_equal(rx.expect, 3);
	/* Due at once, whatever the ACK thresholds. */
	assert_true(dp_llr_rx_ack_due(&rx, 10 * US, 100, 100 * US, 0, 50 * US, &ack, &nak, &st));
	assert_int_equal(ack, 3);
	assert_true(nak);
	assert_int_equal(st.nak_tx, 1);
	assert_int_equal(st.ack_tx, 1);
	assert_false(rx.nak_pending);
	assert_false(dp_llr_rx_ack_due(&rx, 11 * US, 100, 100 * US, 0, 50 * US, &ack, &nak, &st));

	/* The sender goes back to 3: frees 0..2, replays 3..7; no new frame meanwhile. */
	assert_int_equal(dp_llr_tx_ack(&tx, 3, true, 20 * US, freed, 8, &st), 3);
	assert_int_equal(st.nak_rx, 1);
	assert_int_equal(tx.resend, 3);
	assert_true(dp_llr_tx_resend_pending(&tx));
	assert_false(dp_llr_tx_room(&tx));
	assert_int_equal(dp_llr_tx_resend(&tx, 21 * US, 1000 * US, frames, seqs, 2, &st), 2);
	assert_int_equal(dp_llr_tx_resend(&tx, 21 * US, 1000 * US, frames + 2, seqs + 2, 8, &st),
			 3);
	for (uint32_t i = 0; i < 5; i++) {
		assert_int_equal(seqs[i], 3 + i);
		assert_ptr_equal(frames[i], tok(3 + i));
	}
	assert_int_equal(st.retx, 5);
	assert_int_equal(st.timeouts, 0);
	assert_int_equal(tx.resend, tx.next_seq);
	assert_true(dp_llr_tx_room(&tx));
	assert_int_equal(dp_llr_tx_resend(&tx, 22 * US, 1000 * US, frames, seqs, 8, &st), 0);

	/* The replay is accepted and clears the gap state. */
	rx_feed(&rx, 3, 5, DP_LLR_ACCEPT, &st);
	assert_false(rx.nak_sent_for_gap);
	assert_true(dp_llr_rx_ack_due(&rx, 40 * US, 4, 100 * US, 0, 50 * US, &ack, &nak, &st));
	assert_int_equal(ack, 8);
	assert_false(nak);
	assert_int_equal(dp_llr_tx_ack(&tx, ack, nak, 50 * US, freed, 8, &st), 5);
	assert_int_equal(dp_llr_tx_held(&tx), 0);
	dp_llr_tx_fini(&tx);
}

static void test_nak_repeat_after_nak_ns(void **state)
{
	struct dp_llr_stats st = {0};
	struct dp_llr_rx rx;
	uint32_t ack;
	bool nak;

	(void)state;
	dp_llr_rx_init(&rx);
	rx_feed(&rx, 0, 2, DP_LLR_ACCEPT, &st);
	rx_feed(&rx, 5, 1, DP_LLR_GAP, &st);
	assert_true(dp_llr_rx_ack_due(&rx, 100 * US, 0, 1000 * US, 0, 30 * US, &ack, &nak, &st));
	assert_true(nak);
	assert_int_equal(ack, 2);
	/* Still stuck, but no gap frame since the NAK: no repeat however long we wait. */
	assert_false(dp_llr_rx_ack_due(&rx, 500 * US, 0, 1000 * US, 0, 30 * US, &ack, &nak, &st));
	/* Gap frames keep coming (the NAK was lost): a repeat once nak_ns has passed. */
	rx_feed(&rx, 6, 2, DP_LLR_GAP, &st);
	assert_false(rx.nak_pending);
	assert_false(dp_llr_rx_ack_due(&rx, 129 * US, 0, 1000 * US, 0, 30 * US, &ack, &nak, &st));
	assert_true(dp_llr_rx_ack_due(&rx, 130 * US, 0, 1000 * US, 0, 30 * US, &ack, &nak, &st));
	assert_true(nak);
	assert_int_equal(ack, 2);
	assert_int_equal(st.nak_tx, 2);
	assert_int_equal(st.ack_tx, 2);
	assert_int_equal(st.gap_rx, 3);
	assert_false(dp_llr_rx_ack_due(&rx, 200 * US, 0, 1000 * US, 0, 30 * US, &ack, &nak, &st));
	/* Frame 2 arrives: the gap closes; a new gap NAKs at once again. */
	rx_feed(&rx, 2, 1, DP_LLR_ACCEPT, &st);
	rx_feed(&rx, 4, 1, DP_LLR_GAP, &st);
	assert_true(dp_llr_rx_ack_due(&rx, 201 * US, 0, 1000 * US, 0, 30 * US, &ack, &nak, &st));
	assert_true(nak);
	assert_int_equal(ack, 3);
	assert_int_equal(st.nak_tx, 3);
}

static void test_timeout_when_acks_lost(void **state)
{
	struct dp_llr_stats st = {0};
	struct dp_llr_tx tx;
	void *frames[8], *freed[8];
	uint32_t seqs[8];
	const uint64_t rto = 100 * US;

	(void)state;
	assert_int_equal(dp_llr_tx_init(&tx, 8), 0);
	/* Nothing in flight: the timer never fires. */
	assert_int_equal(dp_llr_tx_resend(&tx, 10 * rto, rto, frames, seqs, 8, &st), 0);
	assert_int_equal(st.timeouts, 0);

	push_n(&tx, 0, 4, 1000 * US);
	assert_int_equal(tx.last_progress_ns, 1000 * US);
	push_n(&tx, 4, 1, 1050 * US); /* window already open: the timer keeps running */
	assert_int_equal(tx.last_progress_ns, 1000 * US);
	assert_int_equal(dp_llr_tx_resend(&tx, 1099 * US, rto, frames, seqs, 8, &st), 0);
	assert_int_equal(st.timeouts, 0);

	/* Every ACK lost: at 1000 + rto, go back to acked = 0 and replay all 5. */
	assert_int_equal(dp_llr_tx_resend(&tx, 1100 * US, rto, frames, seqs, 8, &st), 5);
	assert_int_equal(st.timeouts, 1);
	assert_int_equal(st.retx, 5);
	assert_int_equal(tx.last_progress_ns, 1100 * US);
	for (uint32_t i = 0; i < 5; i++) {
		assert_int_equal(seqs[i], i);
		assert_ptr_equal(frames[i], tok(i));
	}
	assert_int_equal(dp_llr_tx_resend(&tx, 1150 * US, rto, frames, seqs, 8, &st), 0);

	/* Still nothing: again one rto after the restart, in bursts of 3. */
	assert_int_equal(dp_llr_tx_resend(&tx, 1200 * US, rto, frames, seqs, 3, &st), 3);
	assert_int_equal(dp_llr_tx_resend(&tx, 1200 * US, rto, frames + 3, seqs + 3, 3, &st), 2);
	assert_int_equal(st.timeouts, 2);
	assert_int_equal(st.retx, 10);
	assert_int_equal(seqs[4], 4);

	/* A partial ACK restarts the timer; a full one stops it. */
	assert_int_equal(dp_llr_tx_ack(&tx, 2, false, 1250 * US, freed, 8, &st), 2);
	assert_int_equal(dp_llr_tx_resend(&tx, 1349 * US, rto, frames, seqs, 8, &st), 0);
	assert_int_equal(dp_llr_tx_resend(&tx, 1350 * US, rto, frames, seqs, 8, &st), 3);
	assert_int_equal(seqs[0], 2);
	assert_int_equal(st.timeouts, 3);
	assert_int_equal(dp_llr_tx_ack(&tx, 5, false, 1360 * US, freed, 8, &st), 3);
	assert_int_equal(dp_llr_tx_resend(&tx, 9000 * US, rto, frames, seqs, 8, &st), 0);
	assert_int_equal(st.timeouts, 3);
	assert_int_equal(st.retx, 13);
	dp_llr_tx_fini(&tx);
}

static void test_window_full(void **state)
{
	struct dp_llr_stats st = {0};
	struct dp_llr_tx tx;
	void *freed[4];

	(void)state;
	assert_int_equal(dp_llr_tx_init(&tx, 4), 0);
	push_n(&tx, 0, 4, 0);
	assert_false(dp_llr_tx_room(&tx));
	assert_int_equal(dp_llr_tx_inflight(&tx), 4);
	/* Acknowledged but not yet released (max 0) still occupies the slot. */
	assert_int_equal(dp_llr_tx_ack(&tx, 1, false, 10, freed, 0, &st), 0);
	assert_int_equal(dp_llr_tx_inflight(&tx), 3);
	assert_int_equal(dp_llr_tx_held(&tx), 4);
	assert_false(dp_llr_tx_room(&tx));
	assert_int_equal(dp_llr_tx_ack(&tx, 1, false, 10, freed, 4, &st), 1);
	assert_ptr_equal(freed[0], tok(0));
	assert_true(dp_llr_tx_room(&tx));
	assert_int_equal(dp_llr_tx_push(&tx, tok(4), 20), 4);
	assert_false(dp_llr_tx_room(&tx));
	assert_ptr_equal(tx.frame[4 & tx.mask], tok(4));
	dp_llr_tx_drain(&tx, freed, 4);
	dp_llr_tx_fini(&tx);
}

static void test_unsend(void **state)
{
	struct dp_llr_stats st = {0};
	struct dp_llr_tx tx;
	void *frames[8], *freed[8];
	uint32_t seqs[8];

	(void)state;
	assert_int_equal(dp_llr_tx_init(&tx, 8), 0);
	push_n(&tx, 0, 6, 0);
	assert_int_equal(dp_llr_tx_ack(&tx, 1, true, 10, freed, 8, &st), 1);
	assert_int_equal(dp_llr_tx_resend(&tx, 20, 1000, frames, seqs, 8, &st), 5);
	/* The device took 1 and 2, refused 3..5. */
	dp_llr_tx_unsend(&tx, 3);
	assert_int_equal(tx.resend, 3);
	assert_false(dp_llr_tx_room(&tx));
	/* A later seq is not before resend: no change. */
	dp_llr_tx_unsend(&tx, 4);
	assert_int_equal(tx.resend, 3);
	dp_llr_tx_unsend(&tx, 6); /* == next_seq */
	assert_int_equal(tx.resend, 3);
	assert_int_equal(dp_llr_tx_resend(&tx, 30, 1000, frames, seqs, 8, &st), 3);
	assert_int_equal(seqs[0], 3);
	assert_ptr_equal(frames[0], tok(3));
	assert_int_equal(seqs[2], 5);
	assert_int_equal(st.retx, 8);

	/* Refused, but acknowledged meanwhile: resume at acked, not before it. */
	assert_int_equal(dp_llr_tx_ack(&tx, 4, false, 40, freed, 8, &st), 3);
	dp_llr_tx_unsend(&tx, 2);
	assert_int_equal(tx.resend, 4);

	/* A frame just pushed and refused by the device goes out through resend. */
	assert_int_equal(dp_llr_tx_resend(&tx, 50, 1000, frames, seqs, 8, &st), 2);
	assert_true(dp_llr_tx_room(&tx));
	assert_int_equal(dp_llr_tx_push(&tx, tok(6), 60), 6);
	dp_llr_tx_unsend(&tx, 6);
	assert_int_equal(tx.resend, 6);
	assert_false(dp_llr_tx_room(&tx));
	assert_int_equal(dp_llr_tx_resend(&tx, 70, 1000, frames, seqs, 8, &st), 1);
	assert_int_equal(seqs[0], 6);
	assert_ptr_equal(frames[0], tok(6));
	dp_llr_tx_drain(&tx, freed, 8);
	dp_llr_tx_fini(&tx);
}

static void test_drain(void **state)
{
	struct dp_llr_stats st = {0};
	struct dp_llr_tx tx;
	void *frames[8], *out[16];
	uint32_t seqs[8];
	unsigned n, total = 0;

	(void)state;
	assert_int_equal(dp_llr_tx_init(&tx, 8), 0);
	assert_int_equal(dp_llr_tx_drain(&tx, out, 16), 0); /* empty */
	push_n(&tx, 0, 7, 0);
	/* Held in every state: 0..1 acknowledged and not yet released, 2..4 in flight and sent
	 * again, 5..6 in flight and pending resend. */
	assert_int_equal(dp_llr_tx_ack(&tx, 2, true, 10, out, 0, &st), 0);
	assert_int_equal(dp_llr_tx_resend(&tx, 20, 1000, frames, seqs, 3, &st), 3);
	assert_int_equal(dp_llr_tx_held(&tx), 7);
	while ((n = dp_llr_tx_drain(&tx, out + total, 2)) != 0)
		total += n;
	assert_int_equal(total, 7);
	for (uint32_t i = 0; i < 7; i++)
		assert_ptr_equal(out[i], tok(i));
	assert_int_equal(dp_llr_tx_held(&tx), 0);
	assert_int_equal(dp_llr_tx_inflight(&tx), 0);
	assert_int_equal(tx.acked, 7);
	assert_int_equal(tx.resend, 7);
	assert_int_equal(tx.tail, 7);
	for (uint32_t i = 0; i <= tx.mask; i++)
		assert_null(tx.frame[i]);
	assert_true(dp_llr_tx_room(&tx));
	assert_int_equal(dp_llr_tx_resend(&tx, 1 << 30, 1000, frames, seqs, 8, &st), 0);
	dp_llr_tx_fini(&tx);
}

static void test_wraparound(void **state)
{
	const uint32_t first = 0xfffffff0u;
	struct dp_llr_stats st = {0};
	struct dp_llr_tx tx;
	struct dp_llr_rx rx;
	void *freed[8], *frames[8];
	uint32_t seqs[8], ack, next_free = 0;
	bool nak;
	unsigned n;

	(void)state;
	assert_int_equal(dp_llr_tx_init_seq(&tx, 8, first), 0);
	dp_llr_rx_init_seq(&rx, first);
	assert_int_equal(rx.expect, first);

	/* 40 frames across 2^32, 5 at a time, acked after each batch (last one with a NAK). */
	for (uint32_t id = 0; id < 40; id += 5) {
		for (uint32_t i = 0; i < 5; i++) {
			uint32_t seq = dp_llr_tx_push(&tx, tok(id + i), id);

			assert_int_equal(seq, first + id + i);
			assert_int_equal(dp_llr_rx_check(&rx, seq, &st), DP_LLR_ACCEPT);
		}
		assert_true(dp_llr_rx_ack_due(&rx, id * US, 5, 0, 0, 0, &ack, &nak, &st));
		assert_int_equal(ack, first + id + 5);
		n = dp_llr_tx_ack(&tx, ack, false, id, freed, 8, &st);
		assert_int_equal(n, 5);
		for (unsigned i = 0; i < n; i++)
			assert_ptr_equal(freed[i], tok(next_free++));
	}
	assert_int_equal(tx.next_seq, 0x18);
	assert_int_equal(rx.expect, 0x18);
	assert_int_equal(dp_llr_tx_inflight(&tx), 0);

	/* Verdicts across the wrap. */
	assert_int_equal(dp_llr_rx_check(&rx, 0xfffffffeu, &st), DP_LLR_DUP);
	assert_int_equal(dp_llr_rx_check(&rx, 0x17, &st), DP_LLR_DUP);
	assert_int_equal(dp_llr_rx_check(&rx, 0x19, &st), DP_LLR_GAP);
	assert_int_equal(dp_llr_rx_check(&rx, 0x18 + 0x7fffffffu, &st), DP_LLR_GAP);
	assert_int_equal(st.dup_rx, 2);
	assert_int_equal(st.gap_rx, 2);

	/* Window straddling the wrap: frames 0xfffffffc..0x3, NAK at 0xfffffffe, stale acks. */
	dp_llr_tx_fini(&tx);
	assert_int_equal(dp_llr_tx_init_seq(&tx, 8, 0xfffffffcu), 0);
	push_n(&tx, 100, 8, 0);
	assert_int_equal(tx.next_seq, 4);
	assert_false(dp_llr_tx_room(&tx));
	assert_int_equal(dp_llr_tx_ack(&tx, 0xfffffffeu, true, 10, freed, 8, &st), 2);
	assert_ptr_equal(freed[0], tok(100));
	assert_ptr_equal(freed[1], tok(101));
	assert_int_equal(tx.resend, 0xfffffffeu);
	n = dp_llr_tx_resend(&tx, 20, 1000, frames, seqs, 8, &st);
	assert_int_equal(n, 6);
	static const uint32_t want[] = {0xfffffffeu, 0xffffffffu, 0, 1, 2, 3};
	for (unsigned i = 0; i < n; i++) {
		assert_int_equal(seqs[i], want[i]);
		assert_ptr_equal(frames[i], tok(102 + i));
	}
	uint64_t stale = st.stale_ack;
	assert_int_equal(dp_llr_tx_ack(&tx, 0xfffffffdu, false, 30, freed, 8, &st), 0);
	assert_int_equal(dp_llr_tx_ack(&tx, 5, false, 30, freed, 8, &st), 0);
	assert_int_equal(st.stale_ack, stale + 2);
	assert_int_equal(dp_llr_tx_ack(&tx, 1, false, 40, freed, 8, &st), 3);
	assert_ptr_equal(freed[2], tok(104));
	assert_int_equal(dp_llr_tx_inflight(&tx), 3);
	dp_llr_tx_unsend(&tx, 0xffffffffu); /* acknowledged meanwhile: clamps to acked */
	assert_int_equal(tx.resend, 1);
	assert_int_equal(dp_llr_tx_drain(&tx, freed, 8), 3);
	assert_ptr_equal(freed[0], tok(105));
	dp_llr_tx_fini(&tx);
}

static void test_rx_ack_schedule(void **state)
{
	struct dp_llr_stats st = {0};
	struct dp_llr_rx rx;
	uint32_t ack;
	bool nak;
	const uint32_t every = 8;
	const uint64_t delay = 5 * US, keep = 100 * US, nakns = 50 * US;

	(void)state;
	dp_llr_rx_init(&rx);
	/* Keepalive with nothing received: ack 0, at 0 + keepalive. */
	assert_false(dp_llr_rx_ack_due(&rx, 99 * US, every, delay, keep, nakns, &ack, &nak, &st));
	assert_true(dp_llr_rx_ack_due(&rx, 100 * US, every, delay, keep, nakns, &ack, &nak, &st));
	assert_int_equal(ack, 0);
	assert_false(nak);
	/* Accepted frames wait for `delay` after the last ACK... */
	rx_feed(&rx, 0, 3, DP_LLR_ACCEPT, &st);
	assert_false(dp_llr_rx_ack_due(&rx, 104 * US, every, delay, keep, nakns, &ack, &nak, &st));
	assert_true(dp_llr_rx_ack_due(&rx, 105 * US, every, delay, keep, nakns, &ack, &nak, &st));
	assert_int_equal(ack, 3);
	/* ...or `every` of them go at once. */
	rx_feed(&rx, 3, 7, DP_LLR_ACCEPT, &st);
	assert_false(dp_llr_rx_ack_due(&rx, 106 * US, every, delay, keep, nakns, &ack, &nak, &st));
	rx_feed(&rx, 10, 1, DP_LLR_ACCEPT, &st);
	assert_true(dp_llr_rx_ack_due(&rx, 106 * US, every, delay, keep, nakns, &ack, &nak, &st));
	assert_int_equal(ack, 11);
	/* A duplicate: an ACK after the delay (the sender's copy of our ACK was lost). */
	assert_int_equal(dp_llr_rx_check(&rx, 4, &st), DP_LLR_DUP);
	assert_int_equal(rx.expect, 11);
	assert_false(dp_llr_rx_ack_due(&rx, 110 * US, every, delay, keep, nakns, &ack, &nak, &st));
	assert_true(dp_llr_rx_ack_due(&rx, 111 * US, every, delay, keep, nakns, &ack, &nak, &st));
	assert_int_equal(ack, 11);
	assert_false(nak);
	/* Then only keepalives. */
	assert_false(dp_llr_rx_ack_due(&rx, 210 * US, every, delay, keep, nakns, &ack, &nak, &st));
	assert_true(dp_llr_rx_ack_due(&rx, 211 * US, every, delay, keep, nakns, &ack, &nak, &st));
	assert_int_equal(ack, 11);
	/* every = 0 and keepalive = 0 disable those triggers. */
	rx_feed(&rx, 11, 20, DP_LLR_ACCEPT, &st);
	assert_false(dp_llr_rx_ack_due(&rx, 215 * US, 0, delay, 0, nakns, &ack, &nak, &st));
	assert_true(dp_llr_rx_ack_due(&rx, 216 * US, 0, delay, 0, nakns, &ack, &nak, &st));
	assert_int_equal(ack, 31);
	assert_false(dp_llr_rx_ack_due(&rx, 1ull << 40, 0, delay, 0, nakns, &ack, &nak, &st));
	assert_int_equal(st.ack_tx, 6);
	assert_int_equal(st.nak_tx, 0);
	assert_int_equal(st.dup_rx, 1);
	assert_int_equal(st.gap_rx, 0);
}

static void test_stats_dump(void **state)
{
	struct dp_llr_stats st = {0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	st.retx = 7;
	st.stale_ack = 1;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	dp_llr_stats_dump(&st, "port3.llr", true, f);
	fclose(f);
	assert_string_equal(buf, "port3.llr.retx 7\nport3.llr.stale_ack 1\n");
	free(buf);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	dp_llr_stats_dump(&st, "l", false, f);
	fclose(f);
	assert_string_equal(buf, "l.retx 7\nl.timeouts 0\nl.nak_rx 0\nl.nak_tx 0\nl.dup_rx 0\n"
				 "l.gap_rx 0\nl.ack_tx 0\nl.ack_rx 0\nl.stale_ack 1\n");
	free(buf);
}

/* ---- simulated lossy link ---------------------------------------------------------------- */

#define SIM_FRAMES   100000u
#define SIM_CHAN_MAX 4096u

/* One direction of a FIFO link with a fixed latency: frames are lost, never reordered. */
struct sim_chan {
	uint64_t at[SIM_CHAN_MAX]; /* arrival time */
	uint32_t seq[SIM_CHAN_MAX];
	uint32_t id[SIM_CHAN_MAX]; /* data: frame id; ACK: 1 if NAK */
	uint32_t head, tail;       /* free-running */
	uint64_t sent, dropped, arrived;
};

static void chan_send(struct sim_chan *c, struct dfly_rng *r, uint32_t loss_pm, uint64_t at,
		      uint32_t seq, uint32_t id)
{
	c->sent++;
	if (dfly_rng_below(r, 1000) < loss_pm) {
		c->dropped++;
		return;
	}
	CHECK(c->tail - c->head < SIM_CHAN_MAX, "channel overflow");
	c->at[c->tail % SIM_CHAN_MAX] = at;
	c->seq[c->tail % SIM_CHAN_MAX] = seq;
	c->id[c->tail % SIM_CHAN_MAX] = id;
	c->tail++;
}

static bool chan_recv(struct sim_chan *c, uint64_t now, uint32_t *seq, uint32_t *id)
{
	if (c->head == c->tail || c->at[c->head % SIM_CHAN_MAX] > now)
		return false;
	*seq = c->seq[c->head % SIM_CHAN_MAX];
	*id = c->id[c->head % SIM_CHAN_MAX];
	c->head++;
	c->arrived++;
	return true;
}

struct sim_cfg {
	uint32_t loss_pm;   /* per mille of data frames and of ACK frames lost */
	uint32_t first_seq; /* both sides start here */
};

static void sim_run(const struct sim_cfg *cfg)
{
	const uint64_t step = 1 * US, lat = 10 * US, rto = 60 * US;
	const uint64_t delay = 2 * US, keep = 50 * US, nakns = 30 * US;
	const uint32_t cap = 64, every = 16, budget = 4, ack_burst = 5;
	const uint64_t max_steps = 50000000;
	struct sim_chan *data = calloc(1, sizeof(*data)), *acks = calloc(1, sizeof(*acks));
	struct dp_llr_stats st = {0};
	struct dp_llr_tx tx;
	struct dp_llr_rx rx;
	struct dfly_rng rng;
	uint32_t next_id = 0, delivered = 0, next_free = 0;
	uint64_t accepted = 0, refused = 0, naks_arrived = 0, naks_dropped = 0, t;

	assert_non_null(data);
	assert_non_null(acks);
	dfly_rng_seed(&rng, prng_seed, cfg->loss_pm);
	assert_int_equal(dp_llr_tx_init_seq(&tx, cap, cfg->first_seq), 0);
	dp_llr_rx_init_seq(&rx, cfg->first_seq);

	for (t = 0; t < max_steps; t++) {
		uint64_t now = t * step;
		void *frames[8], *freed[8];
		uint32_t seqs[8], seq, id, ack, sent = 0;
		unsigned n;
		bool nak;

		/* Sender: ACKs that arrived, released in bursts of ack_burst. */
		while (chan_recv(acks, now, &seq, &id)) {
			naks_arrived += id;
			do {
				n = dp_llr_tx_ack(&tx, seq, id != 0, now, freed, ack_burst, &st);
				for (unsigned i = 0; i < n; i++)
					CHECK(untok(freed[i]) == next_free++, "freed %u, want %u",
					      untok(freed[i]), next_free - 1);
			} while (n == ack_burst);
		}
		/* Sender: go-back-N first; the device refuses the tail of 2% of the bursts. */
		n = dp_llr_tx_resend(&tx, now, rto, frames, seqs, budget, &st);
		if (n != 0 && dfly_rng_below(&rng, 100) < 2) {
			uint32_t k = dfly_rng_below(&rng, n);

			dp_llr_tx_unsend(&tx, seqs[k]);
			refused += n - k;
			n = k;
		}
		for (unsigned i = 0; i < n; i++) {
			CHECK(seqs[i] == cfg->first_seq + untok(frames[i]), "resent seq %#x id %u",
			      seqs[i], untok(frames[i]));
			chan_send(data, &rng, cfg->loss_pm, now + lat, seqs[i], untok(frames[i]));
		}
		sent = n;
		/* Sender: new frames while the window and the link budget allow. */
		while (sent < budget && next_id < SIM_FRAMES && dp_llr_tx_room(&tx)) {
			seq = dp_llr_tx_push(&tx, tok(next_id), now);
			CHECK(seq == cfg->first_seq + next_id, "push %u got seq %#x", next_id, seq);
			chan_send(data, &rng, cfg->loss_pm, now + lat, seq, next_id);
			next_id++;
			sent++;
		}
		CHECK(dp_llr_tx_held(&tx) <= cap, "window %u > capacity", dp_llr_tx_held(&tx));

		/* Receiver: deliver in order, exactly once. */
		while (chan_recv(data, now, &seq, &id)) {
			CHECK(seq == cfg->first_seq + id, "frame %u arrived with seq %#x", id, seq);
			if (dp_llr_rx_check(&rx, seq, &st) == DP_LLR_ACCEPT) {
				CHECK(id == delivered, "delivered frame %u, want %u", id,
				      delivered);
				delivered++;
				accepted++;
			}
		}
		if (dp_llr_rx_ack_due(&rx, now, every, delay, keep, nakns, &ack, &nak, &st)) {
			uint64_t dropped = acks->dropped;

			chan_send(acks, &rng, cfg->loss_pm, now + lat, ack, nak);
			naks_dropped += nak && acks->dropped != dropped;
		}

		if (delivered == SIM_FRAMES && dp_llr_tx_held(&tx) == 0)
			break;
	}
	CHECK(t < max_steps, "loss %u/1000: stuck after %" PRIu64 " steps, %u delivered",
	      cfg->loss_pm, t, delivered);

	printf("llr sim: loss %u/1000 seed %#" PRIx64 ": %u frames in %" PRIu64 " us; data %" PRIu64
	       " sent %" PRIu64 " lost; acks %" PRIu64 " sent %" PRIu64 " lost; refused %" PRIu64
	       "\n",
	       cfg->loss_pm, prng_seed, delivered, t, data->sent, data->dropped, acks->sent,
	       acks->dropped, refused);
	dp_llr_stats_dump(&st, "  llr", false, stdout);

	/* Exactly once, in order (checked per frame above), nothing left behind. */
	assert_int_equal(delivered, SIM_FRAMES);
	assert_int_equal(accepted, SIM_FRAMES);
	assert_int_equal(next_free, SIM_FRAMES);
	assert_int_equal(rx.expect, cfg->first_seq + SIM_FRAMES);
	assert_int_equal(tx.next_seq, cfg->first_seq + SIM_FRAMES);
	assert_int_equal(dp_llr_tx_held(&tx), 0);
	assert_int_equal(dp_llr_tx_inflight(&tx), 0);
	for (uint32_t i = 0; i < cap; i++)
		assert_null(tx.frame[i]);
	/* The counters add up to what the link carried. */
	assert_true(st.retx > 0);
	assert_int_equal(data->sent, SIM_FRAMES + st.retx - refused);
	assert_int_equal(data->sent, data->arrived + data->dropped + (data->tail - data->head));
	assert_int_equal(data->arrived, accepted + st.dup_rx + st.gap_rx);
	assert_int_equal(acks->sent, st.ack_tx);
	assert_int_equal(acks->sent, acks->arrived + acks->dropped + (acks->tail - acks->head));
	assert_int_equal(st.ack_rx, acks->arrived);
	assert_int_equal(st.stale_ack, 0); /* FIFO: acks never go backwards */
	assert_int_equal(st.nak_rx, naks_arrived);
	assert_true(st.nak_rx + naks_dropped <= st.nak_tx);
	if (cfg->loss_pm != 0) {
		assert_true(data->dropped > 0);
		assert_true(acks->dropped > 0);
		assert_true(st.gap_rx > 0);
		assert_true(st.nak_tx > 0);
	}
	/* Timing: ~1 frame per budget slot at 1%; never more than the budget. */
	assert_true(t * budget >= data->sent);

	dp_llr_tx_fini(&tx);
	free(data);
	free(acks);
}

static void test_sim_loss_1pct(void **state)
{
	const struct sim_cfg cfg = {.loss_pm = 10, .first_seq = 0};

	(void)state;
	sim_run(&cfg);
}

static void test_sim_loss_10pct(void **state)
{
	const struct sim_cfg cfg = {.loss_pm = 100, .first_seq = 0xffff0000u};

	(void)state;
	sim_run(&cfg);
}

static void test_sim_loss_30pct(void **state)
{
	const struct sim_cfg cfg = {.loss_pm = 300, .first_seq = 0xfffe8000u};

	(void)state;
	sim_run(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_init_bad_capacity),
	    cmocka_unit_test(test_stale_ack_ignored),
	    cmocka_unit_test(test_ack_beyond_next_seq_ignored),
	    cmocka_unit_test(test_in_order_cumulative_ack),
	    cmocka_unit_test(test_ack_release_in_chunks),
	    cmocka_unit_test(test_nak_restarts_from_gap),
	    cmocka_unit_test(test_nak_repeat_after_nak_ns),
	    cmocka_unit_test(test_timeout_when_acks_lost),
	    cmocka_unit_test(test_window_full),
	    cmocka_unit_test(test_unsend),
	    cmocka_unit_test(test_drain),
	    cmocka_unit_test(test_wraparound),
	    cmocka_unit_test(test_rx_ack_schedule),
	    cmocka_unit_test(test_stats_dump),
	    cmocka_unit_test(test_sim_loss_1pct),
	    cmocka_unit_test(test_sim_loss_10pct),
	    cmocka_unit_test(test_sim_loss_30pct),
	};
	const char *seed = getenv("DFLY_TEST_SEED");

	if (seed)
		prng_seed = strtoull(seed, NULL, 0);
	printf("test_llr: seed %#" PRIx64 " (set DFLY_TEST_SEED to override)\n", prng_seed);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
