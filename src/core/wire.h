/*
 * What crosses between kbench (the front end) and kbench-worker (the
 * measuring process): a request in an unlinked file, the reply on a pipe.
 *
 * Both ends are compiled from one tree and send their structs raw, so a
 * request carries the front end's build id and a worker of another build
 * refuses it, saying its own id: a worker measures only for the kbench it
 * was built with.  Only what makes sense in another image crosses: the
 * bench and the sentinel's rows by id (the worker finds its registry's
 * own), the prior results' figures and curve points (not their samples),
 * the configuration with its pointers rebuilt on arrival.
 */
#ifndef KB_WIRE_H
#define KB_WIRE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>

#include "core/harness.h"
#include "core/result.h"
#include "core/timer.h"

/* The argument that starts a worker; anything else and it refuses. */
#define WIRE_ARG "--kbench-worker"

/*
 * kbench-worker as the launcher of a timed job (kbench time):
 * `kbench-worker --kbench-launch COPY BARRIER REPORT -- PROGRAM ARG...`.
 * A copy forked from kbench sets itself up (its group, its output, its
 * directory) and executes the launcher before the barrier; the launcher
 * waits on BARRIER (end of file: the release), writes a wire_launch to
 * REPORT with the time it got through, and executes the job.  So the exec
 * inside the timed window replaces a process mapping the C library and
 * libm, not one that holds kbench's 26 libraries.  REPORT is made
 * close-on-exec before the job's exec, so that its end of file says every
 * copy has executed its job; a job that cannot be executed is reported on
 * it with its errno.
 */
#define WIRE_LAUNCH_ARG "--kbench-launch"
struct wire_launch {
	int copy;			/* from 0 */
	int err;			/* 0: got through the barrier at start; else the errno of */
	int stage;			/* what failed: WIRE_LAUNCH_EXEC (the job's exec), _DIR
					   (entering its directory), _LOG (opening its log) */
	double start;			/* CLOCK_MONOTONIC, seconds */
	struct rusage before;		/* what the process used before the job's exec (its
					   set-up, the launcher's start): not the job's,
					   though wait4 counts it */
};
enum { WIRE_LAUNCH_EXEC, WIRE_LAUNCH_DIR, WIRE_LAUNCH_LOG };
/* The build's id: 64 hex digits of scripts/build_id.py, and a NUL. */
#define WIRE_ID_LEN 65

enum wire_kind {
	WIRE_MEASURE = 1,	/* one replica of hc: reply a struct result (wire_result_write) */
	WIRE_PRELUDE,		/* the clock and the MHz: a struct wire_prelude */
	WIRE_SENTINEL,		/* the sentinel's iterations and first point: the same */
};

/* The start of every reply, the same in every build: whose reply it is. */
struct wire_reply {
	uint32_t magic;
	uint32_t refused;		/* 1: another build's request, nothing measured */
	char build_id[WIRE_ID_LEN];	/* the worker's */
};

/*
 * A prelude's reply, after its wire_reply: what a session (WIRE_PRELUDE)
 * or a run (WIRE_SENTINEL) measures before any row; what the kind does
 * not measure is 0, or NaN.
 */
struct wire_prelude {
	struct timer_info ti;		/* the clock's cost and step, the empty loop's */
	double mhz;			/* sysinfo_measure_mhz */
	uint64_t nsys, nuser;		/* the sentinel's calibrated iterations */
	struct sentinel_point first;	/* its first point */
};

/* A request as the worker reads it: the configuration with its pointers its own. */
struct wire_request {
	enum wire_kind kind;
	char build_id[WIRE_ID_LEN];	/* the front end's */
	const struct bench *b;		/* WIRE_MEASURE: the row to measure */
	struct harness_cfg hc;		/* clock, tmpdir, prior and sentinel rows rebuilt */
	char tmpdir[PATH_MAX];		/* hc.tmpdir points here */
	struct result *prior;		/* hc.nprior, their points malloc'd */
};

/*
 * Write a request for b (NULL for a prelude) under hc into a new unlinked
 * file in dir: its descriptor, positioned at its start, or -1 with errno.
 * A row that is not the registry's own, or a fake clock, cannot cross:
 * -1 with EINVAL.
 */
int wire_request_write(const char *dir, enum wire_kind kind, const char *build_id,
		       const struct bench *b, const struct harness_cfg *hc);
/*
 * Read one from fd into rq (which wire_request_free releases): 0, or -1
 * with err (ERRBUF_LEN) saying what was wrong.  A request of another build
 * is -1 with rq->build_id set to the sender's and *foreign 1.
 */
int wire_request_read(int fd, const char *build_id, struct wire_request *rq, int *foreign,
		      char *err);
void wire_request_free(struct wire_request *rq);

/* The reply's head; 0 or -1. */
int wire_reply_write(int fd, const char *build_id, int refused);
/*
 * Check the head at the start of buf (len bytes): 0 when it is a reply of
 * this build's worker; -1 otherwise, with err saying whose it is.
 */
int wire_reply_check(const char *buf, size_t len, const char *build_id, char *err, size_t errlen);

/* A result as the worker sends it: the struct, its samples, points and where. */
int wire_result_write(int fd, const struct result *r);
/* Decode one from buf, which holds it whole: 0 with r filled (malloc'd parts), or -1. */
int wire_result_decode(const char *buf, size_t len, struct result *r);

#endif
