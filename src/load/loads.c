/*
 * The background loads of contest, and their table.  load.h says how the
 * driver runs one: in a process group of its own, with a shared page of
 * counters.  Here each load prepares (files, trees, buffers: untimed and
 * uncounted), says ready, forks its workers, and then works until it is
 * killed, adding each unit of work to its slot the moment the unit is done.
 *
 * What a load must not do: write outside ctx->dir (the driver removes that
 * directory and nothing else), grow its files past half the free space or
 * LOAD_FILE_CAP, take more than half the available memory, or wait for a
 * clean shutdown (there is none: SIGKILL to the group ends it).  Errors
 * are not printed (the load's stderr may be the job's terminal); they go
 * through load_fail into sh->why for the driver to report.
 *
 * Units: a piece of work a reader can picture (an MB written, a message
 * passed, a file handled), grouped (k entries, GB touched) where a single
 * process would otherwise count in the millions, but never so far that one
 * unit takes a process more than a few ms: pieces are added up per process
 * and only whole units published (struct load_proc), so the driver's
 * window is exact to one unit per process, and a coarser unit would leave
 * a short window, or a load starved by the job, counting nothing.
 *
 * Data moves through plat_read/plat_write/plat_openat/plat_unlinkat, so a
 * test can inject a failing call into a load and see load_fail report it.
 */
#include "load/load.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plat/plat.h"

#define LOAD_MIB (1ull << 20)
#define LOAD_MB 1000000ull		/* "MB" in the units is 10^6 bytes, as disks count */

/*
 * CPU time is published at least this often (wall time between checks)
 * rather than after every unit: reading CLOCK_PROCESS_CPUTIME_ID is a
 * system call, which would cost several percent of a 20 us unit, while the
 * driver's two readings can then be stale by at most about 1 ms of CPU.
 */
#define LOAD_PUBLISH_NS 1000000ull

/* Files read and written in chunks of this size (io_load, read_load). */
#define LOAD_CHUNK LOAD_MIB
/* io_load syncs this often, so its writes reach the disk during the job. */
#define LOAD_SYNC_EVERY (8 * LOAD_MIB)
/* A file load's file is at least this big, unless free space forbids. */
#define LOAD_FILE_MIN (8 * LOAD_MIB)
/* Pipes to and from tar are moved in chunks of this size. */
#define LOAD_PIPE_CHUNK (64u << 10)

/*
 * The tree ctar_load and xtar_load archive: LOAD_TAR_FILES files at scale
 * 1.0 (a few thousand, as a source tree has), of 1 to LOAD_TAR_FILE_MAX
 * bytes (16 KiB on average, 64 MB in all), LOAD_TREE_PER_DIR to a directory.
 */
#define LOAD_TAR_FILES 4000
#define LOAD_TAR_FILE_MAX 32768
#define LOAD_TREE_PER_DIR 100
/* The fewest files a tree may have, however small scale or free space is. */
#define LOAD_TREE_MIN 8

/* list_load's tree at scale 1.0: 20 directories of 500 files of a few bytes. */
#define LOAD_LIST_DIRS 20
#define LOAD_LIST_PER_DIR 500
#define LOAD_LIST_FILE_MAX 16

/* mem_load needs half the available memory to be at least this big. */
#define LOAD_MEM_MIN (16 * LOAD_MIB)

/* dbench_load's clients each write and read back files of this size, */
#define LOAD_DBENCH_FILE 4096
/* named in turn from this many names: each file a new entry, as dbench's are. */
#define LOAD_DBENCH_NAMES 64

/* tick_load's period: the tests check Loads = job time / this. */
#define LOAD_TICK_NS 10000000L

/*
 * One process of a load: where it counts, and the part of a unit it has
 * done but not yet published.  Each process has its own copy (a worker
 * gets the leader's, with its own slot, at fork).
 */
struct load_proc {
	const struct load_ctx *ctx;	/* as the driver gave it */
	const char *name;		/* the load's name, first word of every error */
	struct load_slot *slot;		/* this process's counters */
	uint64_t per;			/* pieces of work to a unit: 10^6 bytes to an MB */
	uint64_t part;			/* pieces done that make no whole unit yet */
	uint64_t next_publish;		/* CLOCK_MONOTONIC ns: publish CPU again then */
	pid_t child;			/* the tar now running, 0 when none */
	clockid_t child_clock;		/* its CPU clock, valid when child_clock_ok */
	int child_clock_ok;		/* clock_getcpuclockid succeeded */
	uint64_t child_ns;		/* its CPU at the last look: never decreases */
	uint64_t reaped_ns;		/* CPU of the tars already reaped (wait4's rusage) */
};

static uint64_t load_clock_ns(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The text for errno e, lowercased as kbench's messages are ("no such file"). */
static void load_errtext(int e, char *buf, size_t len)
{
	snprintf(buf, len, "%s", strerror(e));
	/* The first letter only, and not when it starts an acronym ("I/O error"). */
	if (buf[0] >= 'A' && buf[0] <= 'Z' && !(buf[1] >= 'A' && buf[1] <= 'Z') && buf[1] != '/')
		buf[0] = (char)(buf[0] - 'A' + 'a');
}

/* A system call failed (errno says how): "io_load: write 'PATH': REASON". */
static _Noreturn void load_die(const struct load_proc *p, const char *call, const char *path)
{
	char why[128];

	load_errtext(errno, why, sizeof(why));
	if (path)
		load_fail(p->ctx, "%s: %s '%s': %s", p->name, call, path, why);
	load_fail(p->ctx, "%s: %s: %s", p->name, call, why);
}

/* As load_die, for a file name in a directory: the path is put together only now. */
static _Noreturn void load_die_in(const struct load_proc *p, const char *call, const char *dir,
				  const char *name)
{
	char why[128];

	load_errtext(errno, why, sizeof(why));
	load_fail(p->ctx, "%s: %s '%s/%s': %s", p->name, call, dir, name, why);
}

_Noreturn void load_fail(const struct load_ctx *ctx, const char *fmt, ...)
{
	struct load_shared *sh = ctx->sh;
	char msg[sizeof(sh->why)];
	char none = '\0';
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (msg[0] == '\0')
		snprintf(msg, sizeof(msg), "load failed");
	/*
	 * First call wins, across all the load's processes: why's first byte is
	 * claimed atomically, the rest written, and only then failed set with
	 * release order, so a driver that sees failed reads a whole message.
	 * why is a plain char array in the contract, hence the GNU builtin.
	 */
	if (__atomic_compare_exchange_n(&sh->why[0], &none, msg[0], 0, __ATOMIC_ACQ_REL,
					__ATOMIC_RELAXED)) {
		memcpy(sh->why + 1, msg + 1, strlen(msg));
		atomic_store_explicit(&sh->failed, 1, memory_order_release);
	}
	/* _exit: a forked copy of the driver must not flush its stdio or run atexit. */
	_exit(1);
}

void load_publish_cpu(struct load_slot *slot, uint64_t extra_ns)
{
	atomic_store_explicit(&slot->cpu_ns, load_clock_ns(CLOCK_PROCESS_CPUTIME_ID) + extra_ns,
			      memory_order_relaxed);
}

static void load_begin(struct load_proc *p, const struct load_ctx *ctx, const char *name,
		       uint64_t per)
{
	memset(p, 0, sizeof(*p));
	p->ctx = ctx;
	p->name = name;
	p->slot = &ctx->sh->slot[0];
	p->per = per;
	if (!(ctx->scale > 0))
		load_fail(ctx, "%s: scale %g is not positive", name, ctx->scale);
}

/* The CPU of the running tar, as far as can be seen; 0 when none runs. */
static uint64_t load_child_ns(struct load_proc *p)
{
	struct timespec ts;

	if (p->child == 0 || !p->child_clock_ok)
		return p->child_ns;
	/* A tar that has just exited has no clock until it is reaped: keep the last look. */
	if (clock_gettime(p->child_clock, &ts) == 0) {
		uint64_t ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;

		if (ns > p->child_ns)
			p->child_ns = ns;
	}
	return p->child_ns;
}

static void load_publish(struct load_proc *p)
{
	load_publish_cpu(p->slot, p->reaped_ns + load_child_ns(p));
	p->next_publish = load_clock_ns(CLOCK_MONOTONIC) + LOAD_PUBLISH_NS;
}

/* n pieces of work are done: publish the whole units among them, and the CPU when due. */
static void load_did(struct load_proc *p, uint64_t n)
{
	p->part += n;
	if (p->part >= p->per) {
		atomic_fetch_add_explicit(&p->slot->work, p->part / p->per, memory_order_relaxed);
		p->part %= p->per;
	}
	if (load_clock_ns(CLOCK_MONOTONIC) >= p->next_publish)
		load_publish(p);
}

/*
 * Prepared: the CPU spent so far is published first, so that the driver's
 * first reading already holds it and the window does not count it.
 */
static void load_ready(struct load_proc *p)
{
	load_publish(p);
	atomic_store_explicit(&p->ctx->sh->ready, 1, memory_order_release);
}

/*
 * Fork n workers into the load's group.  Returns the calling process's
 * index: 0 in the leader, i (1..n) in worker i, whose slot is slot[i].
 */
static int load_workers(struct load_proc *p, int n)
{
	pid_t leader = getpid();

	for (int i = 1; i <= n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			load_die(p, "fork", NULL);
		if (pid > 0)
			continue;
		/* ENOSYS is no error: the driver's SIGKILL to the group still reaches us. */
		if (plat_die_with_parent(SIGKILL) < 0 && errno != ENOSYS)
			load_die(p, "prctl", NULL);
		/* The leader died between fork and prctl: the load is over. */
		if (getppid() != leader)
			_exit(0);
		p->slot = &p->ctx->sh->slot[i];
		p->part = 0;
		p->reaped_ns = 0;
		load_publish(p);
		return i;
	}
	return 0;
}

/* Format a path under the load's directory; a path too long is the load's failure. */
__attribute__((format(printf, 4, 5)))
static void load_path(const struct load_proc *p, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		load_fail(p->ctx, "%s: path too long under '%s'", p->name, p->ctx->dir);
}

/* Write all of buf, through short writes and signals: 0, or -1 with errno. */
static int load_write_all(int fd, const void *buf, size_t len)
{
	const char *b = buf;

	while (len > 0) {
		ssize_t n = plat_write(fd, b, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

/* read(2) that retries on a signal. */
static ssize_t load_read(int fd, void *buf, size_t len)
{
	ssize_t n;

	while ((n = plat_read(fd, buf, len)) < 0 && errno == EINTR)
		;
	return n;
}

static void load_mkdir(const struct load_proc *p, const char *path)
{
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		load_die(p, "mkdir", path);
}

static void load_close(const struct load_proc *p, int fd, const char *path)
{
	if (close(fd) != 0)
		load_die(p, "close", path);
}

static void *load_alloc(const struct load_proc *p, size_t len)
{
	void *b = malloc(len);

	if (!b) {
		errno = ENOMEM;
		load_die(p, "malloc", NULL);
	}
	return b;
}

/* Fill a buffer with bytes that are not all alike, so no layer can cheat. */
static void load_fill(unsigned char *b, size_t len)
{
	for (size_t i = 0; i < len; i++)
		b[i] = (unsigned char)('a' + (i * 7 + i / 251) % 26);
}

/* A deterministic hash of i, for file sizes that vary but repeat run to run. */
static uint64_t load_hash(uint64_t i)
{
	i ^= i >> 33;
	i *= 0xff51afd7ed558ccdull;
	i ^= i >> 33;
	return i;
}

/* What a file load may have on disk at once: half the free space, and the cap. */
static uint64_t load_disk_budget(const struct load_ctx *ctx)
{
	uint64_t half = ctx->disk_free / 2;

	return half < LOAD_FILE_CAP ? half : LOAD_FILE_CAP;
}

/*
 * The size of io_load's and read_load's file: the budget times scale,
 * whole MiB, at least LOAD_FILE_MIN unless the budget is smaller.
 */
static uint64_t load_file_size(const struct load_proc *p)
{
	uint64_t budget = load_disk_budget(p->ctx) / LOAD_MIB * LOAD_MIB;
	uint64_t size = (uint64_t)((double)budget * p->ctx->scale) / LOAD_MIB * LOAD_MIB;

	if (size < LOAD_FILE_MIN)
		size = LOAD_FILE_MIN;
	if (size > budget)
		size = budget;
	if (size < LOAD_MIB)
		load_fail(p->ctx, "%s: not enough free space in '%s'", p->name, p->ctx->dir);
	return size;
}

/*
 * Make root and nfiles files under it, per_dir to a subdirectory, file i
 * of 1 to max bytes (a hash of i, so every run makes the same tree).
 */
static void load_tree(const struct load_proc *p, const char *root, size_t nfiles, size_t per_dir,
		      size_t max)
{
	unsigned char *data = load_alloc(p, max);
	char path[4096];

	load_fill(data, max);
	load_mkdir(p, root);
	for (size_t i = 0; i < nfiles; i++) {
		size_t len = 1 + (size_t)(load_hash(i) % max);
		int fd;

		if (i % per_dir == 0) {
			load_path(p, path, sizeof(path), "%s/d%03zu", root, i / per_dir);
			load_mkdir(p, path);
		}
		load_path(p, path, sizeof(path), "%s/d%03zu/f%04zu", root, i / per_dir,
			  i % per_dir);
		fd = plat_openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			load_die(p, "open", path);
		if (load_write_all(fd, data, len) != 0)
			load_die(p, "write", path);
		load_close(p, fd, path);
	}
	free(data);
}

/* ------------------------------------------------------------------ */
/* tar, run as a child whose CPU counts in the load's slot             */
/* ------------------------------------------------------------------ */

/* Whether prog is an executable file in $PATH. */
static int load_have_prog(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (!path || !*path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		/* An empty entry means the current directory, as execvp takes it. */
		int len = n ? snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog)
			    : snprintf(buf, sizeof(buf), "./%s", prog);

		if (len > 0 && (size_t)len < sizeof(buf) && access(buf, X_OK) == 0)
			return 1;
		path += n;
		if (*path == ':')
			path++;
	}
	return 0;
}

/* The tree for ctar and xtar: its file count, from scale and free space. */
static size_t load_tar_files(const struct load_proc *p)
{
	/* Three copies may exist at once: the tree, its archive, xtar's extraction. */
	const uint64_t each = LOAD_TAR_FILE_MAX / 2 + 4096;	/* bytes, blocks rounded */
	uint64_t most = load_disk_budget(p->ctx) / 3 / each;
	double want = LOAD_TAR_FILES * p->ctx->scale;
	size_t n = want < LOAD_TREE_MIN ? LOAD_TREE_MIN : (size_t)want;

	if (n > most)
		n = (size_t)most;
	if (n < LOAD_TREE_MIN)
		load_fail(p->ctx, "%s: not enough free space in '%s'", p->name, p->ctx->dir);
	return n;
}

/* Put fd on target in a child about to exec, where fd may already be target. */
static int load_dup_to(int fd, int target)
{
	if (fd == target)
		return fcntl(fd, F_SETFD, 0);
	return dup2(fd, target) < 0 ? -1 : 0;
}

/*
 * Start tar with argv, its stdin from in and its stdout to out (-1: left
 * as they are), its stderr to errpath for the message should it fail.
 * Every other descriptor of ours is close-on-exec, so tar holds no pipe end
 * it should not (an extract that held the write end would never see EOF).
 */
static void load_tar_start(struct load_proc *p, const char *const argv[], int in, int out,
			   const char *errpath)
{
	int errfd = plat_openat(AT_FDCWD, errpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	pid_t pid;

	if (errfd < 0)
		load_die(p, "open", errpath);
	pid = fork();
	if (pid < 0)
		load_die(p, "fork", NULL);
	if (pid == 0) {
		(void)plat_die_with_parent(SIGKILL);
		/* Ignored signals stay ignored across exec; tar expects the defaults. */
		plat_child_signals();
		if ((in >= 0 && load_dup_to(in, 0) != 0) ||
		    (out >= 0 && load_dup_to(out, 1) != 0) || load_dup_to(errfd, 2) != 0)
			_exit(126);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	load_close(p, errfd, errpath);
	p->child = pid;
	p->child_ns = 0;
	p->child_clock_ok = clock_getcpuclockid(pid, &p->child_clock) == 0;
}

/* Reap tar, add its CPU to the reaped sum; a tar that failed fails the load. */
static void load_tar_wait(struct load_proc *p, const char *errpath)
{
	struct rusage ru;
	uint64_t used;
	char line[120];
	int st;

	while (wait4(p->child, &st, 0, &ru) < 0)
		if (errno != EINTR)
			load_die(p, "wait4", NULL);
	used = ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * 1000000000ull +
	       ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000ull;
	/* rusage is in microseconds: never let the published total go back. */
	p->reaped_ns += used > p->child_ns ? used : p->child_ns;
	p->child = 0;
	p->child_ns = 0;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return;
	if (WIFSIGNALED(st))
		load_fail(p->ctx, "%s: tar killed by signal %d", p->name, WTERMSIG(st));
	if (WEXITSTATUS(st) == 127)
		load_fail(p->ctx, "%s: tar not found", p->name);
	if (WEXITSTATUS(st) == 126)
		load_fail(p->ctx, "%s: cannot start tar", p->name);
	if (plat_read_line(errpath, line, sizeof(line)) != 0)
		line[0] = '\0';
	load_fail(p->ctx, "%s: tar exited with status %d%s%s", p->name, WEXITSTATUS(st),
		  line[0] ? ": " : "", line);
}

/*
 * One pass of `tar cf - -C dir tree`, its output read from a pipe and
 * written to archive (rewritten each pass); every byte moved is counted
 * when count is set.
 */
static void load_tar_create(struct load_proc *p, const char *archive, const char *errpath,
			    unsigned char *buf, int count)
{
	const char *const argv[] = { "tar", "cf", "-", "-C", p->ctx->dir, "tree", NULL };
	int pfd[2], afd;
	ssize_t n;

	afd = plat_openat(AT_FDCWD, archive, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (afd < 0)
		load_die(p, "open", archive);
	if (plat_pipe_cloexec(pfd) != 0)
		load_die(p, "pipe", NULL);
	load_tar_start(p, argv, -1, pfd[1], errpath);
	load_close(p, pfd[1], "pipe from tar");
	while ((n = load_read(pfd[0], buf, LOAD_PIPE_CHUNK)) > 0) {
		if (load_write_all(afd, buf, (size_t)n) != 0)
			load_die(p, "write", archive);
		if (count)
			load_did(p, (uint64_t)n);
	}
	if (n < 0)
		load_die(p, "read", "pipe from tar");
	load_close(p, pfd[0], "pipe from tar");
	load_close(p, afd, archive);
	load_tar_wait(p, errpath);
}

/* ------------------------------------------------------------------ */
/* The loads                                                           */
/* ------------------------------------------------------------------ */

/*
 * process_load: 4 x ncpu processes in a ring of pipes, each reading a byte
 * from its left and writing it to its right, with one token per CPU going
 * round, so every CPU has a ring member to run and most members are
 * waking and sleeping: scheduler work, as contest's process_load made.
 * A unit is a message: a byte passed on by one process.  Not grouped by a
 * thousand: each process passes only 1/(4 x CPUs) of them, some 20,000 a
 * second on an idle machine and far fewer beside a busy job, so a
 * thousand would be 50 ms to seconds of one process's work.
 */
static void load_process_run(const struct load_ctx *ctx)
{
	struct load_proc p;
	int n = 4 * (ctx->ncpu > 0 ? ctx->ncpu : 1);
	int (*ring)[2];
	int tokens, me, in, out;
	char b = 't';

	load_begin(&p, ctx, "process_load", 1);
	if (n > LOAD_MAX_SLOTS)
		n = LOAD_MAX_SLOTS;
	tokens = n / 4;
	ring = load_alloc(&p, (size_t)n * sizeof(*ring));
	for (int k = 0; k < n; k++)
		if (plat_pipe_cloexec(ring[k]) != 0)
			load_die(&p, "pipe", NULL);
	for (int t = 0; t < tokens; t++)
		if (load_write_all(ring[t * n / tokens][1], &b, 1) != 0)
			load_die(&p, "write", "pipe");
	load_ready(&p);
	me = load_workers(&p, n - 1);
	in = ring[me][0];
	out = ring[(me + 1) % n][1];
	for (int k = 0; k < n; k++) {
		if (ring[k][0] != in)
			load_close(&p, ring[k][0], "pipe");
		if (ring[k][1] != out)
			load_close(&p, ring[k][1], "pipe");
	}
	free(ring);
	for (;;) {
		ssize_t r = load_read(in, &b, 1);

		if (r < 0)
			load_die(&p, "read", "pipe");
		if (r == 0)
			load_fail(ctx, "%s: the ring of pipes is broken", p.name);
		if (load_write_all(out, &b, 1) != 0)
			load_die(&p, "write", "pipe");
		load_did(&p, 1);
	}
}

/*
 * ctar_load: tar creating an archive of a generated tree, over and over;
 * a unit is an MB moved from tar into the archive file.  tar's CPU counts.
 */
static void load_ctar_run(const struct load_ctx *ctx)
{
	struct load_proc p;
	char tree[4096], archive[4096], errpath[4096];
	unsigned char *buf;

	load_begin(&p, ctx, "ctar_load", LOAD_MB);
	if (!load_have_prog("tar"))
		load_fail(ctx, "%s: tar not found", p.name);
	load_path(&p, tree, sizeof(tree), "%s/tree", ctx->dir);
	load_path(&p, archive, sizeof(archive), "%s/archive.tar", ctx->dir);
	load_path(&p, errpath, sizeof(errpath), "%s/tar.err", ctx->dir);
	load_tree(&p, tree, load_tar_files(&p), LOAD_TREE_PER_DIR, LOAD_TAR_FILE_MAX);
	buf = load_alloc(&p, LOAD_PIPE_CHUNK);
	load_ready(&p);
	for (;;)
		load_tar_create(&p, archive, errpath, buf, 1);
}

/*
 * xtar_load: tar extracting an archive (of ctar's tree, made once) into
 * dir/x over and over, over the previous extraction; the archive is fed
 * through a pipe, and a unit is an MB fed.  tar's CPU counts.
 */
static void load_xtar_run(const struct load_ctx *ctx)
{
	struct load_proc p;
	char tree[4096], archive[4096], errpath[4096], xdir[4096];
	const char *const argv[] = { "tar", "xf", "-", "-C", xdir, NULL };
	unsigned char *buf;
	int afd;

	load_begin(&p, ctx, "xtar_load", LOAD_MB);
	if (!load_have_prog("tar"))
		load_fail(ctx, "%s: tar not found", p.name);
	load_path(&p, tree, sizeof(tree), "%s/tree", ctx->dir);
	load_path(&p, archive, sizeof(archive), "%s/archive.tar", ctx->dir);
	load_path(&p, errpath, sizeof(errpath), "%s/tar.err", ctx->dir);
	load_path(&p, xdir, sizeof(xdir), "%s/x", ctx->dir);
	load_tree(&p, tree, load_tar_files(&p), LOAD_TREE_PER_DIR, LOAD_TAR_FILE_MAX);
	buf = load_alloc(&p, LOAD_PIPE_CHUNK);
	load_tar_create(&p, archive, errpath, buf, 0);
	load_mkdir(&p, xdir);
	afd = plat_openat(AT_FDCWD, archive, O_RDONLY | O_CLOEXEC, 0);
	if (afd < 0)
		load_die(&p, "open", archive);
	/* A tar that dies mid-archive must fail the load with its message, not kill it. */
	if (signal(SIGPIPE, SIG_IGN) == SIG_ERR)
		load_die(&p, "signal", NULL);
	load_ready(&p);
	for (;;) {
		int pfd[2], broken = 0;
		ssize_t n;

		if (lseek(afd, 0, SEEK_SET) != 0)
			load_die(&p, "lseek", archive);
		if (plat_pipe_cloexec(pfd) != 0)
			load_die(&p, "pipe", NULL);
		load_tar_start(&p, argv, pfd[0], -1, errpath);
		load_close(&p, pfd[0], "pipe to tar");
		while (!broken && (n = load_read(afd, buf, LOAD_PIPE_CHUNK)) != 0) {
			if (n < 0)
				load_die(&p, "read", archive);
			if (load_write_all(pfd[1], buf, (size_t)n) != 0) {
				if (errno != EPIPE)
					load_die(&p, "write", "pipe to tar");
				broken = 1;	/* tar has gone: its status says why */
			} else {
				load_did(&p, (uint64_t)n);
			}
		}
		load_close(&p, pfd[1], "pipe to tar");
		load_tar_wait(&p, errpath);
		if (broken)
			load_fail(ctx, "%s: tar stopped reading the archive", p.name);
	}
}

/*
 * io_load: streaming writes of a large file, 1 MiB at a time, synced every
 * 8 MiB so the writes reach the disk while the job runs, as contest's
 * io_load (a file the size of RAM, written with dd) made them.  The file is
 * truncated when full and written again, so each pass allocates anew as
 * writing a fresh file does.  A unit is an MB written.
 */
static void load_io_run(const struct load_ctx *ctx)
{
	struct load_proc p;
	char path[4096];
	unsigned char *buf;
	uint64_t size, off = 0, unsynced = 0;
	int fd;

	load_begin(&p, ctx, "io_load", LOAD_MB);
	load_path(&p, path, sizeof(path), "%s/io.dat", ctx->dir);
	size = load_file_size(&p);
	fd = plat_openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		load_die(&p, "open", path);
	buf = load_alloc(&p, LOAD_CHUNK);
	load_fill(buf, LOAD_CHUNK);
	load_ready(&p);
	for (;;) {
		if (off >= size) {
			if (ftruncate(fd, 0) != 0)
				load_die(&p, "ftruncate", path);
			if (lseek(fd, 0, SEEK_SET) != 0)
				load_die(&p, "lseek", path);
			off = 0;
		}
		if (load_write_all(fd, buf, LOAD_CHUNK) != 0)
			load_die(&p, "write", path);
		off += LOAD_CHUNK;
		unsynced += LOAD_CHUNK;
		if (unsynced >= LOAD_SYNC_EVERY) {
			if (fdatasync(fd) != 0)
				load_die(&p, "fdatasync", path);
			unsynced = 0;
		}
		load_did(&p, LOAD_CHUNK);
	}
}

/* posix_fadvise returns its error instead of setting errno. */
static void load_drop_cache(const struct load_proc *p, int fd, const char *path)
{
	int e = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);

	if (e != 0) {
		errno = e;
		load_die(p, "posix_fadvise", path);
	}
}

/*
 * read_load: streaming reads of a large file (sized as io_load's), 1 MiB at
 * a time, its pages dropped from the cache after each pass so that the
 * reads reach the disk where the file system has one (not on tmpfs).  The
 * file is synced once made, since dirty pages cannot be dropped.  A unit is
 * an MB read.
 */
static void load_read_run(const struct load_ctx *ctx)
{
	struct load_proc p;
	char path[4096];
	unsigned char *buf;
	uint64_t size;
	int fd;

	load_begin(&p, ctx, "read_load", LOAD_MB);
	load_path(&p, path, sizeof(path), "%s/read.dat", ctx->dir);
	size = load_file_size(&p);
	fd = plat_openat(AT_FDCWD, path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		load_die(&p, "open", path);
	buf = load_alloc(&p, LOAD_CHUNK);
	load_fill(buf, LOAD_CHUNK);
	for (uint64_t off = 0; off < size; off += LOAD_CHUNK)
		if (load_write_all(fd, buf, LOAD_CHUNK) != 0)
			load_die(&p, "write", path);
	if (fdatasync(fd) != 0)
		load_die(&p, "fdatasync", path);
	load_drop_cache(&p, fd, path);
	if (lseek(fd, 0, SEEK_SET) != 0)
		load_die(&p, "lseek", path);
	load_ready(&p);
	for (;;) {
		ssize_t n = load_read(fd, buf, LOAD_CHUNK);

		if (n < 0)
			load_die(&p, "read", path);
		if (n == 0) {
			load_drop_cache(&p, fd, path);
			if (lseek(fd, 0, SEEK_SET) != 0)
				load_die(&p, "lseek", path);
			continue;
		}
		load_did(&p, (uint64_t)n);
	}
}

/* Walk the tree under dir (opened as fd, closed here), counting each entry. */
static void load_walk(struct load_proc *p, int fd, const char *root)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;

	if (!d)
		load_die(p, "fdopendir", root);
	for (;;) {
		struct stat st;

		errno = 0;
		e = readdir(d);
		if (!e)
			break;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			load_die(p, "fstatat", root);
		load_did(p, 1);
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			if (sub < 0)
				load_die(p, "open", root);
			load_walk(p, sub, root);
		}
	}
	if (errno != 0)
		load_die(p, "readdir", root);
	if (closedir(d) != 0)
		load_die(p, "closedir", root);
}

/*
 * list_load: recursive readdir and stat of a tree of many small files (20
 * directories of 500 at scale 1.0), as `ls -lR` or a backup's scan does.
 * A unit is 1000 entries seen (read and stat'ed).
 */
static void load_list_run(const struct load_ctx *ctx)
{
	struct load_proc p;
	char root[4096];
	/* Each file takes a block at least: the budget bounds the count. */
	uint64_t most = load_disk_budget(ctx) / 4096;
	double want = LOAD_LIST_PER_DIR * ctx->scale;
	size_t per = want < 1 ? 1 : (size_t)want;

	load_begin(&p, ctx, "list_load", 1000);
	if (per * LOAD_LIST_DIRS > most)
		per = (size_t)(most / LOAD_LIST_DIRS);
	if (per == 0)
		load_fail(ctx, "%s: not enough free space in '%s'", p.name, ctx->dir);
	load_path(&p, root, sizeof(root), "%s/list", ctx->dir);
	load_tree(&p, root, per * LOAD_LIST_DIRS, per, LOAD_LIST_FILE_MAX);
	load_ready(&p);
	for (;;) {
		int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd < 0)
			load_die(&p, "open", root);
		load_walk(&p, fd, root);
	}
}

/*
 * mem_load: a large buffer written one byte per page, over and over, so
 * nearly every write misses the caches and the TLB: memory and page-table
 * pressure for the job, without the swapping of contest's mem_load (which
 * took 110% of RAM; here the OOM killer must have no cause to act).
 * Transparent huge pages are refused for it, so the work is the same on
 * every kernel.  A unit is a GB (10^9 bytes) of the buffer swept, one
 * write per page: some 10 ms at 40 ns a page.  The pages are faulted in
 * while preparing, so touching is all that is counted.
 */
static void load_mem_run(const struct load_ctx *ctx)
{
	struct load_proc p;
	uint64_t half = ctx->mem_available / 2;
	uint64_t base = half < LOAD_MEM_CAP ? half : LOAD_MEM_CAP;
	uint64_t size = (uint64_t)((double)base * ctx->scale);
	long pg = sysconf(_SC_PAGESIZE);
	volatile unsigned char *buf;
	size_t npages;
	unsigned char v = 0;
	void *m;

	load_begin(&p, ctx, "mem_load", LOAD_MB * 1000);
	if (pg <= 0)
		load_die(&p, "sysconf", NULL);
	/*
	 * Below the floor the load would not reach past the caches, and the
	 * machine has too little memory for the job as it is.  Only the tests
	 * scale below it.
	 */
	if (base < LOAD_MEM_MIN)
		load_fail(ctx, "%s: not enough memory available (%llu MiB)", p.name,
			  (unsigned long long)(ctx->mem_available >> 20));
	if (size > base)
		size = base;
	npages = (size_t)(size / (uint64_t)pg);
	if (npages == 0)
		npages = 1;
	m = mmap(NULL, npages * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (m == MAP_FAILED)
		load_die(&p, "mmap", NULL);
	/* EINVAL: a kernel without transparent huge pages has none to refuse. */
	if (madvise(m, npages * (size_t)pg, MADV_NOHUGEPAGE) != 0 && errno != EINVAL)
		load_die(&p, "madvise", NULL);
	buf = m;
	for (size_t i = 0; i < npages; i++)
		buf[i * (size_t)pg] = 1;
	load_ready(&p);
	for (;;) {
		v++;
		for (size_t i = 0; i < npages; i++) {
			buf[i * (size_t)pg] = v;
			/* Count in batches: a page costs ~40 ns, a clock read ~20 ns. */
			if ((i & 63) == 63)
				load_did(&p, 64 * (uint64_t)pg);
		}
		load_did(&p, (npages & 63) * (uint64_t)pg);
	}
}

/*
 * dbench_load: 2 x ncpu clients, each in a directory of its own, creating
 * a file, writing 4 KiB, reading it back and removing it, as dbench's
 * clients do with their small files.  A unit is one file so handled.
 */
static void load_dbench_run(const struct load_ctx *ctx)
{
	struct load_proc p;
	int n = 2 * (ctx->ncpu > 0 ? ctx->ncpu : 1);
	char top[4096], path[4096];
	unsigned char *data, *back;
	int me, dfd;

	load_begin(&p, ctx, "dbench_load", 1);
	if (n > LOAD_MAX_SLOTS)
		n = LOAD_MAX_SLOTS;
	if ((uint64_t)n * LOAD_DBENCH_FILE * 2 > load_disk_budget(ctx))
		load_fail(ctx, "%s: not enough free space in '%s'", p.name, ctx->dir);
	load_path(&p, top, sizeof(top), "%s/dbench", ctx->dir);
	load_mkdir(&p, top);
	for (int k = 0; k < n; k++) {
		load_path(&p, path, sizeof(path), "%s/c%03d", top, k);
		load_mkdir(&p, path);
	}
	data = load_alloc(&p, LOAD_DBENCH_FILE);
	back = load_alloc(&p, LOAD_DBENCH_FILE);
	load_fill(data, LOAD_DBENCH_FILE);
	load_ready(&p);
	me = load_workers(&p, n - 1);
	load_path(&p, path, sizeof(path), "%s/c%03d", top, me);
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		load_die(&p, "open", path);
	for (unsigned i = 0;; i++) {
		char name[16];
		ssize_t r;
		int fd;

		snprintf(name, sizeof(name), "f%02u", i % LOAD_DBENCH_NAMES);
		fd = plat_openat(dfd, name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			load_die_in(&p, "open", path, name);
		if (load_write_all(fd, data, LOAD_DBENCH_FILE) != 0)
			load_die_in(&p, "write", path, name);
		if (lseek(fd, 0, SEEK_SET) != 0)
			load_die_in(&p, "lseek", path, name);
		r = load_read(fd, back, LOAD_DBENCH_FILE);
		if (r < 0)
			load_die_in(&p, "read", path, name);
		if (r != LOAD_DBENCH_FILE)
			load_fail(ctx, "%s: read '%s/%s': short read", p.name, path, name);
		if (close(fd) != 0)
			load_die_in(&p, "close", path, name);
		if (plat_unlinkat(dfd, name, 0) != 0)
			load_die_in(&p, "unlink", path, name);
		load_did(&p, 1);
	}
}

/*
 * tick_load (hidden, for the tests): one unit every 10 ms on an absolute
 * schedule, so its count over any window is the window's length / 10 ms
 * to within one, whatever the scheduler's delays: the tests check the
 * driver's window accounting against it.
 */
static void load_tick_run(const struct load_ctx *ctx)
{
	struct load_proc p;
	struct timespec next;

	load_begin(&p, ctx, "tick_load", 1);
	if (clock_gettime(CLOCK_MONOTONIC, &next) != 0)
		load_die(&p, "clock_gettime", NULL);
	load_ready(&p);
	for (;;) {
		int e;

		next.tv_nsec += LOAD_TICK_NS;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		while ((e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL)) == EINTR)
			;
		if (e != 0) {
			errno = e;
			load_die(&p, "clock_nanosleep", NULL);
		}
		load_did(&p, 1);
	}
}

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

/*
 * The loads, in contest's order (its report lists them so).  To add one:
 *   1. write its run() above: prepare (untimed), load_ready, fork any
 *      workers with load_workers, then loop forever calling load_did as
 *      work completes; every failure goes through load_die or load_fail;
 *   2. pick a unit that takes at most a few ms and that a 40 s job counts
 *      in the tens to thousands, and say it in the row;
 *   3. add the row; LOAD_FILES if it writes files;
 *   4. tests/unit/test_loads.c runs every visible row with a run.
 */
static const struct load load_rows[] = {
	{
		.name = "noload",
		.unit = "-",
		.summary = "no load: the job alone, the baseline for Ratio",
	},
	{
		.name = "cacherun",
		.unit = "-",
		.summary = "no load, the job run again straight after itself, caches warm",
	},
	{
		.name = "process_load",
		.unit = "messages",
		.summary = "4 x CPUs processes passing tokens round a ring of pipes",
		.run = load_process_run,
	},
	{
		.name = "ctar_load",
		.unit = "MB archived",
		.summary = "tar creating an archive of a generated tree, over and over",
		.flags = LOAD_FILES,
		.run = load_ctar_run,
	},
	{
		.name = "xtar_load",
		.unit = "MB extracted",
		.summary = "tar extracting an archive of a generated tree, over and over",
		.flags = LOAD_FILES,
		.run = load_xtar_run,
	},
	{
		.name = "io_load",
		.unit = "MB written",
		.summary = "streaming writes of a large file, synced every 8 MiB",
		.flags = LOAD_FILES,
		.run = load_io_run,
	},
	{
		.name = "read_load",
		.unit = "MB read",
		.summary = "streaming reads of a large file, its cache dropped each pass",
		.flags = LOAD_FILES,
		.run = load_read_run,
	},
	{
		.name = "list_load",
		.unit = "k entries",
		.summary = "recursive readdir and stat of a tree of many small files",
		.flags = LOAD_FILES,
		.run = load_list_run,
	},
	{
		.name = "mem_load",
		.unit = "GB touched",
		.summary = "one write per page of a large buffer, over and over, missing caches",
		.run = load_mem_run,
	},
	{
		.name = "dbench_load",
		.unit = "files",
		.summary = "2 x CPUs clients creating, writing, reading back, removing small files",
		.flags = LOAD_FILES,
		.run = load_dbench_run,
	},
	{
		.name = "tick_load",
		.unit = "ticks",
		.summary = "one unit every 10 ms on an absolute schedule, to test the accounting",
		.flags = LOAD_HIDDEN,
		.run = load_tick_run,
	},
};

const struct load *load_table(void)
{
	return load_rows;
}

size_t load_count(void)
{
	return sizeof(load_rows) / sizeof(load_rows[0]);
}

const struct load *load_find(const char *name)
{
	for (size_t i = 0; i < load_count(); i++)
		if (strcmp(load_rows[i].name, name) == 0)
			return &load_rows[i];
	return NULL;
}
