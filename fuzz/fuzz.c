/*
 * The harnesses' shared helpers (fuzz.h): their private directory, and the
 * check that an error is one clean line (what a user's terminal receives).
 */
#include "fuzz/fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/utf8.h"

static char fz_dir[4096];

/* Everything in the directory, then the directory: nothing left in $TMPDIR. */
static void fz_cleanup(void)
{
	DIR *d = opendir(fz_dir);
	struct dirent *e;
	char p[8192];

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof(p), "%s/%s", fz_dir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(fz_dir);
}

const char *fz_path(const char *name)
{
	static char p[8192];

	if (!fz_dir[0]) {
		const char *tmp = getenv("TMPDIR");

		snprintf(fz_dir, sizeof(fz_dir), "%s/kbench-fuzz.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
		FZ_CHECK(mkdtemp(fz_dir) != NULL, "cannot make %s", fz_dir);
		atexit(fz_cleanup);
	}
	snprintf(p, sizeof(p), "%s/%s", fz_dir, name);
	return p;
}

void fz_unlink_db(const char *path)
{
	static const char *const ext[] = { "", "-wal", "-shm", "-journal" };
	char p[8192];

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", path, ext[i]);
		unlink(p);
	}
}

void fz_check_line(const char *what, const char *msg)
{
	const char *bad = NULL;

	FZ_CHECK(msg[0] != '\0', "%s: an empty error message", what);
	/* utf8_is_plain: valid UTF-8, no C0 or C1 control, no bidirectional control. */
	FZ_CHECK(utf8_is_plain(msg, &bad), "%s: byte 0x%02x at %zu of the error line '%s'", what,
		 (unsigned char)*bad, (size_t)(bad - msg), msg);
}
