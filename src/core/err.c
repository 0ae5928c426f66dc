/*
 * The three error tiers and the caller-owned error buffer.  Nothing here
 * allocates, so die() is safe to call when memory is short.
 */
#include "core/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What die and die_usage exit with: EXIT_FAIL and EXIT_USAGE unless err_exits said otherwise. */
static int err_fail = EXIT_FAIL, err_usage = EXIT_USAGE;

void err_exits(int fail, int usage)
{
	err_fail = fail;
	err_usage = usage;
}

__attribute__((format(printf, 2, 0)))
static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "kbench: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(err_fail);
}

void die_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	/* One line, as every refusal: the status (2) says it was the usage. */
	exit(err_usage);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "kbench: BUG at %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

char *err_lower(char *s)
{
	/*
	 * A capital followed by a small letter starts a word; followed by
	 * anything else ('/', a capital, a space) it is an acronym or a
	 * one-letter name, and lowercasing it would misspell it ("i/O error").
	 */
	if (s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'a' && s[1] <= 'z')
		s[0] = (char)(s[0] - 'A' + 'a');
	return s;
}

const char *err_errno_text(int errnum, char *buf, size_t len)
{
	if (len == 0)
		return buf;
	snprintf(buf, len, "%s", strerror(errnum));
	return err_lower(buf);
}

void errbuf_set(char *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, ERRBUF_LEN, fmt, ap);
	va_end(ap);
}
