/*
 * One measuring session: what run, contest and time share around their
 * own measuring loops.  It opens the database (or not, with --no-store),
 * describes the machine once, begins each run of a --runs set, stores each
 * result the moment it exists, ends the run (or, interrupted, leaves it
 * without a finish time, and drops it when nothing of it was stored), and
 * says at the end what happened, with the exit status that goes with it.
 *
 * Why one: the rules a run's storage keeps (an interrupted run keeps no
 * finish time; one interrupted before its first result is not kept; a
 * store that fails stops the measuring but not the printing) were written
 * three times, and a fix to one copy did not reach the others.
 */
#ifndef KB_SESSION_H
#define KB_SESSION_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/others.h"
#include "core/result.h"
#include "core/sysinfo.h"

struct store;
struct wire_prelude;

enum session_state {
	SESSION_GOING = 0,	/* measuring, or done with every result stored */
	SESSION_STOPPED,	/* a signal, or a failure said, stopped it; what
				   finished is stored */
	SESSION_UNSTORED,	/* the store failed (err): no more measuring */
};

struct session {
	const char *cmd;		/* "run", "contest", "time": names it in messages */
	struct store *st;		/* NULL with --no-store, and after session_close */
	int stores;			/* a database was opened (not --no-store) */
	char path[PATH_MAX];		/* the database */
	struct sysinfo si;		/* the machine, described once for every run */
	char *si_json;			/* si as JSON, as each run stores it */
	char label[128];		/* --label, or the OS and release */
	struct run_info *runs;		/* the runs begun and kept, nruns of cap */
	size_t nruns, cap;
	size_t nstored;			/* results stored (a result rewritten counts once) */
	size_t *run_stored;		/* of those, each run's (cap) */
	size_t ngone;			/* of those, in runs deleted from the store meanwhile */
	enum session_state state;
	char err[ERRBUF_LEN];		/* why SESSION_UNSTORED */
	struct others others;		/* what else ran, from the opening on (when warning) */
};

/*
 * Open the database (db as --db gave it, NULL for the default; none when
 * no_store), describe the machine (with the clock and MHz the worker's
 * prelude measured; warn about its noisy settings on stderr when asked), name the runs label or,
 * when NULL, the OS and release.  Room for cap runs.  Dies on failure:
 * everything that can refuse is refused before measuring starts.
 */
void session_open(struct session *s, const char *cmd, const char *db, int no_store,
		  const char *label, const struct wire_prelude *pre, int warn, size_t cap);
/*
 * Begin the next run with room for nresults results (the runs after the
 * first are one set with it).  Its id is the store's, or its number in
 * the session without a store.
 */
struct run_info *session_begin(struct session *s, size_t nresults);
/*
 * Store r as a result of run: a new row when row is NULL or *row is 0
 * (then *row is set), else a rewrite of row *row.  Once the store has
 * failed, nothing more is stored; -1 then (err says why) and the caller
 * stops measuring.
 */
int session_put(struct session *s, struct run_info *run, int64_t *row, const struct result *r);
/*
 * A write to run's results failed: the session is stopped when a signal
 * cut the store's wait short (what was stored stays, the exit status is
 * the signal's), unstored otherwise (s->err says why); when the run itself
 * is gone from the store (runs delete --force), what was stored of it is
 * no longer counted as stored.
 */
void session_store_failed(struct session *s, const struct run_info *run);
/*
 * Begin the next run as session_begin does, under label instead of the
 * session's (kbench ab's two conditions are one set, a label each).
 */
struct run_info *session_begin_as(struct session *s, size_t nresults, const char *label);
/*
 * Begin the next run under label on another machine than the session's
 * (kbench kernels: a guest, described by its own init): si and its JSON
 * stored with the run instead of the session's description.
 */
struct run_info *session_begin_on(struct session *s, size_t nresults, const char *label,
				  const struct sysinfo *si, const char *si_json);
struct runner_janitor;
/*
 * An untimed shell command (time's --setup, --prepare, --cleanup, ab's
 * switches), what naming it in a message ("setup"): in tmp as its TMPDIR,
 * its output in log (none: kbench's own), stopped after timeout seconds
 * (0: never), everything it starts in jan's cgroup, and killed when it
 * ends; stopped by Ctrl-Z, it runs again once continued.  0 when it worked; 1
 * when a signal stopped it (the session is stopped); -1 when it failed,
 * said in one line with its last output.
 */
int session_untimed(struct session *s, const char *what, const char *cmd, const char *log,
		    const char *tmp, double timeout, struct runner_janitor *jan);
/* A signal stopped the measuring: the run being measured ends interrupted. */
void session_stop(struct session *s);
/*
 * End run: finished, with its finish time, while GOING; interrupted
 * (no finish time) when STOPPED, and dropped from the store and from
 * s->runs when none of its results was stored (the runs after it in
 * s->runs move down one); left as it is when the store failed.
 */
void session_end(struct session *s, struct run_info *run);
/* Close the database: the results are printed after this, from s->runs. */
void session_close(struct session *s);
/*
 * Say on stderr what happened (store failure, interruption with more (""
 * or ", 3 of 8 replicas not measured"), or where the results went unless
 * quiet), free the runs and the description, and return the exit status:
 * 1 after a store failure or when nfail results failed, 130 interrupted.
 */
int session_finish(struct session *s, size_t nfail, const char *more, int quiet);

#endif
