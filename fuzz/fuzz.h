/*
 * What the libFuzzer harnesses of fuzz/ share: a private directory for the
 * databases they make, and a check that fails loudly.  A harness finds a
 * bug by crashing (a sanitizer's report, or abort() from FZ_CHECK with the
 * property that failed), so every check here aborts, never returns quietly.
 */
#ifndef KB_FUZZ_H
#define KB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* A property of kbench that must hold for every input: abort with why when not. */
#define FZ_CHECK(cond, ...)                                                            \
	do {                                                                           \
		if (!(cond)) {                                                         \
			fprintf(stderr, "fuzz: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                                  \
			fputc('\n', stderr);                                           \
			abort();                                                       \
		}                                                                      \
	} while (0)

/*
 * A directory of the harness's own under $TMPDIR, made once, removed with
 * everything in it when the process exits; the path is "dir/name".
 */
const char *fz_path(const char *name);

/* Remove a database and its -wal, -shm and -journal files. */
void fz_unlink_db(const char *path);

/* An error line as kbench prints them: not empty, one line, nothing a terminal acts on. */
void fz_check_line(const char *what, const char *msg);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif
