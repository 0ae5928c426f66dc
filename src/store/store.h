/*
 * The results database, on SQLite or PostgreSQL (store/db.h: the engines
 * are below the store, which is written once).
 *
 * One transaction per result, so a crash or Ctrl-C loses at most the result
 * in progress; WAL and a busy timeout so two runs can write at once, and
 * opening retried while another process holds the lock it needs, so that
 * several creating one new database at once all get it.  The schema
 * carries a version (PRAGMA user_version) and is migrated forward when a
 * writer opens it; a database from a newer kbench is refused, never
 * modified.  Readers open read-only and never write a byte.
 */
#ifndef KB_STORE_H
#define KB_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "core/result.h"

#define STORE_SCHEMA_VERSION 12

struct store;

/*
 * Where the database lives: explicit path, else $KBENCH_DB, else
 * $XDG_DATA_HOME/kbench/results.db, else ~/.local/share/kbench/results.db.
 * Writes the path into buf; returns -1 with err filled if none can be found.
 */
int store_default_path(const char *explicit_path, char *buf, size_t len, char *err);

/*
 * Open (creating if need be, with parent directories) and migrate.  Returns
 * NULL with err filled ("cannot open db 'x': file is not a database").  A file
 * that is not SQLite, or is from a newer kbench, is left untouched.
 */
struct store *store_open(const char *path, char *err);
/*
 * Remove a SQLite store's file and its -wal, -shm and -journal: for a
 * command that made the store and then failed, so that it leaves nothing
 * behind.  Nothing for a PostgreSQL URI.
 */
void store_discard(const char *path);
/*
 * Open an existing database for writing (rename, delete): fails if it does
 * not exist or is empty (zero bytes: not a kbench database yet).
 */
struct store *store_open_existing(const char *path, char *err);
/*
 * Open an existing database to read it only (summary, compare, show,
 * export, the list of runs).  A file this process may not write (a
 * read-only mount, someone else's) is opened SQLITE_OPEN_READONLY, and
 * nothing is written, not even WAL's -shm when it cannot be made (the file
 * is then read as immutable); an older schema is then migrated in memory.
 * A file it may write is read through an ordinary connection, which
 * removes the -wal and -shm when it closes, and an older schema there is
 * migrated for good.  A missing or empty file is refused.  The
 * store_run_*, store_result_*, sentinel, rename, delete and import calls
 * fail on it.
 */
struct store *store_open_readonly(const char *path, char *err);
void store_close(struct store *st);
/*
 * Whether name is a PostgreSQL connection URI (postgresql://, postgres://)
 * rather than a file: every opener above takes one, and what the URI
 * leaves out comes from libpq's PG* variables and ~/.pgpass.
 */
int store_is_uri(const char *name);
/*
 * A database's name as messages show it, into buf: a URI without the
 * password its user part may hold ("postgresql://kb:secret@h/db" is shown
 * "postgresql://kb@h/db") and without its parameters, which may hold one
 * too ("?password=...", a passfile's path, an SSL key's passphrase) and
 * say nothing of which database it is ("postgresql://h/db?..."); a file's
 * path as it is.
 */
void store_shown(const char *name, char *buf, size_t len);

/*
 * Insert the run row (results not included); sets run->id.  The row records
 * this process's id, so that until the run ends the store knows it is
 * being measured (see store_runs_delete).
 */
int store_run_begin(struct store *st, struct run_info *run, char *err);
/*
 * Insert one result, its values, samples (with where each ran and, for a
 * timed job, each copy's usage) and points in a single transaction.
 * These calls and store_sentinel_put and store_run_end say so in err when
 * the run is no longer there (deleted with `runs delete --force` while it
 * was measured), rather than fail on a foreign key.
 */
int store_result_add(struct store *st, int64_t run_id, const struct result *r, char *err);
/*
 * Insert a result, or with *result_id set rewrite the one stored under that
 * id (another replica merged into it), keeping the id; one transaction.
 * *result_id is the row's id afterwards.
 */
int store_result_put(struct store *st, int64_t run_id, int64_t *result_id, const struct result *r,
		     char *err);
/* Replace the run's sentinel timeline with pts (one transaction). */
int store_sentinel_put(struct store *st, int64_t run_id, const struct sentinel_point *pts,
		       size_t n, char *err);
/* Mark the run finished (records the end time). */
int store_run_end(struct store *st, int64_t run_id, char *err);

/*
 * Load runs selected by `sel` (labels, numeric run ids, or "set:N" for the
 * runs of the set whose first run is N; all runs when nsel is 0), oldest
 * first, results included; want: STORE_LOAD_SAMPLES, each result's
 * samples too; STORE_LOAD_LEVELS, each result's figures alone, without its
 * values, points, replicas or the run's sentinel (a history of a thousand
 * runs reads what it draws); 0, the rest.  Returns the count, or -1 with
 * err filled.  A selector that matches nothing is an error naming it.
 */
#define STORE_LOAD_SAMPLES 1
#define STORE_LOAD_LEVELS 2
int store_runs_load(struct store *st, const char *const *sel, size_t nsel, int want,
		    struct run_info **runs, char *err);
void store_runs_free(struct run_info *runs, size_t n);

/* One line of `kbench runs`: a run without its results. */
struct store_run_row {
	int64_t id;			/* run id */
	int64_t set_id;			/* the id of the first run of its set */
	char uuid[40];			/* identity across databases */
	char label[128];
	char started[32], finished[32];	/* ISO 8601 UTC; finished "" if interrupted */
	char host[128];
	char os[256];
	size_t nresults;		/* results stored */
	size_t nmissing;		/* of which skipped or failed */
	int running;			/* no finish time and its kbench is alive: being measured */
};

/*
 * The runs selected (labels, run ids, set:N, LABEL@HOST, as
 * store_runs_load; all when nsel is 0) and, when host is not NULL, of that
 * host only, oldest first, malloc'd into *rows; the count or -1 with err
 * filled (a selector that matches nothing is an error naming it).
 */
int store_runs_list(struct store *st, const char *const *sel, size_t nsel, const char *host,
		    struct store_run_row **rows, char *err);
/*
 * Give the selected runs (labels or run ids, as store_runs_load) a new
 * label, or delete them with everything they hold.  All or nothing: a
 * selector that matches no run changes nothing.  The count of runs, or -1.
 * store_runs_delete refuses a run being measured by another live kbench
 * on this host (no finish time, its process alive); the run's own process
 * may delete it, and store_runs_delete_force deletes it anyway, after which
 * the measuring kbench fails on its next write saying the run was deleted.
 */
int store_runs_rename(struct store *st, const char *const *sel, size_t nsel, const char *label,
		      char *err);
int store_runs_delete(struct store *st, const char *const *sel, size_t nsel, char *err);
int store_runs_delete_force(struct store *st, const char *const *sel, size_t nsel, char *err);

/*
 * Add runs read from an export, in one transaction: a run whose uuid the
 * database already has is left out (so importing a file twice adds
 * nothing) and gets id 0; the others get their new ids.  *added counts the
 * runs added.  0, or -1 with err filled and nothing changed.
 */
int store_import(struct store *st, struct run_info *runs, size_t nruns, size_t *added, char *err);
/* The id of the run with this uuid into *id: 1, 0 when there is none, or -1 with err filled. */
int store_run_find(struct store *st, const char *uuid, int64_t *id, char *err);

#endif
