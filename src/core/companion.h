/*
 * kbench's companion programs, kbench-worker and kbench-tiny: where a
 * process of kbench's finds them.  The same rule for both, so that a build
 * tree and an installed kbench each find their own: the file an
 * environment variable names, else next to the running program (the build
 * tree, or the libexec directory the worker itself runs from), else the
 * installed libexec directory.
 */
#ifndef KB_COMPANION_H
#define KB_COMPANION_H

#include <stddef.h>

/*
 * Put name's path into buf (len bytes): 0 when it is there and
 * executable.  When env is set and not empty, only the file it names is
 * looked at.  -1 with errno otherwise (buf then holds the last path tried).
 */
int companion_find(const char *name, const char *env, char *buf, size_t len);
/*
 * Where the running program is, for a platform that cannot say
 * (plat_self_exe: the BSDs' and macOS's posix.c): from argv[0], a path
 * with a slash in it, or the first executable of that name on $PATH.
 * main() gives it; companion_find falls back on it.
 */
void companion_remember(const char *argv0);

#endif
