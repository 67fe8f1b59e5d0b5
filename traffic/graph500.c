/* SPDX-License-Identifier: BSD-3-Clause */
/* Graph500's synthetic traffic model (graph500.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "graph500.h"

/* A process's states in a level (FOGSim's GraphCNState, folded: generation and sending are
 * one offer here, the reception is the busy_until clock). */
enum {
	G5_SEND,   /* its point-to-point messages */
	G5_SIGNAL, /* its end-of-level signals, to every other process in order */
	G5_WAIT,   /* for every signal and every announced packet */
	G5_REDUCE, /* not the root: its reduce packet to the root's process */
	G5_GATHER, /* the root: for the n − 1 reduce packets */
	G5_BCAST,  /* the root: its broadcast, to every other process in order */
	G5_HEAR,   /* not the root: for the broadcast */
	G5_END,    /* the level is over for it */
};

/* A uniform double in [0, 1). */
static double unif(struct dfly_rng *r)
{
	return (double)(dfly_rng_next(r) >> 11) * 0x1.0p-53;
}

/* A standard normal draw (Box–Muller, one of the pair). */
static double std_normal(struct dfly_rng *r)
{
	double u = 1.0 - unif(r), v = unif(r);

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* ln σ's two forms (eq. 2.9–2.16) at level @p l. */
static double f1(const struct dfly_g5_params *p, double l, double lr)
{
	double s = p->scale, fe = p->edge_factor;
	double D = 0.002 * s - 0.14 - (0.015 * s - 0.285) * (0.56 + 0.033 * fe) * (l - 1);
	double F = 0.97 - (l - 1) * (4.438 - 0.168 * s) * (0.83 + 0.01 * fe);
	double G = ((2.1 + l) * (5.35 + 0.093 * s) - 13.625) * (1.23 - (2.9 + 0.69 * l) / fe);

	return D * lr * lr + F * lr + G;
}

static double f2(const struct dfly_g5_params *p, double l, double dr)
{
	double s = p->scale, fe = p->edge_factor;
	double H = pow(2.0, l) * (0.011 + 0.00012 * fe) * exp(1.7 - s / 10.0);
	double J = 1.0 - exp((1.0 - 0.012 * fe) * (9.55 - 1.3 * l - s * (0.6 - 0.1 * l)));
	double K = 13.0 * (0.062 * s - 0.046) * (2.0 - 0.24 * l) - J;

	return K / pow(dr, H) + J;
}

void dfly_g5_moments(const struct dfly_g5_params *p, uint32_t lv, double dr, double *mean,
		     double *sd)
{
	double s = p->scale, fe = p->edge_factor, l = lv, lr = log(dr), A, B, C, lsd;

	A = -0.133 + 0.0046 * s + exp(0.01257 * fe - 0.1829 * s - exp(1.75 - 0.7 * l));
	B = 2.0 - l * (0.91 + 0.002 * fe - 0.012 * s);
	if (p->coef == DFLY_G5_COEF_FOGSIM)
		C = exp(1.0 + (1.0 + 0.004 * fe) * (-1.105 + 1.01 * log(s)) *
				  exp(-(l - 3.2) * (l - 3.2) / 8.0));
	else
		C = exp(1.0 + (1.0 + 0.004 * fe) * (-0.81 + 0.8411 * log(s)) *
				  exp(-(l - 2.8) * (l - 2.8) / 30.0));
	*mean = exp(A * lr * lr + B * lr + C);
	/* eq. 2.17 */
	if (lv <= 1)
		lsd = f1(p, 1, lr);
	else if (lv == 2)
		lsd = fmax(f1(p, 1, lr), f1(p, 2, lr));
	else if (lv == 3)
		lsd = fmax(f1(p, 2, lr), f2(p, 4, dr));
	else
		lsd = f2(p, l, dr);
	*sd = exp(lsd);
}

/* 1 − (1 − 1/n)^q: the share of processes that send (eq. 2.3 over n). */
static double sending_share(int64_t q, uint32_t n)
{
	return 1.0 - pow(1.0 - 1.0 / n, (double)q);
}

static int64_t effective(int64_t q, uint32_t n)
{
	return (int64_t)fmax(1.0, n * sending_share(q, n));
}

int64_t dfly_g5_messages(int64_t q, uint32_t n, uint32_t cs)
{
	int64_t ne = effective(q, n);

	return ne * (int64_t)ceil((double)q / ((double)ne * cs));
}

/* Start process @p pr's level at @p now with @p q queries to send (FOGSim levelstart). */
static void proc_start(struct dfly_g5 *g, struct dfly_g5_proc *pr, int64_t q, int64_t msgs,
		       uint64_t now)
{
	pr->q_left = q;
	pr->msgs_left = msgs;
	pr->msg_pk = 0;
	pr->next = 0;
	pr->sig_rx = 0;
	pr->expect = 0;
	pr->ar_rx = 0;
	pr->busy_until = now;
	memset(pr->sent_to, 0, g->n * sizeof(*pr->sent_to));
	pr->state = msgs > 0 ? G5_SEND : G5_SIGNAL;
}

int dfly_g5_init(struct dfly_g5 *g, const struct dfly_g5_params *p, const uint32_t *proc_node,
		 uint32_t n, uint32_t nodes, uint64_t seed)
{
	struct dfly_rng r;
	double lambda, chance, L;
	int64_t q0;

	memset(g, 0, sizeof(*g));
	if (n < 2 || n > nodes || p->scale == 0 || p->edge_factor == 0 || p->coalescing == 0 ||
	    p->msg_packets == 0 || p->pkt_phits == 0 || p->max_levels == 0 || p->query_cycles < 0)
		return -EINVAL;
	g->p = *p;
	g->n = n;
	g->node_proc = malloc(nodes * sizeof(*g->node_proc));
	g->proc = calloc(n, sizeof(*g->proc));
	if (g->node_proc == NULL || g->proc == NULL)
		goto nomem;
	for (uint32_t i = 0; i < nodes; i++)
		g->node_proc[i] = UINT32_MAX;
	for (uint32_t i = 0; i < n; i++) {
		if (proc_node[i] >= nodes || g->node_proc[proc_node[i]] != UINT32_MAX) {
			dfly_g5_fini(g);
			return -EINVAL;
		}
		g->node_proc[proc_node[i]] = i;
		g->proc[i].node = proc_node[i];
		dfly_rng_seed(&g->proc[i].rng, seed, 0x500000000ull + i);
		if ((g->proc[i].sent_to = calloc(n, sizeof(*g->proc[i].sent_to))) == NULL)
			goto nomem;
	}
	/* the root's process and degree (FOGSim: a random process; eq. 2.18–2.19 in log space) */
	dfly_rng_seed(&r, seed, 0x4ffffffffull);
	g->root = dfly_rng_below(&r, n);
	if (p->root_degree > 0)
		g->root_degree = p->root_degree;
	else
		g->root_degree =
		    (uint32_t)ceil(exp(log(pow(0.3604, p->scale)) + 1.0661704 * p->scale +
				       0.079313065 * p->scale * std_normal(&r)));
	if (g->root_degree == 0)
		g->root_degree = 1;
	/* eq. 2.20: λ = L·t_c/(t_q·c_s) phits/cycle. A message takes L cycles to send, then each
	 * cycle starts the next with the chance that makes the mean gap L/λ: 1/(L/λ − L + 1)
	 * (FOGSim: a draw each cycle from L cycles after the last; 1 when λ ≥ 1) */
	L = (double)dfly_g5_msg_phits(p);
	lambda = p->query_cycles * p->coalescing <= L ? 1.0 : L / (p->query_cycles * p->coalescing);
	chance = 1.0 / (L / lambda - L + 1.0);
	g->p_msg = chance >= 1.0 ? UINT64_MAX : (uint64_t)ldexp(chance, 64);
	/* the bound of eq. 2.1 over all processes, and FOGSim's running correction */
	g->total = (int64_t)(ldexp(1.0, (int)p->scale + 1) * p->edge_factor * ((n - 1.0) / n));
	g->remain = g->total;
	q0 = (int64_t)ceil(g->root_degree * (n - 1.0) / n);
	g->rem_minus_means = g->total - q0;
	/* level 0: the root's process sends d_r·(n − 1)/n queries; every other waits for its
	 * signal (FOGSim: it sends none, expects one) */
	for (uint32_t i = 0; i < n; i++) {
		struct dfly_g5_proc *pr = &g->proc[i];

		if (i == g->root) {
			int64_t m = dfly_g5_messages(q0, n, p->coalescing);

			proc_start(g, pr, q0, m > 1 ? m : 1, 0);
			pr->sig_rx = n - 1;
		} else {
			proc_start(g, pr, 0, 0, 0);
			pr->state = G5_WAIT;
			pr->sig_rx = n - 2;
		}
	}
	return 0;
nomem:
	dfly_g5_fini(g);
	return -ENOMEM;
}

void dfly_g5_fini(struct dfly_g5 *g)
{
	if (g->proc != NULL)
		for (uint32_t i = 0; i < g->n; i++)
			free(g->proc[i].sent_to);
	free(g->proc);
	free(g->node_proc);
	g->proc = NULL;
	g->node_proc = NULL;
}

/* The next process to signal or broadcast to, skipping @p self; n when none is left. */
static uint32_t next_other(uint32_t from, uint32_t self)
{
	return from == self ? from + 1 : from;
}

/* The wait of a level's end: every signal in, every announced packet in. */
static void wait_check(const struct dfly_g5 *g, struct dfly_g5_proc *pr, uint32_t self)
{
	if (pr->state != G5_WAIT || pr->sig_rx != g->n - 1 || pr->expect != 0)
		return;
	pr->state = self == g->root ? G5_GATHER : G5_REDUCE;
	if (pr->state == G5_GATHER && pr->ar_rx == g->n - 1) {
		pr->state = G5_BCAST;
		pr->next = 0;
	}
}

bool dfly_g5_offer(struct dfly_g5 *g, uint32_t node, uint64_t now, uint32_t *dst, uint32_t *app)
{
	uint32_t self = g->node_proc[node];
	struct dfly_g5_proc *pr;

	if (self == UINT32_MAX || g->done)
		return false;
	pr = &g->proc[self];
	switch (pr->state) {
	case G5_SEND:
		if (pr->msg_pk == 0) {
			uint32_t q, d;

			/* a new message: not while consuming, then a draw (eq. 2.20) */
			if (now < pr->busy_until || !dfly_rng_chance(&pr->rng, g->p_msg))
				return false;
			d = dfly_rng_below(&pr->rng, g->n - 1);
			d += d >= self;
			/* FOGSim's fill: c_s while the queries left allow a full message and one
			 * query for each message after it, else an even share */
			if (pr->q_left >= (int64_t)g->p.coalescing + pr->msgs_left - 1)
				q = g->p.coalescing;
			else
				q = (uint32_t)((pr->q_left + pr->msgs_left - 1) / pr->msgs_left);
			pr->msg_dst = d;
			pr->msg_q = q;
			pr->msg_pk = g->p.msg_packets;
			pr->q_left -= q;
			pr->msgs_left--;
			pr->lvl_msgs++;
			pr->lvl_queries += q;
		}
		{
			/* the packets share the queries; the first ones take the remainder */
			uint32_t share = (pr->msg_q + pr->msg_pk - 1) / pr->msg_pk;

			pr->msg_q -= share;
			pr->msg_pk--;
			*dst = g->proc[pr->msg_dst].node;
			*app = DFLY_G5_APP_P2P | share;
			pr->sent_to[pr->msg_dst]++;
		}
		if (pr->msg_pk == 0 && pr->msgs_left == 0) {
			pr->state = G5_SIGNAL;
			pr->next = 0;
		}
		return true;
	case G5_SIGNAL:
		pr->next = next_other(pr->next, self);
		if (pr->next >= g->n) { /* n = 1 is refused: never here with nothing sent */
			pr->state = G5_WAIT;
			wait_check(g, pr, self);
			return false;
		}
		*dst = g->proc[pr->next].node;
		*app = DFLY_G5_APP_SIGNAL | pr->sent_to[pr->next];
		pr->next = next_other(pr->next + 1, self);
		if (pr->next >= g->n)
			pr->state = G5_WAIT;
		return true;
	case G5_WAIT:
		wait_check(g, pr, self);
		if (pr->state != G5_REDUCE)
			return false;
		/* the reduce packet at once */
		/* fall through */
	case G5_REDUCE:
		*dst = g->proc[g->root].node;
		*app = DFLY_G5_APP_REDUCE;
		pr->state = G5_HEAR;
		return true;
	case G5_GATHER:
		if (pr->ar_rx < g->n - 1)
			return false;
		pr->state = G5_BCAST;
		pr->next = 0;
		/* fall through */
	case G5_BCAST:
		pr->next = next_other(pr->next, self);
		*dst = g->proc[pr->next].node;
		*app = DFLY_G5_APP_BCAST;
		pr->next = next_other(pr->next + 1, self);
		if (pr->next >= g->n)
			pr->state = G5_END;
		return true;
	default:
		return false;
	}
}

void dfly_g5_receive(struct dfly_g5 *g, uint32_t node, uint32_t app, uint64_t now)
{
	uint32_t self = g->node_proc[node], v = DFLY_G5_APP_VALUE(app);
	struct dfly_g5_proc *pr;

	if (self == UINT32_MAX)
		return;
	pr = &g->proc[self];
	switch (DFLY_G5_APP_KIND(app)) {
	case DFLY_G5_APP_P2P:
		/* consumed after what it is consuming: t_q per query (FOGSim's
		 * receptionPendingCycles, ⌈t_q·queries⌉) */
		if (pr->busy_until < now)
			pr->busy_until = now;
		pr->busy_until += (uint64_t)ceil(g->p.query_cycles * v);
		pr->rx_queries += v;
		pr->expect--;
		break;
	case DFLY_G5_APP_SIGNAL:
		pr->sig_rx++;
		pr->expect += v;
		break;
	case DFLY_G5_APP_REDUCE:
		pr->ar_rx++;
		break;
	default: /* the broadcast */
		pr->state = G5_END;
		break;
	}
}

bool dfly_g5_level_over(const struct dfly_g5 *g)
{
	for (uint32_t i = 0; i < g->n; i++)
		if (g->proc[i].state != G5_END)
			return false;
	return true;
}

bool dfly_g5_next_level(struct dfly_g5 *g, uint64_t now)
{
	const uint32_t n = g->n;
	double mean, sd, cap;

	for (uint32_t i = 0; i < n; i++) {
		struct dfly_g5_proc *pr = &g->proc[i];

		g->remain -= (int64_t)pr->rx_queries;
		if (g->level < DFLY_G5_LEVELS) {
			g->level_msgs[g->level] += pr->lvl_msgs;
			g->level_queries[g->level] += pr->lvl_queries;
		}
		pr->rx_queries = pr->lvl_msgs = pr->lvl_queries = 0;
	}
	/* FOGSim's end of the BFS (dgflySimulator.cc): traversed, the level limit, or past
	 * level 5 with less than a tenth left */
	if (g->remain <= 0 || g->level + 1 >= g->p.max_levels ||
	    (g->level >= 5 && (double)g->remain <= 0.1 * (double)g->total)) {
		g->done = true;
		return false;
	}
	g->level++;
	dfly_g5_moments(&g->p, g->level, g->root_degree, &mean, &sd);
	/* eq. 2.5's cap: never past the queries left */
	cap = ceil((double)g->remain * n / (n - 1.0));
	if (mean > cap)
		mean = cap;
	for (uint32_t i = 0; i < n; i++) {
		struct dfly_g5_proc *pr = &g->proc[i];
		int64_t q, ne;

		/* the level's total, redrawn while negative (truncated as FOGSim's long long) */
		do
			q = (int64_t)((mean + sd * std_normal(&pr->rng)) * (n - 1.0) / n);
		while (q < 0);
		if (q + g->remain - g->rem_minus_means > 0)
			q += g->remain - g->rem_minus_means;
		/* this process's part: it sends with the sending share's probability, then a
		 * share of the effective destinations' */
		if (unif(&pr->rng) <= sending_share(q, n)) {
			ne = effective(q, n);
			q /= ne;
		} else {
			q = 0;
		}
		proc_start(g, pr, q, q > 0 ? dfly_g5_messages(q, n, g->p.coalescing) : 0, now);
	}
	g->rem_minus_means = (int64_t)((double)g->rem_minus_means - mean);
	return true;
}
