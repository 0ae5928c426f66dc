/*
 * kbench-init: the guest's PID 1, in the initramfs kbench writes (guest.h),
 * beside the statically linked worker.  It mounts what the worker needs
 * (/proc, /sys, /dev, a tmpfs /tmp), loads the modules kbench listed
 * (--modprobe), describes the guest, then runs the
 * requests kbench put in /kb in the order of their names, each in a fresh
 * worker process as kbench's runner does on the host, and sends each reply
 * as it came, in the worker's wire format, over the second serial port
 * (console.h); then it powers the guest off.  The kernel's own messages go
 * to the first port, which kbench reads for a panic.
 *
 * It measures nothing of a request's itself: only the clock and the MHz for
 * the guest's description, as a session's prelude does on the host.  It
 * never stops on a request's failure: a worker that died is said in a
 * record and the next request runs.  What it cannot do without (the port,
 * the mounts) is said on the kernel's console and ends the guest.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "build_id.h"
#include "core/sysinfo.h"
#include "core/timer.h"
#include "core/wire.h"
#include "guest/console.h"
#include "guest/guest.h"

static int init_port = -1;

/* Say why the guest cannot go on, on its console and (when open) its port, and power off. */
static _Noreturn void init_fail(const char *what)
{
	char line[256];

	snprintf(line, sizeof(line), "%s: %s", what, strerror(errno));
	fprintf(stderr, "kbench-init: %s\n", line);
	if (init_port >= 0) {
		(void)console_put(init_port, CONSOLE_ERR, 0, line, strlen(line));
		(void)tcdrain(init_port);
	}
	sync();
	(void)reboot(RB_POWER_OFF);
	_exit(1);
}

static void init_mount(const char *type, const char *dir, const char *opts)
{
	(void)mkdir(dir, 0755);
	if (mount(type, dir, type, 0, opts) != 0 && errno != EBUSY) {
		char what[64];

		snprintf(what, sizeof(what), "cannot mount %s on %s", type, dir);
		init_fail(what);
	}
}

/* The second serial port, raw: what goes in comes out byte for byte. */
static void init_open_port(void)
{
	struct termios t;

	/*
	 * Without waiting for a carrier: opened non-blocking, told to ignore
	 * the modem lines (CLOCAL), then made blocking again so that a full
	 * FIFO waits rather than losing a record.
	 */
	init_port = open(GUEST_PORT_DEV, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (init_port < 0)
		init_fail("cannot open " GUEST_PORT_DEV);
	if (tcgetattr(init_port, &t) == 0) {
		cfmakeraw(&t);
		t.c_cflag |= CLOCAL;
		cfsetospeed(&t, B115200);
		(void)tcsetattr(init_port, TCSANOW, &t);
	}
	(void)fcntl(init_port, F_SETFL, fcntl(init_port, F_GETFL) & ~O_NONBLOCK);
}

static int init_rm(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* Reap whatever was left to PID 1 (a benchmark's orphans), without waiting. */
static void init_reap(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/*
 * Request i (its file req): a fresh worker, with the reply in a file of the
 * tmpfs, and its private directory made before and removed after, as the
 * runner does on the host; then the reply, or how the worker ended.
 */
static void init_request(unsigned i, const char *req)
{
	char text[96], *buf = NULL;
	int in, out, st = 0;
	struct stat sb;
	pid_t pid;

	(void)nftw(GUEST_TMPDIR, init_rm, 16, FTW_DEPTH | FTW_PHYS);
	in = open(req, O_RDONLY);
	out = open("/tmp/reply", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (in < 0 || out < 0 || mkdir(GUEST_TMPDIR, 0700) != 0) {
		snprintf(text, sizeof(text), "the init could not set it up: %s", strerror(errno));
		(void)console_put(init_port, CONSOLE_DIED, i, text, strlen(text));
		if (in >= 0)
			close(in);
		if (out >= 0)
			close(out);
		return;
	}
	pid = fork();
	if (pid == 0) {
		char sin[16], sout[16];

		snprintf(sin, sizeof(sin), "%d", in);
		snprintf(sout, sizeof(sout), "%d", out);
		execl(GUEST_WORKER, GUEST_WORKER, WIRE_ARG, sin, sout, "-1", "0", "--", (char *)NULL);
		_exit(127);
	}
	close(in);
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	init_reap();
	if (pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && fstat(out, &sb) == 0 &&
	    sb.st_size > 0 && (buf = malloc((size_t)sb.st_size)) &&
	    pread(out, buf, (size_t)sb.st_size, 0) == sb.st_size) {
		(void)console_put(init_port, CONSOLE_RES, i, buf, (size_t)sb.st_size);
	} else {
		if (pid < 0)
			snprintf(text, sizeof(text), "the init could not fork: %s", strerror(errno));
		else if (WIFSIGNALED(st))
			snprintf(text, sizeof(text), "its worker was killed by signal %d", WTERMSIG(st));
		else
			snprintf(text, sizeof(text), "its worker exited %d without a reply",
				 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		(void)console_put(init_port, CONSOLE_DIED, i, text, strlen(text));
	}
	free(buf);
	close(out);
	(void)unlink("/tmp/reply");
	(void)nftw(GUEST_TMPDIR, init_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * The modules kbench listed (--modprobe), in order, each loaded from its
 * file as modprobe would: a compressed one handed to the kernel as it is,
 * for the kernels that decompress modules themselves; one already there
 * (built in, or loaded as another's dependency) is no error.  A module
 * that will not load ends the guest, saying which and why: the figures
 * that needed it would be measured without it.
 */
static void init_modules(void)
{
	/* finit_module's flag for a compressed file (linux/module.h), not in every C library's headers. */
	enum { INIT_COMPRESSED = 4 };
	char line[PATH_MAX + 2], what[PATH_MAX + 32];
	FILE *f = fopen(GUEST_MODLIST, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int fd, rc, compressed;

		char *path = line + (line[0] == '?');
		int soft = line[0] == '?';

		line[strcspn(line, "\n")] = '\0';
		if (!*path)
			continue;
		compressed = strstr(path, ".ko.") != NULL;
		snprintf(what, sizeof(what), "cannot load module %s", path);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
			if (soft)
				continue;
			init_fail(what);
		}
		rc = (int)syscall(SYS_finit_module, fd, "", compressed ? INIT_COMPRESSED : 0);
		/* A soft dependency that will not load (crc32c-intel without SSE4.2) leaves its generic twin. */
		if (rc != 0 && errno != EEXIST && !soft)
			init_fail(what);
		close(fd);
	}
	fclose(f);
}

static int init_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	static struct guest_sys sys;
	char *names[GUEST_MAX_REQUESTS], path[PATH_MAX];
	unsigned n = 0;
	struct dirent *d;
	DIR *dir;

	init_mount("proc", "/proc", NULL);
	init_mount("sysfs", "/sys", NULL);
	init_mount("devtmpfs", "/dev", NULL);
	init_mount("tmpfs", "/tmp", "mode=1777");
	init_open_port();
	init_modules();

	/* The guest as the host's sessions describe theirs: its clock and MHz measured here. */
	snprintf(sys.build_id, sizeof(sys.build_id), "%s", KB_BUILD_ID);
	timer_measure(&sys.pre.ti);
	sys.pre.mhz = sysinfo_measure_mhz();
	sysinfo_collect(&sys.si, &sys.pre.ti, sys.pre.mhz);
	if (console_put(init_port, CONSOLE_SYS, 0, &sys, sizeof(sys)) < 0)
		init_fail("cannot write to " GUEST_PORT_DEV);

	if ((dir = opendir(GUEST_REQDIR)) != NULL) {
		while ((d = readdir(dir)) != NULL && n < GUEST_MAX_REQUESTS)
			if (d->d_name[0] != '.' && (names[n] = strdup(d->d_name)) != NULL)
				n++;
		closedir(dir);
	}
	qsort(names, n, sizeof(*names), init_name_cmp);
	for (unsigned i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", GUEST_REQDIR, names[i]);
		init_request((unsigned)strtoul(names[i], NULL, 10), path);
		free(names[i]);
	}
	(void)console_put(init_port, CONSOLE_END, n, "", 0);
	/* Every byte out of the port before the power goes. */
	(void)tcdrain(init_port);
	sync();
	(void)reboot(RB_POWER_OFF);
	init_fail("cannot power off");
}
