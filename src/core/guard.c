/*
 * The guard (guard.h).  Its pipe carries fixed records, each a setting to
 * put back, then "done"; the guard keeps them in memory in the order told.
 * The calls that start and watch a command go through the plat layer's
 * table (plat/sys.h), so that a test can make each of them fail.
 */
#include "core/guard.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/runner.h"
#include "plat/plat.h"

extern char **environ;

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

/*
 * One record, smaller than PIPE_BUF: 'S' a setting (path, value), 'C' a
 * command (cmd, limit), 'P' the process group of a command kbench runs
 * now (pid, limit), 'D' done, 'F' finish (put everything back now, kbench
 * waits and says how it went).
 */
struct guard_msg {
	char tag;
	char path[120];
	char value[64];
	char cmd[GUARD_CMD_MAX + 1];
	double limit;
	pid_t pid;
};

/* What guard_run's child says about itself before its exec: 'o' the log's open failed, 'x' the exec. */
struct guard_note {
	char what;
	int err;
};

static double guard_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void guard_nap(void)
{
	struct timespec ts = { 0, 10 * 1000000L };

	(void)nanosleep(&ts, NULL);
}

/*
 * The command's child: a session of its own, so the terminal's signals
 * and a kill of kbench's group do not reach it; the default signals;
 * stdin from /dev/null, its output into log, else /dev/null, else
 * wherever its parent's went: output lost is said, never a reason not to run.
 */
static _Noreturn void guard_child(const char *cmd, const char *log, int rep)
{
	static char sh[] = "sh", dash_c[] = "-c";
	char *argv[] = { sh, dash_c, (char *)cmd, NULL };
	struct guard_note note = { 0, 0 };
	int in, out;

	(void)setsid();
	plat_child_signals();
	in = open("/dev/null", O_RDONLY);
	out = plat_open(log ? log : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (out < 0) {
		note.what = 'o';
		note.err = errno;
		(void)write(rep, &note, sizeof(note));
		out = open("/dev/null", O_WRONLY);
	}
	if (in >= 0 && in != 0) {
		(void)dup2(in, 0);
		close(in);
	}
	if (out >= 0) {
		(void)dup2(out, 1);
		(void)dup2(out, 2);
		if (out > 2)
			close(out);
	}
	plat_execve("/bin/sh", argv, environ);
	note.what = 'x';
	note.err = errno;
	(void)write(rep, &note, sizeof(note));
	_exit(127);
}

static void guard_running(struct guard *g, pid_t pid, double limit)
{
	struct guard_msg m;

	if (!g || g->ctl < 0)
		return;
	memset(&m, 0, sizeof(m));
	m.tag = 'P';
	m.pid = pid;
	m.limit = limit;
	(void)guard_send(g->ctl, &m, sizeof(m));
}

int guard_run(const char *cmd, const char *log, double limit_s, struct guard *g,
	      struct guard_ran *r)
{
	struct guard_note note;
	int rep[2], st = 0;
	double start;
	pid_t pid, w;

	memset(r, 0, sizeof(*r));
	r->limit = limit_s;
	if (plat_pipe_cloexec(rep) < 0) {
		r->call = "pipe";
		r->err = errno;
		return -1;
	}
	(void)fcntl(rep[0], F_SETFL, O_NONBLOCK);
	fflush(NULL);
	pid = plat_fork();
	if (pid < 0) {
		r->call = "fork";
		r->err = errno;
		close(rep[0]);
		close(rep[1]);
		return -1;
	}
	if (pid == 0) {
		close(rep[0]);
		guard_child(cmd, log, rep[1]);
	}
	close(rep[1]);
	guard_running(g, pid, limit_s);
	/*
	 * Polled rather than waited for: a signal to kbench must not end the
	 * wait (the command is what puts the machine back), and the limit must.
	 */
	start = guard_now();
	for (;;) {
		w = plat_waitpid(pid, &st, WNOHANG);
		if (w == pid) {
			r->ran = 1;
			r->status = st;
			break;
		}
		if (w < 0 && errno != EINTR) {
			/* It cannot be watched, so it cannot be trusted to finish: stopped. */
			r->call = "waitpid";
			r->err = errno;
			(void)kill(-pid, SIGKILL);
			(void)kill(pid, SIGKILL);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			break;
		}
		if (limit_s > 0 && !r->timed_out && guard_now() - start > limit_s) {
			r->timed_out = 1;
			/* ESRCH: its setsid has not happened yet, so its group is kbench's: the shell alone. */
			if (plat_kill(-pid, SIGKILL) < 0 && errno != ESRCH) {
				r->call = "kill";
				r->err = errno;
				break;	/* left running: the caller says so */
			}
			(void)kill(pid, SIGKILL);
			continue;
		}
		guard_nap();
	}
	while (read(rep[0], &note, sizeof(note)) == (ssize_t)sizeof(note))
		if (note.what == 'o')
			r->log_err = note.err;
		else if (note.what == 'x' && !r->call) {
			r->call = "execve";
			r->err = note.err;
		}
	close(rep[0]);
	return r->ran && !r->timed_out && !r->call && WIFEXITED(r->status) &&
	       WEXITSTATUS(r->status) == 0 ? 0 : -1;
}

void guard_ran_text(const struct guard_ran *r, char *buf, size_t len)
{
	char e[128];

	if (r->call && !strcmp(r->call, "kill"))
		snprintf(buf, len, "ran past its limit of %g s and could not be stopped: kill: %s; "
			 "left running", r->limit, err_errno_text(r->err, e, sizeof(e)));
	else if (r->call && !strcmp(r->call, "waitpid"))
		snprintf(buf, len, "cannot wait for it: waitpid: %s; killed",
			 err_errno_text(r->err, e, sizeof(e)));
	else if (r->call && !strcmp(r->call, "execve"))
		snprintf(buf, len, "cannot run /bin/sh: execve: %s", err_errno_text(r->err, e, sizeof(e)));
	else if (r->call)
		snprintf(buf, len, "cannot start it: %s: %s", r->call, err_errno_text(r->err, e, sizeof(e)));
	else if (r->timed_out)
		snprintf(buf, len, "ran past its limit of %g s and was killed", r->limit);
	else if (WIFSIGNALED(r->status))
		snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(r->status),
			 strsignal(WTERMSIG(r->status)));
	else
		snprintf(buf, len, "exit status %d", WEXITSTATUS(r->status));
}

int guard_write(const char *path, const char *value)
{
	return plat_write_text(path, value);
}

/*
 * After kbench died while a command of its own ran (its shell pid, the
 * leader of its group): that one is let finish, within its limit counted
 * from now, before the guard runs the command again, so that the two never
 * run at once.  The shell, not the group: what the command started and
 * left in its group is left running, as it would have been.
 */
static void guard_await(pid_t pgid, double limit)
{
	double start = guard_now();

	while (kill(pgid, 0) == 0) {
		if (limit > 0 && guard_now() - start > limit) {
			(void)kill(-pgid, SIGKILL);
			return;
		}
		guard_nap();
	}
}

/* What the guard could not put back, on kbench's stderr (fd say), when kbench is not there to say it. */
static void guard_say(int say, const struct guard_msg *m, const char *why)
{
	char line[GUARD_CMD_MAX + 512];
	int n;

	if (say < 0)
		return;
	if (m->tag == 'C')
		n = snprintf(line, sizeof(line), "kbench: guard: kbench is gone and the command that puts "
			     "the machine back failed: sh -c '%s': %s\n", m->cmd, why);
	else
		n = snprintf(line, sizeof(line), "kbench: guard: kbench is gone and '%s' could not be "
			     "written back to %s: %s\n", m->value, m->path, why);
	if (n > 0)
		(void)write(say, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

static _Noreturn void guard_main(int ctl)
{
	struct guard_msg *todo = calloc(GUARD_MAX, sizeof(*todo)), m;
	/* kbench's stderr, kept past runner_detach's /dev/null. */
	int say = fcntl(2, F_DUPFD_CLOEXEC, 3), n = 0, finish = 0, failed = 0;
	pid_t running = 0;
	double running_limit = 0;

	runner_detach();
	/* The guard's own faults, not those kbench armed before it forked (KBENCH_INJECT_SELF). */
	plat_inject_from("KBENCH_INJECT_GUARD");
	for (;;) {
		ssize_t k = read(ctl, &m, sizeof(m));

		if (k < 0 && errno == EINTR)
			continue;
		if (k == (ssize_t)sizeof(m) && (m.tag == 'S' || m.tag == 'C')) {
			if (todo && n < GUARD_MAX)
				todo[n++] = m;
			continue;
		}
		if (k == (ssize_t)sizeof(m) && m.tag == 'P') {
			running = m.pid;
			running_limit = m.limit;
			continue;
		}
		if (k == (ssize_t)sizeof(m) && m.tag == 'D')
			_exit(0);
		finish = k == (ssize_t)sizeof(m) && m.tag == 'F';
		break;	/* finish, or end of file or garbage: kbench is gone */
	}
	if (running > 0)
		guard_await(running, running_limit);
	/* The last change first: the state before the first is what comes back. */
	while (n-- > 0) {
		struct guard_ran r;
		char why[ERRBUF_LEN];

		if (todo[n].tag == 'C') {
			if (guard_run(todo[n].cmd, NULL, todo[n].limit, NULL, &r) == 0)
				continue;
			guard_ran_text(&r, why, sizeof(why));
		} else if (guard_write(todo[n].path, todo[n].value) == 0) {
			continue;
		} else {
			err_errno_text(errno, why, sizeof(why));
		}
		failed = 1;
		/* With 'F' kbench waits for the exit status and says it itself. */
		if (!finish)
			guard_say(say, &todo[n], why);
	}
	_exit(failed);
}

int guard_start(struct guard *g)
{
	int p[2];

	g->pid = -1;
	g->ctl = -1;
	g->n = 0;
	if (plat_pipe_cloexec(p) < 0)
		return -1;
	g->pid = plat_fork();
	if (g->pid < 0) {
		int saved = errno;

		close(p[0]);
		close(p[1]);
		errno = saved;
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

int guard_add_command(struct guard *g, const char *cmd, double limit_s)
{
	struct guard_msg m;

	memset(&m, 0, sizeof(m));
	if (g->ctl < 0 || g->n >= GUARD_MAX || strlen(cmd) > GUARD_CMD_MAX) {
		errno = g->ctl < 0 ? ESRCH : ENOSPC;
		return -1;
	}
	m.tag = 'C';
	memcpy(m.cmd, cmd, strlen(cmd));
	m.limit = limit_s;
	if (guard_send(g->ctl, &m, sizeof(m)) < 0)
		return -1;
	g->n++;
	return 0;
}

/* Send tag (D or F), close the pipe and wait for the guard: its wait status, or -1. */
static int guard_end(struct guard *g, char tag)
{
	struct guard_msg m;
	int st = -1;

	if (g->ctl < 0)
		return -1;
	memset(&m, 0, sizeof(m));
	m.tag = tag;
	(void)guard_send(g->ctl, &m, sizeof(m));
	close(g->ctl);
	g->ctl = -1;
	if (g->pid > 0)
		while (waitpid(g->pid, &st, 0) < 0)
			if (errno != EINTR) {
				st = -1;
				break;
			}
	g->pid = -1;
	return st;
}

void guard_done(struct guard *g)
{
	(void)guard_end(g, 'D');
}

int guard_finish(struct guard *g)
{
	int st = guard_end(g, 'F');

	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}
