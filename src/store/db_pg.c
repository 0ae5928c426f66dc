/*
 * db.h on PostgreSQL, through libpq and nothing else: what SQLite does in
 * the process, done over a connection.  '?' becomes $1, $2, ...; every
 * value travels as text both ways, so that an int64 and a double arrive
 * exactly (reals written with 17 digits, read with extra_float_digits 3);
 * a statement is prepared on the server under a name of its own, and its
 * whole result fetched by the first step, which later steps walk.  The
 * only file that includes libpq-fe.h.  Library code: it must not print,
 * so the server's notices ("already exists, skipping") are swallowed, and
 * it must not hang on a server that went away, hence the keepalives.
 */
#include "store/db_impl.h"

#include <errno.h>
#include <libpq-fe.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

struct pg {
	struct db base;
	PGconn *h;
	unsigned next;			/* the number in the next statement's name */
	int64_t changes;		/* rows of the last INSERT, UPDATE or DELETE */
	char state[6];			/* the last failure's SQLSTATE, "" when it had none */
	char msg[256];			/* the last failure's message, one line */
	unsigned *stale;		/* statements finalized in a failed transaction */
	size_t nstale, capstale;	/* ... to DEALLOCATE once it has ended */
	char gone[256];			/* why the connection was given up, "" while it is not */
};

/* How long a server has to answer a cancel before its connection is given up. */
#define PG_CANCEL_S 2.0
/* How often a wait for the server looks at the clock and at db_wait.stop, in ms. */
#define PG_POLL_MS 20

/* Where a statement is between db_reset and the end of its rows. */
enum {
	PG_READY,			/* not run since it was prepared or reset */
	PG_ROWS,			/* run, and row is the current row of res */
	PG_DONE,			/* DB_DONE returned: the next step runs it again */
};

struct pg_stmt {
	struct db_stmt base;
	unsigned num;			/* its name on the server: "kb" and num */
	int nparams;			/* the '?' in its text */
	char **vals;			/* each parameter's text, malloc'd; NULL: NULL */
	PGresult *res;			/* the last run's rows, while state is PG_ROWS */
	int row;			/* the current row of res */
	int state;			/* PG_READY, PG_ROWS or PG_DONE */
};

#define PG(d) ((struct pg *)(d))
#define PGC(d) ((const struct pg *)(d))
#define ST(s) ((struct pg_stmt *)(s))

/*
 * The key of the transaction advisory lock db_begin(db, DB_TX_SCHEMA)
 * takes: the bytes of "kbench" in ASCII, a number no other program is
 * likely to pick.  Fixed forever: two kbench versions migrating one
 * database must take the same lock.
 */
#define PG_LOCK_KEY 0x6b62656e6368LL

/*
 * The oldest server accepted: the schema's identity columns need 10, and
 * 10 is long out of its support; 11 is the oldest tested here.
 */
#define PG_MIN_SERVER 110000

/* The type OID of boolean, fixed in PostgreSQL's catalog. */
#define PG_BOOLOID 16

static const struct db_ops pg_ops;

/*
 * src as one line into dst (n bytes): libpq's messages end in a newline and
 * continue on indented lines ("server closed the connection unexpectedly\n
 * \tThis probably means..."); each line break becomes "; " and each run of
 * blanks one space.
 */
static void pg_one_line(char *dst, size_t n, const char *src)
{
	size_t o = 0;
	int gap = 0;	/* 1: blanks pending, 2: a line break pending */

	if (!src)
		src = "";
	for (; *src && o + 1 < n; src++) {
		if (*src == '\n' || *src == '\r') {
			gap = 2;
			continue;
		}
		if (*src == ' ' || *src == '\t') {
			if (gap < 1)
				gap = 1;
			continue;
		}
		if (gap && o > 0) {
			const char *sep = gap == 2 ? "; " : " ";

			for (; *sep && o + 1 < n; sep++)
				dst[o++] = *sep;
		}
		gap = 0;
		if (o + 1 < n)
			dst[o++] = *src;
	}
	dst[o] = '\0';
}

static int pg_fail_msg(struct pg *db, const char *msg)
{
	db->state[0] = '\0';
	snprintf(db->msg, sizeof(db->msg), "%s", msg);
	return -1;
}

/*
 * The failure of res (NULL: libpq could not make one) recorded: the
 * server's SQLSTATE and primary message, or libpq's whole message when the
 * connection broke, since that says why ("server closed the connection
 * unexpectedly") where the primary message may not.
 */
static int pg_fail(struct pg *db, const PGresult *res)
{
	const char *code = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *m = NULL;

	snprintf(db->state, sizeof(db->state), "%s", code ? code : "");
	if (PQstatus(db->h) != CONNECTION_BAD && res)
		m = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	if ((!m || !*m) && res)
		m = PQresultErrorMessage(res);
	if (!m || !*m)
		m = PQerrorMessage(db->h);
	pg_one_line(db->msg, sizeof(db->msg), m && *m ? m : "out of memory");
	/* "canceling statement due to lock timeout" says neither whose lock nor how long. */
	if (!strcmp(db->state, "55P03") && strstr(db->msg, "lock timeout"))
		snprintf(db->msg, sizeof(db->msg),
			 "another session held a lock kbench needs for %.1f s, the longest kbench waits "
			 "(lock_timeout)", db_wait.lock_s);
	return -1;
}

/* Whether res is a success, the rows or the command's. */
static int pg_ok(const PGresult *res)
{
	ExecStatusType s = PQresultStatus(res);

	return res && (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK || s == PGRES_EMPTY_QUERY);
}

/* db->changes from a successful result, when it is an INSERT, UPDATE or DELETE's. */
static void pg_count(struct pg *db, PGresult *res)
{
	const char *cmd = PQcmdStatus(res);

	if (!strncmp(cmd, "INSERT ", 7) || !strncmp(cmd, "UPDATE ", 7) || !strncmp(cmd, "DELETE ", 7))
		db->changes = strtoll(PQcmdTuples(res), NULL, 10);
}

static double pg_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Ask the server to cancel what this connection runs; libpq's blocking call, a few ms. */
static void pg_cancel(struct pg *db)
{
	PGcancel *c = PQgetCancel(db->h);
	char buf[256];

	if (c) {
		(void)PQcancel(c, buf, sizeof(buf));
		PQfreeCancel(c);
	}
}

/* Why a wait ended early. */
enum { PG_WAIT_ANSWERED = 0, PG_WAIT_STOPPED, PG_WAIT_TIMED_OUT };

/*
 * The result of the command just sent (sent: what PQsend* returned), as
 * PQexec gives it: the last result, or the first that failed.  PQexec
 * would wait for as long as the server takes, deaf to signals (libpq
 * retries its poll on EINTR): a lock another session holds for minutes,
 * a server process stopped.  Here the wait looks every PG_POLL_MS at
 * db_wait.stop and at the clock; on a stop, or after db_wait.answer_s,
 * the statement is cancelled, and a server that has not answered the
 * cancel within PG_CANCEL_S has its connection given up (db->gone says
 * why, and every later call fails with it).  NULL, with the failure
 * recorded, unless the command succeeded.
 */
static PGresult *pg_wait(struct pg *db, int sent)
{
	double start = pg_now(), cancelled = 0, limit = db_wait.answer_s;
	PGresult *keep = NULL, *r;
	int why = PG_WAIT_ANSWERED;
	/* After a signal: the orderly end's own statements, each given DB_AFTER_STOP_S. */
	int late = db_wait.stop && db_wait.stop();

	if (late && limit > DB_AFTER_STOP_S)
		limit = DB_AFTER_STOP_S;

	if (db->gone[0]) {
		pg_fail_msg(db, db->gone);
		return NULL;
	}
	if (!sent) {
		pg_fail(db, NULL);
		return NULL;
	}
	for (;;) {
		while (PQisBusy(db->h)) {
			struct pollfd p = { PQsocket(db->h), POLLIN, 0 };
			double now = pg_now();

			if (why == PG_WAIT_ANSWERED && !late && db_wait.stop && db_wait.stop())
				why = PG_WAIT_STOPPED;
			else if (why == PG_WAIT_ANSWERED && now - start > limit)
				why = PG_WAIT_TIMED_OUT;
			if (why != PG_WAIT_ANSWERED && !cancelled) {
				pg_cancel(db);
				cancelled = now;
			}
			if (cancelled && now - cancelled > PG_CANCEL_S) {
				if (why == PG_WAIT_STOPPED)
					snprintf(db->gone, sizeof(db->gone), "interrupted; the server did not "
						 "answer the cancel within %.0f s, so its connection was left", PG_CANCEL_S);
				else
					snprintf(db->gone, sizeof(db->gone), "no answer from the server in %.0f s, "
						 "nor to the cancel: the connection was given up", limit);
				PQclear(keep);
				pg_fail_msg(db, db->gone);
				return NULL;
			}
			if (p.fd < 0)
				break;
			if (poll(&p, 1, PG_POLL_MS) < 0 && errno != EINTR)
				break;
			if (!PQconsumeInput(db->h))
				break;
		}
		r = PQgetResult(db->h);
		if (!r)
			break;
		/* The first failure wins, as PQexec's; the rest are read and dropped. */
		if (keep && !pg_ok(keep)) {
			PQclear(r);
			continue;
		}
		PQclear(keep);
		keep = r;
	}
	/* The server's "canceling statement due to user request" said as what it was. */
	if (keep && why != PG_WAIT_ANSWERED && !pg_ok(keep)) {
		PQclear(keep);
		if (why == PG_WAIT_STOPPED)
			pg_fail_msg(db, "interrupted");
		else {
			char m[128];

			snprintf(m, sizeof(m), "no answer from the server in %.0f s: the statement was cancelled",
				 limit);
			pg_fail_msg(db, m);
		}
		return NULL;
	}
	if (!pg_ok(keep)) {
		pg_fail(db, keep);
		PQclear(keep);
		return NULL;
	}
	return keep;
}

/* sql run, its result returned (the caller clears it), or NULL with the failure recorded. */
static PGresult *pg_query(struct pg *db, const char *sql)
{
	/* gone: PQsendQuery is not even tried. */
	return pg_wait(db, !db->gone[0] && PQsendQuery(db->h, sql));
}

static int pg_cmd(struct pg *db, const char *sql)
{
	PGresult *res = pg_query(db, sql);

	PQclear(res);
	return res ? 0 : -1;
}

/* sql run for its effect alone, its failure not recorded: cleaning up after another. */
static void pg_quiet(struct pg *db, const char *sql)
{
	char msg[sizeof(db->msg)], state[sizeof(db->state)];

	/* The failure that matters is the caller's: kept over this one's. */
	memcpy(msg, db->msg, sizeof(msg));
	memcpy(state, db->state, sizeof(state));
	if (PQstatus(db->h) == CONNECTION_OK && !db->gone[0])
		PQclear(pg_query(db, sql));
	memcpy(db->msg, msg, sizeof(msg));
	memcpy(db->state, state, sizeof(state));
}

/*
 * The statements finalized while a transaction was failing deallocated,
 * now that none is: in a failed transaction the server refuses DEALLOCATE
 * too, and each would otherwise stay prepared until the connection ends.
 */
static void pg_flush(struct pg *db)
{
	char sql[32];

	if (PQtransactionStatus(db->h) == PQTRANS_INERROR)
		return;
	for (size_t i = 0; i < db->nstale; i++) {
		snprintf(sql, sizeof(sql), "DEALLOCATE kb%u", db->stale[i]);
		pg_quiet(db, sql);
	}
	db->nstale = 0;
}

/* The server's notices ("table already exists, skipping") are for psql's user, not kbench's. */
static void pg_notice(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

/* Whether the connection string given sets keyword itself. */
static int pg_given(const PQconninfoOption *given, const char *keyword)
{
	for (const PQconninfoOption *o = given; o && o->keyword; o++)
		if (!strcmp(o->keyword, keyword))
			return o->val != NULL;
	return 0;
}

/*
 * What is not in the string, nor (connect_timeout) in the environment:
 * give up connecting after 5 s (issue 18: one clear line within 5 s), and
 * notice a server that vanished without closing (its host down, the
 * network cut) within about 10 s, by keepalives while waiting for a reply
 * and by tcp_user_timeout while a request goes unacknowledged, rather than
 * after TCP's quarter of an hour.  application_name only as libpq's
 * fallback, so PGAPPNAME wins.  tcp_user_timeout is libpq 12's: an older
 * libpq would refuse the whole string for it.  A service file's settings
 * (service=) lose to these, as libpq ranks keywords above it.
 */
static const struct {
	const char *key;		/* libpq's keyword */
	const char *val;		/* our value, when the string has none */
	const char *env;		/* the PG* variable that would set it, or NULL */
	int lib;			/* the oldest PQlibVersion that knows it */
} pg_defaults[] = {
	{ "connect_timeout", "5", "PGCONNECT_TIMEOUT", 0 },
	{ "keepalives", "1", NULL, 0 },
	{ "keepalives_idle", "5", NULL, 0 },
	{ "keepalives_interval", "2", NULL, 0 },
	{ "keepalives_count", "2", NULL, 0 },
	{ "tcp_user_timeout", "10000", NULL, 120000 },
	{ "fallback_application_name", "kbench", NULL, 0 },
};

#define PG_NDEFAULTS (sizeof(pg_defaults) / sizeof(pg_defaults[0]))

/* The session as the store expects it: UTF-8, UTC, and doubles printed exactly. */
static int pg_session(struct pg *db, char *err)
{
	int v = PQserverVersion(db->h);
	char sql[160];

	if (v < PG_MIN_SERVER) {
		snprintf(err, 256, "the server is PostgreSQL %d.%d: kbench needs 11 or newer",
			 v / 10000, v >= 100000 ? v % 10000 : v / 100 % 100);
		return -1;
	}
	if (PQsetClientEncoding(db->h, "UTF8") != 0) {
		pg_one_line(err, 256, PQerrorMessage(db->h));
		return -1;
	}
	/* A lock another session holds is waited for as long as SQLite's, no longer. */
	snprintf(sql, sizeof(sql), "SET TimeZone TO 'UTC'; SET extra_float_digits TO 3; SET lock_timeout TO %ld",
		 (long)(db_wait.lock_s * 1000));
	if (pg_cmd(db, sql) < 0) {
		snprintf(err, 256, "%s", db->msg);
		return -1;
	}
	return 0;
}

/*
 * The connect timeout in effect (the string's, PGCONNECT_TIMEOUT's or
 * ours), in seconds, as libpq reads it: none at 0 or below, 2 at 1.
 */
static double pg_connect_limit(PGconn *h)
{
	PQconninfoOption *opts = PQconninfo(h);
	double limit = 0;

	for (PQconninfoOption *o = opts; o && o->keyword; o++)
		if (!strcmp(o->keyword, "connect_timeout") && o->val)
			limit = atoi(o->val);
	PQconninfoFree(opts);
	return limit <= 0 ? 0 : limit < 2 ? 2 : limit;
}

/*
 * Connect, as PQconnectdbParams would, but listening: PQconnectdbParams
 * waits for the whole connect timeout deaf to signals (libpq retries its
 * poll on EINTR), so a Ctrl-C against a server that accepts and never
 * answers waited 5 s, or 20 with ?connect_timeout=20.  Here libpq's steps
 * are driven one by one, and between them the wait looks every PG_POLL_MS
 * at db_wait.stop and at the clock.  The timeout counts from the start of
 * the whole connect, not afresh for each host of a list as libpq's own
 * does.  0 with h connected, or -1 with err filled (h then NULL).
 */
static int pg_connect(const char *const *keys, const char *const *vals, PGconn **h, char *err)
{
	PostgresPollingStatusType st = PGRES_POLLING_WRITING;
	double start = pg_now(), limit;

	*h = PQconnectStartParams(keys, vals, 1);
	if (!*h) {
		snprintf(err, 256, "out of memory");
		return -1;
	}
	limit = pg_connect_limit(*h);
	while (PQstatus(*h) != CONNECTION_BAD && st != PGRES_POLLING_OK && st != PGRES_POLLING_FAILED) {
		struct pollfd p = { PQsocket(*h), st == PGRES_POLLING_READING ? POLLIN : POLLOUT, 0 };
		int k;

		if (db_wait.stop && db_wait.stop()) {
			snprintf(err, 256, "interrupted while connecting to the server");
			PQfinish(*h);
			*h = NULL;
			return -1;
		}
		if (limit > 0 && pg_now() - start > limit) {
			snprintf(err, 256, "no answer from the server in %.0f s (connect_timeout): "
				 "the connection was given up", limit);
			PQfinish(*h);
			*h = NULL;
			return -1;
		}
		if (p.fd < 0)
			break;
		k = poll(&p, 1, PG_POLL_MS);
		if (k < 0 && errno != EINTR)
			break;
		if (k > 0)
			st = PQconnectPoll(*h);
	}
	if (PQstatus(*h) != CONNECTION_OK) {
		pg_one_line(err, 256, PQerrorMessage(*h));
		if (!err[0])
			snprintf(err, 256, "cannot connect to the server");
		PQfinish(*h);
		*h = NULL;
		return -1;
	}
	return 0;
}

struct db *db_pg_open(const char *conninfo, char *err)
{
	const char *keys[PG_NDEFAULTS + 2], *vals[PG_NDEFAULTS + 2];
	PQconninfoOption *given;
	struct pg *db;
	size_t k = 0;

	if (!conninfo)
		conninfo = "";
	db = calloc(1, sizeof(*db));
	if (!db) {
		snprintf(err, 256, "out of memory");
		return NULL;
	}
	db->base.ops = &pg_ops;
	/* NULL for a bare database name (no '='), which sets nothing else. */
	given = PQconninfoParse(conninfo, NULL);
	for (size_t i = 0; i < PG_NDEFAULTS; i++) {
		const char *e = pg_defaults[i].env ? getenv(pg_defaults[i].env) : NULL;

		if (pg_given(given, pg_defaults[i].key) || (e && *e) ||
		    PQlibVersion() < pg_defaults[i].lib)
			continue;
		keys[k] = pg_defaults[i].key;
		vals[k++] = pg_defaults[i].val;
	}
	PQconninfoFree(given);
	/* Last, and expanded: the string's words and URI parts, then PG*, fill in the rest. */
	keys[k] = "dbname";
	vals[k++] = conninfo;
	keys[k] = NULL;
	vals[k] = NULL;
	if (pg_connect(keys, vals, &db->h, err) < 0) {
		free(db);
		return NULL;
	}
	PQsetNoticeProcessor(db->h, pg_notice, NULL);
	if (pg_session(db, err) < 0) {
		PQfinish(db->h);
		free(db);
		return NULL;
	}
	return &db->base;
}

/* The store finalizes its statements first; the server forgets them with the session. */
static void pg_close(struct db *db)
{
	PQfinish(PG(db)->h);
	free(PG(db)->stale);
	free(db);
}

static const char *pg_errmsg(const struct db *db)
{
	return PGC(db)->msg[0] ? PGC(db)->msg : "not an error";
}

/* Another connection's doing: serialization failure, deadlock, lock not available. */
static int pg_busy(const struct db *db)
{
	const char *s = PGC(db)->state;

	return !strcmp(s, "40001") || !strcmp(s, "40P01") || !strcmp(s, "55P03");
}

static int pg_exec(struct db *d, const char *sql)
{
	PGresult *res = pg_query(PG(d), sql);

	if (!res)
		return -1;
	pg_count(PG(d), res);
	PQclear(res);
	return 0;
}

static int pg_ident(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '$' || (unsigned char)c >= 0x80;
}

/*
 * The length of the string literal, quoted identifier or comment that
 * starts at sql[i], 0 when none does: what may hold a '?' or a type's name
 * that is neither.  An E'...' string's backslash escapes its quote.
 */
static size_t pg_quoted(const char *sql, size_t i)
{
	const char *s = sql + i, *p = s;

	if (*p == '\'' || *p == '"') {
		char q = *p++;
		int esc = q == '\'' && i > 0 && (sql[i - 1] == 'E' || sql[i - 1] == 'e') &&
			  (i == 1 || !pg_ident(sql[i - 2]));

		while (*p && *p != q) {
			if (esc && *p == '\\' && p[1])
				p++;
			p++;
		}
		return (size_t)(p - s) + (*p ? 1 : 0);
	}
	if (p[0] == '-' && p[1] == '-') {
		while (*p && *p != '\n')
			p++;
		return (size_t)(p - s);
	}
	if (p[0] == '/' && p[1] == '*') {
		for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
			;
		return (size_t)(p - s) + (*p ? 2 : 0);
	}
	return 0;
}

/* The length of the word at s when it is word (any case, whole), else 0. */
static size_t pg_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	return !strncasecmp(s, word, n) && !pg_ident(s[n]) ? n : 0;
}

/* The blanks at s. */
static size_t pg_blanks(const char *s)
{
	size_t n = 0;

	while (s[n] == ' ' || s[n] == '\t' || s[n] == '\n' || s[n] == '\r')
		n++;
	return n;
}

/*
 * sql with each '?' outside quotes and comments numbered as PostgreSQL's
 * $1, $2, ..., *n set to their count; NULL when out of memory.
 */
static char *pg_placeholders(const char *sql, int *n)
{
	size_t len = strlen(sql), q = 0, o = 0, i = 0;
	char *out;

	for (size_t j = 0; j < len; j++)
		q += sql[j] == '?';
	out = malloc(len + q * 11 + 1);
	if (!out)
		return NULL;
	*n = 0;
	while (i < len) {
		size_t skip = pg_quoted(sql, i);

		if (skip) {
			memcpy(out + o, sql + i, skip);
			o += skip;
			i += skip;
		} else if (sql[i] == '?') {
			o += (size_t)sprintf(out + o, "$%d", ++*n);
			i++;
		} else {
			out[o++] = sql[i++];
		}
	}
	out[o] = '\0';
	return out;
}

/*
 * Schema text in SQLite's types rewritten in PostgreSQL's, whole words
 * outside quotes and comments, any case: INTEGER PRIMARY KEY (SQLite's
 * rowid, numbered by the database) an identity column, any other INTEGER
 * a BIGINT (SQLite's are 64 bits), REAL a DOUBLE PRECISION (SQLite's are
 * doubles).  A column named integer or real would be rewritten too: the
 * schema has none.
 */
static char *pg_types(const char *sql)
{
	static const char ident[] = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY";
	size_t len = strlen(sql), o = 0, i = 0, w;
	/* The longest growth is REAL's, 4 bytes to 16. */
	char *out = malloc(len * 4 + sizeof(ident));

	if (!out)
		return NULL;
	while (i < len) {
		size_t skip = pg_quoted(sql, i), b1, b2, pk;

		if (skip) {
			memcpy(out + o, sql + i, skip);
			o += skip;
			i += skip;
			continue;
		}
		if (!pg_ident(sql[i]) || (i > 0 && pg_ident(sql[i - 1]))) {
			out[o++] = sql[i++];
			continue;
		}
		if ((w = pg_word(sql + i, "INTEGER"))) {
			const char *p = sql + i + w;
			size_t key;

			b1 = pg_blanks(p);
			pk = b1 ? pg_word(p + b1, "PRIMARY") : 0;
			b2 = pk ? pg_blanks(p + b1 + pk) : 0;
			key = b2 ? pg_word(p + b1 + pk + b2, "KEY") : 0;
			if (key) {
				memcpy(out + o, ident, sizeof(ident) - 1);
				o += sizeof(ident) - 1;
				i += w + b1 + pk + b2 + key;
			} else {
				memcpy(out + o, "BIGINT", 6);
				o += 6;
				i += 7;
			}
		} else if ((w = pg_word(sql + i, "REAL"))) {
			memcpy(out + o, "DOUBLE PRECISION", 16);
			o += 16;
			i += w;
		} else {
			while (pg_ident(sql[i]))
				out[o++] = sql[i++];
		}
	}
	out[o] = '\0';
	return out;
}

static int pg_ddl(struct db *d, const char *sql)
{
	char *text = pg_types(sql);
	int rc;

	if (!text)
		return pg_fail_msg(PG(d), "out of memory");
	rc = pg_cmd(PG(d), text);
	free(text);
	return rc;
}

/*
 * As SQLite's, a transaction cannot begin within one nor commit outside
 * one (PostgreSQL would only warn).  db.h's kinds: a write, BEGIN; a read,
 * one snapshot for all its statements (REPEATABLE READ, READ ONLY: a
 * store reading a run's results while another host adds to it sees them
 * as they were when it began); the schema's one writer, BEGIN and the
 * advisory lock on kbench's key, held to the end of the transaction, which
 * is how two hosts creating or migrating one schema take turns.
 */
static int pg_begin(struct db *d, int kind)
{
	struct pg *db = PG(d);
	char sql[64];

	if (db->gone[0])
		return pg_fail_msg(db, db->gone);
	if (PQstatus(db->h) == CONNECTION_OK && PQtransactionStatus(db->h) != PQTRANS_IDLE)
		return pg_fail_msg(db, "cannot start a transaction within a transaction");
	if (pg_cmd(db, kind == DB_TX_READ ? "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"
					  : "BEGIN") < 0)
		return -1;
	if (kind != DB_TX_SCHEMA)
		return 0;
	snprintf(sql, sizeof(sql), "SELECT pg_advisory_xact_lock(%lld)", PG_LOCK_KEY);
	if (pg_cmd(db, sql) < 0) {
		pg_quiet(db, "ROLLBACK");
		return -1;
	}
	return 0;
}

/*
 * COMMIT of a transaction in which a statement failed succeeds as far as
 * libpq is concerned, and rolls back: said so here, since nothing is
 * stored.
 */
static int pg_commit(struct db *d)
{
	struct pg *db = PG(d);
	PGresult *res;
	int rc = 0;

	if (PQstatus(db->h) == CONNECTION_OK && PQtransactionStatus(db->h) == PQTRANS_IDLE)
		return pg_fail_msg(db, "cannot commit: no transaction is active");
	res = pg_query(db, "COMMIT");
	if (!res)
		return -1;
	if (!strcmp(PQcmdStatus(res), "ROLLBACK"))
		rc = pg_fail_msg(db, "the transaction was rolled back: a statement in it had failed");
	PQclear(res);
	pg_flush(db);
	return rc;
}

/* Its own failure is not recorded, so that db_errmsg and db_busy still speak of the first. */
static void pg_rollback(struct db *d)
{
	struct pg *db = PG(d);
	PGTransactionStatusType t = PQtransactionStatus(db->h);

	if (t == PQTRANS_INTRANS || t == PQTRANS_INERROR)
		pg_quiet(db, "ROLLBACK");
	pg_flush(db);
}

/*
 * Whether kbench_schema is in the current schema (the first of
 * search_path), the relations there (tables, views and the like: not
 * their indexes and sequences), and the schema's name for the next query.
 */
static const char pg_sql_tables[] =
	"SELECT (SELECT count(*) FROM pg_catalog.pg_class c"
	"         JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
	"         WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')),"
	"       EXISTS (SELECT 1 FROM pg_catalog.pg_class c"
	"         JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
	"         WHERE n.nspname = current_schema() AND c.relname = 'kbench_schema'),"
	"       current_schema()";

/* Both queries of pg_version, in whatever transaction is open. */
static int pg_version_read(struct pg *db, long long *version, long long *tables)
{
	PGresult *res = pg_query(db, pg_sql_tables);
	char *schema, *sql;
	int has;

	if (!res)
		return -1;
	if (tables)
		*tables = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	has = !strcmp(PQgetvalue(res, 0, 1), "t");
	*version = 0;
	if (!has) {
		PQclear(res);
		return 0;
	}
	schema = PQescapeIdentifier(db->h, PQgetvalue(res, 0, 2), strlen(PQgetvalue(res, 0, 2)));
	PQclear(res);
	if (!schema)
		return pg_fail(db, NULL);
	sql = malloc(strlen(schema) + 64);
	if (!sql) {
		PQfreemem(schema);
		return pg_fail_msg(db, "out of memory");
	}
	sprintf(sql, "SELECT version FROM %s.kbench_schema LIMIT 1", schema);
	PQfreemem(schema);
	res = pg_query(db, sql);
	free(sql);
	if (!res)
		return -1;
	/* No row is a table created and never set: version 0, as in SQLite before PRAGMA. */
	if (PQntuples(res) > 0)
		*version = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	return 0;
}

/*
 * Both read from one snapshot, as sq_version does and for the same
 * reason: another kbench creating the schema in between must not make
 * the database look like version 0 with tables in it.  Outside a
 * transaction that takes one of REPEATABLE READ; inside one (the
 * store's DB_TX_SCHEMA one, after the lock) each read sees what was
 * committed before it, which is what the lock's holder needs.
 */
static int pg_version(struct db *d, long long *version, long long *tables)
{
	struct pg *db = PG(d);
	int rc;

	if (PQtransactionStatus(db->h) != PQTRANS_IDLE)
		return pg_version_read(db, version, tables);
	if (pg_cmd(db, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") < 0)
		return -1;
	rc = pg_version_read(db, version, tables);
	if (rc == 0)
		rc = pg_cmd(db, "COMMIT");
	else
		pg_quiet(db, "ROLLBACK");
	return rc;
}

/* One PQexec: outside a transaction the server runs the three as one. */
static int pg_set_version(struct db *d, long long version)
{
	char sql[192];

	snprintf(sql, sizeof(sql),
		 "CREATE TABLE IF NOT EXISTS kbench_schema (version BIGINT NOT NULL);"
		 " DELETE FROM kbench_schema; INSERT INTO kbench_schema (version) VALUES (%lld)",
		 version);
	return pg_cmd(PG(d), sql);
}

static struct db_stmt *pg_prepare(struct db *d, const char *sql)
{
	struct pg *db = PG(d);
	struct pg_stmt *st = calloc(1, sizeof(*st));
	char name[16], *text;
	PGresult *res;

	if (!st) {
		pg_fail_msg(db, "out of memory");
		return NULL;
	}
	st->base.db = d;
	text = pg_placeholders(sql, &st->nparams);
	if (!text || (st->nparams && !(st->vals = calloc((size_t)st->nparams, sizeof(char *))))) {
		free(text);
		free(st);
		pg_fail_msg(db, "out of memory");
		return NULL;
	}
	pg_flush(db);
	st->num = ++db->next;
	snprintf(name, sizeof(name), "kb%u", st->num);
	/* No types: the server infers each parameter's from where it stands. */
	res = pg_wait(db, !db->gone[0] && PQsendPrepare(db->h, name, text, st->nparams, NULL));
	free(text);
	if (!res) {
		free(st->vals);
		free(st);
		return NULL;
	}
	PQclear(res);
	return &st->base;
}

static void pg_unbind(struct pg_stmt *st)
{
	for (int i = 0; i < st->nparams; i++) {
		free(st->vals[i]);
		st->vals[i] = NULL;
	}
}

/* Statement num left for pg_flush; forgotten when out of memory, as the session will. */
static void pg_stale(struct pg *db, unsigned num)
{
	if (db->nstale == db->capstale) {
		size_t cap = db->capstale * 2 + 8;
		unsigned *p = realloc(db->stale, cap * sizeof(*p));

		if (!p)
			return;
		db->stale = p;
		db->capstale = cap;
	}
	db->stale[db->nstale++] = num;
}

/*
 * A failed transaction refuses DEALLOCATE as well: the name waits for
 * pg_flush.  A broken connection took the statement with it.
 */
static void pg_finalize(struct db_stmt *s)
{
	struct pg_stmt *st = ST(s);
	struct pg *db = PG(s->db);
	char sql[32];

	if (PQstatus(db->h) == CONNECTION_OK) {
		if (PQtransactionStatus(db->h) == PQTRANS_INERROR) {
			pg_stale(db, st->num);
		} else {
			snprintf(sql, sizeof(sql), "DEALLOCATE kb%u", st->num);
			pg_quiet(db, sql);
		}
	}
	PQclear(st->res);
	pg_unbind(st);
	free(st->vals);
	free(st);
}

static void pg_reset(struct db_stmt *s)
{
	struct pg_stmt *st = ST(s);

	PQclear(st->res);
	st->res = NULL;
	st->state = PG_READY;
	pg_unbind(st);
}

/* Parameter i (from 1) set to text v (NULL: NULL), copied. */
static int pg_bind(struct db_stmt *s, int i, const char *v)
{
	struct pg_stmt *st = ST(s);
	char *copy = NULL;

	if (i < 1 || i > st->nparams) {
		char m[64];

		snprintf(m, sizeof(m), "column index out of range: %d of %d", i, st->nparams);
		return pg_fail_msg(PG(s->db), m);
	}
	if (v && !(copy = strdup(v)))
		return pg_fail_msg(PG(s->db), "out of memory");
	free(st->vals[i - 1]);
	st->vals[i - 1] = copy;
	return 0;
}

static int pg_bind_int64(struct db_stmt *st, int i, int64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	return pg_bind(st, i, buf);
}

/* 17 digits: every double's text reads back as the same double. */
static int pg_bind_real(struct db_stmt *st, int i, double v)
{
	char buf[32];

	if (isnan(v))
		return pg_bind(st, i, NULL);
	if (isinf(v))
		return pg_bind(st, i, v > 0 ? "Infinity" : "-Infinity");
	snprintf(buf, sizeof(buf), "%.17g", v);
	return pg_bind(st, i, buf);
}

static int pg_bind_text(struct db_stmt *st, int i, const char *v)
{
	return pg_bind(st, i, v);
}

static int pg_bind_null(struct db_stmt *st, int i)
{
	return pg_bind(st, i, NULL);
}

/*
 * The first step runs the statement and keeps all its rows; later steps
 * walk them.  After DB_DONE a step runs it again, with the same bindings,
 * as sqlite3_step does.
 */
static int pg_step(struct db_stmt *s)
{
	struct pg_stmt *st = ST(s);
	struct pg *db = PG(s->db);
	char name[16];
	PGresult *res;

	if (st->state == PG_ROWS) {
		if (++st->row < PQntuples(st->res))
			return DB_ROW;
		PQclear(st->res);
		st->res = NULL;
		st->state = PG_DONE;
		return DB_DONE;
	}
	PQclear(st->res);
	st->res = NULL;
	st->state = PG_READY;
	snprintf(name, sizeof(name), "kb%u", st->num);
	res = pg_wait(db, !db->gone[0] &&
			       PQsendQueryPrepared(db->h, name, st->nparams, (const char *const *)st->vals, NULL,
						   NULL, 0));
	if (!res)
		return -1;
	pg_count(db, res);
	if (PQntuples(res) == 0) {
		PQclear(res);
		st->state = PG_DONE;
		return DB_DONE;
	}
	st->res = res;
	st->row = 0;
	st->state = PG_ROWS;
	return DB_ROW;
}

/* Column i's text in the current row, NULL for NULL or no such column. */
static const char *pg_cell(struct pg_stmt *st, int i)
{
	if (st->state != PG_ROWS || i < 0 || i >= PQnfields(st->res) ||
	    PQgetisnull(st->res, st->row, i))
		return NULL;
	return PQgetvalue(st->res, st->row, i);
}

static int pg_column_null(struct db_stmt *st, int i)
{
	return pg_cell(ST(st), i) == NULL;
}

/* A boolean, which SQLite has not, reads as its 1 or 0 (SELECT x > 0). */
static int pg_is_bool(struct pg_stmt *st, int i)
{
	return PQftype(st->res, i) == PG_BOOLOID;
}

static double pg_real(const char *v)
{
	if (!strcmp(v, "NaN"))
		return (double)NAN;
	if (!strcmp(v, "Infinity"))
		return (double)INFINITY;
	if (!strcmp(v, "-Infinity"))
		return -(double)INFINITY;
	return strtod(v, NULL);
}

/* As sqlite3_column_int64: a real (or numeric) truncated toward 0 and clamped. */
static int64_t pg_column_int64(struct db_stmt *s, int i)
{
	struct pg_stmt *st = ST(s);
	const char *v = pg_cell(st, i);
	char *end;
	long long n;
	double d;

	if (!v)
		return 0;
	if (pg_is_bool(st, i))
		return *v == 't';
	errno = 0;
	n = strtoll(v, &end, 10);
	if (end != v && *end == '\0' && errno == 0)
		return (int64_t)n;
	d = pg_real(v);
	if (isnan(d))
		return 0;
	if (d >= 9223372036854775807.0)
		return INT64_MAX;
	if (d <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)d;
}

static double pg_column_real(struct db_stmt *s, int i)
{
	struct pg_stmt *st = ST(s);
	const char *v = pg_cell(st, i);

	if (!v)
		return (double)NAN;
	if (pg_is_bool(st, i))
		return *v == 't' ? 1.0 : 0.0;
	return pg_real(v);
}

static const char *pg_column_text(struct db_stmt *s, int i)
{
	struct pg_stmt *st = ST(s);
	const char *v = pg_cell(st, i);

	if (v && pg_is_bool(st, i))
		return *v == 't' ? "1" : "0";
	return v;
}

static int64_t pg_changes(struct db *db)
{
	return PG(db)->changes;
}

/* Every call of db_impl.h: the types are rewritten on the way in (pg_types). */
static const struct db_ops pg_ops = {
	.engine = DB_PG,
	.close = pg_close,
	.errmsg = pg_errmsg,
	.busy = pg_busy,
	.exec = pg_exec,
	.ddl = pg_ddl,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.version = pg_version,
	.set_version = pg_set_version,
	.prepare = pg_prepare,
	.finalize = pg_finalize,
	.reset = pg_reset,
	.bind_int64 = pg_bind_int64,
	.bind_real = pg_bind_real,
	.bind_text = pg_bind_text,
	.bind_null = pg_bind_null,
	.step = pg_step,
	.column_null = pg_column_null,
	.column_int64 = pg_column_int64,
	.column_real = pg_column_real,
	.column_text = pg_column_text,
	.changes = pg_changes,
};
