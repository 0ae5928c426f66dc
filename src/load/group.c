/*
 * Process groups of contest's and time's jobs (group.h).  Nothing here
 * measures: the drivers read the clock and the counters around these calls.
 */
#include "load/group.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/runner.h"
#include "core/utf8.h"
#include "plat/plat.h"

double group_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void group_sleep_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR && !runner_interrupted())
		;
}

static void group_tv_add(struct timeval *a, const struct timeval *b)
{
	a->tv_sec += b->tv_sec;
	a->tv_usec += b->tv_usec;
	if (a->tv_usec >= 1000000) {
		a->tv_sec++;
		a->tv_usec -= 1000000;
	}
}

void group_rusage_add(struct rusage *a, const struct rusage *b)
{
	group_tv_add(&a->ru_utime, &b->ru_utime);
	group_tv_add(&a->ru_stime, &b->ru_stime);
	if (b->ru_maxrss > a->ru_maxrss)
		a->ru_maxrss = b->ru_maxrss;
	a->ru_minflt += b->ru_minflt;
	a->ru_majflt += b->ru_majflt;
	a->ru_inblock += b->ru_inblock;
	a->ru_oublock += b->ru_oublock;
	a->ru_nvcsw += b->ru_nvcsw;
	a->ru_nivcsw += b->ru_nivcsw;
}

static void group_tv_sub(struct timeval *a, const struct timeval *b)
{
	long long us = ((long long)a->tv_sec - b->tv_sec) * 1000000 + (a->tv_usec - b->tv_usec);

	if (us < 0)
		us = 0;
	a->tv_sec = (time_t)(us / 1000000);
	a->tv_usec = (suseconds_t)(us % 1000000);
}

/* b's counts out of a's, none below zero (a clock tick's rounding). */
#define GROUP_SUB(f) (a->f = a->f > b->f ? a->f - b->f : 0)

void group_rusage_sub(struct rusage *a, const struct rusage *b)
{
	group_tv_sub(&a->ru_utime, &b->ru_utime);
	group_tv_sub(&a->ru_stime, &b->ru_stime);
	GROUP_SUB(ru_minflt);
	GROUP_SUB(ru_majflt);
	GROUP_SUB(ru_inblock);
	GROUP_SUB(ru_oublock);
	GROUP_SUB(ru_nvcsw);
	GROUP_SUB(ru_nivcsw);
}

/*
 * Reap the members of the group that have exited (block: wait for one
 * first), their rusage kept.  The count, or -1 when the group has no
 * process kbench could wait for (ECHILD).
 */
static int group_reap_members(struct group *g, int block)
{
	struct rusage ru;
	int st, n = 0;
	pid_t r;

	/* WUNTRACED: a member that stops itself would otherwise hang the job unseen. */
	while ((r = wait4(-g->pid, &st, (block ? 0 : WNOHANG) | WUNTRACED, &ru)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return n ? n : (errno == ECHILD ? -1 : 0);
		}
		if (WIFSTOPPED(st)) {
			g->stopped = WSTOPSIG(st);
			continue;
		}
		if (r == g->pid) {
			g->reaped = 1;
			g->status = st;
			g->ru = ru;
		} else {
			g->orphans++;
			g->killed += WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
			group_rusage_add(&g->orphans_ru, &ru);
		}
		n++;
		block = 0;
	}
	return n;
}

int group_poll(struct group *g)
{
	if (g->pid <= 0)
		return g->reaped;
	/* None left to wait for (a test harness reaped it): it is gone. */
	if (group_reap_members(g, 0) < 0)
		g->reaped = 1;
	return g->reaped;
}

void group_kill(struct group *g, struct runner_janitor *jan)
{
	double until;

	if (g->pid <= 0)
		return;
	(void)kill(-g->pid, SIGKILL);
	while (!g->reaped)
		if (group_reap_members(g, 1) < 0)
			g->reaped = 1;
	until = group_now() + 5;
	for (;;) {
		(void)group_reap_members(g, 0);
		if (kill(-g->pid, 0) != 0 && errno == ESRCH)
			break;
		if (group_now() > until)
			break;
		(void)kill(-g->pid, SIGKILL);
		group_sleep_ms(2);
	}
	if (jan)
		runner_janitor_ungroup(jan, g->pid);
	g->pid = 0;
}

/* Whether pid is among the n of list. */
static int group_listed(const pid_t *list, int n, pid_t pid)
{
	for (int i = 0; i < n && i < GROUP_MAX_CHILDREN; i++)
		if (list[i] == pid)
			return 1;
	return 0;
}

/* One pass: kbench's children not listed before, killed and reaped; their count. */
static int group_sweep_pass(const pid_t *before, int nbefore, struct rusage *ru)
{
	pid_t kids[GROUP_MAX_CHILDREN];
	int n = plat_children(kids, GROUP_MAX_CHILDREN), swept = 0;

	for (int i = 0; i < n && i < GROUP_MAX_CHILDREN; i++) {
		struct rusage r;
		int st;

		if (group_listed(before, nbefore, kids[i]))
			continue;
		(void)kill(kids[i], SIGKILL);
		if (wait4(kids[i], &st, 0, &r) == kids[i]) {
			swept++;
			if (ru)
				group_rusage_add(ru, &r);
		}
	}
	return swept;
}

int group_sweep(const struct runner_janitor *jan, const pid_t *before, int nbefore, struct rusage *ru)
{
	double until = group_now() + 5;
	int swept = 0;

	for (;;) {
		/* Killed first: a member reparented to kbench is then reaped in this pass. */
		int left = jan && jan->cgroup[0] ? plat_cgroup_kill(jan->cgroup) : 0;
		int n = group_sweep_pass(before, nbefore, ru);

		swept += n;
		if ((n == 0 && left <= 0) || group_now() > until)
			break;
		if (n == 0)
			group_sleep_ms(1);
	}
	return swept;
}

int group_redirect_try(const char *log)
{
	int in = open("/dev/null", O_RDONLY), out, e;

	out = log ? open(log, O_WRONLY | O_CREAT | O_APPEND, 0644) : open("/dev/null", O_WRONLY);
	if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0) {
		e = errno;
		if (in >= 0)
			close(in);
		if (out >= 0)
			close(out);
		errno = e;
		return -1;
	}
	close(in);
	close(out);
	return 0;
}

void group_redirect(const char *log)
{
	if (group_redirect_try(log) < 0)
		_exit(126);
}

void group_log_bound(const char *log)
{
	static char tail[GROUP_LOG_KEEP];
	char head[96];
	struct stat sb;
	ssize_t n;
	int fd;

	if (!log || stat(log, &sb) != 0 || sb.st_size <= (off_t)GROUP_LOG_MAX)
		return;
	/* O_APPEND, as the job's own: what it writes after the cut goes after the tail. */
	fd = open(log, O_RDWR | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return;
#ifdef FALLOC_FL_PUNCH_HOLE
	/*
	 * Where the file system can, all but the tail becomes a hole: its
	 * blocks freed, nothing moved, so what the job appends meanwhile
	 * cannot fall between a read of the tail and a truncation (the last
	 * lines, the ones that say why it failed, were lost that way).
	 */
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
		      sb.st_size - (off_t)sizeof(tail)) == 0) {
		close(fd);
		return;
	}
#endif
	n = pread(fd, tail, sizeof(tail), sb.st_size - (off_t)sizeof(tail));
	if (n > 0 && ftruncate(fd, 0) == 0) {
		int h = snprintf(head, sizeof(head), "[kbench: %lld bytes of output cut here]\n",
				 (long long)(sb.st_size - n));

		if (write(fd, head, (size_t)h) != h || write(fd, tail, (size_t)n) != n) {
			/* A full disk: the log stays cut, with what could be written. */
		}
	}
	close(fd);
}

/*
 * The last k lines of text (n bytes, trailing blanks gone) escaped into buf:
 * 1 when all of them fit, 0 when buf was too small for them.
 */
static int group_tail_lines(const char *text, size_t n, int k, char *buf, size_t len)
{
	char piece[4096];
	size_t start, used = 0;
	int seen = 0;

	buf[0] = '\0';
	/* Back from the end over k newlines: start is then the first of the last lines. */
	for (start = n; start > 0; start--)
		if (text[start - 1] == '\n' && ++seen == k)
			break;
	for (size_t i = start; i < n;) {
		size_t j = i;
		const char *sep;

		while (j < n && text[j] != '\0' && text[j] != '\n')
			j++;
		memcpy(piece, text + i, j - i);
		piece[j - i] = '\0';
		utf8_escape(buf + used, len - used, piece, -1);
		used += strlen(buf + used);
		if (j >= n)
			return used + 1 < len;
		sep = text[j] == '\n' ? "\n" : "\\x00";
		if (used + strlen(sep) >= len)
			return 0;
		memcpy(buf + used, sep, strlen(sep) + 1);
		used += strlen(sep);
		i = j + 1;
	}
	return 1;
}

void group_log_tail(const char *log, int nlines, char *buf, size_t len)
{
	char text[4096];
	off_t size;
	ssize_t n;
	int fd;

	buf[0] = '\0';
	fd = open(log, O_RDONLY);
	if (fd < 0)
		return;
	/* Only the end matters: a compile's log can be long. */
	size = lseek(fd, 0, SEEK_END);
	n = size < 0 ? -1 : pread(fd, text, sizeof(text),
				 size > (off_t)sizeof(text) ? size - (off_t)sizeof(text) : 0);
	close(fd);
	if (n <= 0)
		return;
	/* Bytes, not a string: a NUL may be anywhere in them. */
	while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' ' || text[n - 1] == '\r'))
		n--;
	/* Fewer lines where they do not fit: the last one says why the job failed. */
	for (int k = nlines; k >= 1; k--)
		if (group_tail_lines(text, (size_t)n, k, buf, len) || k == 1)
			return;
}
