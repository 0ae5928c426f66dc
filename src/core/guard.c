/*
 * The guard (guard.h).  Its pipe carries fixed records, each a setting to
 * put back, then "done"; the guard keeps them in memory in the order told.
 */
#include "core/guard.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/runner.h"
#include "plat/plat.h"

/*
 * Write a record to the guard; a guard that is gone is a failed write
 * (EPIPE), never a SIGPIPE that would kill kbench mid-way.
 */
static int guard_send(int fd, const void *m, size_t len)
{
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	ssize_t w = write(fd, m, len);
	int saved = errno;

	signal(SIGPIPE, old);
	errno = saved;
	return w == (ssize_t)len ? 0 : -1;
}

/* One record: 'S' a setting (path, value), 'C' a command (cmd), 'D' done; smaller than PIPE_BUF. */
struct guard_msg {
	char tag;
	char path[120];
	char value[64];
	char cmd[GUARD_CMD_MAX + 1];
};

/* sh -c cmd, waited for: what the guard does for a command once kbench is gone. */
static void guard_run(const char *cmd)
{
	pid_t pid = fork();

	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

int guard_write(const char *path, const char *value)
{
	return plat_write_text(path, value);
}

static _Noreturn void guard_main(int ctl)
{
	struct guard_msg *todo = calloc(GUARD_MAX, sizeof(*todo)), m;
	int n = 0;

	runner_detach();
	for (;;) {
		ssize_t k = read(ctl, &m, sizeof(m));

		if (k < 0 && errno == EINTR)
			continue;
		if (k == (ssize_t)sizeof(m) && (m.tag == 'S' || m.tag == 'C')) {
			if (todo && n < GUARD_MAX)
				todo[n++] = m;
			continue;
		}
		if (k == (ssize_t)sizeof(m) && m.tag == 'D')
			_exit(0);
		break;	/* end of file, or garbage: kbench is gone */
	}
	/* The last change first: the state before the first is what comes back. */
	while (n-- > 0)
		if (todo[n].tag == 'C')
			guard_run(todo[n].cmd);
		else
			(void)guard_write(todo[n].path, todo[n].value);
	_exit(0);
}

int guard_start(struct guard *g)
{
	int p[2];

	g->pid = -1;
	g->ctl = -1;
	g->n = 0;
	if (plat_pipe_cloexec(p) < 0)
		return -1;
	g->pid = fork();
	if (g->pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (g->pid == 0) {
		close(p[1]);
		guard_main(p[0]);
	}
	close(p[0]);
	g->ctl = p[1];
	return 0;
}

int guard_add(struct guard *g, const char *path, const char *value)
{
	struct guard_msg m;

	memset(&m, 0, sizeof(m));
	if (g->ctl < 0 || g->n >= GUARD_MAX || strlen(path) >= sizeof(m.path) ||
	    strlen(value) >= sizeof(m.value)) {
		errno = g->ctl < 0 ? ESRCH : ENOSPC;
		return -1;
	}
	m.tag = 'S';
	memcpy(m.path, path, strlen(path));
	memcpy(m.value, value, strlen(value));
	/* Smaller than PIPE_BUF: written whole or not at all. */
	if (guard_send(g->ctl, &m, sizeof(m)) < 0)
		return -1;
	g->n++;
	return 0;
}

int guard_add_command(struct guard *g, const char *cmd)
{
	struct guard_msg m;

	memset(&m, 0, sizeof(m));
	if (g->ctl < 0 || g->n >= GUARD_MAX || strlen(cmd) > GUARD_CMD_MAX) {
		errno = g->ctl < 0 ? ESRCH : ENOSPC;
		return -1;
	}
	m.tag = 'C';
	memcpy(m.cmd, cmd, strlen(cmd));
	if (guard_send(g->ctl, &m, sizeof(m)) < 0)
		return -1;
	g->n++;
	return 0;
}

void guard_done(struct guard *g)
{
	struct guard_msg m;

	if (g->ctl < 0)
		return;
	memset(&m, 0, sizeof(m));
	m.tag = 'D';
	(void)guard_send(g->ctl, &m, sizeof(m));
	close(g->ctl);
	g->ctl = -1;
	if (g->pid > 0)
		while (waitpid(g->pid, NULL, 0) < 0 && errno == EINTR)
			;
	g->pid = -1;
}
