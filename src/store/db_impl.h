/*
 * What an engine of db.h provides (db_sqlite.c, db_pg.c): its calls in a
 * table, which db.c's public functions go through.  An engine's connection
 * and statement structures begin with struct db and struct db_stmt.
 */
#ifndef KB_STORE_DB_IMPL_H
#define KB_STORE_DB_IMPL_H

#include "store/db.h"

struct db_ops {
	enum db_engine engine;
	void (*close)(struct db *db);
	const char *(*errmsg)(const struct db *db);
	int (*busy)(const struct db *db);
	int (*exec)(struct db *db, const char *sql);
	int (*ddl)(struct db *db, const char *sql);
	int (*begin)(struct db *db, int kind);
	int (*commit)(struct db *db);
	void (*rollback)(struct db *db);
	int (*version)(struct db *db, long long *version, long long *tables);
	int (*set_version)(struct db *db, long long version);
	struct db_stmt *(*prepare)(struct db *db, const char *sql);
	void (*finalize)(struct db_stmt *st);
	void (*reset)(struct db_stmt *st);
	int (*bind_int64)(struct db_stmt *st, int i, int64_t v);
	int (*bind_real)(struct db_stmt *st, int i, double v);
	int (*bind_text)(struct db_stmt *st, int i, const char *v);
	int (*bind_null)(struct db_stmt *st, int i);
	int (*step)(struct db_stmt *st);
	int (*column_null)(struct db_stmt *st, int i);
	int64_t (*column_int64)(struct db_stmt *st, int i);
	double (*column_real)(struct db_stmt *st, int i);
	const char *(*column_text)(struct db_stmt *st, int i);
	int64_t (*changes)(struct db *db);
};

struct db {
	const struct db_ops *ops;
};

/* db_waits' settings, for the engines. */
struct db_wait {
	double lock_s, answer_s;
	int (*stop)(void);
};
extern struct db_wait db_wait;

struct db_stmt {
	struct db *db;
};

#endif
