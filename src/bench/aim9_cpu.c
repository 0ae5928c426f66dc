/*
 * AIM9's tests of the processor and the C library: the arithmetic (add,
 * div and mul in five types), function calls, the sieve, num_fcns.c's
 * numeric, string, memory, sort and miscellaneous routines, and ram_copy.
 * One iteration of a run is one call of the AIM9 test, with its counts and
 * sizes, so that the row's factor (aim9.c) counts one iteration's work.
 *
 * Every call checks its answer.  The arithmetic comes back to the state it
 * started from, which the compiler cannot know, since the start is read
 * through aim9_opaque_*; the rest check what the routines answered (primes
 * counted, residuals of the systems solved, the order after a sort, the
 * bytes copied).  Where AIM9 is wrong on a 64-bit machine this file does
 * what it meant, and says so in a comment starting "AIM9:".  Nothing here
 * prints, exits or times itself; the only replaceable call is time().
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <grp.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "bench/aim9.h"
#include "plat/plat.h"

/* ------------------------------------------------------------ state */

/* A test's state, zeroed, in ctx->priv; teardown frees it. */
static enum bench_status aim9_cpu_new(struct bench_ctx *ctx, size_t size)
{
	ctx->priv = calloc(1, size);
	if (!ctx->priv)
		return bench_fail(ctx, ENOMEM, "calloc of %zu bytes for the test's state", size);
	return BENCH_OK;
}

static void aim9_cpu_teardown(struct bench_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
}

/* A setup that failed or skipped frees what it made: no teardown follows it. */
static enum bench_status aim9_cpu_undo(struct bench_ctx *ctx, enum bench_status st)
{
	aim9_cpu_teardown(ctx);
	return st;
}

/* ------------------------------------------------------- arithmetic */

/*
 * An empty asm that claims to change v: each integer operation stays an
 * instruction of its own, as the factor counts it, instead of being folded
 * with its neighbours (a += b; a += b made a += 2 * b; AIM9 asked for
 * register variables for the same reason).  Floating point needs nothing:
 * without -ffast-math the compiler makes every IEEE operation written.
 */
#define AIM9_KEEP_INT(v) __asm__ volatile("" : "+r"(v))
#define AIM9_KEEP_FP(v) ((void)0)

/* add.c's round of 12: from (0, x, -x) back to (0, x, -x). */
#define AIM9_ROUND_ADD(s, a, b, keep)                                                      \
	do {                                                                               \
		s += a; keep(s); a += b; keep(a); a += b; keep(a); b += s; keep(b);        \
		b += s; keep(b); s += a; keep(s); s += a; keep(s); a += b; keep(a);        \
		a += b; keep(a); b += s; keep(b); b += s; keep(b); s += a; keep(s);        \
	} while (0)

/* div.c's floating round: from (1, x, 1/x) back to it, x a power of two. */
#define AIM9_ROUND_DIV_FP(q, a, b, keep)                                                   \
	do {                                                                               \
		q /= a; keep(q); b /= q; keep(b); a /= b; keep(a); b /= a; keep(b);        \
		q /= b; keep(q); b /= q; keep(b); q /= a; keep(q); b /= q; keep(b);        \
		a /= b; keep(a); b /= a; keep(b); q /= b; keep(q); b /= q; keep(b);        \
	} while (0)

/* div.c's integer round: everything divided by 1, three times over. */
#define AIM9_ROUND_DIV_INT(v, a, b, keep)                                                  \
	do {                                                                               \
		v /= a; keep(v); v /= b; keep(v); a /= b; keep(a); b /= a; keep(b);        \
		v /= a; keep(v); v /= b; keep(v); a /= b; keep(a); b /= a; keep(b);        \
		v /= a; keep(v); v /= b; keep(v); a /= b; keep(a); b /= a; keep(b);        \
	} while (0)

/* mul.c's floating round: from (1, x, 1/x) back to it when x * (1/x) is 1. */
#define AIM9_ROUND_MUL_FP(m, a, b, keep)                                                   \
	do {                                                                               \
		m *= a; keep(m); a *= b; keep(a); a *= b; keep(a); b *= m; keep(b);        \
		b *= m; keep(b); m *= a; keep(m); m *= a; keep(m); a *= b; keep(a);        \
		a *= b; keep(a); b *= m; keep(b); b *= m; keep(b); m *= a; keep(m);        \
	} while (0)

/* mul.c's integer round: everything multiplied by 1. */
#define AIM9_ROUND_MUL_INT(m, a, b, keep)                                                  \
	do {                                                                               \
		m *= a; keep(m); a *= b; keep(a); a *= b; keep(a); b *= a; keep(b);        \
		b *= a; keep(b); m *= b; keep(m); m *= a; keep(m); a *= b; keep(a);        \
		a *= b; keep(a); b *= a; keep(b); b *= a; keep(b); m *= b; keep(m);        \
	} while (0)

/* The start, read so that the compiler cannot know it, by the kind of type. */
#define AIM9_OPAQUE_FP aim9_opaque_double
#define AIM9_OPAQUE_INT aim9_opaque_long

static enum bench_status aim9_arith_fail(struct bench_ctx *ctx, long rounds, const double got[3],
					 const double want[3])
{
	return bench_fail(ctx, 0, "after %ld rounds of 12 the state is (%.17g, %.17g, %.17g), not "
			  "its start (%.17g, %.17g, %.17g)", rounds, got[0], got[1], got[2],
			  want[0], want[1], want[2]);
}

/*
 * One arithmetic test: `rounds` rounds of AIM9_ROUND_<round> in `type` (of
 * kind FP or INT) from (v0, a0, b0), read through aim9_opaque_*, and the
 * state must be back at its start after them.
 */
#define AIM9_ARITH(test, type, kind, round, rounds, v0, a0, b0)                                \
	static enum bench_status test##_run(struct bench_ctx *ctx, uint64_t n)                 \
	{                                                                                      \
		for (uint64_t it = 0; it < n; it++) {                                          \
			type v = (type)AIM9_OPAQUE_##kind(v0), a = (type)AIM9_OPAQUE_##kind(a0); \
			type b = (type)AIM9_OPAQUE_##kind(b0);                                 \
                                                                                               \
			for (long r = (rounds); r > 0; r--)                                    \
				AIM9_ROUND_##round(v, a, b, AIM9_KEEP_##kind);                 \
			if (v != (type)(v0) || a != (type)(a0) || b != (type)(b0)) {           \
				const double got[3] = { (double)v, (double)a, (double)b };     \
				const double want[3] = { (double)(type)(v0), (double)(type)(a0), \
							 (double)(type)(b0) };                 \
                                                                                               \
				return aim9_arith_fail(ctx, (rounds), got, want);              \
			}                                                                      \
		}                                                                              \
		return BENCH_OK;                                                               \
	}                                                                                      \
	const struct aim9_test aim9_##test = { .run = test##_run }

/* AIM9's operands and round counts (its argument strings), test by test. */
/*         test        type    kind round    rounds   start (v, a, b) */
AIM9_ARITH(add_double, double, FP,  ADD,     1500000, 0, 3.14159, -3.14159);
AIM9_ARITH(add_float,  float,  FP,  ADD,     1000000, 0, 3.5, -3.5);
AIM9_ARITH(add_long,   long,   INT, ADD,     5000000, 0, 3, -3);
AIM9_ARITH(add_int,    int,    INT, ADD,     5000000, 0, 3, -3);
AIM9_ARITH(add_short,  short,  INT, ADD,     2000000, 0, 3, -3);
AIM9_ARITH(div_double, double, FP,  DIV_FP,  250000,  1, 4, 0.25);
AIM9_ARITH(div_float,  float,  FP,  DIV_FP,  250000,  1, 4, 0.25);
AIM9_ARITH(div_long,   long,   INT, DIV_INT, 75000,   1234578, 1, 1);
AIM9_ARITH(div_int,    int,    INT, DIV_INT, 75000,   1234578, 1, 1);
AIM9_ARITH(div_short,  short,  INT, DIV_INT, 75000,   1234, 1, 1);
/*
 * AIM9: mul_double's operands were pi and 1/pi printed with "%g", 3.14159
 * and 0.31831, whose product is not 1: the state then sinks to 0 within 8
 * rounds and the rest multiply zeros.  It meant b = 1/a exactly, a state
 * that repeats every round; 4 and 0.25 (mul_float's own) give that.
 */
AIM9_ARITH(mul_double, double, FP,  MUL_FP,  1000000, 1, 4, 0.25);
AIM9_ARITH(mul_float,  float,  FP,  MUL_FP,  1000000, 1, 4, 0.25);
AIM9_ARITH(mul_long,   long,   INT, MUL_INT, 20000,   12345678, 1, 1);
AIM9_ARITH(mul_int,    int,    INT, MUL_INT, 20000,   12345678, 1, 1);
AIM9_ARITH(mul_short,  short,  INT, MUL_INT, 25000,   1234, 1, 1);

/* --------------------------------------------------- function calls */

/*
 * fun.c's loops: 1000 outer passes of 32 inner ones, each making 16 calls
 * (fun_cal15: 512 inner passes of one call), 512000 calls in all.
 */
enum { FUN_OUTER = 1000, FUN_INNER = 32, FUN_INNER15 = 512, FUN_CALLS = 512000 };

/* What the calls of one test call add: the counters run from n - 1 down to 0. */
#define FUN_SUM(n) ((long)(n) * ((n) - 1) / 2)
#define FUN_WANT0 ((long)FUN_CALLS)
#define FUN_WANT1 (16L * FUN_INNER * FUN_SUM(FUN_OUTER))
#define FUN_WANT2 (16L * (FUN_INNER * FUN_SUM(FUN_OUTER) + FUN_OUTER * FUN_SUM(FUN_INNER)))
#define FUN_WANT15 (2L * FUN_OUTER * FUN_SUM(FUN_INNER15))

/*
 * The count the called functions add to, and the 1 that fun_0 adds, reached
 * through pointers as AIM9's were: a function of no arguments has no other
 * way to them.  Each call of a test points them at its own, then clears them.
 */
static long *fun_count;
static const int *fun_step;

__attribute__((noinline)) static long fun_0(void)
{
	return *fun_count += *fun_step;
}

__attribute__((noinline)) static long fun_1(int n)
{
	return *fun_count += n;
}

__attribute__((noinline)) static long fun_2(int n, int i)
{
	return *fun_count += n + i;
}

__attribute__((noinline)) static long fun_15(int i1, int i2, int i3, int i4, int i5, int i6,
					     int i7, int i8, int i9, int i10, int i11, int i12,
					     int i13, int i14, int i15)
{
	return *fun_count += i8 + i15;
}

/*
 * The functions are reached only through these, read at every call of a
 * test: being volatile, the compiler cannot know where a call goes, so it
 * can neither inline it nor drop it (AIM9 put them in another file and
 * chose between them at run time for the same reason).
 */
static long (*volatile fun_0_ptr)(void) = fun_0;
static long (*volatile fun_1_ptr)(int) = fun_1;
static long (*volatile fun_2_ptr)(int, int) = fun_2;
static long (*volatile fun_15_ptr)(int, int, int, int, int, int, int, int, int, int, int, int,
				   int, int, int) = fun_15;

static enum bench_status fun_check(struct bench_ctx *ctx, long count, long want)
{
	fun_count = NULL;
	fun_step = NULL;
	if (count != want)
		return bench_fail(ctx, 0, "the %d calls added %ld, not %ld", FUN_CALLS, count,
				  want);
	return BENCH_OK;
}

static enum bench_status fun_cal_run(struct bench_ctx *ctx, uint64_t n)
{
	for (uint64_t it = 0; it < n; it++) {
		long (*call)(void) = fun_0_ptr;
		long count = 0;
		int step = (int)aim9_opaque_long(1);
		enum bench_status st;

		fun_count = &count;
		fun_step = &step;
		for (int o = FUN_OUTER; o-- > 0;)
			for (int i = FUN_INNER; i-- > 0;) {
				call(); call(); call(); call();
				call(); call(); call(); call();
				call(); call(); call(); call();
				call(); call(); call(); call();
			}
		st = fun_check(ctx, count, FUN_WANT0);
		if (st != BENCH_OK)
			return st;
	}
	return BENCH_OK;
}

static enum bench_status fun_cal1_run(struct bench_ctx *ctx, uint64_t n)
{
	for (uint64_t it = 0; it < n; it++) {
		long (*call)(int) = fun_1_ptr;
		long count = 0;
		enum bench_status st;

		fun_count = &count;
		for (int o = FUN_OUTER; o-- > 0;)
			for (int i = FUN_INNER; i-- > 0;) {
				call(o); call(o); call(o); call(o);
				call(o); call(o); call(o); call(o);
				call(o); call(o); call(o); call(o);
				call(o); call(o); call(o); call(o);
			}
		st = fun_check(ctx, count, FUN_WANT1);
		if (st != BENCH_OK)
			return st;
	}
	return BENCH_OK;
}

/*
 * AIM9: fun_cal2 and fun_cal15 passed the loop counters' addresses to int
 * parameters, so on a 64-bit machine the callee added halves of stack
 * addresses.  What it meant is two (fifteen) int arguments: the counters
 * themselves are passed, and their sum is known.
 */
static enum bench_status fun_cal2_run(struct bench_ctx *ctx, uint64_t n)
{
	for (uint64_t it = 0; it < n; it++) {
		long (*call)(int, int) = fun_2_ptr;
		long count = 0;
		enum bench_status st;

		fun_count = &count;
		for (int o = FUN_OUTER; o-- > 0;)
			for (int i = FUN_INNER; i-- > 0;) {
				call(o, i); call(o, i); call(o, i); call(o, i);
				call(o, i); call(o, i); call(o, i); call(o, i);
				call(o, i); call(o, i); call(o, i); call(o, i);
				call(o, i); call(o, i); call(o, i); call(o, i);
			}
		st = fun_check(ctx, count, FUN_WANT2);
		if (st != BENCH_OK)
			return st;
	}
	return BENCH_OK;
}

static enum bench_status fun_cal15_run(struct bench_ctx *ctx, uint64_t n)
{
	for (uint64_t it = 0; it < n; it++) {
		long (*call)(int, int, int, int, int, int, int, int, int, int, int, int, int, int,
			     int) = fun_15_ptr;
		long count = 0;
		enum bench_status st;

		fun_count = &count;
		for (int o = FUN_OUTER; o-- > 0;)
			for (int i = FUN_INNER15; i-- > 0;)
				call(i, i, i, i, i, i, i, i, i, i, i, i, i, i, i);
		st = fun_check(ctx, count, FUN_WANT15);
		if (st != BENCH_OK)
			return st;
	}
	return BENCH_OK;
}

const struct aim9_test aim9_fun_cal = { .run = fun_cal_run };
const struct aim9_test aim9_fun_cal1 = { .run = fun_cal1_run };
const struct aim9_test aim9_fun_cal2 = { .run = fun_cal2_run };
const struct aim9_test aim9_fun_cal15 = { .run = fun_cal15_run };

/* ------------------------------------------------------------ sieve */

/*
 * 78500 bytes stay set: the 78498 primes below a million, and 0 and 1,
 * which the sieve never strikes out.
 */
enum { SIEVE_MAX = 1000000, SIEVE_REPEATS = 5, SIEVE_LEFT = 78500 };

/* No square-root cut-off: AIM9 scans every n, and so does this. */
static void sieve_once(unsigned char *t)
{
	memset(t, 1, SIEVE_MAX);
	for (long n = 2; n < SIEVE_MAX; n++) {
		if (t[n] != 1)
			continue;
		for (long k = n + n; k < SIEVE_MAX; k += n)
			t[k] = 0;
	}
}

/* The table is allocated by each call, as AIM9's was. */
static enum bench_status sieve_run(struct bench_ctx *ctx, uint64_t n)
{
	for (uint64_t it = 0; it < n; it++) {
		unsigned char *t = malloc(SIEVE_MAX);
		long left = 0;

		if (!t)
			return bench_fail(ctx, ENOMEM, "malloc of the sieve's %d bytes", SIEVE_MAX);
		for (int r = 0; r < SIEVE_REPEATS; r++)
			sieve_once(t);
		for (long k = 0; k < SIEVE_MAX; k++)
			left += t[k] == 1;
		free(t);
		if (left != SIEVE_LEFT)
			return bench_fail(ctx, 0, "the sieve left %ld numbers below %d, not %d",
					  left, SIEVE_MAX, SIEVE_LEFT);
	}
	return BENCH_OK;
}

const struct aim9_test aim9_sieve = { .run = sieve_run };

/* ---------------------------------------------- num_fcns.c's values */

enum { NUM_VALS = 500, NUM_VALS10 = 10000 };

/*
 * The values num_fcns.c feeds its routines.  AIM9: its cursors were one
 * signed int per table for all the tests, never reset, so a long run
 * overflowed them into negative indices; here each test has its own
 * unsigned ones, which wrap.  matrix_rtns and series_1 start at 0 as they
 * did in AIM9's order, where no test before them read vals[].
 */
struct num {
	double vals[NUM_VALS];		/* 0, 1, the smallest subnormal, 2^-1 .. 2^-497 */
	double vals10[NUM_VALS10];	/* in [-10, 10]; the smallest subnormal every 100th */
	unsigned next;			/* vals[]'s cursor */
	unsigned next10;		/* vals10[]'s cursor */
	double want_fo;			/* matrix_rtns: a call's last figure (setup's) */
	double want_prod;		/* matrix_rtns: a call's sum of products */
	volatile double sink;		/* where results nothing checks go */
};

/*
 * AIM9 filled vals10[] from libc's rand(), unseeded; here AIM9's own
 * generator (rand.c's), so that the values do not depend on what else
 * called srand() in this process first (num_rtns_1 itself does).
 */
static unsigned num_rand(unsigned long *seed)
{
	*seed = *seed * 1103515245 + 12345;
	return (unsigned)(*seed >> 16) & 0x7fff;
}

static enum bench_status num_setup(struct bench_ctx *ctx)
{
	enum bench_status st = aim9_cpu_new(ctx, sizeof(struct num));
	struct num *s = ctx->priv;
	unsigned long seed = 1;

	if (st != BENCH_OK)
		return st;
	s->vals[0] = 0.0;
	s->vals[1] = 1.0;
	s->vals[2] = DBL_TRUE_MIN;
	for (int i = 3; i < NUM_VALS; i++)
		s->vals[i] = fabs(s->vals[i - 2] - s->vals[i - 1]) / 2.0;
	for (int i = 0; i < NUM_VALS10; i++)
		s->vals10[i] = i % 100 == 0 ? DBL_TRUE_MIN
					    : (double)num_rand(&seed) / 0x7fff * 20.0 - 10.0;
	return BENCH_OK;
}

static double num_next(struct num *s)
{
	return s->vals[s->next++ % NUM_VALS];
}

/* AIM9's ARG, and POS and NEG, which are ARG moved clear of 0 either way. */
static double num_arg(struct num *s)
{
	return s->vals10[s->next10++ % NUM_VALS10];
}

static double num_pos(struct num *s)
{
	return num_arg(s) + 10.0001;
}

static double num_neg(struct num *s)
{
	return num_arg(s) - 10.0001;
}

/* ------------------------------------------------------- num_rtns_1 */

enum { NUM_ROUNDS = 100 };

/*
 * Nine values and fifteen calls of libm and libc.  The checks are what each
 * answer must be whatever the value (modf's parts add up to its argument,
 * frexp's mantissa is at least 0.5 and under 1 in size, and so on): they
 * cost a few comparisons, and make every result used.
 */
static enum bench_status num_round(struct bench_ctx *ctx, struct num *s, int r, double *sum)
{
	double x = num_arg(s), e = exp(x), fl = floor(e);
	double fo1 = fl + ceil(log10(num_pos(s)));
	double lg = log(num_pos(s)), ip, frac = modf(lg, &ip);
	double neg = num_neg(s);
	int ex;
	double man = frexp(neg, &ex), fo2 = frac + man;
	double x5 = num_arg(s) * 5, pos = num_pos(s), rem = fmod(x5, pos);
	double fo3 = ldexp(num_arg(s), abs(-ex)) + fabs(rem);
	double fo4 = sqrt(pow(num_pos(s), num_arg(s)));
	long fo5;

	srand((unsigned)ex);
	fo5 = labs((long)(-rand() + r));
	if (!(fl <= e && e < fl + 1))
		return bench_fail(ctx, 0, "floor(%.17g) answered %.17g", e, fl);
	if (ip + frac != lg)
		return bench_fail(ctx, 0, "modf(%.17g) answered %.17g and %.17g", lg, ip, frac);
	if (!(man > -1 && man <= -0.5))
		return bench_fail(ctx, 0, "frexp(%.17g) answered %.17g and %d", neg, man, ex);
	if (!(fabs(rem) < pos))
		return bench_fail(ctx, 0, "fmod(%.17g, %.17g) answered %.17g", x5, pos, rem);
	if (!(fo4 > 0) || fo5 < 0)
		return bench_fail(ctx, 0, "sqrt of pow answered %.17g, labs %ld", fo4, fo5);
	*sum += fo1 + fo2 + fo3 + fo4 + (double)fo5;
	return BENCH_OK;
}

static enum bench_status num_rtns_1_run(struct bench_ctx *ctx, uint64_t n)
{
	struct num *s = ctx->priv;

	for (uint64_t it = 0; it < n; it++) {
		double sum = 0;

		for (int r = 0; r < NUM_ROUNDS; r++) {
			enum bench_status st = num_round(ctx, s, r, &sum);

			if (st != BENCH_OK)
				return st;
		}
		s->sink = sum;
	}
	return BENCH_OK;
}

const struct aim9_test aim9_num_rtns_1 = {
	.setup = num_setup, .run = num_rtns_1_run, .teardown = aim9_cpu_teardown,
};

/* --------------------------------------------------------- new_raph */

enum { RAPH_ZEROS = 200, RAPH_TRIES = 100 };

/* 1000 sin x cos x, whose zeros are the multiples of pi/2, and its derivative. */
static double raph_f(double x)
{
	return 1000.0 * sin(x) * cos(x);
}

static double raph_df(double x)
{
	double c = cos(x), s = sin(x);

	return -(s * s * 1000.0) + c * c * 1000.0;
}

/*
 * Newton-Raphson from x until a step moves nothing.  The zero found must
 * be a multiple of pi/2 (a start near a maximum is thrown far, to another
 * zero, which is still one).
 */
static enum bench_status raph_zero(struct bench_ctx *ctx, double x)
{
	double p0 = x, p = x, q;
	int tries = 1;

	while (tries < RAPH_TRIES) {
		p = p0 - raph_f(p0) / raph_df(p0);
		if (fabs(p - p0) == 0.0)
			break;
		tries++;
		p0 = p;
	}
	if (tries >= RAPH_TRIES)
		return bench_fail(ctx, 0, "Newton-Raphson from %g found no zero in %d tries "
				  "(last %.17g)", x, RAPH_TRIES, p);
	q = p / M_PI_2;
	if (!(fabs(q - rint(q)) <= 1e-9 * fmax(1.0, fabs(q))))
		return bench_fail(ctx, 0, "Newton-Raphson from %g stopped at %.17g, not a zero "
				  "of sin x cos x", x, p);
	return BENCH_OK;
}

/* The zeros from 0, 0.05, ... 9.95. */
static enum bench_status new_raph_run(struct bench_ctx *ctx, uint64_t n)
{
	for (uint64_t it = 0; it < n; it++)
		for (int z = 0; z < RAPH_ZEROS; z++) {
			enum bench_status st = raph_zero(ctx, 0.05 * z);

			if (st != BENCH_OK)
				return st;
		}
	return BENCH_OK;
}

const struct aim9_test aim9_new_raph = { .run = new_raph_run };

/* -------------------------------------------------------- trig_rtns */

/* AIM9's argument, 100, times 100 in the test. */
enum { TRIG_ROUNDS = 10000 };

/*
 * Ten calls a round on four values.  Each chain's answer has a range
 * whatever the value: acos(cos(asin(sin x))) is |asin(sin x)|, in
 * [0, pi/2]; tanh of an angle in (-pi/2, pi/2) is in (-1, 1); and atan2
 * of anything over a cosh, which is positive, is in (-pi/2, pi/2).
 */
static enum bench_status trig_round(struct bench_ctx *ctx, struct num *s, double *sum)
{
	double fo1 = acos(cos(asin(sin(num_arg(s)))));
	double fo2 = tanh(atan(tan(num_arg(s))));
	double sh = sinh(num_arg(s)), fo3 = atan2(sh, cosh(num_arg(s)));

	if (!(fo1 >= 0 && fo1 <= M_PI_2) || !(fabs(fo2) < 1) || !(fabs(fo3) < M_PI_2))
		return bench_fail(ctx, 0, "acos of cos of asin of sin, tanh of atan of tan, atan2 "
				  "of sinh and cosh answered %.17g, %.17g, %.17g", fo1, fo2, fo3);
	*sum += fo1 + fo2 + fo3;
	return BENCH_OK;
}

static enum bench_status trig_rtns_run(struct bench_ctx *ctx, uint64_t n)
{
	struct num *s = ctx->priv;

	for (uint64_t it = 0; it < n; it++) {
		double sum = 0;

		for (int r = 0; r < TRIG_ROUNDS; r++) {
			enum bench_status st = trig_round(ctx, s, &sum);

			if (st != BENCH_OK)
				return st;
		}
		s->sink = sum;
	}
	return BENCH_OK;
}

const struct aim9_test aim9_trig_rtns = {
	.setup = num_setup, .run = trig_rtns_run, .teardown = aim9_cpu_teardown,
};

/* ------------------------------------------------------ matrix_rtns */

enum { MATRIX_ROUNDS = 100, MATRIX_N = 4 };

/*
 * 100 points, each a vector of 4 values times a 4x4 matrix of 16, made
 * screen coordinates.  The figure of the last point and the sum of the
 * products come back.
 */
static void matrix_call(struct num *s, double *fo, double *prod)
{
	*prod = 0;
	for (int r = 0; r < MATRIX_ROUNDS; r++) {
		double v[MATRIX_N], m[MATRIX_N][MATRIX_N], w[MATRIX_N];
		int i, j, k;

		for (i = 0; i < MATRIX_N; i++)
			v[i] = num_next(s);
		for (i = 0; i < MATRIX_N; i++)
			for (j = 0; j < MATRIX_N; j++)
				m[i][j] = num_next(s);
		for (i = 0; i < MATRIX_N; i++) {
			w[i] = 0.0;
			for (j = 0; j < MATRIX_N; j++)
				w[i] += v[j] * m[i][j];
		}
		i = (int)(w[0] * 1280.0);
		j = (int)(w[1] * 1024.0);
		k = (int)(w[2] * 8192.0);
		*prod += w[0] * w[1] * w[2];
		*fo = i + j + k + *prod;
	}
}

/*
 * A call takes 2000 values, four times round vals[], so every call takes
 * the same ones in the same order and must give the same figures, to the
 * bit: setup learns them from a call of its own.
 */
static enum bench_status matrix_setup(struct bench_ctx *ctx)
{
	enum bench_status st = num_setup(ctx);
	struct num *s = ctx->priv;

	if (st != BENCH_OK)
		return st;
	matrix_call(s, &s->want_fo, &s->want_prod);
	if (s->next % NUM_VALS != 0 || !(s->want_prod > 0) || !isfinite(s->want_fo))
		return aim9_cpu_undo(ctx, bench_fail(ctx, 0, "a call gave %.17g and %.17g, and "
						     "left the cursor at %u", s->want_fo,
						     s->want_prod, s->next));
	return BENCH_OK;
}

static enum bench_status matrix_rtns_run(struct bench_ctx *ctx, uint64_t n)
{
	struct num *s = ctx->priv;

	for (uint64_t it = 0; it < n; it++) {
		double fo, prod;

		matrix_call(s, &fo, &prod);
		if (fo != s->want_fo || prod != s->want_prod)
			return bench_fail(ctx, 0, "the points gave %.17g and %.17g, not %.17g and "
					  "%.17g", fo, prod, s->want_fo, s->want_prod);
	}
	return BENCH_OK;
}

const struct aim9_test aim9_matrix_rtns = {
	.setup = matrix_setup, .run = matrix_rtns_run, .teardown = aim9_cpu_teardown,
};

/* ------------------------------------------------------- array_rtns */

enum { ARRAY_HIGH = 100, ARRAY_WIDE = 101, ARRAY_SYSTEMS = 20 };
enum { ARRAY_SIZE = ARRAY_HIGH * ARRAY_WIDE };

/* AIM9's static arrays: the system, its copy for the check, the answer. */
struct array {
	double a[ARRAY_SIZE];		/* high rows of wide cells, solved in place */
	double orig[ARRAY_SIZE];	/* a as it was before the solve */
	double x[ARRAY_HIGH];		/* the solution */
};

/*
 * Gauss-Jordan without pivoting, in place: each row scaled to 1 on the
 * diagonal and taken from the rows below, then from the rows above.  The
 * solution is left in the last column.  0, or the row of a 0 diagonal.
 */
static int array_solve(double *a, double *x, int wide, int high)
{
	for (int i = 0; i < high; i++) {
		double t = a[i * wide + i];

		if (t == 0.0)
			return i + 1;
		for (int j = i; j < wide; j++)
			a[i * wide + j] = a[i * wide + j] / t;
		for (int r = i + 1; r < high; r++) {
			t = a[r * wide + i];
			for (int k = 0; k < wide; k++)
				a[r * wide + k] = a[r * wide + k] - t * a[i * wide + k];
		}
	}
	for (int i = high - 1; i > 0; i--)
		for (int r = i - 1; r >= 0; r--) {
			double t = a[r * wide + i];

			for (int k = 0; k < wide; k++)
				a[r * wide + k] = a[r * wide + k] - t * a[i * wide + k];
		}
	for (int i = 0; i < high; i++)
		x[i] = a[i * wide + wide - 1];
	return 0;
}

/* AIM9's check: the original left side times x within 0.5 of the right side. */
static int array_check(const double *a, const double *x, int wide, int high, double *miss)
{
	for (int i = 0; i < high; i++) {
		double t = 0.0;

		for (int j = 0; j < high; j++)
			t += a[i * wide + j] * x[j];
		*miss = fabs(a[i * wide + wide - 1] - t);
		if (*miss > 0.5)
			return i + 1;
	}
	return 0;
}

static enum bench_status array_setup(struct bench_ctx *ctx)
{
	return aim9_cpu_new(ctx, sizeof(struct array));
}

/*
 * A system of `high` unknowns, filled from where the slowly curving series
 * *val has got to, copied, solved, and its solution checked.
 */
static enum bench_status array_system(struct bench_ctx *ctx, struct array *s, int high,
				      double *val)
{
	int wide = high + 1, row;
	double miss;

	for (int i = 0; i < high * wide; i++) {
		s->a[i] = *val;
		*val = *val * 1.00001 + 1.0;
		if (*val > 1e20)
			*val -= 1e19;
	}
	memcpy(s->orig, s->a, sizeof(s->a));
	row = array_solve(s->a, s->x, wide, high);
	if (row)
		return bench_fail(ctx, 0, "the system of %d unknowns is singular at row %d", high,
				  row);
	row = array_check(s->orig, s->x, wide, high, &miss);
	if (row)
		return bench_fail(ctx, 0, "the solution of the system of %d unknowns misses row %d "
				  "by %g", high, row, miss);
	return BENCH_OK;
}

/* 20 systems of 5, 10, ... 100 unknowns, the series starting again at each call. */
static enum bench_status array_rtns_run(struct bench_ctx *ctx, uint64_t n)
{
	struct array *s = ctx->priv;

	for (uint64_t it = 0; it < n; it++) {
		double val = 1.0;
		int high = 5;

		memset(s->a, 0, sizeof(s->a));
		memset(s->orig, 0, sizeof(s->orig));
		for (int k = 0; k < ARRAY_SYSTEMS; k++, high += 5) {
			enum bench_status st;

			if (high > ARRAY_HIGH)
				high = 5;
			st = array_system(ctx, s, high, &val);
			if (st != BENCH_OK)
				return st;
		}
	}
	return BENCH_OK;
}

const struct aim9_test aim9_array_rtns = {
	.setup = array_setup, .run = array_rtns_run, .teardown = aim9_cpu_teardown,
};

/* ------------------------------------------------------ string_rtns */

enum { STR_ROUNDS = 100, STR_BUF = 1024, STR_MATCHES = 118 };

/*
 * The question, read through a volatile pointer so that the compiler
 * cannot know its length and work the string calls on it out at build time.
 */
static const char *volatile str_question = "What is your name?";

/* A number through "%g" and "%ld" and back by atof, strtod, atol, atoi and strtol. */
static enum bench_status str_numbers(struct bench_ctx *ctx, char *buf, int *c1)
{
	double d = *c1 / 1000.0, d2, d3;
	long l, l2, l3;
	char *end;

	snprintf(buf, STR_BUF, "%g", d);
	d2 = atof(buf);
	d3 = strtod(buf, &end);
	if (d2 != d3 || *end != '\0')
		return bench_fail(ctx, 0, "atof and strtod of \"%s\" answered %.17g and %.17g", buf,
				  d2, d3);
	l = (long)(1000 * d2);
	snprintf(buf, STR_BUF, "%ld", l);
	l2 = atol(buf);
	*c1 = atoi(buf);
	l3 = strtol(buf, &end, 10);
	if (l2 != l || *c1 != l || l3 != l)
		return bench_fail(ctx, 0, "atol, atoi and strtol of \"%s\" answered %ld, %d, %ld",
				  buf, l2, *c1, l3);
	return BENCH_OK;
}

/*
 * Every ctype test on the whole buffer, past the string's end into what
 * earlier rounds left there, as AIM9's "real world example" did.
 */
static int str_ctype(char *buf)
{
	int c1 = 0;

	snprintf(buf, STR_BUF, " \t\n\r\b0123456789 abcde fghij klmno pqrst uvwxy z ABCDE FGHIJ "
		 "KLMNO PQRST UVWXY Z .,;:!@#$%%^&*()_-+=|\\\"'`[]}{");
	for (unsigned char *p = (unsigned char *)buf; p < (unsigned char *)buf + STR_BUF - 1; p++) {
		if (isalnum(*p))
			c1++;
		if (isalpha(*p))
			c1++;
		if (iscntrl(*p))
			c1++;
		if (isdigit(*p))
			c1++;
		if (isgraph(*p))
			c1++;
		if (islower(*p)) {
			c1++;
			*p = (unsigned char)toupper(*p);
			*p = (unsigned char)tolower(*p);
		}
		if (isprint(*p))
			c1++;
		if (ispunct(*p))
			c1++;
		if (isspace(*p))
			c1++;
		if (isupper(*p)) {
			c1++;
			*p = (unsigned char)tolower(*p);
			*p = (unsigned char)toupper(*p);
		}
		if (isxdigit(*p))
			c1++;
	}
	return c1;
}

/*
 * The question copied, then appended whole and 10 bytes at a time until
 * the buffer is nearly full, each step compared: 118 comparisons match
 * (the first copy, the 99 partial ones, and the length, 18, counted in).
 */
static int str_concat(char *buf, char *q)
{
	int c2;

	snprintf(q, 32, "%s", str_question);
	c2 = (int)strlen(q);
	snprintf(buf, STR_BUF, "%s", q);
	if (strcmp(buf, q) == 0)
		c2++;
	while (STR_BUF - strlen(buf) > strlen(q)) {
		strcat(buf, q);
		if (strcmp(buf, q) == 0)
			c2++;
	}
	strcpy(buf, q);
	while (STR_BUF - strlen(buf) > strlen(q)) {
		strncat(buf, q, 10);
		if (strncmp(buf, q, 10) == 0)
			c2++;
	}
	return c2;
}

/* ctime's line over the buffer's head, searched six ways. */
static enum bench_status str_search(struct bench_ctx *ctx, char *buf, const char *q, time_t *t,
				    int *c1)
{
	const char *line = ctime(t);
	size_t len;

	if (!line)
		return bench_fail(ctx, errno, "ctime of %lld", (long long)*t);
	(*t)++;
	/* AIM9's strncpy of strlen(line) bytes: this copy, without the terminator. */
	len = strlen(line);
	memcpy(buf, line, len);
	if (strcoll(buf, q) == 0)
		(*c1)++;
	if (strcspn(buf, "jfamsond") > 4)
		(*c1)++;
	if (strpbrk(buf, " ;\n") == NULL)
		return bench_fail(ctx, 0, "strpbrk found no space in \"%.*s\"", (int)len, buf);
	if (strrchr(buf, '\n') == NULL)
		return bench_fail(ctx, 0, "strrchr found no newline in ctime's line");
	if (strspn(buf, "abcdefghijklmnopqrstuvwxyz") > 5)
		(*c1)++;
	if (strstr(buf, buf) != buf)
		return bench_fail(ctx, 0, "strstr did not find the buffer at its own start");
	return BENCH_OK;
}

/* One of AIM9's rounds: numbers, ctype, concatenation, searches. */
static enum bench_status str_round(struct bench_ctx *ctx, char *buf, char *q, time_t *t, int *c1)
{
	enum bench_status st = str_numbers(ctx, buf, c1);
	int c2;

	if (st != BENCH_OK)
		return st;
	*c1 += str_ctype(buf);
	c2 = str_concat(buf, q);
	if (c2 != STR_MATCHES)
		return bench_fail(ctx, 0, "strcmp and strncmp matched %d times, not %d", c2,
				  STR_MATCHES);
	st = str_search(ctx, buf, q, t, c1);
	/* AIM9's use of c2, so that it could not be left out. */
	if (c2 > 100)
		(*c1)++;
	return st;
}

/* The buffer and the count start afresh at each call, the clock from now. */
static enum bench_status string_rtns_run(struct bench_ctx *ctx, uint64_t n)
{
	for (uint64_t it = 0; it < n; it++) {
		char buf[STR_BUF], q[32];
		int c1 = 0;
		time_t t = plat_time(NULL);

		if (t == (time_t)-1)
			return bench_fail(ctx, errno, "time");
		memset(buf, 0, sizeof(buf));
		for (int r = 0; r < STR_ROUNDS; r++) {
			enum bench_status st = str_round(ctx, buf, q, &t, &c1);

			if (st != BENCH_OK)
				return st;
		}
		if (c1 < 0)
			return bench_fail(ctx, 0, "the string counts came to %d", c1);
	}
	return BENCH_OK;
}

const struct aim9_test aim9_string_rtns = { .run = string_rtns_run };

/* ------------------------------------------------ mem_rtns_1 and _2 */

/* AIM9's sizes, "roughly real world representative"; 41960 bytes in all. */
static const int mem_sizes[40] = {
	1, 3, 5, 7, 9, 11, 33, 65, 129, 1024, 1025, 1023, 8192, 4096, 4095, 11, 33, 65, 129, 1024,
	1, 3, 5, 7, 9, 11, 33, 65, 129, 1024, 1025, 1023, 8192, 4096, 4095, 11, 33, 65, 129, 1024,
};
#define MEM_NSIZES ((int)(sizeof(mem_sizes) / sizeof(mem_sizes[0])))

enum { MEM_ROUNDS = 100, MEM_TRIPLES = 100, MEM_BLOCKS = 3 * MEM_TRIPLES };

static const char mem_str[] = "Hello, this is an average length string 1234";

/*
 * What a round's count must come to: the bytes asked for, and the first
 * byte of each block: the string's 'H', the 1 written into each malloc
 * block, calloc's 0.
 */
static long mem1_want(void)
{
	long want = 0;

	for (int i = 0; i < MEM_TRIPLES; i++)
		want += (long)sizeof(mem_str) + mem_sizes[i % MEM_NSIZES] +
			mem_sizes[(i + 1) % MEM_NSIZES] + 'H' + 1;
	return want;
}

/* An allocation failed: the blocks before it are freed, and the call named. */
static enum bench_status mem1_fail(struct bench_ctx *ctx, char **blk, int nblk, const char *call,
				   int size)
{
	for (int i = 0; i < nblk; i++)
		free(blk[i]);
	return bench_fail(ctx, ENOMEM, "%s of %d bytes", call, size);
}

/*
 * 100 triples of a copied string, a malloc and a calloc block.  AIM9:
 * it then read the first byte of every block, the malloc ones never
 * written; here each malloc block's first byte is written when it comes,
 * which touches it the same way and gives the read a known answer.
 */
static enum bench_status mem1_alloc(struct bench_ctx *ctx, char **blk, long *count)
{
	for (int i = 0; i < MEM_TRIPLES; i++) {
		int ms = mem_sizes[i % MEM_NSIZES], cs = mem_sizes[(i + 1) % MEM_NSIZES];
		char **b = blk + 3 * i;

		b[0] = malloc(strlen(mem_str) + 1);
		if (!b[0])
			return mem1_fail(ctx, blk, 3 * i, "malloc", (int)sizeof(mem_str));
		strcpy(b[0], mem_str);
		*count += (long)strlen(b[0]) + 1;
		b[1] = malloc((size_t)ms);
		if (!b[1])
			return mem1_fail(ctx, blk, 3 * i + 1, "malloc", ms);
		b[1][0] = 1;
		*count += ms;
		b[2] = calloc((size_t)cs, 1);
		if (!b[2])
			return mem1_fail(ctx, blk, 3 * i + 2, "calloc", cs);
		*count += cs;
	}
	return BENCH_OK;
}

/* One round: the 300 blocks, their first bytes read, all freed. */
static enum bench_status mem1_round(struct bench_ctx *ctx, long want)
{
	char *blk[MEM_BLOCKS];
	long count = 0;
	enum bench_status st = mem1_alloc(ctx, blk, &count);

	if (st != BENCH_OK)
		return st;
	for (int i = 0; i < MEM_BLOCKS; i++)
		count += blk[i][0];
	/* Freed from the top, each triple string, calloc, malloc: AIM9's order. */
	for (int i = MEM_BLOCKS - 3; i >= 0; i -= 3) {
		free(blk[i]);
		free(blk[i + 2]);
		free(blk[i + 1]);
	}
	if (count != want)
		return bench_fail(ctx, 0, "the blocks' sizes and first bytes came to %ld, not %ld",
				  count, want);
	return BENCH_OK;
}

static enum bench_status mem_rtns_1_run(struct bench_ctx *ctx, uint64_t n)
{
	long want = mem1_want();

	for (uint64_t it = 0; it < n; it++)
		for (int r = 0; r < MEM_ROUNDS; r++) {
			enum bench_status st = mem1_round(ctx, want);

			if (st != BENCH_OK)
				return st;
		}
	return BENCH_OK;
}

const struct aim9_test aim9_mem_rtns_1 = { .run = mem_rtns_1_run };

/* Room for 8192 bytes at any of the offsets 0 to 7. */
enum { MEM2_BUF = 8192 + 8, MEM2_ROUNDS = 100 };

/* AIM9's two buffers were on the stack, uninitialised; these are zeroed once. */
struct mem2 {
	unsigned char b1[MEM2_BUF];
	unsigned char b2[MEM2_BUF];
};

static enum bench_status mem2_setup(struct bench_ctx *ctx)
{
	return aim9_cpu_new(ctx, sizeof(struct mem2));
}

/*
 * Per round memset twice, memchr, memcmp, memcpy and memmove, at every
 * pair of offsets 0 to 7 in turn.  AIM9: the test returned num_fcns.c's
 * cursor, not a status, which fails once that int wraps negative; here
 * it fails only when memchr or memcmp answers wrong.
 */
static enum bench_status mem2_round(struct bench_ctx *ctx, struct mem2 *s, int r)
{
	int off1 = r % 8, off2 = (r / 8) % 8, size = mem_sizes[r % MEM_NSIZES];
	unsigned char *p1 = s->b1 + off1, *p2 = s->b2 + off2, *z;
	int cmp;

	memset(p1, 'A', (size_t)size);
	memset(p2, 'A', (size_t)size);
	p1[r % size] = 'Z';
	z = memchr(p1, 'Z', (size_t)size);
	cmp = memcmp(p1, p2, (size_t)size);
	if (z != p1 + r % size)
		return bench_fail(ctx, 0, "memchr of %d bytes did not find the Z at %d", size,
				  r % size);
	if (cmp <= 0)
		return bench_fail(ctx, 0, "memcmp of %d bytes, one a Z where the other has an A, "
				  "answered %d", size, cmp);
	*z = 'A';
	memcpy(p1, p2, (size_t)size);
	memmove(s->b2 + off1, s->b1 + off2, (size_t)size);
	return BENCH_OK;
}

static enum bench_status mem_rtns_2_run(struct bench_ctx *ctx, uint64_t n)
{
	struct mem2 *s = ctx->priv;

	for (uint64_t it = 0; it < n; it++)
		for (int r = 0; r < MEM2_ROUNDS; r++) {
			enum bench_status st = mem2_round(ctx, s, r);

			if (st != BENCH_OK)
				return st;
		}
	return BENCH_OK;
}

const struct aim9_test aim9_mem_rtns_2 = {
	.setup = mem2_setup, .run = mem_rtns_2_run, .teardown = aim9_cpu_teardown,
};

/* ------------------------------------------------------ sort_rtns_1 */

/*
 * AIM9: the loop stepped by 5 up to its argument, 10, so a call made 2
 * rounds, while the factor counts 10 sort operations a call; here a call
 * makes the 10 rounds.  Each round sorts the table up (it is already),
 * down and up again, then looks up 2000 keys of which half are missing.
 */
enum { SORT_N = 10000, SORT_ROUNDS = 10, SORT_KEY_STEP = 10 };
enum { SORT_KEYS = 2 * SORT_N / SORT_KEY_STEP };

/* AIM9's global table, kept from call to call. */
struct sort {
	int table[SORT_N];
};

/* Differences, as AIM9's: the values are small enough not to overflow. */
static int sort_up(const void *x, const void *y)
{
	return *(const int *)x - *(const int *)y;
}

static int sort_down(const void *x, const void *y)
{
	return *(const int *)y - *(const int *)x;
}

static enum bench_status sort_setup(struct bench_ctx *ctx)
{
	enum bench_status st = aim9_cpu_new(ctx, sizeof(struct sort));
	struct sort *s = ctx->priv;

	if (st == BENCH_OK)
		for (int i = 0; i < SORT_N; i++)
			s->table[i] = i;
	return st;
}

/* A permutation of 0 .. N-1 sorted holds i, or N-1-i, at i. */
static enum bench_status sort_qsort(struct bench_ctx *ctx, int *t, int up)
{
	qsort(t, SORT_N, sizeof(t[0]), up ? sort_up : sort_down);
	for (int i = 0; i < SORT_N; i++)
		if (t[i] != (up ? i : SORT_N - 1 - i))
			return bench_fail(ctx, 0, "qsort %s left %d at %d", up ? "up" : "down",
					  t[i], i);
	return BENCH_OK;
}

static enum bench_status sort_bsearch(struct bench_ctx *ctx, const int *t)
{
	int missed = 0;

	for (int key = 0; key < SORT_KEYS * SORT_KEY_STEP; key += SORT_KEY_STEP) {
		const int *p = bsearch(&key, t, SORT_N, sizeof(t[0]), sort_up);

		if (!p)
			missed++;
		else if (*p != key)
			return bench_fail(ctx, 0, "bsearch for %d found %d", key, *p);
	}
	if (missed != SORT_KEYS / 2)
		return bench_fail(ctx, 0, "bsearch missed %d of %d keys, not %d", missed, SORT_KEYS,
				  SORT_KEYS / 2);
	return BENCH_OK;
}

static enum bench_status sort_rtns_1_run(struct bench_ctx *ctx, uint64_t n)
{
	struct sort *s = ctx->priv;

	for (uint64_t it = 0; it < n; it++)
		for (int r = 0; r < SORT_ROUNDS; r++) {
			enum bench_status st = sort_qsort(ctx, s->table, 1);

			if (st == BENCH_OK)
				st = sort_qsort(ctx, s->table, 0);
			if (st == BENCH_OK)
				st = sort_qsort(ctx, s->table, 1);
			if (st == BENCH_OK)
				st = sort_bsearch(ctx, s->table);
			if (st != BENCH_OK)
				return st;
		}
	return BENCH_OK;
}

const struct aim9_test aim9_sort_rtns_1 = {
	.setup = sort_setup, .run = sort_rtns_1_run, .teardown = aim9_cpu_teardown,
};

/* ------------------------------------------------------ misc_rtns_1 */

enum { MISC_ROUNDS = 10, MISC_CWD = 2048 };

/* What the calls must answer, learnt in setup, and the buffers they fill. */
struct misc {
	struct termios term;	/* zeroed: AIM9 read the speeds of an uninitialised one */
	uid_t uid, euid;
	gid_t gid, egid;
	pid_t pid;
	int ngroups;		/* getgroups' count in setup */
	int maxgroups;		/* room in groups[] */
	volatile long sink;	/* where answers nothing checks go */
	char cwd[MISC_CWD];	/* getcwd's buffer, AIM9's size */
	gid_t groups[];		/* NGROUPS_MAX of them: on the heap, not 256 KiB of stack */
};

/*
 * The lookups AIM9's loop makes and fails on must work here first; a
 * container without a passwd entry for root (or for this user), without a
 * PATH or with a cwd too long skips, with the reason.
 */
static enum bench_status misc_needs(struct bench_ctx *ctx, struct misc *s)
{
	if (!getcwd(s->cwd, sizeof(s->cwd)))
		return bench_skip(ctx, "getcwd into AIM9's %d bytes fails here: %s", MISC_CWD,
				  strerror(errno));
	if (!getenv("PATH"))
		return bench_skip(ctx, "PATH is not set, and AIM9's loop reads it");
	if (!getpwnam("root"))
		return bench_skip(ctx, "getpwnam finds no \"root\" here, and AIM9's loop looks "
				  "it up");
	if (!getpwuid(s->uid))
		return bench_skip(ctx, "getpwuid finds no entry for uid %ld here", (long)s->uid);
	if (!getgrgid(s->gid))
		return bench_skip(ctx, "getgrgid finds no entry for gid %ld here", (long)s->gid);
	s->ngroups = getgroups(s->maxgroups, s->groups);
	if (s->ngroups < 0)
		return bench_fail(ctx, errno, "getgroups");
	return BENCH_OK;
}

static enum bench_status misc_setup(struct bench_ctx *ctx)
{
	long max = sysconf(_SC_NGROUPS_MAX);
	enum bench_status st;
	struct misc *s;

	if (max <= 0)
		max = NGROUPS_MAX;
	st = aim9_cpu_new(ctx, sizeof(*s) + (size_t)max * sizeof(gid_t));
	if (st != BENCH_OK)
		return st;
	s = ctx->priv;
	s->maxgroups = (int)max;
	s->uid = getuid();
	s->euid = geteuid();
	s->gid = getgid();
	s->egid = getegid();
	s->pid = getpid();
	st = misc_needs(ctx, s);
	return st == BENCH_OK ? st : aim9_cpu_undo(ctx, st);
}

/* The identity calls, each held to what setup learnt. */
static enum bench_status misc_ids(struct bench_ctx *ctx, struct misc *s)
{
	int ngroups;

	if (getuid() != s->uid || geteuid() != s->euid || getgid() != s->gid ||
	    getegid() != s->egid)
		return bench_fail(ctx, 0, "getuid, geteuid, getgid or getegid changed its answer");
	ngroups = getgroups(s->maxgroups, s->groups);
	if (ngroups < 0)
		return bench_fail(ctx, errno, "getgroups");
	if (ngroups != s->ngroups)
		return bench_fail(ctx, 0, "getgroups counted %d groups, not %d", ngroups,
				  s->ngroups);
	if (getpid() != s->pid)
		return bench_fail(ctx, 0, "getpid answered other than %ld", (long)s->pid);
	s->sink += getpgrp() + getppid();
	return BENCH_OK;
}

/* The password and group lookups: NSS, so files read or a daemon asked each time. */
static enum bench_status misc_lookups(struct bench_ctx *ctx, struct misc *s)
{
	struct passwd *pw;
	struct group *gr;

	errno = 0;
	pw = getpwnam("root");
	if (!pw)
		return bench_fail(ctx, errno, "getpwnam(\"root\")");
	s->sink += pw->pw_name[0];
	errno = 0;
	pw = getpwuid(s->uid);
	if (!pw || pw->pw_uid != s->uid)
		return bench_fail(ctx, errno, "getpwuid(%ld)", (long)s->uid);
	errno = 0;
	gr = getgrgid(s->gid);
	if (!gr || gr->gr_gid != s->gid)
		return bench_fail(ctx, errno, "getgrgid(%ld)", (long)s->gid);
	s->sink += pw->pw_name[0] + gr->gr_name[0];
	return BENCH_OK;
}

/* The rest: speeds, clocks, names of the terminal, directory and system. */
static enum bench_status misc_rest(struct bench_ctx *ctx, struct misc *s)
{
	speed_t in = cfgetispeed(&s->term), out = cfgetospeed(&s->term);
	clock_t clk = clock(), ticks;
	const char *term = ctermid(NULL), *path, *tty;
	struct tms tms;
	struct utsname name;
	int atty;

	if (clk == (clock_t)-1)
		return bench_fail(ctx, errno, "clock");
	if (!term)
		return bench_fail(ctx, errno, "ctermid");
	if (!getcwd(s->cwd, sizeof(s->cwd)))
		return bench_fail(ctx, errno, "getcwd");
	path = getenv("PATH");
	if (!path)
		return bench_fail(ctx, 0, "getenv(\"PATH\") found nothing");
	ticks = times(&tms);
	if (ticks == (clock_t)-1)
		return bench_fail(ctx, errno, "times");
	/* Without a terminal (a container, a pipe) ttyname's NULL is the answer. */
	atty = isatty(STDIN_FILENO);
	tty = ttyname(STDIN_FILENO);
	if (uname(&name) != 0)
		return bench_fail(ctx, errno, "uname");
	s->sink += (long)in + (long)out + clk + term[0] + s->cwd[0] + path[0] + ticks +
		   tms.tms_utime + atty + (tty ? tty[0] : 0) + name.sysname[0];
	return BENCH_OK;
}

static enum bench_status misc_rtns_1_run(struct bench_ctx *ctx, uint64_t n)
{
	struct misc *s = ctx->priv;

	for (uint64_t it = 0; it < n; it++)
		for (int r = 0; r < MISC_ROUNDS; r++) {
			enum bench_status st = misc_rest(ctx, s);

			if (st == BENCH_OK)
				st = misc_ids(ctx, s);
			if (st == BENCH_OK)
				st = misc_lookups(ctx, s);
			if (st != BENCH_OK)
				return st;
		}
	return BENCH_OK;
}

const struct aim9_test aim9_misc_rtns_1 = {
	.setup = misc_setup, .run = misc_rtns_1_run, .teardown = aim9_cpu_teardown,
};

/* --------------------------------------------------------- series_1 */

enum { SERIES_ROUNDS = 100 };

/*
 * sin x by its Taylor series around 0, summed until a term changes
 * nothing, held to within 1e-4 of sin(), AIM9's own check.
 */
static enum bench_status series_sine(struct bench_ctx *ctx, double x)
{
	double term = x, x2 = x * x, fact = 1.0, k = 1.0, sum = 0.0, old = 100.0;

	while (sum != old) {
		old = sum;
		sum += term / fact;
		fact *= (k + 1) * (k + 2);
		k += 2;
		term *= -x2;
	}
	if (fabs(sum - sin(x)) > 1e-4)
		return bench_fail(ctx, 0, "the series gave sin(%.17g) = %.17g, sin() %.17g", x, sum,
				  sin(x));
	return BENCH_OK;
}

static enum bench_status series_1_run(struct bench_ctx *ctx, uint64_t n)
{
	struct num *s = ctx->priv;

	for (uint64_t it = 0; it < n; it++)
		for (int r = 0; r < SERIES_ROUNDS; r++) {
			enum bench_status st = series_sine(ctx, num_next(s));

			if (st != BENCH_OK)
				return st;
		}
	return BENCH_OK;
}

const struct aim9_test aim9_series_1 = {
	.setup = num_setup, .run = series_1_run, .teardown = aim9_cpu_teardown,
};

/* --------------------------------------------------------- ram_copy */

/* The first 64 of AIM9's 90 sizes, all a call uses: 25020 bytes, the factor. */
static const int ram_sizes[] = {
	1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 8, 9, 11, 17, 33, 63, 7, 7, 7, 7, 7, 7,
	1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 7, 7, 127, 256, 1001, 1200, 1492, 1500,
	1024, 2048, 3172, 4096, 8192, 512, 7, 7, 7, 7, 7, 7, 1, 2, 3, 4, 5, 6, 7, 7, 7, 7,
};
#define RAM_COPIES ((int)(sizeof(ram_sizes) / sizeof(ram_sizes[0])))

enum { RAM_BUF = 8192 + 8, RAM_BYTES = 25020 };

/*
 * AIM9 copied between two static buffers of zeros; here the source holds
 * a pattern, so that what arrives can be told from what was there.
 */
struct ram {
	unsigned char src[RAM_BUF];
	unsigned char dst[RAM_BUF];
	unsigned char want[RAM_BUF];	/* dst after one call from zeros, byte by byte */
};

/* Copy n at every pair of offsets 0 to 7: to n % 8 from (n / 8) % 8. */
static size_t ram_dst_off(int n)
{
	return (size_t)(n % 8);
}

static size_t ram_src_off(int n)
{
	return (size_t)((n / 8) % 8);
}

static enum bench_status ram_setup(struct bench_ctx *ctx)
{
	enum bench_status st = aim9_cpu_new(ctx, sizeof(struct ram));
	struct ram *s = ctx->priv;
	long bytes = 0;

	if (st != BENCH_OK)
		return st;
	for (int i = 0; i < RAM_BUF; i++)
		s->src[i] = (unsigned char)(i * 7 + i / 251 + 1);
	for (int c = 0; c < RAM_COPIES; c++) {
		for (int i = 0; i < ram_sizes[c]; i++)
			s->want[ram_dst_off(c) + (size_t)i] = s->src[ram_src_off(c) + (size_t)i];
		bytes += ram_sizes[c];
	}
	if (bytes != RAM_BYTES)
		return aim9_cpu_undo(ctx, bench_fail(ctx, 0, "ram_copy's sizes add up to %ld, not "
						     "the factor %d", bytes, RAM_BYTES));
	return BENCH_OK;
}

/*
 * Every call makes the same copies, so the destination after the last is
 * what one call makes of zeros.  It is cleared once and checked once per
 * run, not per call: a check of each copy would cost about what the copy
 * does.
 */
static enum bench_status ram_copy_run(struct bench_ctx *ctx, uint64_t n)
{
	struct ram *s = ctx->priv;

	if (n == 0)
		return BENCH_OK;
	memset(s->dst, 0, sizeof(s->dst));
	for (uint64_t it = 0; it < n; it++)
		for (int c = 0; c < RAM_COPIES; c++)
			memcpy(s->dst + ram_dst_off(c), s->src + ram_src_off(c),
			       (size_t)ram_sizes[c]);
	for (int i = 0; i < RAM_BUF; i++)
		if (s->dst[i] != s->want[i])
			return bench_fail(ctx, 0, "memcpy left %u at byte %d of the destination, "
					  "not %u", s->dst[i], i, s->want[i]);
	return BENCH_OK;
}

const struct aim9_test aim9_ram_copy = {
	.setup = ram_setup, .run = ram_copy_run, .teardown = aim9_cpu_teardown,
};
