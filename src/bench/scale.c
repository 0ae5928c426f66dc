/*
 * Scalability: how many operations per second 1, 2, ... N tasks doing the
 * same operation at once get through, as processes and as threads, the
 * curves will-it-scale draws for a locking or mm change.  A task does its
 * operation on what is its own (its mapping, its file, its pipe, its futex
 * word), except scale.unlink's, whose files share one directory and so
 * its lock: what does not scale is the kernel's.
 *
 * Each point is a row of its own, scale.<op>.<proc|thread>.<tasks>, so
 * that it is stored, compared and kept in history as any figure is (and
 * the stores keep no new shape).  The rows are the product of the
 * operation table below and the task counts 1..SCALE_MAX_TASKS, made once
 * at start-up; a run selects those up to --max-tasks (the online CPUs).
 *
 * The tasks are started in setup and wait on a pipe of their own; an
 * iteration is one operation by every task, so a timed call hands each
 * task n operations and returns when the last task is done: the harness
 * times the window from the first start to the last end and the figure,
 * operations per second, is all tasks' (ops_per_iter = tasks).  Each task
 * checks each operation (what a call returned, the byte that came back,
 * the page faults the kernel counted) and counts it; the timed call fails
 * unless every task counted its n.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/families.h"
#include "bench/peer.h"
#include "bench/scale.h"
#include "plat/plat.h"
#include "plat/sys.h"

/* What a timed call's command says to stop a task. */
#define SCALE_QUIT UINT64_MAX
/*
 * scale.page_fault's mapping: a fresh one each time the last is used up,
 * the unmapping counted in as will-it-scale's page_fault1 counts it.  32
 * MiB, not its 128: the same cost per page, less memory at 64 tasks.
 */
#define SCALE_FAULT_BYTES (32u << 20)
/* scale.mmap's mapping, never touched: will-it-scale's mmap1 size. */
#define SCALE_MMAP_BYTES (128u << 20)

struct scale_task;

/*
 * An operation: what a task sets up in itself (its file, its pipe), n of
 * the operation, each checked and counted in t->done, and its undoing.
 * init and loop return 0, or -1 with err (ERRBUF_LEN) filled.
 */
struct scale_op {
	const char *name;		/* the id's word: scale.<name>.proc.2 */
	const char *what;		/* the summary's start */
	int (*init)(struct scale_task *t, char *err);
	int (*loop)(struct scale_task *t, uint64_t n, char *err);
	void (*fini)(struct scale_task *t);
};

/* A row's parameters: its operation, processes or threads, how many. */
struct scale_row {
	const struct scale_op *op;
	int threads;
	int tasks;
};

/* One task: its control pipes, and its operation's state. */
struct scale_task {
	int idx;			/* from 0 */
	const struct scale_op *op;
	const char *tmpdir;		/* the run's private directory */
	int cmd[2];			/* main -> task: n, or SCALE_QUIT */
	int rep[2];			/* task -> main: struct scale_reply */
	pid_t pid;			/* a process task, or 0 */
	pthread_t thread;
	int started;			/* a process or thread was started */
	uint64_t done;			/* operations checked so far, all calls (the task's) */
	uint64_t seen;			/* done as the last reply said (the timing side's:
					   a thread's done is the same memory) */
	char *map;			/* page_fault: the mapping being faulted in */
	size_t off, page;		/* its next page's offset, the page size */
	int pfd[2];			/* pipe: the task's own pipe */
	char path[4096];		/* open, unlink: the task's file */
	uint32_t word;			/* futex: a word no one waits on */
};

/* A task's answer to its set-up and to every command. */
struct scale_reply {
	int failed;			/* 1: err says what */
	uint64_t done;			/* t->done after the call */
	char err[ERRBUF_LEN];
};

struct scale_state {
	const struct scale_row *row;
	struct scale_task *task;	/* row->tasks of them */
	char dir[4096];			/* scale.unlink's shared directory, or "" */
};

static int scale_err(char *err, int e, const char *what)
{
	if (e)
		snprintf(err, ERRBUF_LEN, "%s: %s", what, strerror(e));
	else
		snprintf(err, ERRBUF_LEN, "%s", what);
	return -1;
}

static int none_init(struct scale_task *t, char *err)
{
	(void)t;
	(void)err;
	return 0;
}

static void none_fini(struct scale_task *t)
{
	(void)t;
}

/* --- page faults: a write to each page of a fresh anonymous mapping --- */

static int fault_map(struct scale_task *t, char *err)
{
	void *p = plat_mmap(NULL, SCALE_FAULT_BYTES, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return scale_err(err, errno, "mmap of the pages to fault in");
	t->map = p;
	/* A fault a page, not one a huge page: the figure is per 4 KiB fault.
	   EINVAL: a kernel without transparent huge pages, which has none to refuse. */
#ifdef MADV_NOHUGEPAGE
	if (plat_madvise(p, SCALE_FAULT_BYTES, MADV_NOHUGEPAGE) != 0 && errno != EINVAL)
		return scale_err(err, errno, "madvise(MADV_NOHUGEPAGE)");
#endif
	t->off = 0;
	return 0;
}

static int fault_init(struct scale_task *t, char *err)
{
	long page = sysconf(_SC_PAGESIZE);

	t->page = page > 0 ? (size_t)page : 4096;
	return fault_map(t, err);
}

static int fault_loop(struct scale_task *t, uint64_t n, char *err)
{
	uint64_t before, after;

	if (plat_minor_faults(&before) < 0)
		return scale_err(err, errno, "cannot read the page fault count");
	for (uint64_t i = 0; i < n; i++) {
		if (t->off + t->page > SCALE_FAULT_BYTES) {
			if (munmap(t->map, SCALE_FAULT_BYTES) != 0)
				return scale_err(err, errno, "munmap of the faulted pages");
			t->map = NULL;
			if (fault_map(t, err) < 0)
				return -1;
		}
		((volatile char *)t->map)[t->off] = 1;
		t->off += t->page;
	}
	if (plat_minor_faults(&after) < 0)
		return scale_err(err, errno, "cannot read the page fault count");
	/* Threads share the count: then it holds the others' too, never fewer than ours. */
	if (after - before < n) {
		snprintf(err, ERRBUF_LEN, "%llu pages written, only %llu page faults counted "
			 "(huge pages?)", (unsigned long long)n, (unsigned long long)(after - before));
		return -1;
	}
	t->done += n;
	return 0;
}

static void fault_fini(struct scale_task *t)
{
	if (t->map)
		munmap(t->map, SCALE_FAULT_BYTES);
	t->map = NULL;
}

/* --- open and close of the task's own file --- */

static int open_init(struct scale_task *t, char *err)
{
	int fd;

	snprintf(t->path, sizeof(t->path), "%s/scale-open.%d", t->tmpdir, t->idx);
	fd = plat_open(t->path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return scale_err(err, errno, "cannot create the file to open");
	close(fd);
	return 0;
}

static int open_loop(struct scale_task *t, uint64_t n, char *err)
{
	for (uint64_t i = 0; i < n; i++) {
		int fd = plat_open(t->path, O_RDWR, 0);

		if (fd < 0)
			return scale_err(err, errno, "open");
		if (close(fd) != 0)
			return scale_err(err, errno, "close");
		t->done++;
	}
	return 0;
}

static void file_fini(struct scale_task *t)
{
	if (t->path[0])
		unlink(t->path);
	t->path[0] = '\0';
}

/* --- a byte through the task's own pipe and back: will-it-scale's pipe1 --- */

static int pipe_init(struct scale_task *t, char *err)
{
	if (plat_pipe(t->pfd) != 0) {
		t->pfd[0] = t->pfd[1] = -1;
		return scale_err(err, errno, "pipe");
	}
	return 0;
}

static int pipe_loop(struct scale_task *t, uint64_t n, char *err)
{
	for (uint64_t i = 0; i < n; i++) {
		unsigned char out = (unsigned char)(t->done + (uint64_t)t->idx), in = (unsigned char)~out;

		if (plat_write(t->pfd[1], &out, 1) != 1)
			return scale_err(err, errno, "write to the pipe");
		if (plat_read(t->pfd[0], &in, 1) != 1)
			return scale_err(err, errno, "read from the pipe");
		if (in != out)
			return scale_err(err, 0, "the pipe gave back another byte than was written");
		t->done++;
	}
	return 0;
}

static void pipe_fini(struct scale_task *t)
{
	for (int k = 0; k < 2; k++)
		if (t->pfd[k] >= 0)
			close(t->pfd[k]);
	t->pfd[0] = t->pfd[1] = -1;
}

/* --- a 128 MiB anonymous mapping made and unmade, never touched --- */

static int mmap_loop(struct scale_task *t, uint64_t n, char *err)
{
	for (uint64_t i = 0; i < n; i++) {
		void *p = plat_mmap(NULL, SCALE_MMAP_BYTES, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return scale_err(err, errno, "mmap");
		if (munmap(p, SCALE_MMAP_BYTES) != 0)
			return scale_err(err, errno, "munmap");
		t->done++;
	}
	return 0;
}

/* --- fork of a child that exits at once, and its reaping --- */

static int fork_loop(struct scale_task *t, uint64_t n, char *err)
{
	for (uint64_t i = 0; i < n; i++) {
		pid_t pid = plat_fork();
		int status;

		if (pid < 0)
			return scale_err(err, errno, "fork");
		if (pid == 0)
			_exit(0);
		if (plat_waitpid(pid, &status, 0) != pid) {
			int e = errno;

			/* Reaped all the same, with the real call: no child is left behind. */
			kill(pid, SIGKILL);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
			return scale_err(err, e, "waitpid");
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			return scale_err(err, 0, "a forked child did not exit with 0");
		t->done++;
	}
	return 0;
}

/* --- FUTEX_WAKE on the task's own word, no one waiting: an unlock's call --- */

static int futex_init(struct scale_task *t, char *err)
{
	if (plat_futex_wake(&t->word, 1) < 0)
		return scale_err(err, errno, errno == ENOSYS ? "this OS has no futex" : "futex wake");
	return 0;
}

static int futex_loop(struct scale_task *t, uint64_t n, char *err)
{
	for (uint64_t i = 0; i < n; i++) {
		int r = plat_futex_wake(&t->word, 1);

		if (r != 0) {
			snprintf(err, ERRBUF_LEN, "futex wake with no waiter returned %d (%s)", r,
				 r < 0 ? strerror(errno) : "woke someone");
			return -1;
		}
		t->done++;
	}
	return 0;
}

/* --- a file created, closed and unlinked in the directory all tasks share --- */

static int unlink_init(struct scale_task *t, char *err)
{
	(void)err;
	snprintf(t->path, sizeof(t->path), "%s/scale-unlink/f%d", t->tmpdir, t->idx);
	return 0;
}

static int unlink_loop(struct scale_task *t, uint64_t n, char *err)
{
	for (uint64_t i = 0; i < n; i++) {
		/* O_EXCL: the create proves the last unlink really removed it. */
		int fd = plat_open(t->path, O_RDWR | O_CREAT | O_EXCL, 0600);

		if (fd < 0)
			return scale_err(err, errno, "create in the shared directory");
		if (close(fd) != 0)
			return scale_err(err, errno, "close");
		if (plat_unlink(t->path) != 0)
			return scale_err(err, errno, "unlink from the shared directory");
		t->done++;
	}
	return 0;
}

/*
 * The operations.  To add one: write its init (none_init when it needs
 * nothing), a loop that checks and counts each operation, its fini, and a
 * row here; the rows scale.<name>.{proc,thread}.1..SCALE_MAX_TASKS follow,
 * and SCALE_NOPS (scale.h) is the table's length.
 */
static const struct scale_op scale_ops[] = {
	{ "page_fault", "anonymous page faults (will-it-scale page_fault1)",
	  fault_init, fault_loop, fault_fini },
	{ "open", "open and close of a file of each task's own (open1)",
	  open_init, open_loop, file_fini },
	{ "pipe", "a byte written to a pipe and read back (pipe1)",
	  pipe_init, pipe_loop, pipe_fini },
	{ "mmap", "mmap and munmap of 128 MiB anonymous, untouched (mmap1)",
	  none_init, mmap_loop, none_fini },
	{ "fork", "fork of a child that exits at once, and waitpid",
	  none_init, fork_loop, none_fini },
	{ "futex", "FUTEX_WAKE on a private word no one waits on (futex1, private)",
	  futex_init, futex_loop, none_fini },
	{ "unlink", "create, close, unlink in one shared directory (unlink1)",
	  unlink_init, unlink_loop, file_fini },
};
_Static_assert(sizeof(scale_ops) / sizeof(scale_ops[0]) == SCALE_NOPS, "SCALE_NOPS is the table's length");
_Static_assert(SCALE_MAX_TASKS < 100, "the ids are made with two digits at most");

/* A task's life: set up, then n operations for each command until told to stop. */
static int scale_serve(struct scale_task *t)
{
	struct scale_reply rep;
	uint64_t n;

	memset(&rep, 0, sizeof(rep));
	rep.failed = t->op->init(t, rep.err) < 0;
	if (plat_full_io(t->rep[1], &rep, sizeof(rep), 1) < 0 || rep.failed)
		goto out;
	while (plat_full_io(t->cmd[0], &n, sizeof(n), 0) == 0 && n != SCALE_QUIT) {
		rep.err[0] = '\0';
		rep.failed = t->op->loop(t, n, rep.err) < 0;
		rep.done = t->done;
		if (plat_full_io(t->rep[1], &rep, sizeof(rep), 1) < 0)
			break;
	}
out:
	t->op->fini(t);
	return rep.failed ? PEER_SETUP : PEER_OK;
}

static int scale_peer(struct bench_ctx *ctx, void *arg)
{
	(void)ctx;
	return scale_serve(arg);
}

static void *scale_thread(void *arg)
{
	(void)scale_serve(arg);
	return NULL;
}

static void scale_teardown(struct bench_ctx *ctx)
{
	struct scale_state *s = ctx->priv;
	uint64_t quit = SCALE_QUIT;

	if (!s)
		return;
	for (int i = 0; i < s->row->tasks; i++) {
		struct scale_task *t = &s->task[i];

		if (t->started)
			(void)plat_full_io(t->cmd[1], &quit, sizeof(quit), 1);
	}
	for (int i = 0; i < s->row->tasks; i++) {
		struct scale_task *t = &s->task[i];

		if (t->started && s->row->threads)
			pthread_join(t->thread, NULL);
		else if (t->started)
			while (waitpid(t->pid, NULL, 0) < 0 && errno == EINTR)
				;
		for (int k = 0; k < 2; k++) {
			if (t->cmd[k] >= 0)
				close(t->cmd[k]);
			if (t->rep[k] >= 0)
				close(t->rep[k]);
		}
	}
	if (s->dir[0])
		rmdir(s->dir);
	free(s->task);
	free(s);
	ctx->priv = NULL;
}

/* Read task i's reply: 0, or BENCH_FAIL with ctx->err saying which task and why. */
static enum bench_status scale_reply(struct bench_ctx *ctx, struct scale_task *t,
				     struct scale_reply *rep)
{
	if (plat_full_io(t->rep[0], rep, sizeof(*rep), 0) < 0)
		return bench_fail(ctx, 0, "task %d stopped answering", t->idx);
	if (rep->failed)
		return bench_fail(ctx, 0, "task %d: %s", t->idx, rep->err);
	return BENCH_OK;
}

static enum bench_status scale_setup(struct bench_ctx *ctx)
{
	const struct scale_row *row = ctx->arg;
	struct scale_state *s = calloc(1, sizeof(*s));
	enum bench_status st = BENCH_OK;
	struct scale_reply rep;
	uint32_t word = 0;

	/* An operation the OS lacks is a skip, said before any task starts. */
	if (row->op->init == futex_init && plat_futex_wake(&word, 1) < 0 && errno == ENOSYS) {
		free(s);
		return bench_skip(ctx, "this OS has no futex");
	}
	if (!s || !(s->task = calloc((size_t)row->tasks, sizeof(*s->task)))) {
		free(s);
		return bench_fail(ctx, ENOMEM, "setup of %d tasks", row->tasks);
	}
	s->row = row;
	ctx->priv = s;
	ctx->ops_per_iter = row->tasks;
	for (int i = 0; i < row->tasks; i++) {
		struct scale_task *t = &s->task[i];

		t->idx = i;
		t->op = row->op;
		t->tmpdir = ctx->tmpdir;
		t->cmd[0] = t->cmd[1] = t->rep[0] = t->rep[1] = t->pfd[0] = t->pfd[1] = -1;
	}
	if (row->op->init == unlink_init) {
		snprintf(s->dir, sizeof(s->dir), "%s/scale-unlink", ctx->tmpdir);
		if (plat_mkdir(s->dir, 0700) != 0) {
			st = bench_fail(ctx, errno, "mkdir of the shared directory");
			s->dir[0] = '\0';
			goto fail;
		}
	}
	for (int i = 0; i < row->tasks; i++) {
		struct scale_task *t = &s->task[i];
		int e;

		if (plat_pipe_cloexec(t->cmd) < 0 || plat_pipe_cloexec(t->rep) < 0) {
			st = bench_fail(ctx, errno, "pipes of task %d", i);
			goto fail;
		}
		if (row->threads) {
			if ((e = pthread_create(&t->thread, NULL, scale_thread, t)) != 0) {
				st = bench_fail(ctx, e, "cannot start thread %d", i);
				goto fail;
			}
		} else if ((t->pid = peer_start(ctx, i + 1, scale_peer, t)) < 0) {
			st = BENCH_FAIL;
			goto fail;
		} else {
			/* The task's ends are the task's alone: one that dies is read as an
			   end of file, not waited on for ever. */
			close(t->cmd[0]);
			close(t->rep[1]);
			t->cmd[0] = t->rep[1] = -1;
		}
		t->started = 1;
	}
	for (int i = 0; i < row->tasks; i++)
		if ((st = scale_reply(ctx, &s->task[i], &rep)) != BENCH_OK)
			goto fail;
	return BENCH_OK;
fail:
	scale_teardown(ctx);
	return st;
}

/* Every task n operations at once; each must have counted its n. */
static enum bench_status scale_run(struct bench_ctx *ctx, uint64_t n)
{
	struct scale_state *s = ctx->priv;
	struct scale_reply rep;
	enum bench_status st = BENCH_OK;

	for (int i = 0; i < s->row->tasks; i++)
		if (plat_full_io(s->task[i].cmd[1], &n, sizeof(n), 1) < 0)
			return bench_fail(ctx, errno, "task %d stopped taking commands", i);
	/* Every reply is read, even after a failure, so no task is left mid-answer. */
	for (int i = 0; i < s->row->tasks; i++) {
		struct scale_task *t = &s->task[i];
		enum bench_status one = scale_reply(ctx, t, &rep);

		if (one == BENCH_OK && rep.done != t->seen + n)
			one = bench_fail(ctx, 0, "task %d counted %llu operations, not %llu", i,
					 (unsigned long long)(rep.done - t->seen), (unsigned long long)n);
		if (one == BENCH_OK)
			t->seen = rep.done;
		else if (st == BENCH_OK)
			st = one;
		else
			break;
	}
	return st;
}

/* The rows: made at start-up from scale_ops, before the registry is first read. */
#define SCALE_NROWS (SCALE_NOPS * 2 * SCALE_MAX_TASKS)
static struct scale_row scale_rows[SCALE_NROWS];
static char scale_ids[SCALE_NROWS][48];
/* A summary an operation and shape, shared by its task counts: the id says how many. */
static char scale_summaries[SCALE_NOPS * 2][112];
struct bench scale_benches[SCALE_NROWS];
const size_t scale_nbenches = SCALE_NROWS;

/*
 * Every kbench and every worker makes them as it starts, hundreds of
 * them: the ids are put together by hand, since a formatted print of each
 * cost a start a millisecond.
 */
__attribute__((constructor)) static void scale_make_rows(void)
{
	size_t k = 0;

	for (size_t o = 0; o < SCALE_NOPS; o++)
		for (int threads = 0; threads < 2; threads++) {
			char *sum = scale_summaries[2 * o + (size_t)threads];
			char stem[40];
			size_t len;

			snprintf(sum, sizeof(scale_summaries[0]), "%s, by %s at once", scale_ops[o].what,
				 threads ? "threads" : "processes");
			len = (size_t)snprintf(stem, sizeof(stem), "%s%s.%s.", SCALE_PREFIX,
					       scale_ops[o].name, threads ? "thread" : "proc");
			for (int n = 1; n <= SCALE_MAX_TASKS; n++, k++) {
				char *id = scale_ids[k];

				memcpy(id, stem, len);
				if (n >= 10)
					id[len++] = (char)('0' + n / 10);
				id[len] = (char)('0' + n % 10);
				id[len + 1] = '\0';
				if (n >= 10)
					len--;
				scale_rows[k] = (struct scale_row){ &scale_ops[o], threads, n };
				scale_benches[k] = (struct bench){
					.id = id, .metric = METRIC_OPS, .better = BETTER_HIGHER,
					.suites = SUITE_SCALE, .summary = sum,
					.setup = scale_setup, .run = scale_run,
					.teardown = scale_teardown, .arg = &scale_rows[k], .tasks = n,
				};
			}
		}
}
