/*
 * Errors in three tiers.  die() ends the program for a user's fatal error
 * (bad input, unusable database); error() prints and returns -1 so library
 * code can pass failure up; BUG() is a programmer's mistake and aborts.
 * Messages start lowercase, name the thing and the reason, carry no trailing
 * period, and go to stderr prefixed with "kbench: ".
 */
#ifndef KB_ERR_H
#define KB_ERR_H

#include <stddef.h>

/* Exit statuses of the command-line contract (DESIGN.md). */
enum { EXIT_DONE = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };
/* Ended by signal sig (SIGINT, SIGTERM, SIGHUP), as a shell reports a process it killed: 130, 143, 129. */
#define EXIT_SIGNAL(sig) (128 + (sig))

/*
 * The statuses die and die_usage exit with from now on: for a command
 * whose every status means something to its caller (bisect --run-step
 * under git bisect run, where 1 and 2 would say "bad").
 */
void err_exits(int fail, int usage);
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void bug_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)

/*
 * A system's message as kbench's messages read, in place: the first letter
 * lowercased when it starts a word ("No such file" -> "no such file"), never
 * when it starts an acronym ("I/O error", musl's EIO, and "RFS specific
 * error" stay).  Returns s.
 */
char *err_lower(char *s);
/* strerror(errnum) through err_lower, into buf (len bytes).  Returns buf. */
const char *err_errno_text(int errnum, char *buf, size_t len);

/* Library code reports into a caller-owned buffer instead of printing. */
#define ERRBUF_LEN 256
void errbuf_set(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
