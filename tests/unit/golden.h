/*
 * What the unit tests with golden files share: a writer's output captured
 * in a string, and that string compared with tests/golden/NAME (run from
 * the repository root), or written there with KBENCH_UPDATE_GOLDEN=1 for an
 * intended change.  A difference is shown as the first 20 lines that
 * differ.  Included after cmocka.h; inline, so a test that needs only some
 * of it builds without warnings.
 */
#ifndef KB_TEST_GOLDEN_H
#define KB_TEST_GOLDEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Output of a writer captured in a malloc'd string. */
struct capture {
	char *text;
	size_t len;
	FILE *f;
};

static inline FILE *capture_start(struct capture *c)
{
	c->text = NULL;
	c->len = 0;
	c->f = open_memstream(&c->text, &c->len);
	assert_non_null(c->f);
	return c->f;
}

static inline char *capture_end(struct capture *c)
{
	assert_int_equal(fclose(c->f), 0);
	return c->text;
}

/* The whole file, NUL-terminated, its length in *len; NULL when it cannot be read. */
static inline char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 4096 > cap) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap + 1);
			assert_non_null(buf);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Line `no` (1-based) of text, or "" past its end, and its length. */
static inline const char *golden_line(const char *text, int no, size_t *len)
{
	const char *p = text;

	for (int i = 1; i < no && *p; i++) {
		p = strchr(p, '\n');
		p = p ? p + 1 : "";
	}
	*len = strcspn(p, "\n");
	return p;
}

/* Compare text with tests/golden/FILE (a name and its extension), or rewrite it. */
static inline void golden_check(const char *file, const char *text)
{
	char path[256];
	const char *update = getenv("KBENCH_UPDATE_GOLDEN");
	char *want;
	size_t wlen = 0;

	snprintf(path, sizeof(path), "tests/golden/%s", file);
	if (update && strcmp(update, "1") == 0) {
		FILE *f = fopen(path, "wb");

		assert_non_null(f);
		assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
		assert_int_equal(fclose(f), 0);
		fprintf(stderr, "updated %s\n", path);
		return;
	}
	want = read_file(path, &wlen);
	if (!want)
		fail_msg("cannot read %s (run with KBENCH_UPDATE_GOLDEN=1 to create it)", path);
	if (wlen != strlen(text) || memcmp(want, text, wlen) != 0) {
		int shown = 0;

		fprintf(stderr, "--- %s (expected)\n+++ output\n", path);
		for (int no = 1; shown < 20; no++) {
			size_t la, lb;
			const char *a = golden_line(want, no, &la), *b = golden_line(text, no, &lb);

			if (!*a && !*b)
				break;
			if (la == lb && memcmp(a, b, la) == 0 && (a[la] == '\n') == (b[lb] == '\n'))
				continue;
			fprintf(stderr, "@@ line %d\n-%.*s\n+%.*s\n", no, (int)la, a, (int)lb, b);
			shown++;
		}
		free(want);
		fail_msg("output differs from %s", path);
	}
	free(want);
}

#endif
