/*
 * kbench time's driver: one run of a job, as K copies started at the same
 * instant behind a barrier, each timed from the moment it passed the
 * barrier to its end, with the CPU time and rusage of its whole process tree.
 *
 * Why a barrier: the copies are forked, set up (process group, output,
 * directory) and blocked on one pipe before the clock starts; closing the
 * pipe releases them all at once, so "four copies at once" means at once
 * and no copy's figure holds another's fork.  Why subreaping: a build's
 * processes that outlive their parent (a daemonising helper, a make that
 * left a compiler running) come back to kbench instead of init, so their
 * CPU time is counted and they are killed when the job is done: nothing a
 * job started outlives its run.
 */
#ifndef KB_TIMED_H
#define KB_TIMED_H

#include <stddef.h>
#include <sys/resource.h>

#include "core/err.h"

struct runner_janitor;

/* One copy's command. */
struct timed_job {
	char *const *argv;		/* run directly (execvp), no shell */
	const char *dir;		/* its working directory; NULL: kbench's */
	const char *log;		/* its output (truncated each run); NULL: kbench's own */
};

struct timed_cfg {
	size_t copies;			/* how many start at once, >= 1 */
	const struct timed_job *job;	/* copies of them */
	const char *tmp;		/* the job's TMPDIR (in the private directory); NULL: as is */
	double timeout_s;		/* stop the run after this long; 0: never */
	struct runner_janitor *jan;	/* told of every group, so a killed kbench kills them */
};

/* What one copy did. */
struct timed_copy {
	double start;			/* when it passed the barrier, seconds after release */
	double real;			/* from when it passed the barrier to its end, seconds */
	struct rusage ru;		/* its whole tree: its own wait4 and every descendant
					   kbench reaped as subreaper */
	int status;			/* wait status */
	int orphans;			/* descendants kbench reaped (they outlived their parent) */
	int killed;			/* of them, still running when it ended: killed */
};

enum timed_status {
	TIMED_OK = 0,			/* every copy exited 0 */
	TIMED_FAILED,			/* a copy exited non-zero or was killed: err says which */
	TIMED_TIMEOUT,			/* it ran past timeout_s and was stopped */
	TIMED_INTERRUPTED,		/* SIGINT, SIGTERM or SIGHUP: everything is stopped */
	TIMED_SUSPENDED,		/* Ctrl-Z while it ran: no figure, run it again */
	TIMED_ERROR,			/* it could not be started (fork, exec): err says why */
};

/*
 * Run the copies once.  out gets copies entries, *release the barrier's
 * release on the monotonic clock (group_now), *interference the share of
 * the machine's CPU time in the run that neither the job nor kbench used
 * (-1 unknown).  Whatever happens, every process of every copy is killed and
 * waited for before it returns.  err (ERRBUF_LEN) is filled unless TIMED_OK.
 */
enum timed_status timed_run(const struct timed_cfg *cfg, struct timed_copy *out,
			    double *release, double *interference, char *err);

/*
 * The runs of one configuration so far, as timed_result takes them: the
 * caller fills one entry of each array per finished run.
 */
struct timed_series {
	int jobs;			/* the {jobs} value; 0 without --jobs */
	int copies;
	struct timed_copy *done;	/* every copy of every finished run, run by run */
	double *release;		/* each run's barrier release, seconds from the
					   session's start */
	double *wall;			/* each run's wall time, its set-up included */
	size_t nruns;
	double interference;		/* the most any run saw, -1 unknown */
	int failed;			/* a run failed: the result is a failure */
	const char *why;		/* the first failure, one line */
};

struct result;
/*
 * The stored form of a configuration's runs, as time.<name> (id): jobs
 * and copies (parallel) as instance keys; every copy of every run a sample
 * (its real time) with its where (replica = the run) and its usage; one
 * replica per run, whose figure is the median of its copies' real times
 * (with one copy, its real time).  The result's figure is the median of
 * the runs' and its interval comes from them (stats_summarize); user, sys
 * and CPU% the same way, as values, with the makespan (first start to last
 * end) and the spread of the copies' ends.  A failed series is a failure
 * with its reason, and no figure.  Dies without memory.
 */
void timed_result(const struct timed_series *s, const char *id, const char *cmdline,
		  struct result *r);

/*
 * Whether name can be run as execvp would run it: 0 with its path in path,
 * or -1 with err saying why ("not found in PATH", "permission denied").
 */
int timed_find(const char *name, char *path, size_t len, char *err);

#endif
