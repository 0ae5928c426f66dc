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
	if (plat_self_exe(self, sizeof(self)) == 0 && (slash = strrchr(self, '/')) != NULL) {
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
