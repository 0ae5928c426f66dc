/*
 * db.h on SQLite: a thin layer, SQLite's calls one for one, since the
 * interface was cut to what the store asked of SQLite.  The only file that
 * includes sqlite3.h.
 */
#include "store/db_impl.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

struct sq {
	struct db base;
	sqlite3 *h;
	int rc;				/* the extended code of the last failure */
	char msg[256];			/* a message of our own, when SQLite has none */
	int busy_ms;			/* the longest wait for another's lock */
	int waited;			/* what the busy handler last did: SQ_WAITED_* */
	int late;			/* this lock's wait began after a signal */
};

/* Why the busy handler gave up, for the message. */
enum { SQ_WAITED_NOT = 0, SQ_WAITED_OUT, SQ_WAITED_STOPPED };

struct sq_stmt {
	struct db_stmt base;
	sqlite3_stmt *h;
};

#define SQ(d) ((struct sq *)(d))
#define SQC(d) ((const struct sq *)(d))
#define ST(s) ((struct sq_stmt *)(s))

static const struct db_ops sq_ops;

/*
 * The failure recorded; a lock waited out or a wait cut short says so in
 * a message of its own ("database is locked" says neither how long nor
 * that a signal came).
 */
static int fail(struct sq *db)
{
	db->rc = sqlite3_extended_errcode(db->h);
	db->msg[0] = '\0';
	/* Cut short by a signal: not busy, so that nothing tries again. */
	if ((db->rc & 0xff) == SQLITE_BUSY && db->waited == SQ_WAITED_STOPPED)
		db->rc = SQLITE_INTERRUPT;
	if ((db->rc & 0xff) == SQLITE_INTERRUPT)
		snprintf(db->msg, sizeof(db->msg), "interrupted");
	else if ((db->rc & 0xff) == SQLITE_BUSY && db->waited == SQ_WAITED_OUT)
		snprintf(db->msg, sizeof(db->msg),
			 "database is locked: another process held its lock for %.1f s, the longest kbench waits",
			 db->busy_ms / 1000.0);
	else if (((db->rc & 0xff) == SQLITE_IOERR || (db->rc & 0xff) == SQLITE_FULL) &&
		 sqlite3_system_errno(db->h) != 0) {
		int e = sqlite3_system_errno(db->h);
		struct rlimit fs;

		/* "disk I/O error" alone hides the file-size limit (ulimit -f) and a full disk. */
		if (e == EFBIG && getrlimit(RLIMIT_FSIZE, &fs) == 0 && fs.rlim_cur != RLIM_INFINITY)
			snprintf(db->msg, sizeof(db->msg), "%s: the file-size limit (ulimit -f) of %llu bytes "
				 "was reached", sqlite3_errmsg(db->h), (unsigned long long)fs.rlim_cur);
		else
			snprintf(db->msg, sizeof(db->msg), "%s: %s", sqlite3_errmsg(db->h), strerror(e));
	}
	db->waited = SQ_WAITED_NOT;
	return -1;
}

/*
 * SQLite's busy handler, in place of sqlite3_busy_timeout: the same wait
 * (pauses from 1 ms, growing to 25 ms), but a signal (db_wait.stop) ends
 * it at once, one that came before it bounds it to DB_AFTER_STOP_S, and
 * how it ended is kept for the message.  count: the calls so far for
 * this lock.
 */
static int sq_busy_wait(void *arg, int count)
{
	struct sq *db = arg;
	static const int pause_ms[] = { 1, 2, 5, 10, 15, 20, 25 };
	int n = (int)(sizeof(pause_ms) / sizeof(pause_ms[0])), waited = 0, ms, limit;
	int stop = db_wait.stop && db_wait.stop();
	struct timespec ts;

	if (count == 0)
		db->late = stop;
	limit = db->late && db->busy_ms > DB_AFTER_STOP_S * 1000 ? (int)(DB_AFTER_STOP_S * 1000) : db->busy_ms;
	for (int i = 0; i < count; i++)
		waited += pause_ms[i < n ? i : n - 1];
	if (stop && !db->late) {
		db->waited = SQ_WAITED_STOPPED;
		return 0;
	}
	if (waited >= limit) {
		db->waited = SQ_WAITED_OUT;
		return 0;
	}
	ms = pause_ms[count < n ? count : n - 1];
	if (ms > limit - waited)
		ms = limit - waited;
	ts.tv_sec = 0;
	ts.tv_nsec = ms * 1000000L;
	(void)nanosleep(&ts, NULL);	/* a signal cuts it short, and is seen next call */
	return 1;
}


struct db *db_sqlite_open(const char *name, int flags, int busy_ms, char *err)
{
	struct sq *db = calloc(1, sizeof(*db));
	int f = 0, rc;

	if (!db) {
		snprintf(err, 256, "out of memory");
		return NULL;
	}
	db->base.ops = &sq_ops;
	if (flags & DB_SQLITE_READWRITE)
		f |= SQLITE_OPEN_READWRITE;
	if (flags & DB_SQLITE_CREATE)
		f |= SQLITE_OPEN_CREATE;
	if (flags & DB_SQLITE_READONLY)
		f |= SQLITE_OPEN_READONLY;
	if (flags & DB_SQLITE_URI)
		f |= SQLITE_OPEN_URI;
	rc = sqlite3_open_v2(name, &db->h, f, NULL);
	db->busy_ms = busy_ms;
	if (rc == SQLITE_OK)
		rc = sqlite3_busy_handler(db->h, sq_busy_wait, db);

	if (rc != SQLITE_OK) {
		snprintf(err, 256, "%s", db->h ? sqlite3_errmsg(db->h) : sqlite3_errstr(rc));
		sqlite3_close(db->h);
		free(db);
		return NULL;
	}
	return &db->base;
}

/* Only for a SQLite connection: the store asks it of no other. */
int db_sqlite_readonly(struct db *db)
{
	return sqlite3_db_readonly(SQ(db)->h, "main") == 1;
}

int db_sqlite_copy(struct db *dst, struct db *src)
{
	sqlite3_backup *b = sqlite3_backup_init(SQ(dst)->h, "main", SQ(src)->h, "main");
	int rc;

	if (!b)
		return fail(SQ(dst));
	rc = sqlite3_backup_step(b, -1);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		SQ(dst)->rc = rc;
		snprintf(SQ(dst)->msg, sizeof(SQ(dst)->msg), "%s", sqlite3_errstr(rc));
		return -1;
	}
	return 0;
}

int db_sqlite_cantwrite(const struct db *db)
{
	return (SQC(db)->rc & 0xff) == SQLITE_READONLY || (SQC(db)->rc & 0xff) == SQLITE_CANTOPEN;
}

static void sq_close(struct db *db)
{
	/* The store finalizes its statements first, so close cannot be left busy. */
	sqlite3_close(SQ(db)->h);
	free(db);
}

static const char *sq_errmsg(const struct db *db)
{
	return SQC(db)->msg[0] ? SQC(db)->msg : sqlite3_errmsg(SQC(db)->h);
}

static int sq_busy(const struct db *db)
{
	return (SQC(db)->rc & 0xff) == SQLITE_BUSY || (SQC(db)->rc & 0xff) == SQLITE_LOCKED;
}

static int sq_exec(struct db *db, const char *sql)
{
	return sqlite3_exec(SQ(db)->h, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : fail(SQ(db));
}

static int sq_begin(struct db *db, int kind)
{
	return sq_exec(db, kind == DB_TX_READ ? "BEGIN" : "BEGIN IMMEDIATE");
}

static int sq_commit(struct db *db)
{
	return sq_exec(db, "COMMIT");
}

/*
 * Its error is not reported: the caller has the one that matters, and
 * SQLite rolls back on its own where ROLLBACK cannot (after an I/O error).
 * The last failure's code is kept, so that db_busy still speaks of it.
 */
static void sq_rollback(struct db *db)
{
	if (sqlite3_get_autocommit(SQ(db)->h) == 0)
		(void)sqlite3_exec(SQ(db)->h, "ROLLBACK", NULL, NULL, NULL);
}

/*
 * Both in one statement, so that both come from one snapshot: read one
 * after the other, a file another kbench created in between looked like
 * version 0 with tables in it, somebody else's database.  The first read
 * of the file: on text it fails with "file is not a database".
 */
static int sq_version(struct db *d, long long *version, long long *tables)
{
	struct sq *db = SQ(d);
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db->h, "SELECT (SELECT user_version FROM pragma_user_version),"
			       " (SELECT count(*) FROM sqlite_master)", -1, &st, NULL) != SQLITE_OK)
		return fail(db);
	if (sqlite3_step(st) != SQLITE_ROW) {
		fail(db);
		sqlite3_finalize(st);
		return -1;
	}
	*version = sqlite3_column_int64(st, 0);
	if (tables)
		*tables = sqlite3_column_int64(st, 1);
	sqlite3_finalize(st);
	return 0;
}

static int sq_set_version(struct db *db, long long version)
{
	char sql[64];

	snprintf(sql, sizeof(sql), "PRAGMA user_version = %lld", version);
	return sq_exec(db, sql);
}

static struct db_stmt *sq_prepare(struct db *d, const char *sql)
{
	struct sq *db = SQ(d);
	struct sq_stmt *st = calloc(1, sizeof(*st));

	if (!st) {
		db->rc = SQLITE_NOMEM;
		snprintf(db->msg, sizeof(db->msg), "out of memory");
		return NULL;
	}
	st->base.db = d;
	if (sqlite3_prepare_v2(db->h, sql, -1, &st->h, NULL) != SQLITE_OK) {
		fail(db);
		free(st);
		return NULL;
	}
	return &st->base;
}

static void sq_finalize(struct db_stmt *st)
{
	sqlite3_finalize(ST(st)->h);
	free(st);
}

static void sq_reset(struct db_stmt *st)
{
	sqlite3_reset(ST(st)->h);
	sqlite3_clear_bindings(ST(st)->h);
}

static int bound(struct db_stmt *st, int rc)
{
	return rc == SQLITE_OK ? 0 : fail(SQ(st->db));
}

static int sq_bind_int64(struct db_stmt *st, int i, int64_t v)
{
	return bound(st, sqlite3_bind_int64(ST(st)->h, i, (sqlite3_int64)v));
}

static int sq_bind_real(struct db_stmt *st, int i, double v)
{
	return bound(st, isnan(v) ? sqlite3_bind_null(ST(st)->h, i)
				  : sqlite3_bind_double(ST(st)->h, i, v));
}

static int sq_bind_text(struct db_stmt *st, int i, const char *v)
{
	return bound(st, v ? sqlite3_bind_text(ST(st)->h, i, v, -1, SQLITE_TRANSIENT)
			   : sqlite3_bind_null(ST(st)->h, i));
}

static int sq_bind_null(struct db_stmt *st, int i)
{
	return bound(st, sqlite3_bind_null(ST(st)->h, i));
}

static int sq_step(struct db_stmt *st)
{
	int rc = sqlite3_step(ST(st)->h);

	if (rc == SQLITE_ROW)
		return DB_ROW;
	if (rc == SQLITE_DONE)
		return DB_DONE;
	return fail(SQ(st->db));
}

static int sq_column_null(struct db_stmt *st, int i)
{
	return sqlite3_column_type(ST(st)->h, i) == SQLITE_NULL;
}

static int64_t sq_column_int64(struct db_stmt *st, int i)
{
	return (int64_t)sqlite3_column_int64(ST(st)->h, i);
}

static double sq_column_real(struct db_stmt *st, int i)
{
	return sq_column_null(st, i) ? (double)NAN : sqlite3_column_double(ST(st)->h, i);
}

static const char *sq_column_text(struct db_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(ST(st)->h, i);
}

static int64_t sq_changes(struct db *db)
{
	return (int64_t)sqlite3_changes(SQ(db)->h);
}

/* SQLite's types are the schema's own. */
static const struct db_ops sq_ops = {
	.engine = DB_SQLITE,
	.close = sq_close,
	.errmsg = sq_errmsg,
	.busy = sq_busy,
	.exec = sq_exec,
	.ddl = sq_exec,
	.begin = sq_begin,
	.commit = sq_commit,
	.rollback = sq_rollback,
	.version = sq_version,
	.set_version = sq_set_version,
	.prepare = sq_prepare,
	.finalize = sq_finalize,
	.reset = sq_reset,
	.bind_int64 = sq_bind_int64,
	.bind_real = sq_bind_real,
	.bind_text = sq_bind_text,
	.bind_null = sq_bind_null,
	.step = sq_step,
	.column_null = sq_column_null,
	.column_int64 = sq_column_int64,
	.column_real = sq_column_real,
	.column_text = sq_column_text,
	.changes = sq_changes,
};
