/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Link-level retry (DESIGN.md §8): the state machine that keeps one emulated fabric link of
 * dfly-switch lossless and in order over a lossy Ethernet medium (veth with netem loss, NIC ring
 * overflow). Portable C, no DPDK: the dataplane holds the frames (mbufs, opaque `void *` here),
 * does the I/O and the clock; this module only decides what to keep, free, resend and
 * acknowledge. One dp_llr_tx per direction at the sender, one dp_llr_rx at the receiver.
 *
 * Protocol: go-back-N with cumulative acknowledgements.
 *   - Every data frame (EtherType 0x88B5) carries a u32 sequence number (dfly_wire_data.seq),
 *     consecutive per link direction, wrapping modulo 2^32 (dfly_wire_seq_before()).
 *   - The sender keeps every frame it sent and has not seen acknowledged in a replay buffer of
 *     `capacity` slots (a power of two, indexed by seq & mask); it never has more than capacity
 *     frames outstanding.
 *   - The receiver accepts only the frame it expects (`expect`) and discards everything else: a
 *     frame before expect is a duplicate (a resend of something already accepted), a frame
 *     after it means the frames between were lost (a gap). It answers with ACK control frames
 *     (0x88B6, dfly_wire_ack) whose `ack` is `expect`: every earlier frame was received.
 *   - On the first frame of a gap the receiver sends a NAK (an ACK with DFLY_WIRE_ACK_F_NAK):
 *     the sender goes back to `ack` and sends everything again from there. One NAK per gap; if
 *     frames of the same gap still arrive nak_ns later, it may NAK again (the first NAK or the
 *     replay was lost).
 *   - If nothing is acknowledged for rto_ns while frames are outstanding (every ACK, or the NAK
 *     and the tail of the window, were lost), the sender restarts go-back-N from the oldest
 *     unacknowledged frame.
 *   - The receiver acknowledges every `every` accepted frames, `delay_ns` after the first
 *     unacknowledged accept or duplicate, and every `keepalive_ns` regardless, so a lost final
 *     ACK is always repaired and a sender resending frames already accepted stops.
 *
 * Why go-back-N and not selective repeat: the emulated link is lossless and FIFO, so the
 * receiver must deliver in order anyway, and the medium (one veth or one cable) is FIFO too:
 * frames are lost, never reordered, so everything after a loss is exactly what has to be sent
 * again. The receiver needs no reorder buffer and no per-frame state, only `expect`.
 *
 * What is not sequenced: CREDIT frames carry running totals per VC (DFLY_WIRE_CREDIT_F_ABS), so
 * a lost or repeated one is repaired by the next; PB_STATE, ECTN_PARTIAL and HELLO are periodic
 * snapshots, where the next one supersedes a lost one; ACKs are cumulative themselves. None of
 * them goes through this module. Only data frames do.
 *
 * Sequence numbers start at 0 when the link comes up on both sides (dp_llr_tx_init(),
 * dp_llr_rx_init()); dp_llr_tx_init_seq() and dp_llr_rx_init_seq() start elsewhere (the tests
 * use them to cross 2^32).
 *
 * Counters: struct dp_llr_stats, one per link and direction pair, owned by the caller (the lcore
 * that owns the port), which copies them into the port's llr_* counters of the register file.
 * Nothing here is thread-safe: one lcore owns a link's tx, rx and stats.
 */
#ifndef DP_LLR_H
#define DP_LLR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DP_LLR_CAPACITY_MAX (1u << 24) /**< largest replay buffer (frames); far below 2^31 */

/** Link-level retry counters, X(name, description). */
#define DP_FOREACH_LLR_STAT(X)                                                                     \
	X(retx, "data frames handed out again by dp_llr_tx_resend()")                              \
	X(timeouts, "go-back-N restarts by the retry timer (nothing acknowledged for rto_ns)")     \
	X(nak_rx, "NAKs received in window: go-back-N restarts asked by the peer")                 \
	X(nak_tx, "NAKs sent (a subset of ack_tx)")                                                \
	X(dup_rx, "data frames received before expect: already accepted, discarded")               \
	X(gap_rx, "data frames received after expect: a gap, discarded")                           \
	X(ack_tx, "ACK frames sent, NAKs included")                                                \
	X(ack_rx, "ACK frames received, NAKs and stale ones included")                             \
	X(stale_ack, "ACK frames out of window (before acked or beyond next_seq): ignored")

/** Counters of one link (both directions' state machines may share one); fields as listed in
 *  DP_FOREACH_LLR_STAT, in that order. */
struct dp_llr_stats {
#define DP_LLR_STAT_FIELD_(name, desc) uint64_t name;
	DP_FOREACH_LLR_STAT(DP_LLR_STAT_FIELD_)
#undef DP_LLR_STAT_FIELD_
};

/**
 * Sender side: the replay buffer of frames sent and not yet released, indexed by seq & mask.
 *
 * Sequence numbers, in modular order: tail <= acked <= resend <= next_seq, and
 * next_seq - tail <= capacity. Slots [tail, acked) hold frames the peer acknowledged that
 * dp_llr_tx_ack() has not handed back yet (it releases at most `max` per call); [acked,
 * next_seq) are in flight; [resend, next_seq) are the ones go-back-N still has to send again.
 */
struct dp_llr_tx {
	uint32_t next_seq; /**< seq the next new frame gets */
	uint32_t acked;    /**< every seq before it acknowledged by the peer */
	uint32_t resend;   /**< next seq to (re)send in go-back-N; == next_seq: nothing to resend */
	uint32_t tail;     /**< oldest frame still held (== acked once releases are done) */
	uint32_t mask;     /**< capacity - 1 */
	void **frame;      /**< capacity slots; NULL where nothing is held */
	/** last time acked advanced, the window became non-empty, a NAK restarted go-back-N or
	 *  the retry timer fired */
	uint64_t last_progress_ns;
	bool ack_cont; /**< the last dp_llr_tx_ack() returned max: the next call may continue it */
};

/**
 * Prepare @p tx with a replay buffer of @p capacity frames, first seq 0.
 * @return 0, -EINVAL (capacity not a power of two, < 2 or > DP_LLR_CAPACITY_MAX) or -ENOMEM.
 */
int dp_llr_tx_init(struct dp_llr_tx *tx, uint32_t capacity);

/**
 * As dp_llr_tx_init(), the first frame getting @p first_seq (the peer's dp_llr_rx must start
 * at the same value: dp_llr_rx_init_seq()). @return 0, -EINVAL or -ENOMEM.
 */
int dp_llr_tx_init_seq(struct dp_llr_tx *tx, uint32_t capacity, uint32_t first_seq);

/**
 * Free the replay buffer array (not the frames: hand them back first with dp_llr_tx_drain()).
 * Accepts NULL and a @p tx already finalised.
 */
void dp_llr_tx_fini(struct dp_llr_tx *tx);

/** Frames sent and not acknowledged: next_seq - acked. */
static inline uint32_t dp_llr_tx_inflight(const struct dp_llr_tx *tx)
{
	return tx->next_seq - tx->acked;
}

/** Frames held in the replay buffer, acknowledged ones not yet released included. */
static inline uint32_t dp_llr_tx_held(const struct dp_llr_tx *tx)
{
	return tx->next_seq - tx->tail;
}

/** True while go-back-N has frames to send again (dp_llr_tx_resend() would hand some out). */
static inline bool dp_llr_tx_resend_pending(const struct dp_llr_tx *tx)
{
	return tx->resend != tx->next_seq;
}

/**
 * True if a new frame can be pushed now: the replay buffer has a free slot and no resend is
 * pending. (A new frame sent before the replay would reach the receiver after a gap and be
 * discarded, so new frames wait until go-back-N has caught up.)
 */
static inline bool dp_llr_tx_room(const struct dp_llr_tx *tx)
{
	return dp_llr_tx_held(tx) <= tx->mask && !dp_llr_tx_resend_pending(tx);
}

/**
 * Store a new @p frame (not NULL) and return its seq; the caller writes the seq in the frame and
 * sends it right away (it is not in the resend range; if the device refuses it, see
 * dp_llr_tx_unsend()). The caller must have checked dp_llr_tx_room(). Starts the retry timer
 * if the window was empty.
 */
uint32_t dp_llr_tx_push(struct dp_llr_tx *tx, void *frame, uint64_t now_ns);

/**
 * An ACK frame arrived with cumulative @p ack (and the NAK flag @p nak). If ack is in window
 * (acked <= ack <= next_seq): acked = ack, the retry timer restarts if acked advanced, a NAK
 * sets resend = ack (go-back-N) and restarts the timer, an ACK moves resend up to ack if it was
 * behind. Otherwise the ACK is stale or invalid: counted in stale_ack and ignored.
 *
 * Then hands back acknowledged frames, oldest first, into @p freed (at most @p max; the caller
 * frees them). If it returned @p max, call again with the same ack and nak until it returns
 * less: a call with ack == acked right after a call that returned max is a continuation,
 * which only releases (counts nothing, applies no NAK again). Finish releasing before passing
 * the next ACK frame.
 *
 * Counts ack_rx per ACK frame, nak_rx per NAK in window, stale_ack. @return frames released.
 */
unsigned dp_llr_tx_ack(struct dp_llr_tx *tx, uint32_t ack, bool nak, uint64_t now_ns, void **freed,
		       unsigned max, struct dp_llr_stats *st);

/** True if an ACK of @p ack would acknowledge frames not acknowledged yet (acked < ack ≤
 *  next_seq, in modular order). */
static inline bool dp_llr_tx_advances(const struct dp_llr_tx *tx, uint32_t ack)
{
	return (uint32_t)(ack - tx->acked - 1) < (uint32_t)(tx->next_seq - tx->acked);
}

/** The frame @p seq if the replay buffer holds it (tail ≤ seq < next_seq), else NULL. */
static inline void *dp_llr_tx_frame(const struct dp_llr_tx *tx, uint32_t seq)
{
	return (uint32_t)(seq - tx->tail) < (uint32_t)(tx->next_seq - tx->tail)
		   ? tx->frame[seq & tx->mask]
		   : NULL;
}

/**
 * Frames to send again now. First the retry timer: if frames are in flight and nothing was
 * acknowledged for @p rto_ns (since last_progress_ns), go-back-N restarts from acked (counts a
 * timeout, restarts the timer). Then hands out up to @p max frames from resend onward, in
 * order, into @p frames with their seqs in @p seqs, advancing resend, and counts them in retx.
 * The frames stay in the replay buffer (the caller sends a reference or a copy). Choose rto_ns
 * above one round trip plus the receiver's ACK delay, or the timer fires on a healthy link.
 * @return frames handed out.
 */
unsigned dp_llr_tx_resend(struct dp_llr_tx *tx, uint64_t now_ns, uint64_t rto_ns, void **frames,
			  uint32_t *seqs, unsigned max, struct dp_llr_stats *st);

/**
 * The device refused the frame @p seq (and everything handed out after it): go-back-N resumes
 * from it, resend = seq if seq is before resend (raised to acked if the peer acknowledged it
 * meanwhile). Works for a frame just pushed too; it then goes out through dp_llr_tx_resend().
 * The refused frames were counted in retx already; nothing is uncounted.
 */
void dp_llr_tx_unsend(struct dp_llr_tx *tx, uint32_t seq);

/**
 * Shutdown: hand back every held frame, oldest first, up to @p max per call (call until it
 * returns 0). Afterwards the buffer is empty: acked = resend = tail = next_seq.
 * @return frames handed back.
 */
unsigned dp_llr_tx_drain(struct dp_llr_tx *tx, void **frames, unsigned max);

/** What the receiver does with a data frame. */
enum dp_llr_verdict {
	DP_LLR_ACCEPT, /**< the expected frame: deliver it */
	DP_LLR_DUP,    /**< before expect: already delivered, discard */
	DP_LLR_GAP,    /**< after expect: frames were lost, discard (the sender resends it) */
};

/** Receiver side of one link direction. */
struct dp_llr_rx {
	uint32_t expect;       /**< seq of the next frame to accept */
	bool nak_pending;      /**< a NAK goes out at the next dp_llr_rx_ack_due() */
	bool nak_sent_for_gap; /**< the current gap was NAKed (or armed): no new NAK for now */
	bool gap_since_nak;    /**< frames of the current gap arrived since its last NAK */
	bool ack_pending;      /**< frames accepted or duplicates seen since the last ACK */
	uint32_t unacked;      /**< frames accepted since the last ACK */
	uint64_t last_ack_ns;  /**< when the last ACK (or NAK) went out */
	uint64_t last_nak_ns;  /**< when the last NAK went out */
};

/** Prepare @p rx to accept seq 0 first. */
void dp_llr_rx_init(struct dp_llr_rx *rx);

/** Prepare @p rx to accept @p first_seq first (the sender's dp_llr_tx_init_seq()). */
void dp_llr_rx_init_seq(struct dp_llr_rx *rx, uint32_t first_seq);

/**
 * Classify the data frame @p seq. ACCEPT (seq == expect): expect advances, the gap state
 * clears. DUP (seq before expect): counts dup_rx, an ACK becomes pending so a sender whose ACK
 * was lost stops resending. GAP (seq after expect): counts gap_rx; the first GAP after an
 * ACCEPT arms a NAK, later GAPs of the same gap do not (dp_llr_rx_ack_due() re-arms it after
 * nak_ns if they keep coming). @return the verdict; only ACCEPT is delivered.
 */
enum dp_llr_verdict dp_llr_rx_check(struct dp_llr_rx *rx, uint32_t seq, struct dp_llr_stats *st);

/**
 * Should an ACK frame go out now? Due when a NAK is armed (or re-armed: the current gap was
 * NAKed at least @p nak_ns ago and frames of it arrived since); or at least @p every frames
 * were accepted since the last ACK (0: never by count); or frames were accepted or duplicates
 * seen and @p delay_ns passed since the last ACK; or @p keepalive_ns passed since the last ACK
 * (0: no keepalive; use one, it repairs a lost final ACK). When due, fills @p ack (= expect) and
 * @p nak, marks it sent (the caller sends it, or loses it: the protocol copes), counts ack_tx
 * and, for a NAK, nak_tx. Choose nak_ns of at least one round trip: the frames already in flight
 * behind the gap keep arriving until the replay does, and would otherwise re-NAK (harmless, but
 * each NAK costs a replay). @return true if an ACK is due (and was filled in).
 */
bool dp_llr_rx_ack_due(struct dp_llr_rx *rx, uint64_t now_ns, uint32_t every, uint64_t delay_ns,
		       uint64_t keepalive_ns, uint64_t nak_ns, uint32_t *ack, bool *nak,
		       struct dp_llr_stats *st);

/** Print every counter of @p st as `prefix.name value` lines (non-zero ones only if @p nz). */
void dp_llr_stats_dump(const struct dp_llr_stats *st, const char *prefix, bool nz, FILE *f);

#ifdef __cplusplus
}
#endif

#endif /* DP_LLR_H */
