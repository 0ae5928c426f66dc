/*
 * System calls: lmbench's "null call", "null I/O", stat, open/close and
 * select on TCP sockets.  Each run function checks every return value, so a
 * call that fails quickly cannot pass for a fast one.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench/families.h"
#include "bench/sys.h"
#include "plat/plat.h"

/* State shared by the file-based calls: one file in the private directory. */
struct sys_file {
	char path[4096];
	int fd;
	pid_t ppid;
};

static enum bench_status file_setup(struct bench_ctx *ctx)
{
	struct sys_file *f = calloc(1, sizeof(*f));

	if (!f)
		return bench_fail(ctx, ENOMEM, "setup");
	ctx->priv = f;
	f->ppid = getppid();
	snprintf(f->path, sizeof(f->path), "%s/kbench-stat", ctx->tmpdir);
	f->fd = plat_open(f->path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (f->fd < 0) {
		enum bench_status st = bench_fail(ctx, errno, "cannot create '%s' (open)", f->path);

		free(f);
		ctx->priv = NULL;
		return st;
	}
	return BENCH_OK;
}

static void file_teardown(struct bench_ctx *ctx)
{
	struct sys_file *f = ctx->priv;

	close(f->fd);
	unlink(f->path);
	free(f);
}

/* getppid through syscall(), so no C library can answer from a cache. */
static enum bench_status null_run(struct bench_ctx *ctx, uint64_t n)
{
	struct sys_file *f = ctx->priv;

	for (uint64_t i = 0; i < n; i++)
		if (syscall(SYS_getppid) != f->ppid)
			return bench_fail(ctx, errno, "getppid returned another process");
	return BENCH_OK;
}

static enum bench_status null_setup(struct bench_ctx *ctx)
{
	struct sys_file *f = calloc(1, sizeof(*f));

	if (!f)
		return bench_fail(ctx, ENOMEM, "setup");
	f->fd = -1;
	f->ppid = getppid();
	ctx->priv = f;
	return BENCH_OK;
}

static void null_teardown(struct bench_ctx *ctx)
{
	free(ctx->priv);
}

/* Device I/O of one byte: the device does nothing, so this is the path in and out. */
struct sys_dev {
	int fd;
};

static enum bench_status dev_open(struct bench_ctx *ctx, const char *path, int flags)
{
	struct sys_dev *d = malloc(sizeof(*d));

	if (!d)
		return bench_fail(ctx, ENOMEM, "setup");
	d->fd = plat_open(path, flags, 0);
	if (d->fd < 0) {
		int e = errno;

		free(d);
		return bench_fail(ctx, e, "cannot open %s", path);
	}
	ctx->priv = d;
	return BENCH_OK;
}

enum bench_status sys_read_setup(struct bench_ctx *ctx)
{
	return dev_open(ctx, "/dev/zero", O_RDONLY);
}

enum bench_status sys_write_setup(struct bench_ctx *ctx)
{
	return dev_open(ctx, "/dev/null", O_WRONLY);
}

void sys_dev_teardown(struct bench_ctx *ctx)
{
	struct sys_dev *d = ctx->priv;

	close(d->fd);
	free(d);
}

/* Every byte checked, not the last alone: a damaged one must not be read over. */
enum bench_status sys_read_run(struct bench_ctx *ctx, uint64_t n)
{
	struct sys_dev *d = ctx->priv;

	for (uint64_t i = 0; i < n; i++) {
		char c = 1;
		ssize_t got = plat_read(d->fd, &c, 1);

		if (got != 1)
			return bench_fail(ctx, got < 0 ? errno : 0, "read of 1 byte from /dev/zero returned %zd", got);
		if (c != 0)
			return bench_fail(ctx, 0, "read from /dev/zero gave a nonzero byte");
	}
	return BENCH_OK;
}

enum bench_status sys_write_run(struct bench_ctx *ctx, uint64_t n)
{
	struct sys_dev *d = ctx->priv;
	const char c = 0;

	for (uint64_t i = 0; i < n; i++) {
		ssize_t put = plat_write(d->fd, &c, 1);
		if (put != 1)
			return bench_fail(ctx, put < 0 ? errno : 0, "write of 1 byte to /dev/null returned %zd", put);
	}
	return BENCH_OK;
}

static enum bench_status stat_run(struct bench_ctx *ctx, uint64_t n)
{
	struct sys_file *f = ctx->priv;
	struct stat st;

	for (uint64_t i = 0; i < n; i++)
		if (plat_stat(f->path, &st) != 0 || !S_ISREG(st.st_mode))
			return bench_fail(ctx, errno, "stat '%s'", f->path);
	return BENCH_OK;
}

static enum bench_status fstat_run(struct bench_ctx *ctx, uint64_t n)
{
	struct sys_file *f = ctx->priv;
	struct stat st;

	for (uint64_t i = 0; i < n; i++)
		if (plat_fstat(f->fd, &st) != 0 || !S_ISREG(st.st_mode))
			return bench_fail(ctx, errno, "fstat '%s'", f->path);
	return BENCH_OK;
}

static enum bench_status open_close_run(struct bench_ctx *ctx, uint64_t n)
{
	struct sys_file *f = ctx->priv;

	for (uint64_t i = 0; i < n; i++) {
		int fd = plat_open(f->path, O_RDONLY, 0);
		if (fd < 0)
			return bench_fail(ctx, errno, "open '%s'", f->path);
		if (close(fd) != 0)
			return bench_fail(ctx, errno, "close '%s'", f->path);
	}
	return BENCH_OK;
}

/*
 * select() over 100 connected loopback TCP sockets, as lmbench does.  One of
 * them has a byte waiting, so every call must find exactly that one: a
 * select that did not look at the sockets cannot pass.
 */
enum { SELECT_SOCKETS = 100 };

struct sys_select {
	int listener;
	int client[SELECT_SOCKETS];	/* the sockets selected on */
	int server[SELECT_SOCKETS];	/* their accepted peers */
	int maxfd;
	fd_set set;
};

static void select_close(struct sys_select *s)
{
	for (int i = 0; i < SELECT_SOCKETS; i++) {
		if (s->client[i] >= 0)
			close(s->client[i]);
		if (s->server[i] >= 0)
			close(s->server[i]);
	}
	if (s->listener >= 0)
		close(s->listener);
	free(s);
}

static enum bench_status select_setup(struct bench_ctx *ctx)
{
	struct sys_select *s = malloc(sizeof(*s));
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(addr);
	const char byte = 'x', *what;
	int e;

	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	s->listener = -1;
	for (int i = 0; i < SELECT_SOCKETS; i++)
		s->client[i] = s->server[i] = -1;
	s->maxfd = -1;
	FD_ZERO(&s->set);

	/* Each step names its call, so a failure says which. */
	what = "socket";
	s->listener = plat_socket(AF_INET, SOCK_STREAM, 0);
	if (s->listener < 0)
		goto fail;
	what = "bind to 127.0.0.1";
	if (plat_bind(s->listener, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		goto fail;
	what = "listen";
	if (plat_listen(s->listener, SELECT_SOCKETS) < 0)
		goto fail;
	what = "getsockname";
	if (getsockname(s->listener, (struct sockaddr *)&addr, &alen) < 0)
		goto fail;
	for (int i = 0; i < SELECT_SOCKETS; i++) {
		what = "socket";
		s->client[i] = plat_socket(AF_INET, SOCK_STREAM, 0);
		if (s->client[i] < 0)
			goto fail;
		what = "connect";
		if (plat_connect(s->client[i], (struct sockaddr *)&addr, sizeof(addr)) < 0)
			goto fail;
		what = "accept";
		s->server[i] = plat_accept(s->listener, NULL, NULL);
		if (s->server[i] < 0)
			goto fail;
		if (s->client[i] >= FD_SETSIZE) {
			select_close(s);
			return bench_skip(ctx, "descriptor %d is beyond FD_SETSIZE", FD_SETSIZE);
		}
		FD_SET(s->client[i], &s->set);
		if (s->client[i] > s->maxfd)
			s->maxfd = s->client[i];
	}
	what = "write of the ready byte";
	errno = 0;
	if (plat_write(s->server[0], &byte, 1) != 1)
		goto fail;
	ctx->priv = s;
	return BENCH_OK;
fail:
	e = errno;
	select_close(s);
	return bench_fail(ctx, e, "cannot set up %d loopback TCP connections: %s", SELECT_SOCKETS,
			  what);
}

static void select_teardown(struct bench_ctx *ctx)
{
	select_close(ctx->priv);
}

static enum bench_status select_run(struct bench_ctx *ctx, uint64_t n)
{
	struct sys_select *s = ctx->priv;

	for (uint64_t i = 0; i < n; i++) {
		fd_set rd = s->set;
		struct timeval tv = { 0, 0 };
		int ready = plat_select(s->maxfd + 1, &rd, NULL, NULL, &tv);

		if (ready < 0)
			return bench_fail(ctx, errno, "select");
		if (ready != 1 || !FD_ISSET(s->client[0], &rd))
			return bench_fail(ctx, 0, "select found %d ready sockets, expected exactly 1",
					  ready);
	}
	return BENCH_OK;
}

const struct bench sys_benches[] = {
	{ .id = "sys.null", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_SUMMARY,
	  .flags = BENCH_CHEAP, .summary = "getppid() through syscall(): the cost of entering the kernel",
	  .setup = null_setup, .run = null_run, .teardown = null_teardown },
	{ .id = "sys.read", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_SUMMARY,
	  .flags = BENCH_CHEAP, .summary = "read() of 1 byte from /dev/zero",
	  .setup = sys_read_setup, .run = sys_read_run, .teardown = sys_dev_teardown },
	{ .id = "sys.write", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_SUMMARY,
	  .flags = BENCH_CHEAP, .summary = "write() of 1 byte to /dev/null",
	  .setup = sys_write_setup, .run = sys_write_run, .teardown = sys_dev_teardown },
	{ .id = "sys.stat", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_SUMMARY,
	  .flags = BENCH_CHEAP, .summary = "stat() of a file in the private temporary directory",
	  .setup = file_setup, .run = stat_run, .teardown = file_teardown },
	{ .id = "sys.fstat", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_SUMMARY,
	  .flags = BENCH_CHEAP, .summary = "fstat() of an open file",
	  .setup = file_setup, .run = fstat_run, .teardown = file_teardown },
	{ .id = "sys.open_close", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_SUMMARY,
	  .flags = BENCH_CHEAP, .summary = "open() and close() of a file in the private temporary directory",
	  .setup = file_setup, .run = open_close_run, .teardown = file_teardown },
	{ .id = "sys.select_tcp", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_SUMMARY,
	  .summary = "select() on 100 connected loopback TCP sockets, one ready",
	  .setup = select_setup, .run = select_run, .teardown = select_teardown },
};
const size_t sys_nbenches = sizeof(sys_benches) / sizeof(sys_benches[0]);
