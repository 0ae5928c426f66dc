/*
 * Finding kbench's companion programs (companion.h).
 */
#include "core/companion.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "plat/plat.h"

/* The running program's path from argv[0], "" when unknown. */
static char companion_self[PATH_MAX];

void companion_remember(const char *argv0)
{
	char path[PATH_MAX], try[PATH_MAX + 256];
	const char *dirs = getenv("PATH");

	companion_self[0] = '\0';
	if (!argv0 || !argv0[0])
		return;
	if (strchr(argv0, '/')) {
		if (realpath(argv0, companion_self) == NULL)
			companion_self[0] = '\0';
		return;
	}
	if (!dirs || snprintf(path, sizeof(path), "%s", dirs) >= (int)sizeof(path))
		return;
	for (char *save = NULL, *d = strtok_r(path, ":", &save); d; d = strtok_r(NULL, ":", &save))
		if (snprintf(try, sizeof(try), "%s/%s", *d ? d : ".", argv0) < (int)sizeof(try) &&
		    access(try, X_OK) == 0 && realpath(try, companion_self) != NULL)
			return;
	companion_self[0] = '\0';
}

int companion_find(const char *name, const char *env, char *buf, size_t len)
{
	const char *named = env ? getenv(env) : NULL;
	char self[PATH_MAX];
	char *slash;

	if (named && *named) {
		if (snprintf(buf, len, "%s", named) >= (int)len) {
			errno = ENAMETOOLONG;
			return -1;
		}
		return access(buf, X_OK);
	}
	if (plat_self_exe(self, sizeof(self)) != 0)
		snprintf(self, sizeof(self), "%s", companion_self);
	if (self[0] && (slash = strrchr(self, '/')) != NULL) {
		*slash = '\0';
		if (snprintf(buf, len, "%s/%s", self, name) < (int)len && access(buf, X_OK) == 0)
			return 0;
	}
	if (snprintf(buf, len, "%s/%s", KB_LIBEXECDIR, name) >= (int)len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return access(buf, X_OK);
}
