/*
 * The SQL connection under the store: one interface, two engines.  The
 * store (store.c) is written once against it; db_sqlite.c puts it on
 * SQLite, the embedded default, and db_pg.c on PostgreSQL through libpq,
 * for fleets, each behind the table of calls of db_impl.h that db.c goes
 * through.  Only those two files include their engine's header.
 *
 * SQL is written as SQLite and PostgreSQL both take it: '?' for each
 * parameter (the PostgreSQL side numbers them $1, $2, ...), INSERT ...
 * RETURNING id for a new row's id, ON CONFLICT for what may be there
 * already.  Schema text goes through db_ddl, which turns SQLite's column
 * types into PostgreSQL's (INTEGER PRIMARY KEY an identity, INTEGER
 * BIGINT, REAL DOUBLE PRECISION).  A NaN is stored as NULL and NULL read
 * back as NaN, as the store has always done.  What PostgreSQL refuses and
 * SQLite takes: a parameter whose type nothing around it gives ("? IS
 * NULL": CAST it), an integer as a condition ("WHERE noisy": write
 * "noisy <> 0"), ids assumed without gaps (a sequence has them).
 *
 * Failures return -1 (or NULL); db_errmsg says why, in the engine's words
 * without a trailing newline, and db_busy whether it was contention with
 * another connection, worth trying again.
 */
#ifndef KB_STORE_DB_H
#define KB_STORE_DB_H

#include <stddef.h>
#include <stdint.h>

enum db_engine {
	DB_SQLITE,
	DB_PG,
};

struct db;		/* a connection */
struct db_stmt;		/* a prepared statement of one connection */

/* How db_sqlite_open opens the file. */
enum {
	DB_SQLITE_READWRITE = 1 << 0,
	DB_SQLITE_CREATE = 1 << 1,	/* with READWRITE: create a missing file */
	DB_SQLITE_READONLY = 1 << 2,
	DB_SQLITE_URI = 1 << 3,		/* name is a file: URI (immutable=1, mode=ro) */
};

/*
 * A SQLite file (or file: URI) opened with flags and a busy timeout of
 * busy_ms, or NULL with err (at least 256 bytes) filled, no "cannot open"
 * prefix: the caller names the database.
 */
struct db *db_sqlite_open(const char *name, int flags, int busy_ms, char *err);
/* Whether SQLite opened the main file read-only (its permissions, its mount). */
int db_sqlite_readonly(struct db *db);
/*
 * Whether the last failure was SQLite's read-only or cannot-open: a WAL
 * file whose -shm this process may not make.
 */
int db_sqlite_cantwrite(const struct db *db);
/* Copy everything in src into dst (an in-memory database): 0 or -1 (db_errmsg(dst)). */
int db_sqlite_copy(struct db *dst, struct db *src);

/*
 * A PostgreSQL server, by libpq's connection string (a postgresql:// URI
 * or key=value words; what it leaves out comes from the PG* variables and
 * ~/.pgpass), or NULL with err (at least 256 bytes) filled.  Connecting
 * gives up after 5 s unless the string or PGCONNECT_TIMEOUT says
 * otherwise; the session speaks UTF-8 and UTC.
 */
struct db *db_pg_open(const char *conninfo, char *err);

/*
 * How long any one wait on a store may last, and what ends it early.  A
 * wait for another connection's lock gives up after lock_s (SQLite's busy
 * wait, PostgreSQL's lock_timeout), a wait for the server's answer after
 * answer_s (then the statement is cancelled, and a server that does not
 * answer the cancel either is left), each with a message that says what
 * was waited for.  stop, polled every few milliseconds while waiting (NULL:
 * never), ends a wait it finds true at once: the statement is cancelled or
 * the lock given up, "interrupted" its message.  A wait that starts with
 * stop already true (the writes of an orderly end after a signal) runs,
 * but for at most DB_AFTER_STOP_S.  For every connection opened after it;
 * the defaults are DB_LOCK_S and DB_ANSWER_S, no stop.
 */
#define DB_LOCK_S 5.0
#define DB_ANSWER_S 60.0
#define DB_AFTER_STOP_S 2.0
void db_waits(double lock_s, double answer_s, int (*stop)(void));
/* Whether db_waits' stop says to stop now. */
int db_stopped(void);

void db_close(struct db *db);
enum db_engine db_engine(const struct db *db);
/* The last failure's message, never NULL. */
const char *db_errmsg(const struct db *db);
/* Whether the last failure was another connection's lock (busy, deadlock, serialization). */
int db_busy(const struct db *db);

/* Statements without parameters or rows, several separated by ';'. */
int db_exec(struct db *db, const char *sql);
/* Schema text, written in SQLite's types, in the engine's. */
int db_ddl(struct db *db, const char *sql);

/*
 * A transaction, of one of three kinds:
 *   DB_TX_WRITE: one that writes; SQLite takes its write lock at once
 *     (BEGIN IMMEDIATE), so that two writers queue instead of deadlocking.
 *   DB_TX_SCHEMA: the one writer of the schema, so that two processes
 *     creating or migrating the same database take turns (SQLite's BEGIN
 *     IMMEDIATE; PostgreSQL's transaction advisory lock on kbench's key).
 *   DB_TX_READ: several reads that must see one snapshot (SQLite's BEGIN;
 *     PostgreSQL's REPEATABLE READ, READ ONLY).
 */
enum {
	DB_TX_WRITE = 0,
	DB_TX_SCHEMA = 1,
	DB_TX_READ = 2,
};
int db_begin(struct db *db, int kind);
int db_commit(struct db *db);
/*
 * Ends the transaction if one is open; its own failure is not reported.
 * After any failure inside a transaction roll it back: PostgreSQL fails
 * every later statement of it, where SQLite would carry on.
 */
void db_rollback(struct db *db);

/*
 * The schema's version: 0 in a new database.  On SQLite PRAGMA
 * user_version; on PostgreSQL the table kbench_schema, which db_set_version
 * creates.  *tables counts the relations already there (0: the database is
 * empty, so kbench may create its schema in it), when tables is not NULL.
 */
int db_version(struct db *db, long long *version, long long *tables);
int db_set_version(struct db *db, long long version);

struct db_stmt *db_prepare(struct db *db, const char *sql);
void db_finalize(struct db_stmt *st);
/* Ready to run again; the bindings are cleared too. */
void db_reset(struct db_stmt *st);

/* Parameters count from 1, as SQLite's. */
int db_bind_int64(struct db_stmt *st, int i, int64_t v);
int db_bind_real(struct db_stmt *st, int i, double v);		/* NaN: NULL */
int db_bind_text(struct db_stmt *st, int i, const char *v);	/* NULL: NULL */
int db_bind_null(struct db_stmt *st, int i);

#define DB_ROW 1
#define DB_DONE 0
/* Run it, or go to its next row: DB_ROW, DB_DONE, or -1 (db_errmsg of its connection). */
int db_step(struct db_stmt *st);
/* The current row's columns, counted from 0. */
int db_column_null(struct db_stmt *st, int i);
int64_t db_column_int64(struct db_stmt *st, int i);	/* NULL: 0 */
double db_column_real(struct db_stmt *st, int i);	/* NULL: NaN */
const char *db_column_text(struct db_stmt *st, int i);	/* NULL: NULL; valid until the next step */
/* Rows the last INSERT, UPDATE or DELETE of the connection changed. */
int64_t db_changes(struct db *db);

#endif
