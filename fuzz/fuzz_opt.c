/*
 * libFuzzer harness for the option parser of src/cli/opt.c and the size
 * parser behind OPT_SIZE ("4096", "64k", "1.5m", "1g").  The input is an
 * argument vector, its words separated by NUL bytes, parsed against a
 * table with a row of every type, their ranges those of kbench's own
 * tables (run's --size and --msg-size, --max-time, --runs, compare's
 * --threshold) and two at the edges of what a table may say.
 *
 * opt_parse ends the program on bad input (die_usage, exit 2): the harness
 * is linked with -Wl,--wrap=die_usage,--wrap=die so that those come back
 * here (longjmp) after the message is checked.  "--help" and "-h" are left
 * out of the input: they print the help and exit 0, which is the help's
 * test's business (tests/cli*.sh), not the parser's.
 *
 * What must hold: a refusal is one line naming the command, with nothing a
 * terminal acts on; an accepted value is within its row's range (a size a
 * whole number of bytes, an int whole); the positional words come back in
 * order, each one of the input's; a string option points at an input word.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/err.h"
#include "fuzz/fuzz.h"

/* The most words an input is cut into: more adds nothing the parser does not see in 64. */
#define FZ_MAX_WORDS 64

static jmp_buf fz_back;	/* where a refusal comes back to */
static int fz_inside;	/* opt_parse is running: a die may come back */

_Noreturn void __wrap_die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void __wrap_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

__attribute__((format(printf, 1, 0)))
static _Noreturn void fz_refused(const char *fmt, va_list ap)
{
	char msg[4096];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	FZ_CHECK(fz_inside, "a die outside opt_parse: %s", msg);
	fz_check_line("an option refused", msg);
	FZ_CHECK(strncmp(msg, "fuzz: ", 6) == 0, "the message does not name the command: %s", msg);
	fz_inside = 0;
	longjmp(fz_back, 1);
}

void __wrap_die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fz_refused(fmt, ap);
}

void __wrap_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fz_refused(fmt, ap);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct cmd cmd = { "fuzz", "[--options] ARG ...", "the option parser's harness", NULL };
	/* Static, so that what opt_parse set before a longjmp is still what it set. */
	static const char *label;
	static int quiet, runs;
	static double max_time, threshold, tiny;
	static size_t sz, msg_size, huge;
	const struct opt opts[] = {
		{ "label", OPT_STRING, &label, "L", "a string", 0, 0 },
		{ "quiet", OPT_FLAG, &quiet, NULL, "a flag", 0, 0 },
		{ "runs", OPT_INT, &runs, "N", "an int", 1, 1000 },
		{ "max-time", OPT_DOUBLE, &max_time, "SECONDS", "a double", 0.01, 3600 },
		{ "threshold", OPT_DOUBLE, &threshold, "PCT", "a double from 0", 0, 100 },
		{ "tiny", OPT_DOUBLE, &tiny, "X", "a double in a narrow range", 1e-300, 1e-299 },
		{ "size", OPT_SIZE, &sz, "SIZE", "a size", 4096, 1024.0 * 1024 * 1024 * 1024 },
		{ "msg-size", OPT_SIZE, &msg_size, "SIZE", "a size from 1", 1, 1024.0 * 1024 * 1024 },
		/* The largest a size_t holds, as a table would write it: SIZE_MAX. */
		{ "huge", OPT_SIZE, &huge, "SIZE", "a size up to SIZE_MAX", 0, (double)SIZE_MAX },
		{ 0 },
	};
	static char argv0[] = "fuzz";
	char *copy, *words[FZ_MAX_WORDS + 2], *orig[FZ_MAX_WORDS + 2];
	int argc = 1, npos;
	size_t i = 0;

	copy = malloc(size + 1);
	FZ_CHECK(copy != NULL, "out of memory");
	memcpy(copy, data, size);
	copy[size] = '\0';
	words[0] = argv0;
	while (i <= size && argc <= FZ_MAX_WORDS) {
		char *w = copy + i;

		i += strlen(w) + 1;
		if (strcmp(w, "--help") == 0 || strcmp(w, "-h") == 0)
			continue;
		words[argc++] = w;
	}
	words[argc] = NULL;
	memcpy(orig, words, sizeof(words));
	label = NULL;
	quiet = 0;
	runs = -1;
	max_time = threshold = tiny = -1;
	sz = msg_size = huge = 7;
	if (setjmp(fz_back) != 0) {
		free(copy);
		return 0;
	}
	fz_inside = 1;
	npos = opt_parse(&cmd, opts, argc, words);
	fz_inside = 0;

	FZ_CHECK(npos >= 0 && npos < argc, "%d positional words of %d", npos, argc - 1);
	/* The positional words in their order: each an input word, after the last one before it. */
	for (int k = 0, from = 1; k < npos; k++) {
		int at = from;

		while (at < argc && orig[at] != words[k])
			at++;
		FZ_CHECK(at < argc, "positional %d ('%s') is no input word after the one before", k,
			 words[k]);
		from = at + 1;
	}
	if (label) {
		int found = 0;

		for (int k = 1; k < argc && !found; k++)
			found = label >= orig[k] && label <= orig[k] + strlen(orig[k]);
		FZ_CHECK(found, "--label points outside the input words");
	}
	FZ_CHECK(quiet == 0 || quiet == 1, "--quiet is %d", quiet);
	FZ_CHECK(runs == -1 || (runs >= 1 && runs <= 1000), "--runs %d is outside 1 to 1000", runs);
	FZ_CHECK(max_time == -1 || (max_time >= 0.01 && max_time <= 3600), "--max-time %g", max_time);
	FZ_CHECK(threshold == -1 || (threshold >= 0 && threshold <= 100), "--threshold %g", threshold);
	FZ_CHECK(tiny == -1 || (tiny >= 1e-300 && tiny <= 1e-299), "--tiny %g", tiny);
	FZ_CHECK(sz == 7 || (sz >= 4096 && sz <= (size_t)1 << 40), "--size %zu", sz);
	FZ_CHECK(msg_size == 7 || (msg_size >= 1 && msg_size <= (size_t)1 << 30), "--msg-size %zu",
		 msg_size);
	free(copy);
	return 0;
}
