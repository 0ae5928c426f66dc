/*
 * The measuring session of run, contest and time (session.h): the store's
 * side of a measurement, never the measuring itself.
 */
#include "cli/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/runner.h"
#include "load/timed.h"
#include "report/report.h"
#include "store/store.h"

void session_open(struct session *s, const char *cmd, const char *db, int no_store,
		  const char *label, const struct wire_prelude *pre, int warn, size_t cap)
{
	memset(s, 0, sizeof(*s));
	s->cmd = cmd;
	if (!no_store) {
		cli_db_path(cmd, db, s->path, sizeof(s->path));
		s->st = store_open(s->path, s->err);
		if (!s->st)
			cli_store_died(cmd, s->err);
		s->stores = 1;
	}
	sysinfo_collect(&s->si, &pre->ti, pre->mhz);
	if (warn) {
		sysinfo_warn(&s->si, stderr);
		(void)others_begin(&s->others);
	}
	s->si_json = report_sysinfo_json(&s->si);
	if (!s->si_json)
		die("%s: cannot encode the system description", cmd);
	if (label)
		snprintf(s->label, sizeof(s->label), "%s", label);
	else
		sysinfo_label(&s->si, s->label, sizeof(s->label));
	s->cap = cap ? cap : 1;
	s->runs = calloc(s->cap, sizeof(*s->runs));
	s->run_stored = calloc(s->cap, sizeof(*s->run_stored));
	if (!s->runs || !s->run_stored)
		die("%s: out of memory", cmd);
}

struct run_info *session_begin(struct session *s, size_t nresults)
{
	return session_begin_as(s, nresults, s->label);
}

struct run_info *session_begin_as(struct session *s, size_t nresults, const char *label)
{
	return session_begin_on(s, nresults, label, &s->si, s->si_json);
}

struct run_info *session_begin_on(struct session *s, size_t nresults, const char *label,
				  const struct sysinfo *si, const char *si_json)
{
	struct run_info *run;

	if (s->nruns == s->cap)
		BUG("%s: more runs than the %zu the session was opened for", s->cmd, s->cap);
	run = &s->runs[s->nruns++];
	cli_now_iso(run->started, sizeof(run->started));
	cli_run_begin(s->st, run, label, si, si_json, s->nruns > 1 ? &s->runs[0] : NULL, nresults);
	if (!s->st)
		run->id = (int64_t)s->nruns;
	s->run_stored[s->nruns - 1] = 0;
	return run;
}

int session_put(struct session *s, struct run_info *run, int64_t *row, const struct result *r)
{
	int64_t fresh = 0;
	int first;

	if (s->state == SESSION_UNSTORED)
		return -1;
	if (!s->st)
		return 0;
	if (!row)
		row = &fresh;
	first = *row == 0;
	if (store_result_put(s->st, run->id, row, r, s->err) < 0) {
		session_store_failed(s, run);
		return -1;
	}
	s->nstored += first;
	s->run_stored[run - s->runs] += first;
	return 0;
}

void session_store_failed(struct session *s, const struct run_info *run)
{
	char err[ERRBUF_LEN];
	int64_t id;

	s->state = runner_interrupted() ? SESSION_STOPPED : SESSION_UNSTORED;
	/* Deleted from under it: the results stored before went with the run. */
	if (s->st && run->uuid[0] && store_run_find(s->st, run->uuid, &id, err) == 0)
		s->ngone = s->run_stored[run - s->runs];
}

int session_untimed(struct session *s, const char *what, const char *cmd, const char *log,
		    const char *tmp, double timeout, struct runner_janitor *jan)
{
	static char sh[] = "sh", dash_c[] = "-c";
	char *argv[] = { sh, dash_c, (char *)cmd, NULL };
	struct timed_job job = { argv, NULL, log };
	struct timed_cfg cfg = { 1, &job, tmp, timeout, jan };
	struct timed_copy t;
	double busy, rel;
	char why[ERRBUF_LEN];
	enum timed_status st;

	/* Ctrl-Z stopped it with kbench, and killed it: once continued, it runs again from the start. */
	while ((st = timed_run(&cfg, &t, &rel, &busy, why)) == TIMED_SUSPENDED)
		;
	if (st == TIMED_OK)
		return 0;
	if (st == TIMED_INTERRUPTED) {
		session_stop(s);
		return 1;
	}
	error("%s: --%s '%s' failed: %s", s->cmd, what, cmd, why);
	return -1;
}

void session_stop(struct session *s)
{
	if (s->state == SESSION_GOING)
		s->state = SESSION_STOPPED;
}

void session_end(struct session *s, struct run_info *run)
{
	switch (s->state) {
	case SESSION_GOING:
		if (s->st && store_run_end(s->st, run->id, s->err) < 0) {
			session_store_failed(s, run);
			return;
		}
		cli_now_iso(run->finished, sizeof(run->finished));
		return;
	case SESSION_STOPPED:
		/* Dropped from the store, and so from what is printed. */
		if (s->st && s->run_stored[run - s->runs] == 0) {
			size_t i = (size_t)(run - s->runs);

			cli_run_drop(s->cmd, s->st, run);
			run_info_free(run);
			memmove(&s->runs[i], &s->runs[i + 1], (s->nruns - i - 1) * sizeof(*s->runs));
			memmove(&s->run_stored[i], &s->run_stored[i + 1],
				(s->nruns - i - 1) * sizeof(*s->run_stored));
			s->nruns--;
		}
		return;
	case SESSION_UNSTORED:
		/* Left as it is: it may be gone (runs delete --force). */
		return;
	}
}

void session_close(struct session *s)
{
	if (s->st)
		store_close(s->st);
	s->st = NULL;
}

int session_finish(struct session *s, size_t nfail, const char *more, int quiet)
{
	int rc = nfail ? EXIT_FAIL : EXIT_DONE;
	struct others_use use;

	session_close(s);
	/* What ran beside the measuring, named, where it was enough to move the figures. */
	if (!quiet && s->others.ok && others_since(&s->others, &use) == 0 && others_worth_saying(&use)) {
		char line[512];

		others_line(&use, line, sizeof(line));
		fprintf(stderr, "kbench: warning: %s\n", line);
	}
	others_free(&s->others);
	if (s->state == SESSION_UNSTORED) {
		/* The figures printed are all that is left of what was not stored. */
		fprintf(stderr, "kbench: %s\n", s->err);
		if (s->ngone)
			fprintf(stderr, "kbench: %s stopped: %zu result%s stored in %s, and %zu more went "
				"with the run deleted meanwhile; the figures above were measured but not all "
				"stored\n", s->cmd, s->nstored - s->ngone, s->nstored - s->ngone == 1 ? "" : "s",
				cli_db_shown(s->path), s->ngone);
		else
			fprintf(stderr, "kbench: %s stopped: %zu result%s stored in %s; the figures above were "
				"measured but not all stored\n", s->cmd, s->nstored, s->nstored == 1 ? "" : "s",
				cli_db_shown(s->path));
		rc = EXIT_FAIL;
	} else if (s->state == SESSION_STOPPED && !runner_interrupted()) {
		/* Stopped by a failure it said (ab's switch): a failure's status. */
		fprintf(stderr, "kbench: %s stopped: %zu result%s stored%s\n", s->cmd, s->nstored,
			s->nstored == 1 ? "" : "s", more ? more : "");
		rc = EXIT_FAIL;
	} else if (s->state == SESSION_STOPPED) {
		fprintf(stderr, "kbench: interrupted by signal %d: %zu result%s stored%s\n",
			runner_interrupted(), s->nstored, s->nstored == 1 ? "" : "s", more ? more : "");
		rc = EXIT_SIGNAL(runner_interrupted());
	} else if (!quiet && s->stores && s->nruns) {
		cli_run_stored(s->nstored, s->runs, s->nruns, s->path);
	}
	for (size_t i = 0; i < s->nruns; i++)
		run_info_free(&s->runs[i]);
	free(s->runs);
	free(s->run_stored);
	free(s->si_json);
	s->runs = NULL;
	s->run_stored = NULL;
	s->si_json = NULL;
	return rc;
}

void cli_runs_out(const char *cmd, enum cli_format f, const struct session *ses, int sides)
{
	int rc = f == CLI_GBENCH ? report_gbench(stdout, ses->si_json, ses->runs, ses->nruns, sides)
				 : report_runs_json(stdout, ses->si_json, ses->runs, ses->nruns);

	if (rc < 0)
		die("%s: cannot write the %s document: out of memory", cmd,
		    f == CLI_GBENCH ? "gbench" : "JSON");
}
