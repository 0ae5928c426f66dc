/*
 * File system: lmbench's lat_fs (creating and deleting files of 0 and 10
 * KiB, per file) and bw_file_rd (rereading a cached file with read()).
 *
 * Everything happens inside ctx->tmpdir.  Each sample of a create or delete
 * gets a directory of its own, made untimed by the prepare hook: state that
 * carried over between runs (a directory grown large, blocks still being
 * freed) once made lmbench's creates fall from 44,000/s to 2,500/s.
 *
 * And state that carries over between samples: ext4 will not reuse an
 * inode freed in the last minute or so (recently_deleted() in its inode
 * allocator), and scans past every such inode on each create, so creating
 * files where thousands were just deleted cost 4x more here, growing
 * within seconds of churn and fading over minutes (doc/performance.md,
 * found with perf).  So each replica works in a base directory of its own
 * that the file system is asked to put in a block group of its own
 * (plat_dir_spread on the private directory, a name no replica used
 * before), its sample directories go inside it, and none is removed before
 * teardown: no sample then allocates where a recent one freed.  The
 * removal in prepare and teardown uses the plain calls, never plat_*, so a
 * fault armed for the timed work cannot stop the clean-up.
 *
 * The reread file is stamped: every 4 KiB block starts with its block index
 * and ends with that index inverted, so the chunk index sits in each
 * chunk's first word, and a short, misplaced or damaged read is seen for a
 * few loads per block instead of a second pass over the data.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/families.h"
#include "plat/plat.h"

/* ------------------------------------------------------------------ */
/* Creating and deleting files                                         */
/* ------------------------------------------------------------------ */

struct fs_param {
	size_t file_size;	/* bytes written into each file */
	int remove;		/* 1: the timed work is unlink, 0: create */
};

struct fs_state {
	char base[4096];	/* the replica's directory, "" when none: see above */
	char dir[4096];		/* this sample's directory, "" when none */
	int dirfd;		/* open on dir, -1 when none */
	unsigned gen;		/* samples so far: names each sample's directory */
	unsigned oldest;	/* the oldest sample directory not yet removed */
	uint64_t kept;		/* files in the sample directories still kept */
	unsigned char *data;	/* what a file holds, file_size bytes */
};

/*
 * Files kept before the oldest sample directory goes (and with it the
 * guarantee above): far more than a replica's share of the budget makes,
 * and at most 64 Ki files of 10 KiB, 640 MiB, on the disk at once.
 */
#define FS_KEEP_FILES 65536

/* The names are 8 hex digits: cheap to make in the timed loop, all one length. */
#define FS_NAME_LEN 9
#define FS_MAX_FILES 0xffffffffull

static void fs_name(char name[FS_NAME_LEN], uint64_t i)
{
	static const char hex[] = "0123456789abcdef";

	for (int k = 7; k >= 0; k--, i >>= 4)
		name[k] = hex[i & 15];
	name[8] = '\0';
}

/* Unlink whatever is in the sample's directory. */
static void fs_unlink_all(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

/* Sample directory gen's path; -1 when it does not fit. */
static int fs_dir_name(char *buf, size_t len, const struct fs_state *s, unsigned gen)
{
	return snprintf(buf, len, "%s/s%u", s->base, gen) >= (int)len ? -1 : 0;
}

/*
 * Remove a directory and whatever is in it, with the plain calls.  Best
 * effort: it runs after failures too, and whatever it cannot remove the
 * runner's own clean-up of ctx->tmpdir still will.  A second pass catches
 * what readdir, running while entries vanish, may not return.
 */
static void fs_remove(const char *dir)
{
	for (int pass = 0; pass < 3; pass++) {
		if (rmdir(dir) == 0 || errno != ENOTEMPTY)
			break;
		fs_unlink_all(dir);
	}
}

/*
 * Close the sample's directory; remove the oldest kept while more than
 * FS_KEEP_FILES files are kept, or with all every one and the base.
 */
static void fs_clear(struct fs_state *s, uint64_t per_dir, int all)
{
	char dir[4096];

	if (s->dirfd >= 0)
		close(s->dirfd);
	s->dirfd = -1;
	s->dir[0] = '\0';
	while (s->oldest < s->gen && (all || s->kept > FS_KEEP_FILES)) {
		if (fs_dir_name(dir, sizeof(dir), s, s->oldest++) == 0)
			fs_remove(dir);
		s->kept -= s->kept < per_dir ? s->kept : per_dir;
	}
	if (all && s->base[0])
		rmdir(s->base);
}

static void fs_teardown(struct bench_ctx *ctx)
{
	struct fs_state *s = ctx->priv;

	if (!s)
		return;
	fs_clear(s, 0, 1);
	free(s->data);
	free(s);
	ctx->priv = NULL;
}

/* Record where the files are: the file system decides most of the figure. */
static void fs_record_type(struct bench_ctx *ctx)
{
	char type[40];

	if (plat_fs_type(ctx->tmpdir, type, sizeof(type)) < 0)
		snprintf(type, sizeof(type), "unknown");
	bench_value_text(ctx, "fs_type", type);
}

static enum bench_status fs_setup(struct bench_ctx *ctx)
{
	const struct fs_param *p = ctx->arg;
	struct fs_state *s = calloc(1, sizeof(*s));

	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	s->dirfd = -1;
	if (p->file_size) {
		s->data = malloc(p->file_size);
		if (!s->data) {
			free(s);
			return bench_fail(ctx, ENOMEM, "a buffer of %zu bytes", p->file_size);
		}
		/* Not zeros, so no file system can store the files as holes. */
		for (size_t i = 0; i < p->file_size; i++)
			s->data[i] = (unsigned char)(i * 131 + 7);
	}
	ctx->priv = s;
	fs_record_type(ctx);
	/* Where the file system has no such notion the replicas simply share a group. */
	bench_value_text(ctx, "dirs_spread", plat_dir_spread(ctx->tmpdir) == 0 ? "yes" : "no");
	/*
	 * ext4 starts its search for a spread directory's group at a hash of
	 * its name: the process id makes the name one no earlier replica had.
	 */
	if (snprintf(s->base, sizeof(s->base), "%s/b%ld", ctx->tmpdir, (long)getpid()) >=
		    (int)sizeof(s->base) || plat_mkdir(s->base, 0700) < 0) {
		int err = errno;

		free(s->data);
		free(s);
		ctx->priv = NULL;
		return bench_fail(ctx, err, "cannot make a directory in '%s' (mkdir)", ctx->tmpdir);
	}
	bench_value(ctx, "file_size", (double)p->file_size);
	return BENCH_OK;
}

/* Create file i in the sample's directory, with its data: the timed work of create. */
static enum bench_status fs_make(struct bench_ctx *ctx, struct fs_state *s, uint64_t i)
{
	const struct fs_param *p = ctx->arg;
	char name[FS_NAME_LEN];
	ssize_t put;
	int fd;

	fs_name(name, i);
	fd = plat_openat(s->dirfd, name, O_CREAT | O_EXCL | O_WRONLY, 0600);
	if (fd < 0)
		return bench_fail(ctx, errno, "cannot create file %llu ('%s') in '%s'",
				  (unsigned long long)i + 1, name, s->dir);
	if (p->file_size) {
		put = plat_write(fd, s->data, p->file_size);
		if (put < 0 || (size_t)put != p->file_size) {
			int err = put < 0 ? errno : 0;

			close(fd);
			return bench_fail(ctx, err, "writing %zu bytes into file %llu of '%s' "
					  "returned %zd", p->file_size,
					  (unsigned long long)i + 1, s->dir, put);
		}
	}
	if (close(fd) != 0)
		return bench_fail(ctx, errno, "closing file %llu of '%s'",
				  (unsigned long long)i + 1, s->dir);
	return BENCH_OK;
}

/*
 * Untimed: clear the last sample's directory and make a fresh one; for
 * delete, also fill it with the n files the run will remove.
 */
static enum bench_status fs_prepare(struct bench_ctx *ctx, uint64_t n)
{
	const struct fs_param *p = ctx->arg;
	struct fs_state *s = ctx->priv;
	enum bench_status st;

	if (n > FS_MAX_FILES)
		return bench_fail(ctx, 0, "%llu files in one directory are more than the "
				  "names allow", (unsigned long long)n);
	fs_clear(s, n, 0);
	s->kept += n;
	if (fs_dir_name(s->dir, sizeof(s->dir), s, s->gen++) < 0) {
		s->dir[0] = '\0';
		return bench_fail(ctx, 0, "the path of the private directory is too long");
	}
	if (plat_mkdir(s->dir, 0700) < 0) {
		int err = errno;

		s->dir[0] = '\0';
		return bench_fail(ctx, err, "cannot make a directory in '%s' (mkdir)", ctx->tmpdir);
	}
	s->dirfd = plat_open(s->dir, O_RDONLY | O_DIRECTORY, 0);
	if (s->dirfd < 0)
		return bench_fail(ctx, errno, "cannot open the directory '%s'", s->dir);
	if (!p->remove)
		return BENCH_OK;
	for (uint64_t i = 0; i < n; i++)
		if ((st = fs_make(ctx, s, i)) != BENCH_OK)
			return st;
	return BENCH_OK;
}

static enum bench_status fs_create_run(struct bench_ctx *ctx, uint64_t n)
{
	struct fs_state *s = ctx->priv;
	enum bench_status st;

	for (uint64_t i = 0; i < n; i++)
		if ((st = fs_make(ctx, s, i)) != BENCH_OK)
			return st;
	return BENCH_OK;
}

static enum bench_status fs_delete_run(struct bench_ctx *ctx, uint64_t n)
{
	struct fs_state *s = ctx->priv;
	char name[FS_NAME_LEN];

	/* In the order they were made, as lmbench does. */
	for (uint64_t i = 0; i < n; i++) {
		fs_name(name, i);
		if (plat_unlinkat(s->dirfd, name, 0) != 0)
			return bench_fail(ctx, errno, "cannot remove file %llu ('%s') in '%s'",
					  (unsigned long long)i + 1, name, s->dir);
	}
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* Rereading a cached file                                             */
/* ------------------------------------------------------------------ */

/* lmbench's read size; big enough that the copy, not the call, dominates. */
#define FS_CHUNK (64 * 1024)
/* The unit stamped with its index; the file is a whole number of them. */
#define FS_BLOCK 4096

struct fs_reread {
	char path[4096];	/* the file, "" when there is none to remove */
	int fd;			/* open on it, -1 when closed */
	size_t size;		/* file size, a multiple of FS_BLOCK */
	unsigned char *buf;	/* one chunk, page-aligned like lmbench's valloc */
};

static void fs_reread_teardown(struct bench_ctx *ctx)
{
	struct fs_reread *r = ctx->priv;

	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	if (r->path[0])
		unlink(r->path);
	free(r->buf);
	free(r);
	ctx->priv = NULL;
}

/* Stamp the blocks of a chunk that starts at block `first`. */
static void fs_stamp(unsigned char *buf, size_t len, uint64_t first)
{
	for (size_t off = 0; off < len; off += FS_BLOCK) {
		uint64_t tag = first + off / FS_BLOCK, inv = ~tag;

		memcpy(buf + off, &tag, sizeof(tag));
		memcpy(buf + off + FS_BLOCK - sizeof(inv), &inv, sizeof(inv));
	}
}

/* The stamps of a chunk just read: the block that is wrong, or -1. */
static long fs_check(const unsigned char *buf, size_t len, uint64_t first)
{
	for (size_t off = 0; off < len; off += FS_BLOCK) {
		uint64_t tag, inv;

		memcpy(&tag, buf + off, sizeof(tag));
		memcpy(&inv, buf + off + FS_BLOCK - sizeof(inv), sizeof(inv));
		if (tag != first + off / FS_BLOCK || inv != ~tag)
			return (long)(off / FS_BLOCK);
	}
	return -1;
}

/* One pass over the whole file through plat_read, every chunk checked. */
static enum bench_status fs_reread_pass(struct bench_ctx *ctx, struct fs_reread *r)
{
	if (plat_lseek(r->fd, 0, SEEK_SET) != 0)
		return bench_fail(ctx, errno, "lseek to the start of '%s'", r->path);
	for (size_t off = 0; off < r->size; off += FS_CHUNK) {
		size_t want = r->size - off < FS_CHUNK ? r->size - off : FS_CHUNK;
		ssize_t got = plat_read(r->fd, r->buf, want);
		long bad;

		if (got < 0 || (size_t)got != want)
			return bench_fail(ctx, got < 0 ? errno : 0, "read of %zu bytes at offset "
					  "%zu of '%s' returned %zd", want, off, r->path, got);
		bad = fs_check(r->buf, want, off / FS_BLOCK);
		if (bad >= 0)
			return bench_fail(ctx, 0, "chunk %zu of '%s' arrived damaged (block %ld "
					  "does not hold its stamp)", off / FS_CHUNK, r->path, bad);
	}
	return BENCH_OK;
}

static enum bench_status fs_reread_setup(struct bench_ctx *ctx)
{
	struct fs_reread *r = calloc(1, sizeof(*r));
	size_t size = bench_buffer_size(ctx) / FS_BLOCK * FS_BLOCK;
	enum bench_status st;
	void *buf = NULL;

	if (!r)
		return bench_fail(ctx, ENOMEM, "setup");
	r->fd = -1;
	ctx->priv = r;
	if (size == 0) {
		fs_reread_teardown(ctx);
		return bench_skip(ctx, "a file of %zu bytes holds no whole %d-byte block",
				  bench_buffer_size(ctx), FS_BLOCK);
	}
	/* The file must stay in the page cache, or this measures the disk. */
	if ((st = bench_check_memory(ctx, (double)size, "the cached file")) != BENCH_OK) {
		fs_reread_teardown(ctx);
		return st;
	}
	if (posix_memalign(&buf, FS_BLOCK, FS_CHUNK) != 0) {
		fs_reread_teardown(ctx);
		return bench_fail(ctx, ENOMEM, "a buffer of %d bytes", FS_CHUNK);
	}
	r->buf = buf;
	r->size = size;
	snprintf(r->path, sizeof(r->path), "%s/kbench-reread", ctx->tmpdir);
	r->fd = plat_open(r->path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (r->fd < 0) {
		int err = errno;

		r->path[0] = '\0';
		fs_reread_teardown(ctx);
		return bench_fail(ctx, err, "cannot create a file in '%s'", ctx->tmpdir);
	}
	/* A fixed pattern between the stamps, so no block is all zeros. */
	for (size_t i = 0; i < FS_CHUNK; i++)
		r->buf[i] = (unsigned char)(i * 131 + 7);
	for (size_t off = 0; off < size; off += FS_CHUNK) {
		size_t len = size - off < FS_CHUNK ? size - off : FS_CHUNK;
		ssize_t put;

		fs_stamp(r->buf, len, off / FS_BLOCK);
		put = plat_write(r->fd, r->buf, len);
		if (put < 0 || (size_t)put != len) {
			int err = put < 0 ? errno : 0;

			fs_reread_teardown(ctx);
			return bench_fail(ctx, err, "writing %zu bytes at offset %zu of the file "
					  "to reread returned %zd", len, off, put);
		}
	}
	/* Read once, checked, so every sample finds it cached. */
	if ((st = fs_reread_pass(ctx, r)) != BENCH_OK) {
		fs_reread_teardown(ctx);
		return st;
	}
	ctx->bytes_per_iter = (double)size;
	fs_record_type(ctx);
	bench_value(ctx, "file_size", (double)size);
	bench_value(ctx, "chunk_size", FS_CHUNK);
	return BENCH_OK;
}

static enum bench_status fs_reread_run(struct bench_ctx *ctx, uint64_t n)
{
	struct fs_reread *r = ctx->priv;
	enum bench_status st;

	for (uint64_t i = 0; i < n; i++)
		if ((st = fs_reread_pass(ctx, r)) != BENCH_OK)
			return st;
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

static const struct fs_param fs_create_0k = { 0, 0 }, fs_delete_0k = { 0, 1 };
static const struct fs_param fs_create_10k = { 10240, 0 }, fs_delete_10k = { 10240, 1 };

/*
 * To add a row: an id from DESIGN.md's catalogue, its parameters in a
 * struct fs_param above, and setup/prepare/run/teardown that leave
 * ctx->tmpdir as they found it, whatever failed.
 */
const struct bench fs_benches[] = {
	{ .id = "fs.create.0k", .metric = METRIC_US, .better = BETTER_LOWER,
	  .suites = SUITE_SUMMARY, .summary = "creating an empty file in a fresh directory far from recent deletes, per file",
	  .setup = fs_setup, .prepare = fs_prepare, .run = fs_create_run,
	  .teardown = fs_teardown, .arg = &fs_create_0k },
	{ .id = "fs.delete.0k", .metric = METRIC_US, .better = BETTER_LOWER,
	  .suites = SUITE_SUMMARY, .summary = "deleting an empty file, per file",
	  .setup = fs_setup, .prepare = fs_prepare, .run = fs_delete_run,
	  .teardown = fs_teardown, .arg = &fs_delete_0k },
	{ .id = "fs.create.10k", .metric = METRIC_US, .better = BETTER_LOWER,
	  .suites = SUITE_SUMMARY,
	  .summary = "creating a file of 10 KiB in a fresh directory far from recent deletes, per file",
	  .setup = fs_setup, .prepare = fs_prepare, .run = fs_create_run,
	  .teardown = fs_teardown, .arg = &fs_create_10k },
	{ .id = "fs.delete.10k", .metric = METRIC_US, .better = BETTER_LOWER,
	  .suites = SUITE_SUMMARY, .summary = "deleting a 10 KiB file, per file",
	  .setup = fs_setup, .prepare = fs_prepare, .run = fs_delete_run,
	  .teardown = fs_teardown, .arg = &fs_delete_10k },
	{ .id = "fs.reread.bw", .metric = METRIC_MBPS, .better = BETTER_HIGHER,
	  .suites = SUITE_SUMMARY, .flags = BENCH_SIZED,
	  .summary = "rereading a cached file with read() in 64 KiB chunks (--size)",
	  .setup = fs_reread_setup, .run = fs_reread_run, .teardown = fs_reread_teardown,
	  .points = bench_size_points },
};
const size_t fs_nbenches = sizeof(fs_benches) / sizeof(fs_benches[0]);
