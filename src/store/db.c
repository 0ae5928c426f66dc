/*
 * db.h's calls, each through its connection's engine (db_impl.h).
 */
#include "store/db_impl.h"

#include <stddef.h>

struct db_wait db_wait = { DB_LOCK_S, DB_ANSWER_S, NULL };

void db_waits(double lock_s, double answer_s, int (*stop)(void))
{
	db_wait.lock_s = lock_s;
	db_wait.answer_s = answer_s;
	db_wait.stop = stop;
}

int db_stopped(void)
{
	return db_wait.stop && db_wait.stop();
}

void db_close(struct db *db)
{
	if (db)
		db->ops->close(db);
}

enum db_engine db_engine(const struct db *db)
{
	return db->ops->engine;
}

const char *db_errmsg(const struct db *db)
{
	return db->ops->errmsg(db);
}

int db_busy(const struct db *db)
{
	return db->ops->busy(db);
}

int db_exec(struct db *db, const char *sql)
{
	return db->ops->exec(db, sql);
}

int db_ddl(struct db *db, const char *sql)
{
	return db->ops->ddl(db, sql);
}

int db_begin(struct db *db, int kind)
{
	return db->ops->begin(db, kind);
}

int db_commit(struct db *db)
{
	return db->ops->commit(db);
}

void db_rollback(struct db *db)
{
	db->ops->rollback(db);
}

int db_version(struct db *db, long long *version, long long *tables)
{
	return db->ops->version(db, version, tables);
}

int db_set_version(struct db *db, long long version)
{
	return db->ops->set_version(db, version);
}

struct db_stmt *db_prepare(struct db *db, const char *sql)
{
	return db->ops->prepare(db, sql);
}

void db_finalize(struct db_stmt *st)
{
	if (st)
		st->db->ops->finalize(st);
}

void db_reset(struct db_stmt *st)
{
	st->db->ops->reset(st);
}

int db_bind_int64(struct db_stmt *st, int i, int64_t v)
{
	return st->db->ops->bind_int64(st, i, v);
}

int db_bind_real(struct db_stmt *st, int i, double v)
{
	return st->db->ops->bind_real(st, i, v);
}

int db_bind_text(struct db_stmt *st, int i, const char *v)
{
	return st->db->ops->bind_text(st, i, v);
}

int db_bind_null(struct db_stmt *st, int i)
{
	return st->db->ops->bind_null(st, i);
}

int db_step(struct db_stmt *st)
{
	return st->db->ops->step(st);
}

int db_column_null(struct db_stmt *st, int i)
{
	return st->db->ops->column_null(st, i);
}

int64_t db_column_int64(struct db_stmt *st, int i)
{
	return st->db->ops->column_int64(st, i);
}

double db_column_real(struct db_stmt *st, int i)
{
	return st->db->ops->column_real(st, i);
}

const char *db_column_text(struct db_stmt *st, int i)
{
	return st->db->ops->column_text(st, i);
}

int64_t db_changes(struct db *db)
{
	return db->ops->changes(db);
}
