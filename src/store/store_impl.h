/*
 * What the store's three files share (store.c: the schema, its migrations,
 * opening and closing; store_write.c: a run as it is measured, and
 * imports; store_read.c: selecting, loading, listing, renaming and
 * deleting runs): the connection's structure, the results table's
 * statements, and the helpers each of them calls.  Private to src/store/.
 */
#ifndef KB_STORE_IMPL_H
#define KB_STORE_IMPL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "store/db.h"
#include "store/store.h"

struct store {
	struct db *db;			/* the connection (SQLite's: WAL mode, foreign keys on) */
	int busy;			/* the last failure was another connection's lock: retry */
	int readonly;			/* opened by store_open_readonly: every write refused */
	struct db_stmt *ins_result;	/* prepared once: one per result written */
	struct db_stmt *ins_result_id;	/* prepared once: one per result rewritten */
	struct db_stmt *ins_sample;	/* prepared once: one per sample written */
	struct db_stmt *ins_samples;	/* prepared once: STORE_SAMPLE_ROWS samples at a time */
	struct db_stmt *ins_value;	/* prepared once: one per result value written */
	struct db_stmt *ins_point;	/* prepared once: one per curve point written */
	struct db_stmt *ins_replica;	/* prepared once: one per replica written */
	struct db_stmt *ins_usage;	/* prepared once: one per timed copy written */
	struct db_stmt *ins_bucket;	/* prepared once: one per histogram bucket written */
	char path[PATH_MAX];		/* for error messages */
};


/*
 * The results table's statements are made from core/fields.h's table
 * (store_sql_results): a new result row, its id made by the database
 * (RETURNING it, which both engines take); one rewritten after another
 * replica, keeping its id (the last parameter), since PostgreSQL's
 * identity column takes no NULL for a new id; and the reading of a run's.
 */
enum { STORE_SQL_INSERT, STORE_SQL_INSERT_ID, STORE_SQL_SELECT, STORE_SQL_SELECT_ONE };

/* Defined in store.c. */
char *store_sql_results(int which);
int store_prepare_results(struct store *st, int which, struct db_stmt **q, char *err);
struct record;
char *store_sql_record(const struct record *rec, int which);
int store_prepare_record(struct store *st, const struct record *rec, int which,
			 struct db_stmt **q, char *err);
int store_prepare(struct store *st, const char *sql, struct db_stmt **q);
int store_failed(struct store *st, const char *what, char *err);
int store_exec(struct store *st, const char *sql, const char *what, char *err);
int store_tx(struct store *st, int kind, const char *what, char *err);
int store_commit(struct store *st, const char *what, char *err);
void store_rollback(struct store *st);
int store_writable(const struct store *st, char *err);
void store_now(char *buf, size_t len);
int store_bind_real(struct db_stmt *stmt, int i, double v);
double store_column_real(struct db_stmt *stmt, int i);
int store_bind_text(struct db_stmt *stmt, int i, const char *s);
void store_column_copy(struct db_stmt *stmt, int i, char *dst, size_t len);
int store_step_done(struct db_stmt *stmt);
int store_step_id(struct db_stmt *stmt, int64_t *id);

/* Defined in store_write.c. */
int store_prepare_writes(struct store *st, char *err);
int store_exec_id(struct store *st, const char *const *sql, size_t n, int64_t id);

#endif
