/*
 * The schedule of a measuring command (engine.h).  Repetitions outside,
 * then rounds, jobs inside; each replica in a fresh worker, each step of
 * time and contest where the command's step puts it.
 */
#include "core/engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/registry.h"
#include "core/replica.h"
#include "core/timer.h"

/* The harness's clock figures: the prelude's. */
static void engine_clock(struct engine *e)
{
	e->rc.harness.granularity_ns = e->pre.ti.granularity_ns;
	e->rc.harness.loop_ns = e->pre.ti.loop_ns;
	e->rc.harness.clock_cost_ns = e->pre.ti.cost_ns;
}

int engine_open(struct engine *e, const char *cmd, const struct runner_cfg *rc, int sentinel,
		char *err)
{
	memset(e, 0, sizeof(*e));
	e->cmd = cmd;
	e->ops = (struct engine_ops){ runner_run, runner_prelude };
	e->rc = *rc;
	e->sentinel = sentinel;
	if (e->ops.prelude(&e->rc, WIRE_PRELUDE, &e->rc.harness, &e->pre, err) < 0)
		return -1;
	engine_clock(e);
	return 0;
}

int engine_reclock(struct engine *e, char *err)
{
	if (e->ops.prelude(&e->rc, WIRE_PRELUDE, &e->rc.harness, &e->pre, err) < 0)
		return -1;
	engine_clock(e);
	return 0;
}

/* Add a point of the timeline, when one was taken. */
static void engine_timeline_add(struct engine *e, const struct sentinel_point *p)
{
	if (!isfinite(p->t))
		return;
	if (e->ntl == e->captl) {
		size_t cap = e->captl ? 2 * e->captl : 256;
		struct sentinel_point *more = realloc(e->tl, cap * sizeof(*more));

		if (!more)
			die("%s: out of memory for the sentinel", e->cmd);
		e->tl = more;
		e->captl = cap;
	}
	e->tl[e->ntl++] = *p;
}

/* The sides of a paired run: 2 unless told (blocks of more). */
static int engine_nsides(const struct engine *e)
{
	return e->nsides > 2 ? e->nsides : 2;
}

void engine_begin(struct engine *e, const struct engine_job *jobs, size_t njobs, int rounds)
{
	struct harness_cfg *hc = &e->rc.harness;
	struct wire_prelude first;
	char err[ERRBUF_LEN];

	e->jobs = jobs;
	e->njobs = njobs;
	e->rounds = rounds;
	e->round = 0;
	e->tl = NULL;
	e->ntl = e->captl = 0;
	e->jr = calloc(njobs ? njobs : 1, sizeof(*e->jr));
	e->firsts = calloc(njobs ? njobs : 1, sizeof(*e->firsts));
	e->order = calloc(njobs ? njobs : 1, sizeof(*e->order));
	if (e->paired && njobs % (size_t)engine_nsides(e))
		BUG("%s: a paired run of %zu jobs, not groups of %d", e->cmd, njobs, engine_nsides(e));
	if (e->paired && engine_nsides(e) != 2 && !e->blocks)
		BUG("%s: %d sides measured in pairs, not in blocks", e->cmd, engine_nsides(e));
	if (!e->jr || !e->firsts || !e->order)
		die("%s: out of memory", e->cmd);
	/* Nothing of an earlier run crosses into this one's requests: its rows are freed. */
	hc->prior = NULL;
	hc->nprior = 0;
	hc->iterations = 0;
	hc->replica = 0;
	hc->placement = PLACE_NA;
	hc->sentinel_sys = hc->sentinel_user = NULL;
	hc->sentinel_nsys = hc->sentinel_nuser = 0;
	hc->run_start_ns = timer_now();
	if (!e->sentinel)
		return;
	hc->sentinel_sys = registry_find(SENTINEL_SYS_ID);
	hc->sentinel_user = registry_find(SENTINEL_USER_ID);
	if (!hc->sentinel_sys || !hc->sentinel_user)
		BUG("the sentinel's rows sys.null and cpu.mhz are missing");
	/*
	 * Once a run, in a worker: the iterations every replica's sentinel
	 * then uses, and the first point.  Without them (the worker failed,
	 * a signal) the replicas calibrate their own, and the timeline
	 * starts at the first replica.
	 */
	if (e->ops.prelude(&e->rc, WIRE_SENTINEL, hc, &first, err) == 0) {
		hc->sentinel_nsys = first.nsys;
		hc->sentinel_nuser = first.nuser;
		engine_timeline_add(e, &first.first);
	}
}

/*
 * Whether a job takes no replica this round: it skipped, or failed in a
 * replica; or it is a curve (its first replica measured points), which
 * costs what ten instances do and takes half as many replicas (at most
 * REPLICA_CURVE) spread over the rounds.
 */
/* The replicas a curve takes in rounds rounds. */
static int engine_curve_replicas(int rounds)
{
	return rounds / 2 < REPLICA_CURVE ? (rounds + 1) / 2 : REPLICA_CURVE;
}

static int engine_rests(const struct engine_reps *jr, int round, int rounds)
{
	int k = engine_curve_replicas(rounds);

	if (!jr->n)
		return 0;
	if (jr->reps[jr->n - 1].status == RES_SKIP || jr->reps[jr->n - 1].status == RES_FAIL)
		return 1;
	/* Rounds 0, then those where round * k / rounds steps up: evenly spread. */
	return jr->reps[0].npoints && round * k / rounds == (round - 1) * k / rounds;
}

/*
 * One round of a schedule: every job that has not retired takes its step.
 * Between two steps nothing polls, so a Ctrl-Z caught meanwhile is acted
 * on here: kbench stops, and goes on with the next step once continued.
 */
static enum engine_state engine_sweep(size_t njobs, int round, unsigned char *retired,
				      const size_t *order,
				      enum engine_step (*step)(void *arg, size_t job, int round),
				      void *arg)
{
	for (size_t k = 0; k < njobs; k++) {
		size_t i = order ? order[k] : k;

		if (retired && retired[i])
			continue;
		if (runner_stop_pending())
			(void)runner_stop_group(0);
		switch (step(arg, i, round)) {
		case ENGINE_STEP_OK:
			break;
		case ENGINE_STEP_RETIRE:
			if (retired)
				retired[i] = 1;
			break;
		case ENGINE_STEP_STOP:
			return ENGINE_STOPPED;
		case ENGINE_STEP_INTERRUPTED:
			return ENGINE_INTERRUPTED;
		}
	}
	return ENGINE_MORE;
}

/* engine_round's step: one replica of job i, unless it rests this round. */
struct engine_replica_arg {
	struct engine *e;
	void (*progress)(void *arg, const struct engine_job *job, int measured);
	void *parg;
};

static enum engine_step engine_replica(void *arg, size_t i, int round)
{
	struct engine_replica_arg *a = arg;
	struct engine *e = a->e;
	struct harness_cfg *hc = &e->rc.harness;
	struct engine_reps *j = &e->jr[i];
	struct result *more;

	if (engine_rests(j, round, e->rounds)) {
		if (a->progress)
			a->progress(a->parg, &e->jobs[i], 0);
		return ENGINE_STEP_OK;
	}
	if (e->jobs[i].side && e->jobs[i].side != e->side_now) {
		if (e->cond && e->cond(e->cond_arg, e->jobs[i].side) < 0)
			return ENGINE_STEP_STOP;
		e->side_now = e->jobs[i].side;
	}
	if (a->progress)
		a->progress(a->parg, &e->jobs[i], 1);
	hc->placement = e->jobs[i].place;
	/* A later row reads an earlier one's first replica (ctx->prior): the cache
	 * levels of mem.lat.l* are the ones found at the start, in every round. */
	hc->prior = e->firsts;
	hc->nprior = i;
	hc->iterations = j->n ? j->reps[0].iterations : 0;
	hc->replica = round;
	more = realloc(j->reps, (j->n + 1) * sizeof(*more));
	if (!more)
		die("%s: out of memory", e->cmd);
	j->reps = more;
	if (e->ops.measure(e->jobs[i].b, &e->rc, &j->reps[j->n]) < 0)
		return ENGINE_STEP_INTERRUPTED;
	engine_timeline_add(e, &j->reps[j->n].around[0]);
	engine_timeline_add(e, &j->reps[j->n].around[1]);
	if (j->n++ == 0)
		e->firsts[i] = j->reps[0];
	return ENGINE_STEP_OK;
}

enum engine_state engine_round(struct engine *e,
			       void (*progress)(void *arg, const struct engine_job *job, int measured),
			       void *arg)
{
	struct engine_replica_arg a = { e, progress, arg };
	enum engine_state st;

	if (e->round >= e->rounds)
		return ENGINE_DONE;
	/*
	 * The pairs' order this round: A then B, or B then A, as drawn; in
	 * blocks, one draw for the round, every job of one side, then every
	 * job of the next in the drawn order of the sides (two or more), and
	 * the first block starts its side afresh.
	 */
	if (e->paired && e->blocks) {
		int n = engine_nsides(e), side[ENGINE_MAX_SIDES];
		size_t groups = e->njobs / (size_t)n;

		engine_side_order(e->seed, e->round, n, side);
		for (int p = 0; p < n; p++)
			for (size_t k = 0; k < groups; k++)
				e->order[(size_t)p * groups + k] = k * (size_t)n + (size_t)(side[p] - 1);
	} else if (e->paired) {
		for (size_t k = 0; 2 * k + 1 < e->njobs; k++) {
			int swap = engine_b_first(e->seed, e->round, k);

			e->order[2 * k] = 2 * k + (size_t)swap;
			e->order[2 * k + 1] = 2 * k + 1 - (size_t)swap;
		}
	}
	if (e->blocks)
		e->side_now = 0;
	/* No job retires: one that skipped or failed rests in every round (engine_rests). */
	st = engine_sweep(e->njobs, e->round, NULL, e->paired ? e->order : NULL, engine_replica, &a);
	if (st != ENGINE_MORE)
		return st;
	e->round++;
	return e->round < e->rounds ? ENGINE_MORE : ENGINE_DONE;
}

enum engine_state engine_steps(const struct engine_steps *s)
{
	unsigned char *retired = calloc(s->njobs ? s->njobs : 1, 1);
	enum engine_state st = ENGINE_MORE;

	if (!retired)
		die("out of memory for a schedule of %zu jobs", s->njobs);
	for (int round = -s->warmup; round < s->rounds && st == ENGINE_MORE; round++)
		st = engine_sweep(s->njobs, round, retired, NULL, s->step, s->arg);
	free(retired);
	return st == ENGINE_MORE ? ENGINE_DONE : st;
}

/* splitmix64's finaliser: every bit of x moves every bit of the draw. */
static uint64_t engine_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

int engine_b_first(uint64_t seed, int round, size_t k)
{
	return (int)(engine_mix(engine_mix(seed ^ engine_mix((uint64_t)round)) + k) >> 63);
}

void engine_side_order(uint64_t seed, int round, int n, int *order)
{
	uint64_t r = engine_mix(seed ^ engine_mix((uint64_t)round));

	if (n < 1 || n > ENGINE_MAX_SIDES)
		BUG("a round of %d sides", n);
	for (int i = 0; i < n; i++)
		order[i] = i + 1;
	/* Fisher-Yates from the end; its last swap is engine_b_first's draw, so two sides keep theirs. */
	for (int i = n - 1; i >= 1; i--) {
		int j = i == 1 ? 1 - engine_b_first(seed, round, 0)
			       : (int)(engine_mix(r + 0x100u + (uint64_t)i) % (uint64_t)(i + 1));
		int t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

size_t engine_planned(const struct engine *e, size_t i)
{
	const struct engine_reps *j = &e->jr[i];

	return (size_t)(j->n && j->reps[0].npoints ? engine_curve_replicas(e->rounds) : e->rounds);
}

int engine_fresh(struct engine *e, size_t i)
{
	if (e->jr[i].n <= e->jr[i].merged)
		return 0;
	e->jr[i].merged = e->jr[i].n;
	return 1;
}

void engine_end(struct engine *e, struct sentinel_point **tl, size_t *ntl)
{
	for (size_t i = 0; i < e->njobs; i++) {
		for (size_t k = 0; k < e->jr[i].n; k++)
			result_free(&e->jr[i].reps[k]);
		free(e->jr[i].reps);
	}
	free(e->jr);
	free(e->firsts);
	free(e->order);
	e->jr = NULL;
	e->firsts = NULL;
	e->order = NULL;
	e->rc.harness.prior = NULL;
	e->rc.harness.nprior = 0;
	if (tl) {
		*tl = e->tl;
		*ntl = e->ntl;
	} else {
		free(e->tl);
	}
	e->tl = NULL;
	e->ntl = e->captl = 0;
}
