/*
 * Reading the small text files of procfs and sysfs (and their cousins on
 * other systems), and kbench's own pipes between its processes: portable,
 * so shared by every plat_*.c.  Plain read() and write(), never plat_read(),
 * so an armed fault only ever hits a benchmark.  Also the facts every
 * system gives the same way (getrusage) or derives from the others.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "plat/plat.h"

/*
 * Read up to len-1 bytes of a file into buf, NUL-terminated.  Returns the
 * count or -1 with errno.  procfs and sysfs files are produced in one read
 * when small, but loop anyway since nothing promises it.
 */
ssize_t plat_read_file(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;
	int fd, saved;

	if (len == 0) {
		errno = EINVAL;
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (got < len - 1) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			saved = errno;
			close(fd);
			errno = saved;
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	close(fd);
	return (ssize_t)got;
}

int plat_read_line(const char *path, char *buf, size_t len)
{
	char *nl;

	if (plat_read_file(path, buf, len) < 0) {
		if (len > 0)
			buf[0] = '\0';
		return -1;
	}
	nl = strchr(buf, '\n');
	if (nl != NULL)
		*nl = '\0';
	return 0;
}

int plat_write_text(const char *path, const char *text)
{
	size_t len = strlen(text);
	int fd = open(path, O_WRONLY | O_CLOEXEC), saved;
	ssize_t w;

	if (fd < 0)
		return -1;
	/* One write: sysfs takes a setting in the write that carries it. */
	w = write(fd, text, len);
	saved = errno;
	close(fd);
	errno = saved;
	if (w >= 0 && w != (ssize_t)len)
		errno = EIO;
	return w == (ssize_t)len ? 0 : -1;
}

int plat_dir_probe(const char *dir)
{
	char probe[PATH_MAX];
	int fd;

#ifdef O_TMPFILE
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	/* Only a file system without unnamed files goes on to the named probe. */
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return -1;
#endif
	if (snprintf(probe, sizeof(probe), "%s/kbench.XXXXXX", dir) >= (int)sizeof(probe)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (!mkdtemp(probe))
		return -1;
	(void)rmdir(probe);
	(void)fd;
	return 0;
}

int plat_full_io(int fd, void *buf, size_t len, int writing)
{
	char *p = buf;

	while (len > 0) {
		ssize_t k = writing ? write(fd, p, len) : read(fd, p, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

uint64_t plat_llc_size(void)
{
	struct plat_cache c[16];
	int n = plat_caches(c, 16);
	uint64_t best = 0;

	for (int i = 0; i < n; i++)
		if (strcmp(c[i].type, "Instruction") != 0 && c[i].size > best)
			best = c[i].size;
	return best;
}

int plat_minor_faults(uint64_t *n)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return -1;
	*n = (uint64_t)ru.ru_minflt;
	return 0;
}

/*
 * NSIG is not POSIX, but glibc, musl, the BSDs and macOS all have it; 65
 * covers Linux's real-time signals where it is missing.
 */
#ifdef NSIG
#define PLAT_NSIG NSIG
#else
#define PLAT_NSIG 65
#endif

void plat_child_signals(void)
{
	struct sigaction sa;
	sigset_t none;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	/* SIGKILL, SIGSTOP and the C library's reserved signals refuse: nothing to undo there. */
	for (int sig = 1; sig < PLAT_NSIG; sig++)
		(void)sigaction(sig, &sa, NULL);
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
}
