/*
 * One instance, one child process.  The parent waits on a pipe for the
 * child's result with the watchdog's deadline; on a timeout or Ctrl-C it
 * kills the child's whole process group (the benchmark's own children
 * included) and reaps it.  The child dies with the parent if kbench itself
 * is killed (plat_die_with_parent).
 *
 * The child sends its result as the raw struct followed by the samples: both
 * ends are the same binary.
 */
#include "core/runner.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/timer.h"
#include "plat/plat.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

void runner_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: poll() must return so the run can stop at once. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int runner_interrupted(void)
{
	return interrupted;
}

static int rm_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

int runner_rmtree(const char *path)
{
	return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

static _Noreturn void child_main(const struct bench *b, const struct runner_cfg *cfg,
				 const char *tmpdir, int fd, pid_t parent)
{
	struct harness_cfg hc = cfg->harness;
	struct result r;
	const char *hang = getenv("KBENCH_TEST_HANG");
	int code = 0;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	/* If kbench died before the request took effect, nobody will reap us. */
	if (plat_die_with_parent(SIGKILL) == 0 && getppid() != parent)
		_exit(1);
	plat_inject_from_env();
	/* Test hook: make one benchmark hang so the watchdog can be seen at work. */
	if (hang && strcmp(hang, b->id) == 0)
		for (;;)
			pause();
	hc.tmpdir = tmpdir;
	if (harness_run(b, &hc, &r) < 0)
		_exit(3);
	if (write_all(fd, &r, sizeof(r)) < 0 ||
	    (r.n && write_all(fd, r.samples, r.n * sizeof(*r.samples)) < 0))
		code = 4;
	free(r.samples);
	_exit(code);
}

/*
 * The janitor removes the instance's private directory once every process
 * of the instance is gone, even when kbench itself was killed with SIGKILL
 * and could not.  It holds the read end of a pipe whose write end only the
 * instance's processes hold: end of file means the last of them died.  It
 * is kbench's child, not the instance's, so the group kill spares it, and
 * it ignores the terminal's signals, which reach kbench's group.
 */
static pid_t janitor_start(const char *tmpdir, int *lifeline)
{
	int fds[2];
	pid_t pid;
	char c;

	/* Close-on-exec: a program a benchmark execs must not keep it alive. */
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGQUIT, SIG_IGN);
		close(fds[1]);
		while (read(fds[0], &c, 1) < 0 && errno == EINTR)
			;
		runner_rmtree(tmpdir);
		_exit(0);
	}
	close(fds[0]);
	*lifeline = fds[1];
	return pid;
}

/* Read everything the child writes, until EOF, the deadline or a signal. */
enum wait_outcome { WAIT_EOF, WAIT_TIMEOUT, WAIT_SIGNAL, WAIT_ERROR };

static enum wait_outcome collect(int fd, uint64_t deadline, char **buf, size_t *len)
{
	size_t cap = 0;

	*buf = NULL;
	*len = 0;
	for (;;) {
		uint64_t t = timer_now();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int ms, rc;

		if (interrupted)
			return WAIT_SIGNAL;
		if (t >= deadline)
			return WAIT_TIMEOUT;
		ms = (int)((deadline - t) / 1000000u) + 1;
		rc = poll(&p, 1, ms);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0)
			return WAIT_ERROR;
		if (rc == 0)
			continue;
		if (*len == cap) {
			char *more = realloc(*buf, cap ? 2 * cap : 65536);
			if (!more)
				return WAIT_ERROR;
			*buf = more;
			cap = cap ? 2 * cap : 65536;
		}
		ssize_t got = read(fd, *buf + *len, cap - *len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return WAIT_ERROR;
		if (got == 0)
			return WAIT_EOF;
		*len += (size_t)got;
	}
}

static void failed(struct result *r, const struct bench *b, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void failed(struct result *r, const struct bench *b, const char *fmt, ...)
{
	va_list ap;

	result_init(r, b);
	r->status = RES_FAIL;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	va_end(ap);
}

/* Turn the child's bytes into a result; 0 when they hold one whole result. */
static int decode(const char *buf, size_t len, struct result *r)
{
	if (len < sizeof(*r))
		return -1;
	memcpy(r, buf, sizeof(*r));
	r->samples = NULL;
	if (len != sizeof(*r) + r->n * sizeof(double))
		return -1;
	if (r->n) {
		r->samples = malloc(r->n * sizeof(double));
		if (!r->samples)
			return -1;
		memcpy(r->samples, buf + sizeof(*r), r->n * sizeof(double));
	}
	return 0;
}

static void describe_exit(int status, char *buf, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
}

/*
 * Returns when the janitor has removed the directory, which is when the
 * last process of the instance has died.  Without a janitor, remove it here.
 */
static void janitor_wait(pid_t janitor, int lifeline, const char *tmpdir)
{
	int status;

	if (lifeline >= 0)
		close(lifeline);
	if (janitor > 0)
		while (waitpid(janitor, &status, 0) < 0 && errno == EINTR)
			;
	else
		runner_rmtree(tmpdir);
}

int runner_run(const struct bench *b, const struct runner_cfg *cfg, struct result *r)
{
	int lifeline = -1;
	pid_t janitor;
	char tmpdir[PATH_MAX], how[128];
	int fds[2], status = 0, rc = 0;
	char *buf = NULL;
	size_t len = 0;
	uint64_t start = timer_now();
	pid_t pid, parent;
	enum wait_outcome out;

	memset(r, 0, sizeof(*r));
	if (interrupted)
		return -1;
	if (snprintf(tmpdir, sizeof(tmpdir), "%s/kbench.XXXXXX", cfg->tmproot) >= (int)sizeof(tmpdir)) {
		failed(r, b, "temporary directory path too long");
		return 0;
	}
	if (!mkdtemp(tmpdir)) {
		failed(r, b, "cannot make a temporary directory in '%s': %s", cfg->tmproot,
		       strerror(errno));
		return 0;
	}
	/* Before the result pipe, so the janitor does not hold its write end. */
	fflush(NULL);
	janitor = janitor_start(tmpdir, &lifeline);
	if (pipe(fds) < 0) {
		failed(r, b, "pipe: %s", strerror(errno));
		janitor_wait(janitor, lifeline, tmpdir);
		return 0;
	}
	parent = getpid();
	pid = fork();
	if (pid < 0) {
		failed(r, b, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		janitor_wait(janitor, lifeline, tmpdir);
		return 0;
	}
	if (pid == 0) {
		close(fds[0]);
		setpgid(0, 0);
		child_main(b, cfg, tmpdir, fds[1], parent);
	}
	/* Both sides set the group, so a kill right after fork still reaches it. */
	setpgid(pid, pid);
	close(fds[1]);
	if (lifeline >= 0)
		close(lifeline);
	lifeline = -1;
	out = collect(fds[0], start + (uint64_t)(cfg->watchdog_s * 1e9), &buf, &len);
	close(fds[0]);
	if (out != WAIT_EOF)
		kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* Anything the benchmark left behind in its group goes too. */
	kill(-pid, SIGKILL);
	janitor_wait(janitor, lifeline, tmpdir);

	switch (out) {
	case WAIT_SIGNAL:
		rc = -1;
		break;
	case WAIT_TIMEOUT:
		failed(r, b, "watchdog: still running after %.0f s, killed", cfg->watchdog_s);
		break;
	case WAIT_ERROR:
		failed(r, b, "lost contact with the benchmark process: %s", strerror(errno));
		break;
	case WAIT_EOF:
		if (decode(buf, len, r) == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
			break;
		free(r->samples);
		describe_exit(status, how, sizeof(how));
		failed(r, b, "benchmark process %s before reporting a result", how);
		break;
	}
	free(buf);
	return rc;
}
