/*
 * The measuring engine's schedule (core/engine.c), on a fake clock and a
 * fake runner that logs every replica it is asked for instead of starting
 * a worker: the rounds (every job once a round, in order), the replicas a
 * job takes (a curve's spread over the rounds, none after a skip or a
 * failure), what each replica is given (its round, its placement, the
 * first replica's iterations, the rows before it), the sentinel's
 * timeline (the prelude's point, then each replica's two in the order
 * taken), and a signal in the middle of a round.  run and clocks measure
 * through this engine alone, so what is checked here is their schedule;
 * time's runs and contest's loads go through engine_steps, checked here
 * on a scripted step: warm-up rounds first, every job once a round in
 * order, a retired job passed over, a stop or a signal ending it there;
 * and ab's paired rounds, with their switches; kernels' rounds in blocks,
 * a side's boot once a round.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "core/registry.h"
#include "core/replica.h"

static enum bench_status noop_run(struct bench_ctx *ctx, uint64_t n)
{
	(void)ctx;
	(void)n;
	return BENCH_OK;
}

static const struct bench row_a = { .id = "fake.a", .run = noop_run };
static const struct bench row_pipe = { .id = "fake.pipe", .run = noop_run, .flags = BENCH_PLACED };
static const struct bench row_curve = { .id = "fake.curve", .run = noop_run };
static const struct bench row_skip = { .id = "fake.skip", .run = noop_run };
static const struct bench row_fail = { .id = "fake.fail", .run = noop_run };

/* One replica the engine asked for, as the fake runner saw it. */
struct call {
	const struct bench *b;
	enum placement place;
	int replica;
	uint64_t iterations;
	size_t nprior;
	const char *prior_last;		/* the id of the last row before it, "" for none */
	uint64_t nsys;			/* the sentinel's iterations it was given */
	uint64_t run_start;
	int side;			/* the condition the paired test's cond last set */
};

static struct {
	uint64_t clock_ns;		/* the fake clock, 1 ms a replica */
	struct call calls[256];
	size_t ncalls;
	size_t interrupt_at;		/* the call that returns -1 (a signal); 0: none */
	int preludes;
	size_t prelude_nprior;		/* the rows before it the last prelude was given */
	int side;			/* set by test_paired's cond */
	int switches;			/* cond's calls */
	int fail_switch;		/* the switch that fails (from 1); 0: none */
} fake;

static struct sentinel_point point_at(double t)
{
	return (struct sentinel_point){ .t = t, .cpu = 0, .sys_ns = 80, .user_ns = 0.3 };
}

static int fake_measure(const struct bench *b, const struct runner_cfg *cfg, struct result *r)
{
	struct call *c = &fake.calls[fake.ncalls++];
	const struct harness_cfg *hc = &cfg->harness;

	*c = (struct call){ b, hc->placement, hc->replica, hc->iterations, hc->nprior,
			    hc->nprior ? hc->prior[hc->nprior - 1].id : "", hc->sentinel_nsys,
			    hc->run_start_ns, fake.side };
	if (fake.interrupt_at && fake.ncalls == fake.interrupt_at) {
		memset(r, 0, sizeof(*r));
		return -1;
	}
	result_init(r, b);
	r->around[0] = point_at((double)fake.clock_ns / 1e9);
	fake.clock_ns += 1000000;
	r->around[1] = point_at((double)fake.clock_ns / 1e9);
	r->status = RES_OK;
	r->median = 1;
	/* What calibration would have found: a number of its own for each row. */
	r->iterations = hc->iterations ? hc->iterations : 1000 + strlen(b->id);
	if (b == &row_skip) {
		r->status = RES_SKIP;
		snprintf(r->reason, sizeof(r->reason), "cannot run here");
	}
	if (b == &row_fail && hc->replica == 1) {
		r->status = RES_FAIL;
		snprintf(r->reason, sizeof(r->reason), "lost a message");
	}
	if (b == &row_curve) {
		r->points = calloc(2, sizeof(*r->points));
		assert_non_null(r->points);
		r->npoints = 2;
	}
	return 0;
}

static int fake_prelude(const struct runner_cfg *cfg, enum wire_kind kind, const struct harness_cfg *hc,
			struct wire_prelude *p, char *err)
{
	(void)cfg;
	(void)err;
	fake.preludes++;
	fake.prelude_nprior = hc->nprior;
	/* Every row it is given must be readable: the request writes them whole. */
	for (size_t i = 0; i < hc->nprior; i++)
		assert_non_null(hc->prior[i].id);
	memset(p, 0, sizeof(*p));
	if (kind == WIRE_SENTINEL) {
		p->nsys = 100;
		p->nuser = 200;
		p->first = point_at(0);
	}
	return 0;
}

static void engine_fake(struct engine *e, int sentinel)
{
	memset(&fake, 0, sizeof(fake));
	memset(e, 0, sizeof(*e));
	e->cmd = "test";
	e->ops = (struct engine_ops){ fake_measure, fake_prelude };
	harness_defaults(&e->rc.harness);
	e->sentinel = sentinel;
}

/* The calls made for job b, in order. */
static size_t calls_of(const struct bench *b, enum placement place, const struct call **out)
{
	size_t n = 0;

	for (size_t i = 0; i < fake.ncalls; i++)
		if (fake.calls[i].b == b && fake.calls[i].place == place)
			out[n++] = &fake.calls[i];
	return n;
}

static int progressed, measured;

static void count_progress(void *arg, const struct engine_job *job, int took)
{
	(void)arg;
	(void)job;
	progressed++;
	measured += took;
}

static void test_rounds(void **state)
{
	const struct engine_job jobs[] = {
		{ .b = &row_a, .place = PLACE_NA }, { .b = &row_pipe, .place = PLACE_SAME }, { .b = &row_pipe, .place = PLACE_SPREAD },
	};
	struct engine e;
	struct sentinel_point *tl;
	const struct call *c[32];
	size_t ntl;
	int rounds = 0;
	enum engine_state st;

	(void)state;
	engine_fake(&e, 1);
	engine_begin(&e, jobs, 3, 4);
	/* The sentinel: its iterations calibrated once, in a prelude of the run's. */
	assert_int_equal(fake.preludes, 1);
	do {
		st = engine_round(&e, NULL, NULL);
		rounds++;
		/* Every job took this round's replica, each merged once. */
		for (size_t i = 0; i < 3; i++) {
			assert_true(engine_fresh(&e, i));
			assert_false(engine_fresh(&e, i));
		}
	} while (st == ENGINE_MORE);
	assert_int_equal(st, ENGINE_DONE);
	assert_int_equal(rounds, 4);
	assert_int_equal(engine_round(&e, NULL, NULL), ENGINE_DONE);
	/* Rounds outside, jobs inside, in the order given. */
	assert_int_equal(fake.ncalls, 12);
	for (size_t i = 0; i < 12; i++) {
		assert_ptr_equal(fake.calls[i].b, jobs[i % 3].b);
		assert_int_equal(fake.calls[i].place, jobs[i % 3].place);
		assert_int_equal(fake.calls[i].replica, (int)(i / 3));
		/* The rows before it: their first replicas, for a row that needs one. */
		assert_int_equal(fake.calls[i].nprior, i % 3);
		assert_string_equal(fake.calls[i].prior_last, i % 3 ? jobs[i % 3 - 1].b->id : "");
		assert_int_equal(fake.calls[i].nsys, 100);
		assert_true(fake.calls[i].run_start == fake.calls[0].run_start);
	}
	/* The first replica calibrates; the others run at its iterations. */
	assert_int_equal(calls_of(&row_pipe, PLACE_SPREAD, c), 4);
	assert_int_equal(c[0]->iterations, 0);
	for (int k = 1; k < 4; k++)
		assert_int_equal(c[k]->iterations, 1000 + strlen("fake.pipe"));
	assert_int_equal(e.jr[2].n, 4);
	/* The timeline: the prelude's point, then before and after every replica, in time order. */
	engine_end(&e, &tl, &ntl);
	assert_int_equal(ntl, 1 + 2 * 12);
	assert_true(tl[0].t == 0);
	for (size_t i = 1; i < ntl; i++)
		assert_true(tl[i].t >= tl[i - 1].t);
	free(tl);
	/* The next run of a --runs set: its prelude is given none of the freed rows. */
	engine_begin(&e, jobs, 3, 1);
	assert_int_equal(fake.preludes, 2);
	assert_int_equal(fake.prelude_nprior, 0);
	assert_int_equal(engine_round(&e, NULL, NULL), ENGINE_DONE);
	assert_int_equal(fake.calls[12].nprior, 0);
	assert_int_equal(fake.calls[12].iterations, 0);
	engine_end(&e, NULL, NULL);
}

static void test_resting(void **state)
{
	const struct engine_job jobs[] = {
		{ .b = &row_curve, .place = PLACE_NA }, { .b = &row_skip, .place = PLACE_NA }, { .b = &row_fail, .place = PLACE_NA }, { .b = &row_a, .place = PLACE_NA },
	};
	const struct call *c[32];
	struct engine e;
	size_t n;

	(void)state;
	engine_fake(&e, 0);
	progressed = measured = 0;
	engine_begin(&e, jobs, 4, 8);
	/* Without the sentinel, no prelude and no timeline. */
	assert_int_equal(fake.preludes, 0);
	for (int round = 0; round < 8; round++) {
		assert_int_equal(engine_round(&e, count_progress, NULL), round < 7 ? ENGINE_MORE : ENGINE_DONE);
		/* A curve rests between its replicas: not merged again. */
		assert_int_equal(engine_fresh(&e, 0), round == 0 || round == 3 || round == 6);
		assert_int_equal(engine_fresh(&e, 1), round == 0);
		assert_int_equal(engine_fresh(&e, 2), round <= 1);
		assert_true(engine_fresh(&e, 3));
	}
	/* A curve costs what ten rows do: REPLICA_CURVE replicas, spread over the run. */
	n = calls_of(&row_curve, PLACE_NA, c);
	assert_int_equal(n, REPLICA_CURVE);
	assert_int_equal(c[0]->replica, 0);
	assert_int_equal(c[1]->replica, 3);
	assert_int_equal(c[2]->replica, 6);
	/* A skip takes no second replica, a failure no third. */
	assert_int_equal(calls_of(&row_skip, PLACE_NA, c), 1);
	assert_int_equal(calls_of(&row_fail, PLACE_NA, c), 2);
	assert_int_equal(calls_of(&row_a, PLACE_NA, c), 8);
	/* Progress hears of every replica, taken or not: the run's count of those not measured. */
	assert_int_equal(progressed, 4 * 8);
	assert_int_equal(measured, 3 + 1 + 2 + 8);
	engine_end(&e, NULL, NULL);
}

static void test_interrupted(void **state)
{
	const struct engine_job jobs[] = { { .b = &row_a, .place = PLACE_NA }, { .b = &row_pipe, .place = PLACE_SAME }, { .b = &row_curve, .place = PLACE_NA } };
	struct engine e;

	(void)state;
	engine_fake(&e, 0);
	/* The fifth replica asked for is where the signal comes: round 1, job 1. */
	fake.interrupt_at = 5;
	progressed = measured = 0;
	engine_begin(&e, jobs, 3, 4);
	assert_int_equal(engine_round(&e, count_progress, NULL), ENGINE_MORE);
	for (size_t i = 0; i < 3; i++)
		assert_true(engine_fresh(&e, i));
	assert_int_equal(engine_round(&e, count_progress, NULL), ENGINE_INTERRUPTED);
	/* What finished before the signal is kept and merged; the rest is not measured. */
	assert_true(engine_fresh(&e, 0));
	assert_false(engine_fresh(&e, 1));
	assert_false(engine_fresh(&e, 2));
	assert_int_equal(e.jr[0].n, 2);
	assert_int_equal(e.jr[1].n, 1);
	/* Progress heard of every replica begun. */
	assert_int_equal(progressed, 5);
	assert_int_equal(measured, 5);
	engine_end(&e, NULL, NULL);
}

/* A scripted step: logs (job, round) and answers what the script says for that step. */
struct script {
	size_t calls;
	size_t job[64];
	int round[64];
	size_t at;			/* the call (from 1) that answers what */
	enum engine_step what;
	size_t retire_job;		/* a job that retires at its first step (or njobs: none) */
};

static enum engine_step scripted(void *arg, size_t job, int round)
{
	struct script *s = arg;

	assert_true(s->calls < 64);
	s->job[s->calls] = job;
	s->round[s->calls] = round;
	s->calls++;
	if (s->calls == s->at)
		return s->what;
	return job == s->retire_job ? ENGINE_STEP_RETIRE : ENGINE_STEP_OK;
}

static void test_steps(void **state)
{
	struct script s = { .retire_job = 3 };
	struct engine_steps sch = { 3, 2, 3, scripted, &s };

	(void)state;
	/* Two warm-up rounds, then three: every job in order each time, the rounds numbered from -2. */
	assert_int_equal(engine_steps(&sch), ENGINE_DONE);
	assert_int_equal(s.calls, 15);
	for (size_t k = 0; k < 15; k++) {
		assert_int_equal(s.job[k], k % 3);
		assert_int_equal(s.round[k], (int)(k / 3) - 2);
	}
	/* A job that retires in its first step is not asked again; the others go on. */
	memset(&s, 0, sizeof(s));
	s.retire_job = 1;
	sch.warmup = 0;
	assert_int_equal(engine_steps(&sch), ENGINE_DONE);
	assert_int_equal(s.calls, 3 + 2 + 2);
	for (size_t k = 3; k < s.calls; k++)
		assert_true(s.job[k] != 1);
	/* A stop ends the schedule at that step, a signal too: nothing after it is asked. */
	memset(&s, 0, sizeof(s));
	s.retire_job = 3;
	s.at = 5;
	s.what = ENGINE_STEP_STOP;
	assert_int_equal(engine_steps(&sch), ENGINE_STOPPED);
	assert_int_equal(s.calls, 5);
	memset(&s, 0, sizeof(s));
	s.retire_job = 3;
	s.at = 1;
	s.what = ENGINE_STEP_INTERRUPTED;
	assert_int_equal(engine_steps(&sch), ENGINE_INTERRUPTED);
	assert_int_equal(s.calls, 1);
	/* No rounds: nothing asked, done. */
	memset(&s, 0, sizeof(s));
	sch.rounds = 0;
	assert_int_equal(engine_steps(&sch), ENGINE_DONE);
	assert_int_equal(s.calls, 0);
}

/* The paired test's switch: the machine into side, unless this is the switch set to fail. */
static int fake_cond(void *arg, int side)
{
	(void)arg;
	fake.switches++;
	if (fake.switches == fake.fail_switch)
		return -1;
	assert_int_not_equal(side, fake.side);
	fake.side = side;
	return 0;
}

/*
 * Two conditions (kbench ab): every round measures each instance once a
 * side, the two of a pair next to each other, in an order the seed draws
 * (both orders occur, another seed draws others); the machine is switched
 * only where the side changes, and a switch that fails stops the run there.
 */
static void test_paired(void **state)
{
	const struct engine_job jobs[] = {
		{ .b = &row_a, .place = PLACE_NA, .side = 1 }, { .b = &row_a, .place = PLACE_NA, .side = 2 },
		{ .b = &row_pipe, .place = PLACE_SAME, .side = 1 },
		{ .b = &row_pipe, .place = PLACE_SAME, .side = 2 },
	};
	struct engine e;
	int orders[2] = { 0, 0 }, changes = 0, differ = 0;
	enum engine_state st;

	(void)state;
	engine_fake(&e, 0);
	e.paired = 1;
	e.seed = 42;
	e.cond = fake_cond;
	engine_begin(&e, jobs, 4, 8);
	do
		st = engine_round(&e, NULL, NULL);
	while (st == ENGINE_MORE);
	assert_int_equal(st, ENGINE_DONE);
	assert_int_equal(fake.ncalls, 8 * 4);
	for (size_t r = 0; r < 8; r++)
		for (size_t k = 0; k < 2; k++) {
			const struct call *x = &fake.calls[4 * r + 2 * k], *y = x + 1;

			/* The pair's two, next to each other, one a side, in this round. */
			assert_ptr_equal(x->b, jobs[2 * k].b);
			assert_ptr_equal(y->b, jobs[2 * k].b);
			assert_int_equal(x->replica, (int)r);
			assert_int_equal(y->replica, (int)r);
			assert_int_equal(x->side + y->side, 3);
			/* The order is the seed's draw, as engine_b_first gives it. */
			assert_int_equal(x->side == 2, engine_b_first(42, (int)r, k));
			orders[x->side - 1]++;
		}
	assert_true(orders[0] > 0 && orders[1] > 0);
	for (size_t i = 1; i < fake.ncalls; i++)
		changes += fake.calls[i].side != fake.calls[i - 1].side;
	/* A switch before the first replica, then one at each change of side, no more. */
	assert_int_equal(fake.switches, 1 + changes);
	for (int r = 0; r < 8; r++)
		for (size_t k = 0; k < 2; k++)
			differ += engine_b_first(42, r, k) != engine_b_first(43, r, k);
	assert_true(differ > 0);
	assert_int_equal(e.jr[0].n, 8);
	assert_int_equal(e.jr[3].n, 8);
	engine_end(&e, NULL, NULL);

	/* The third switch fails: the round stops before the replica it was for. */
	engine_fake(&e, 0);
	e.paired = 1;
	e.seed = 42;
	e.cond = fake_cond;
	fake.fail_switch = 3;
	engine_begin(&e, jobs, 4, 8);
	do
		st = engine_round(&e, NULL, NULL);
	while (st == ENGINE_MORE);
	assert_int_equal(st, ENGINE_STOPPED);
	assert_int_equal(fake.switches, 3);
	assert_true(fake.ncalls >= 2);
	/* Every replica taken was taken in the side its job is. */
	for (size_t i = 0; i < fake.ncalls; i++)
		assert_true(fake.calls[i].side == 1 || fake.calls[i].side == 2);
	engine_end(&e, NULL, NULL);
}

/* The blocks' start of a side (kbench kernels' boot): counted, never refused. */
static int fake_boot(void *arg, int side)
{
	(void)arg;
	fake.switches++;
	fake.side = side;
	return 0;
}

/*
 * Two sides in blocks (kbench kernels, whose side is a guest's boot):
 * every round measures every job of one side, then every job of the
 * other, the side first drawn once a round from the seed; each side is
 * started once a round, also when the round before ended on it, and
 * every replica is taken in its job's side.
 */
static void test_blocks(void **state)
{
	const struct engine_job jobs[] = {
		{ .b = &row_a, .place = PLACE_NA, .side = 1 }, { .b = &row_a, .place = PLACE_NA, .side = 2 },
		{ .b = &row_pipe, .place = PLACE_SAME, .side = 1 },
		{ .b = &row_pipe, .place = PLACE_SAME, .side = 2 },
		{ .b = &row_curve, .place = PLACE_NA, .side = 1 },
		{ .b = &row_curve, .place = PLACE_NA, .side = 2 },
	};
	struct engine e;
	int firsts[2] = { 0, 0 };
	enum engine_state st;

	(void)state;
	engine_fake(&e, 0);
	e.paired = 1;
	e.blocks = 1;
	e.seed = 7;
	e.cond = fake_boot;
	engine_begin(&e, jobs, 6, 6);
	do
		st = engine_round(&e, NULL, NULL);
	while (st == ENGINE_MORE);
	assert_int_equal(st, ENGINE_DONE);
	/* Two boots a round, whatever the order. */
	assert_int_equal(fake.switches, 2 * 6);
	for (size_t i = 0, r = 0; i < fake.ncalls; r++) {
		int first = fake.calls[i].side;
		size_t start = i;

		assert_int_equal(first == 2, engine_b_first(7, (int)r, 0));
		firsts[first - 1]++;
		/* One side's block, then the other's, each in the jobs' order, in this round. */
		while (i < fake.ncalls && fake.calls[i].side == first && fake.calls[i].replica == (int)r)
			i++;
		assert_true(i - start >= 2);
		while (i < fake.ncalls && fake.calls[i].side == 3 - first && fake.calls[i].replica == (int)r)
			i++;
		assert_ptr_equal(fake.calls[start].b, &row_a);
	}
	assert_true(firsts[0] > 0 && firsts[1] > 0);
	assert_int_equal(e.jr[0].n, 6);
	assert_int_equal(e.jr[1].n, 6);
	engine_end(&e, NULL, NULL);
}

/*
 * Three sides in blocks (kbench kernels with three kernels): each round
 * starts every side once, measures each side's jobs together, in an
 * order that is a permutation of the sides drawn from the seed and the
 * round; over the rounds more than one order comes up; two sides keep
 * engine_b_first's draw.
 */
static void test_blocks_three(void **state)
{
	const struct engine_job jobs[] = {
		{ .b = &row_a, .place = PLACE_NA, .side = 1 }, { .b = &row_a, .place = PLACE_NA, .side = 2 },
		{ .b = &row_a, .place = PLACE_NA, .side = 3 },
		{ .b = &row_pipe, .place = PLACE_SAME, .side = 1 },
		{ .b = &row_pipe, .place = PLACE_SAME, .side = 2 },
		{ .b = &row_pipe, .place = PLACE_SAME, .side = 3 },
	};
	enum { ROUNDS = 8 };
	struct engine e;
	enum engine_state st;
	int order[ENGINE_MAX_SIDES], firsts[3] = { 0, 0, 0 };

	(void)state;
	for (int r = 0; r < 50; r++) {
		int two[2];

		engine_side_order(99, r, 2, two);
		assert_int_equal(two[0] == 2, engine_b_first(99, r, 0));
		for (int n = 1; n <= ENGINE_MAX_SIDES; n++) {
			int seen = 0;

			engine_side_order(99, r, n, order);
			for (int i = 0; i < n; i++) {
				assert_true(order[i] >= 1 && order[i] <= n);
				seen |= 1 << order[i];
			}
			assert_int_equal(seen, ((1 << n) - 1) << 1);
		}
	}
	engine_fake(&e, 0);
	e.paired = 1;
	e.blocks = 1;
	e.nsides = 3;
	e.seed = 7;
	e.cond = fake_boot;
	engine_begin(&e, jobs, 6, ROUNDS);
	do
		st = engine_round(&e, NULL, NULL);
	while (st == ENGINE_MORE);
	assert_int_equal(st, ENGINE_DONE);
	assert_int_equal(fake.switches, 3 * ROUNDS);
	assert_int_equal(fake.ncalls, 6 * ROUNDS);
	for (size_t r = 0; r < ROUNDS; r++) {
		const struct call *c = &fake.calls[6 * r];

		engine_side_order(7, (int)r, 3, order);
		firsts[order[0] - 1]++;
		/* A side's two jobs next to each other, the sides in the drawn order. */
		for (int p = 0; p < 3; p++) {
			assert_int_equal(c[2 * p].side, order[p]);
			assert_int_equal(c[2 * p + 1].side, order[p]);
			assert_ptr_equal(c[2 * p].b, &row_a);
			assert_ptr_equal(c[2 * p + 1].b, &row_pipe);
			assert_int_equal(c[2 * p].replica, (int)r);
		}
	}
	assert_true((firsts[0] > 0) + (firsts[1] > 0) + (firsts[2] > 0) >= 2);
	for (size_t i = 0; i < 6; i++)
		assert_int_equal(e.jr[i].n, ROUNDS);
	engine_end(&e, NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_blocks_three),
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_resting),
		cmocka_unit_test(test_interrupted),
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_paired),
	};

	registry_check();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
