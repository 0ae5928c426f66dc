/*
 * AIM9's tests of files, links and directories: creat-clo, link_test, the
 * eight disk tests, disk_src and dir_rtns_1.  One iteration is one call of
 * the AIM9 test, with its counts and its 1 KiB blocks, and checks that its
 * work happened: every call's return, each block read back by the block
 * number stamped in it, the links of the file counted, the size of what
 * was written.  Everything is made inside ctx->tmpdir, and teardown
 * removes it with the plain calls, whatever failed, so that a fault armed
 * for the work can neither stop the clean-up nor leave a file behind.
 *
 * AIM9 gave each call's scratch file a new name (aim_mktemp); here each
 * test has one fixed name, which is as good since every call removes its
 * file before the next, and lets teardown know what to remove.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/aim9.h"
#include "plat/plat.h"

/* AIM9's NBUFSIZE: every disk test moves its file 1 KiB at a time. */
#define DISK_BLOCK 1024
/* The smallest --size taken: the sync tests' half must still hold 2 blocks. */
#define DISK_MIN_BLOCKS 4
/* creat-clo's creat() and close() pairs per call. */
#define CREAT_LOOP 1000
/* link_test: AIM9's THE_LINK_MAX names of one file, LINK_LOOP rounds. */
#define LINK_NAMES 8
#define LINK_ROUNDS 9
/* disk_src: AIM9's MFILES slots per list, and kbench's entries in them. */
#define SRC_SLOTS 75
#define SRC_STATS 50
#define SRC_CREATS 50
/* dir_rtns_1: AIM9's 100 x 100 readdir() per call. */
#define DIR_READS 10000
/* The files of the directory dir_rtns_1 reads where there is no /bin. */
#define DIR_FILES 64

/*
 * AIM9: its rand() gave 15 bits, so with a file above 32 MiB the random
 * tests never reached past its first 32768 blocks.  kbench's own generator
 * (xorshift64, fixed seed, one stream per test that runs on across calls
 * as AIM9's did) reaches every block of any file.
 */
#define DISK_SEED 0x9e3779b97f4a7c15ull

static uint64_t disk_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* ctx->tmpdir/name into a PATH_MAX buffer; -1 when it does not fit. */
static int disk_path(char *buf, const struct bench_ctx *ctx, const char *name)
{
	return snprintf(buf, PATH_MAX, "%s/%s", ctx->tmpdir, name) >= PATH_MAX ? -1 : 0;
}

/* Record where the files are: the file system decides most of the figure. */
static void disk_record_fs(struct bench_ctx *ctx)
{
	char type[40];

	if (plat_fs_type(ctx->tmpdir, type, sizeof(type)) < 0)
		snprintf(type, sizeof(type), "unknown");
	bench_value_text(ctx, "fs", type);
}

/* ------------------------------------------------------------------ */
/* creat-clo                                                           */
/* ------------------------------------------------------------------ */

struct creat_state {
	char path[PATH_MAX];	/* the file created again and again */
};

static void creat_teardown(struct bench_ctx *ctx)
{
	struct creat_state *s = ctx->priv;

	if (!s)
		return;
	unlink(s->path);
	free(s);
	ctx->priv = NULL;
}

static enum bench_status creat_setup(struct bench_ctx *ctx)
{
	struct creat_state *s = calloc(1, sizeof(*s));

	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	if (disk_path(s->path, ctx, "tmpb.creat") < 0) {
		free(s);
		return bench_fail(ctx, 0, "the path of the private directory is too long");
	}
	ctx->priv = s;
	disk_record_fs(ctx);
	return BENCH_OK;
}

static enum bench_status creat_run(struct bench_ctx *ctx, uint64_t n)
{
	struct creat_state *s = ctx->priv;

	for (uint64_t i = 0; i < n; i++) {
		/* creat(): the first makes the file, the other 999 truncate it. */
		for (int k = 0; k < CREAT_LOOP; k++) {
			int fd = plat_open(s->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

			if (fd < 0)
				return bench_fail(ctx, errno, "open(O_CREAT|O_TRUNC) %d of '%s'", k + 1,
						  s->path);
			if (close(fd) != 0)
				return bench_fail(ctx, errno, "close of '%s'", s->path);
		}
		/* It finds the file only if the creates made it. */
		if (plat_unlink(s->path) != 0)
			return bench_fail(ctx, errno, "unlink of '%s'", s->path);
	}
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* link_test                                                           */
/* ------------------------------------------------------------------ */

struct link_state {
	char name[LINK_NAMES][PATH_MAX];	/* the file, then its 7 links */
	int fd;					/* the file open during a call, else -1 */
};

static void link_teardown(struct bench_ctx *ctx)
{
	struct link_state *s = ctx->priv;

	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	for (int i = 0; i < LINK_NAMES; i++)
		unlink(s->name[i]);
	free(s);
	ctx->priv = NULL;
}

static enum bench_status link_setup(struct bench_ctx *ctx)
{
	struct link_state *s = calloc(1, sizeof(*s));
	char leaf[16];

	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	s->fd = -1;
	for (int i = 0; i < LINK_NAMES; i++) {
		snprintf(leaf, sizeof(leaf), "link%d", i);
		if (disk_path(s->name[i], ctx, leaf) < 0) {
			free(s);
			return bench_fail(ctx, 0, "the path of the private directory is too long");
		}
	}
	ctx->priv = s;
	disk_record_fs(ctx);
	return BENCH_OK;
}

static enum bench_status link_make(struct bench_ctx *ctx, struct link_state *s, int i)
{
	if (link(s->name[0], s->name[i]) != 0)
		return bench_fail(ctx, errno, "link of '%s' to '%s'", s->name[0], s->name[i]);
	return BENCH_OK;
}

/* One call: the set-up links and the clean-up are done but not counted, as AIM9's. */
static enum bench_status link_call(struct bench_ctx *ctx, struct link_state *s)
{
	enum bench_status st;
	struct stat sb;
	int rc;

	s->fd = plat_open(s->name[0], O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (s->fd < 0)
		return bench_fail(ctx, errno, "open(O_CREAT) of '%s'", s->name[0]);
	for (int i = 1; i < LINK_NAMES; i++)
		if ((st = link_make(ctx, s, i)) != BENCH_OK)
			return st;
	for (int r = 0; r < LINK_ROUNDS; r++)
		for (int i = 1; i < LINK_NAMES; i++) {
			if (plat_unlink(s->name[i]) != 0)
				return bench_fail(ctx, errno, "unlink of '%s'", s->name[i]);
			if ((st = link_make(ctx, s, i)) != BENCH_OK)
				return st;
		}
	/* Every name must be a link of the one file: none went astray. */
	if (plat_fstat(s->fd, &sb) != 0)
		return bench_fail(ctx, errno, "fstat of '%s'", s->name[0]);
	if (sb.st_nlink != LINK_NAMES)
		return bench_fail(ctx, 0, "after %d link() and unlink() pairs '%s' has %lu links, "
				  "not %d", LINK_ROUNDS * (LINK_NAMES - 1), s->name[0],
				  (unsigned long)sb.st_nlink, LINK_NAMES);
	for (int i = 0; i < LINK_NAMES; i++)
		if (plat_unlink(s->name[i]) != 0)
			return bench_fail(ctx, errno, "unlink of '%s'", s->name[i]);
	rc = close(s->fd);
	s->fd = -1;
	return rc == 0 ? BENCH_OK : bench_fail(ctx, errno, "close of '%s'", s->name[0]);
}

static enum bench_status link_run(struct bench_ctx *ctx, uint64_t n)
{
	enum bench_status st = BENCH_OK;

	for (uint64_t i = 0; i < n && st == BENCH_OK; i++)
		st = link_call(ctx, ctx->priv);
	return st;
}

/* ------------------------------------------------------------------ */
/* The disk tests                                                      */
/* ------------------------------------------------------------------ */

/*
 * What a disk test's call does; the sync tests are the same with O_SYNC
 * and half the blocks.
 */
enum disk_mode {
	DISK_RANDOM_READ,	/* disk_rr */
	DISK_RANDOM_WRITE,	/* disk_rw, sync_disk_rw */
	DISK_READ,		/* disk_rd */
	DISK_WRITE,		/* disk_wrt, sync_disk_wrt */
	DISK_COPY,		/* disk_cp, sync_disk_cp */
};

/*
 * Every block kbench writes carries its block number in its first 8 bytes,
 * the rest AIM9's 'a's: a read of the wrong block, or of none, shows in
 * one 8-byte compare, and disk_rd compares the whole block.
 */
struct disk_state {
	enum disk_mode mode;
	int sync;		/* the sync_ test: O_SYNC writes, half the blocks */
	char common[PATH_MAX];	/* AIM9's tmpa.common, "" for a test that reads none */
	char scratch[PATH_MAX];	/* the file each call makes and removes (AIM9's tmpb) */
	int fd;			/* scratch, open during a call, else -1 */
	int src;		/* tmpa.common, open during a call, else -1 */
	size_t file_blocks;	/* AIM9's FILESIZE in blocks, N; tmpa.common holds N */
	size_t blocks;		/* the blocks a call counts: N, or N/2 for the sync tests */
	uint64_t rng;		/* the random blocks' generator */
	unsigned char buf[DISK_BLOCK];	/* AIM9's nbuf: each block written or read */
	unsigned char want[DISK_BLOCK];	/* a block of tmpa.common after its stamp */
};

static void disk_stamp(unsigned char *block, uint64_t no)
{
	memcpy(block, &no, sizeof(no));
}

static uint64_t disk_stamp_of(const unsigned char *block)
{
	uint64_t no;

	memcpy(&no, block, sizeof(no));
	return no;
}

static enum bench_status disk_open(struct bench_ctx *ctx, int *fd, const char *path, int flags)
{
	*fd = plat_open(path, flags, 0600);
	return *fd >= 0 ? BENCH_OK : bench_fail(ctx, errno, "open of '%s'", path);
}

static enum bench_status disk_close(struct bench_ctx *ctx, int *fd, const char *path)
{
	int rc = close(*fd);

	*fd = -1;
	return rc == 0 ? BENCH_OK : bench_fail(ctx, errno, "close of '%s'", path);
}

static enum bench_status disk_unlink(struct bench_ctx *ctx, const char *path)
{
	return plat_unlink(path) == 0 ? BENCH_OK : bench_fail(ctx, errno, "unlink of '%s'", path);
}

static enum bench_status disk_seek(struct bench_ctx *ctx, int fd, uint64_t no, const char *path)
{
	off_t want = (off_t)(no * DISK_BLOCK), got = plat_lseek(fd, want, SEEK_SET);

	if (got != want)
		return bench_fail(ctx, got < 0 ? errno : 0, "lseek to block %llu of '%s' returned %lld",
				  (unsigned long long)no, path, (long long)got);
	return BENCH_OK;
}

/* Write one block from buf where fd stands, as block `no`. */
static enum bench_status disk_put(struct bench_ctx *ctx, int fd, const unsigned char *buf,
				  uint64_t no, const char *path)
{
	ssize_t put = plat_write(fd, buf, DISK_BLOCK);

	if (put != DISK_BLOCK)
		return bench_fail(ctx, put < 0 ? errno : 0, "write of %d bytes as block %llu of '%s' "
				  "returned %zd", DISK_BLOCK, (unsigned long long)no, path, put);
	return BENCH_OK;
}

/* Read one block where fd stands into s->buf; it must be block `no`. */
static enum bench_status disk_get(struct bench_ctx *ctx, struct disk_state *s, int fd,
				  uint64_t no, const char *path)
{
	ssize_t got = plat_read(fd, s->buf, DISK_BLOCK);

	if (got != DISK_BLOCK)
		return bench_fail(ctx, got < 0 ? errno : 0, "read of %d bytes at block %llu of '%s' "
				  "returned %zd", DISK_BLOCK, (unsigned long long)no, path, got);
	if (disk_stamp_of(s->buf) != no)
		return bench_fail(ctx, 0, "read at block %llu of '%s' returned block %llu",
				  (unsigned long long)no, path,
				  (unsigned long long)disk_stamp_of(s->buf));
	return BENCH_OK;
}

/* Blocks 0 to count-1 in order, each stamped. */
static enum bench_status disk_fill(struct bench_ctx *ctx, struct disk_state *s, int fd,
				   size_t count, const char *path)
{
	enum bench_status st;

	for (size_t no = 0; no < count; no++) {
		disk_stamp(s->buf, no);
		if ((st = disk_put(ctx, fd, s->buf, no, path)) != BENCH_OK)
			return st;
	}
	return BENCH_OK;
}

/* What was written is all there: the file is `count` blocks long. */
static enum bench_status disk_check_size(struct bench_ctx *ctx, int fd, size_t count,
					 const char *path)
{
	struct stat sb;

	if (plat_fstat(fd, &sb) != 0)
		return bench_fail(ctx, errno, "fstat of '%s'", path);
	if ((uint64_t)sb.st_size != (uint64_t)count * DISK_BLOCK)
		return bench_fail(ctx, 0, "'%s' holds %lld bytes after the writes of %zu blocks of %d",
				  path, (long long)sb.st_size, count, DISK_BLOCK);
	return BENCH_OK;
}

/*
 * disk_rr, disk_rw, sync_disk_rw: the file written in order, then opened
 * again and read or written at as many random blocks.  The writes in order
 * are timed but not counted, as in AIM9.  The sync test removes its file
 * after the random writes (AIM9's change of 1995), the others as soon as
 * it is open.
 */
static enum bench_status disk_random(struct bench_ctx *ctx, struct disk_state *s)
{
	int writing = s->mode == DISK_RANDOM_WRITE;
	int flags = (writing ? O_WRONLY : O_RDONLY) | (s->sync ? O_SYNC : 0);
	const char *p = s->scratch;
	size_t count = s->blocks;
	enum bench_status st;

	if ((st = disk_open(ctx, &s->fd, p, O_WRONLY | O_CREAT | O_TRUNC)) != BENCH_OK ||
	    (st = disk_fill(ctx, s, s->fd, count, p)) != BENCH_OK ||
	    (st = disk_close(ctx, &s->fd, p)) != BENCH_OK ||
	    (st = disk_open(ctx, &s->fd, p, flags)) != BENCH_OK)
		return st;
	if (!s->sync && (st = disk_unlink(ctx, p)) != BENCH_OK)
		return st;
	for (size_t i = 0; i < count; i++) {
		uint64_t no = disk_rand(&s->rng) % count;

		if ((st = disk_seek(ctx, s->fd, no, p)) != BENCH_OK)
			return st;
		if (writing) {
			disk_stamp(s->buf, no);
			st = disk_put(ctx, s->fd, s->buf, no, p);
		} else {
			st = disk_get(ctx, s, s->fd, no, p);
		}
		if (st != BENCH_OK)
			return st;
	}
	if (writing && (st = disk_check_size(ctx, s->fd, count, p)) != BENCH_OK)
		return st;
	if (s->sync && (st = disk_unlink(ctx, p)) != BENCH_OK)
		return st;
	return disk_close(ctx, &s->fd, p);
}

/* disk_rd, and setup's check of tmpa.common: `count` blocks read in order, every byte checked. */
static enum bench_status disk_read(struct bench_ctx *ctx, struct disk_state *s, size_t count)
{
	const char *p = s->common;
	enum bench_status st;

	if ((st = disk_open(ctx, &s->src, p, O_RDONLY)) != BENCH_OK ||
	    (st = disk_seek(ctx, s->src, 0, p)) != BENCH_OK)
		return st;
	for (size_t no = 0; no < count; no++) {
		if ((st = disk_get(ctx, s, s->src, no, p)) != BENCH_OK)
			return st;
		if (memcmp(s->buf + sizeof(uint64_t), s->want + sizeof(uint64_t),
			   DISK_BLOCK - sizeof(uint64_t)) != 0)
			return bench_fail(ctx, 0, "block %zu of '%s' does not hold what was written",
					  no, p);
	}
	return disk_close(ctx, &s->src, p);
}

/* disk_wrt, sync_disk_wrt: a new file written in order. */
static enum bench_status disk_write(struct bench_ctx *ctx, struct disk_state *s)
{
	const char *p = s->scratch;
	enum bench_status st;

	if ((st = disk_open(ctx, &s->fd, p, O_WRONLY | O_CREAT | O_TRUNC |
			    (s->sync ? O_SYNC : 0))) != BENCH_OK)
		return st;
	if (!s->sync && (st = disk_unlink(ctx, p)) != BENCH_OK)
		return st;
	if ((st = disk_fill(ctx, s, s->fd, s->blocks, p)) != BENCH_OK ||
	    (st = disk_check_size(ctx, s->fd, s->blocks, p)) != BENCH_OK)
		return st;
	if (s->sync && (st = disk_unlink(ctx, p)) != BENCH_OK)
		return st;
	return disk_close(ctx, &s->fd, p);
}

/* disk_cp, sync_disk_cp: tmpa.common's first blocks copied into a new file. */
static enum bench_status disk_copy(struct bench_ctx *ctx, struct disk_state *s)
{
	enum bench_status st;

	if ((st = disk_open(ctx, &s->src, s->common, O_RDONLY)) != BENCH_OK ||
	    (st = disk_open(ctx, &s->fd, s->scratch, O_WRONLY | O_CREAT | O_TRUNC |
			    (s->sync ? O_SYNC : 0))) != BENCH_OK)
		return st;
	if (!s->sync && (st = disk_unlink(ctx, s->scratch)) != BENCH_OK)
		return st;
	if ((st = disk_seek(ctx, s->src, 0, s->common)) != BENCH_OK)
		return st;
	for (size_t no = 0; no < s->blocks; no++)
		if ((st = disk_get(ctx, s, s->src, no, s->common)) != BENCH_OK ||
		    (st = disk_put(ctx, s->fd, s->buf, no, s->scratch)) != BENCH_OK)
			return st;
	if ((st = disk_check_size(ctx, s->fd, s->blocks, s->scratch)) != BENCH_OK)
		return st;
	if (s->sync && (st = disk_unlink(ctx, s->scratch)) != BENCH_OK)
		return st;
	if ((st = disk_close(ctx, &s->fd, s->scratch)) != BENCH_OK)
		return st;
	return disk_close(ctx, &s->src, s->common);
}

static enum bench_status disk_run(struct bench_ctx *ctx, uint64_t n)
{
	struct disk_state *s = ctx->priv;
	enum bench_status st = BENCH_OK;

	for (uint64_t i = 0; i < n && st == BENCH_OK; i++) {
		switch (s->mode) {
		case DISK_RANDOM_READ:
		case DISK_RANDOM_WRITE:
			st = disk_random(ctx, s);
			break;
		case DISK_READ:
			st = disk_read(ctx, s, s->blocks);
			break;
		case DISK_WRITE:
			st = disk_write(ctx, s);
			break;
		case DISK_COPY:
			st = disk_copy(ctx, s);
			break;
		}
	}
	return st;
}

static void disk_teardown(struct bench_ctx *ctx)
{
	struct disk_state *s = ctx->priv;

	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	if (s->src >= 0)
		close(s->src);
	unlink(s->scratch);
	if (s->common[0])
		unlink(s->common);
	free(s);
	ctx->priv = NULL;
}

/*
 * AIM9's shared source file, built before its first test: N blocks, here
 * stamped, then read back once with every byte checked, so that the calls
 * find it right and in the page cache.
 */
static enum bench_status disk_make_common(struct bench_ctx *ctx, struct disk_state *s)
{
	enum bench_status st;

	if ((st = disk_open(ctx, &s->src, s->common, O_WRONLY | O_CREAT | O_TRUNC)) != BENCH_OK ||
	    (st = disk_fill(ctx, s, s->src, s->file_blocks, s->common)) != BENCH_OK ||
	    (st = disk_close(ctx, &s->src, s->common)) != BENCH_OK)
		return st;
	return disk_read(ctx, s, s->file_blocks);
}

/* The file's size (AIM9's FILESIZE: --size, else 5 MiB) in blocks, or a skip. */
static enum bench_status disk_size(struct bench_ctx *ctx, int common, int sync, size_t *blocks)
{
	size_t size = ctx->size > 0 ? ctx->size : AIM9_FILESIZE;
	uint64_t need = (sync ? size / 2 : size) + (common ? size : 0), avail;

	if (size % DISK_BLOCK != 0)
		return bench_skip(ctx, "a file of %zu bytes (--size) is not a whole number of "
				  "AIM9's %d-byte blocks", size, DISK_BLOCK);
	if (size < DISK_MIN_BLOCKS * DISK_BLOCK)
		return bench_skip(ctx, "a file of %zu bytes (--size) is less than the %d KiB the "
				  "disk tests take", size, DISK_MIN_BLOCKS);
	if (plat_disk_free(ctx->tmpdir, &avail) == 0 && avail < need)
		return bench_skip(ctx, "'%s' has %llu bytes free, the test's files take %llu",
				  ctx->tmpdir, (unsigned long long)avail, (unsigned long long)need);
	*blocks = size / DISK_BLOCK;
	return BENCH_OK;
}

static enum bench_status disk_setup(struct bench_ctx *ctx, enum disk_mode mode, int sync)
{
	int common = mode == DISK_READ || mode == DISK_COPY;
	struct disk_state *s;
	enum bench_status st;
	size_t blocks = 0;

	if ((st = disk_size(ctx, common, sync, &blocks)) != BENCH_OK)
		return st;
	s = calloc(1, sizeof(*s));
	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	s->mode = mode;
	s->sync = sync;
	s->fd = s->src = -1;
	s->file_blocks = blocks;
	/* AIM9: the sync tests do half the blocks, "so as not to pound disk". */
	s->blocks = sync ? blocks / 2 : blocks;
	s->rng = DISK_SEED;
	memset(s->buf, 'a', sizeof(s->buf));
	memset(s->want, 'a', sizeof(s->want));
	if (disk_path(s->scratch, ctx, "tmpb.scratch") < 0 ||
	    (common && disk_path(s->common, ctx, "tmpa.common") < 0)) {
		free(s);
		return bench_fail(ctx, 0, "the path of the private directory is too long");
	}
	ctx->priv = s;
	if (common && (st = disk_make_common(ctx, s)) != BENCH_OK) {
		disk_teardown(ctx);
		return st;
	}
	ctx->ops_per_iter = (double)s->blocks;
	disk_record_fs(ctx);
	/* AIM9's FILESIZE, which the sync tests' file is half of. */
	bench_value(ctx, "file_size", (double)blocks * DISK_BLOCK);
	return BENCH_OK;
}

static enum bench_status disk_rr_setup(struct bench_ctx *ctx)
{
	return disk_setup(ctx, DISK_RANDOM_READ, 0);
}

static enum bench_status disk_rw_setup(struct bench_ctx *ctx)
{
	return disk_setup(ctx, DISK_RANDOM_WRITE, 0);
}

static enum bench_status disk_rd_setup(struct bench_ctx *ctx)
{
	return disk_setup(ctx, DISK_READ, 0);
}

static enum bench_status disk_wrt_setup(struct bench_ctx *ctx)
{
	return disk_setup(ctx, DISK_WRITE, 0);
}

static enum bench_status disk_cp_setup(struct bench_ctx *ctx)
{
	return disk_setup(ctx, DISK_COPY, 0);
}

static enum bench_status sync_disk_rw_setup(struct bench_ctx *ctx)
{
	return disk_setup(ctx, DISK_RANDOM_WRITE, 1);
}

static enum bench_status sync_disk_wrt_setup(struct bench_ctx *ctx)
{
	return disk_setup(ctx, DISK_WRITE, 1);
}

static enum bench_status sync_disk_cp_setup(struct bench_ctx *ctx)
{
	return disk_setup(ctx, DISK_COPY, 1);
}

/* ------------------------------------------------------------------ */
/* disk_src                                                            */
/* ------------------------------------------------------------------ */

/*
 * AIM9: its tree (fakeh.tar) and the list of names it searched (dirlist,
 * "100 c and s files") were never published.  kbench builds its own "fake
 * home" in setup: the directories below, 50 files in them to stat() and
 * 50 names beside them to creat(), close() and unlink(), in AIM9's two
 * lists of 75 slots, the rest empty.  Each call shuffles both lists and
 * walks the 75 slots, one search counted per slot, as AIM9 did; kbench
 * shuffles once per list (Fisher-Yates) where AIM9 swapped every slot
 * with a random one five times, and it builds the lists once in setup
 * where AIM9 read dirlist again on every call.  As AIM9 did, a call
 * changes into the tree and its names are relative to it.
 */
static const char *const src_dirs[] = {
	/* Parents before children: made in this order, removed in the other. */
	"bin", "doc", "include", "include/sys", "src", "src/cmd", "src/lib",
};
#define SRC_NDIRS (sizeof(src_dirs) / sizeof(src_dirs[0]))

struct src_state {
	char root[PATH_MAX];			/* the tree, "" until made */
	int tree;				/* open on root, else -1 */
	int home;				/* the working directory to come back to, else -1 */
	char stats[SRC_STATS][32];		/* files setup made, to stat() */
	char creats[SRC_CREATS][32];		/* names each call creates and removes */
	const char *stat_list[SRC_SLOTS];	/* stats in 75 slots, NULL in the rest */
	const char *creat_list[SRC_SLOTS];	/* creats in 75 slots, NULL in the rest */
	uint64_t rng;				/* the shuffles' generator */
};

static void src_teardown(struct bench_ctx *ctx)
{
	struct src_state *s = ctx->priv;

	if (!s)
		return;
	if (s->tree >= 0) {
		for (int i = 0; i < SRC_CREATS; i++)
			unlinkat(s->tree, s->creats[i], 0);
		for (int i = 0; i < SRC_STATS; i++)
			unlinkat(s->tree, s->stats[i], 0);
		for (size_t i = SRC_NDIRS; i-- > 0;)
			unlinkat(s->tree, src_dirs[i], AT_REMOVEDIR);
		close(s->tree);
	}
	if (s->root[0])
		rmdir(s->root);
	if (s->home >= 0)
		close(s->home);
	free(s);
	ctx->priv = NULL;
}

/* The directories and the files to stat. */
static enum bench_status src_build(struct bench_ctx *ctx, struct src_state *s)
{
	enum bench_status st;
	char path[PATH_MAX];

	if (plat_mkdir(s->root, 0700) != 0) {
		st = bench_fail(ctx, errno, "mkdir of '%s'", s->root);
		/* Not made, so not for teardown to remove. */
		s->root[0] = '\0';
		return st;
	}
	s->tree = plat_open(s->root, O_RDONLY | O_DIRECTORY, 0);
	if (s->tree < 0)
		return bench_fail(ctx, errno, "open of '%s'", s->root);
	for (size_t i = 0; i < SRC_NDIRS; i++) {
		if (snprintf(path, sizeof(path), "%s/%s", s->root, src_dirs[i]) >= (int)sizeof(path))
			return bench_fail(ctx, 0, "the path of the private directory is too long");
		if (plat_mkdir(path, 0700) != 0)
			return bench_fail(ctx, errno, "mkdir of '%s'", path);
	}
	for (int i = 0; i < SRC_STATS; i++) {
		int fd = plat_openat(s->tree, s->stats[i], O_WRONLY | O_CREAT | O_EXCL, 0600);

		if (fd < 0)
			return bench_fail(ctx, errno, "open(O_CREAT) of '%s' in '%s'", s->stats[i],
					  s->root);
		if (close(fd) != 0)
			return bench_fail(ctx, errno, "close of '%s' in '%s'", s->stats[i], s->root);
	}
	s->home = plat_open(".", O_RDONLY | O_DIRECTORY, 0);
	if (s->home < 0)
		return bench_fail(ctx, errno, "open of the working directory, to come back to");
	return BENCH_OK;
}

static enum bench_status src_setup(struct bench_ctx *ctx)
{
	struct src_state *s = calloc(1, sizeof(*s));
	enum bench_status st;

	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	s->tree = s->home = -1;
	s->rng = DISK_SEED;
	if (disk_path(s->root, ctx, "fakeh") < 0) {
		free(s);
		return bench_fail(ctx, 0, "the path of the private directory is too long");
	}
	/* The names spread over the directories, as a home's sources would be. */
	for (int i = 0; i < SRC_STATS; i++) {
		snprintf(s->stats[i], sizeof(s->stats[i]), "%s/f%02d.%c", src_dirs[i % SRC_NDIRS], i,
			 i % 3 ? 'c' : 'h');
		s->stat_list[i] = s->stats[i];
	}
	for (int i = 0; i < SRC_CREATS; i++) {
		snprintf(s->creats[i], sizeof(s->creats[i]), "%s/n%02d.c",
			 src_dirs[(i * 3) % SRC_NDIRS], i);
		s->creat_list[i] = s->creats[i];
	}
	ctx->priv = s;
	if ((st = src_build(ctx, s)) != BENCH_OK) {
		src_teardown(ctx);
		return st;
	}
	disk_record_fs(ctx);
	return BENCH_OK;
}

static void src_shuffle(const char **list, uint64_t *rng)
{
	for (size_t i = SRC_SLOTS - 1; i > 0; i--) {
		size_t j = (size_t)(disk_rand(rng) % (i + 1));
		const char *t = list[i];

		list[i] = list[j];
		list[j] = t;
	}
}

/* The 75 slots, inside the tree. */
static enum bench_status src_search(struct bench_ctx *ctx, struct src_state *s)
{
	int stats = 0, creats = 0;
	struct stat sb;

	for (int i = 0; i < SRC_SLOTS; i++) {
		const char *sn = s->stat_list[i], *cn = s->creat_list[i];

		if (sn) {
			if (plat_stat(sn, &sb) != 0)
				return bench_fail(ctx, errno, "stat of '%s' in '%s'", sn, s->root);
			if (!S_ISREG(sb.st_mode))
				return bench_fail(ctx, 0, "stat of '%s' in '%s' found no regular file",
						  sn, s->root);
			stats++;
		}
		if (cn) {
			int fd = plat_open(cn, O_WRONLY | O_CREAT | O_TRUNC, 0600);

			if (fd < 0)
				return bench_fail(ctx, errno, "open(O_CREAT) of '%s' in '%s'", cn,
						  s->root);
			if (close(fd) != 0)
				return bench_fail(ctx, errno, "close of '%s' in '%s'", cn, s->root);
			if (plat_unlink(cn) != 0)
				return bench_fail(ctx, errno, "unlink of '%s' in '%s'", cn, s->root);
			creats++;
		}
	}
	if (stats != SRC_STATS || creats != SRC_CREATS)
		return bench_fail(ctx, 0, "a call made %d stat() and %d creat(), not %d and %d",
				  stats, creats, SRC_STATS, SRC_CREATS);
	return BENCH_OK;
}

static enum bench_status src_run(struct bench_ctx *ctx, uint64_t n)
{
	struct src_state *s = ctx->priv;
	enum bench_status st;

	for (uint64_t i = 0; i < n; i++) {
		src_shuffle(s->stat_list, &s->rng);
		src_shuffle(s->creat_list, &s->rng);
		if (fchdir(s->tree) != 0)
			return bench_fail(ctx, errno, "fchdir into '%s'", s->root);
		st = src_search(ctx, s);
		/* Back whatever happened: the harness's relative paths must mean what they did. */
		if (fchdir(s->home) != 0 && st == BENCH_OK)
			st = bench_fail(ctx, errno, "fchdir back out of '%s'", s->root);
		if (st != BENCH_OK)
			return st;
	}
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* dir_rtns_1                                                          */
/* ------------------------------------------------------------------ */

struct dir_state {
	char path[PATH_MAX];	/* the directory read: /bin, or kbench's own */
	int made;		/* kbench made path and DIR_FILES files in it */
};

static void dir_teardown(struct bench_ctx *ctx)
{
	struct dir_state *s = ctx->priv;
	char name[PATH_MAX + 8];

	if (!s)
		return;
	if (s->made) {
		for (int i = 0; i < DIR_FILES; i++) {
			snprintf(name, sizeof(name), "%s/f%02d", s->path, i);
			unlink(name);
		}
		rmdir(s->path);
	}
	free(s);
	ctx->priv = NULL;
}

/* Where there is no /bin: a directory of DIR_FILES empty files in ctx->tmpdir. */
static enum bench_status dir_make(struct bench_ctx *ctx, struct dir_state *s)
{
	char name[PATH_MAX + 8];

	if (disk_path(s->path, ctx, "bin") < 0)
		return bench_fail(ctx, 0, "the path of the private directory is too long");
	if (plat_mkdir(s->path, 0700) != 0)
		return bench_fail(ctx, errno, "mkdir of '%s'", s->path);
	s->made = 1;
	for (int i = 0; i < DIR_FILES; i++) {
		int fd;

		snprintf(name, sizeof(name), "%s/f%02d", s->path, i);
		fd = plat_open(name, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd < 0)
			return bench_fail(ctx, errno, "open(O_CREAT) of '%s'", name);
		if (close(fd) != 0)
			return bench_fail(ctx, errno, "close of '%s'", name);
	}
	return BENCH_OK;
}

static enum bench_status dir_setup(struct bench_ctx *ctx)
{
	struct dir_state *s = calloc(1, sizeof(*s));
	enum bench_status st;
	long entries = 0;
	DIR *d;

	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	ctx->priv = s;
	snprintf(s->path, sizeof(s->path), "/bin");
	d = opendir(s->path);
	if (!d) {
		if (errno != ENOENT)
			st = bench_skip(ctx, "opendir of /bin: %s", strerror(errno));
		else if ((st = dir_make(ctx, s)) == BENCH_OK && (d = opendir(s->path)) == NULL)
			st = bench_fail(ctx, errno, "opendir of '%s'", s->path);
		if (!d) {
			dir_teardown(ctx);
			return st;
		}
	}
	while (readdir(d) != NULL)
		entries++;
	closedir(d);
	/* How many entries a pass reads decides how often the 10000 reads rewind. */
	bench_value_text(ctx, "dir", s->made ? "kbench's own (no /bin)" : "/bin");
	bench_value(ctx, "dir_entries", (double)entries);
	return BENCH_OK;
}

static enum bench_status dir_call(struct bench_ctx *ctx, struct dir_state *s)
{
	DIR *d = opendir(s->path);
	uint64_t seen = 0;

	if (!d)
		return bench_fail(ctx, errno, "opendir of '%s'", s->path);
	/* The end of the directory counts as one of the reads, as in AIM9. */
	for (int k = 0; k < DIR_READS; k++) {
		errno = 0;
		if (readdir(d) != NULL) {
			seen++;
		} else if (errno != 0) {
			int err = errno;

			closedir(d);
			return bench_fail(ctx, err, "readdir of '%s'", s->path);
		} else {
			rewinddir(d);
		}
	}
	if (closedir(d) != 0)
		return bench_fail(ctx, errno, "closedir of '%s'", s->path);
	if (seen == 0)
		return bench_fail(ctx, 0, "%d readdir() of '%s' returned no entry", DIR_READS,
				  s->path);
	return BENCH_OK;
}

static enum bench_status dir_run(struct bench_ctx *ctx, uint64_t n)
{
	enum bench_status st = BENCH_OK;

	for (uint64_t i = 0; i < n && st == BENCH_OK; i++)
		st = dir_call(ctx, ctx->priv);
	return st;
}

/* ------------------------------------------------------------------ */
/* The tests, lent to aim9.c's rows                                    */
/* ------------------------------------------------------------------ */

const struct aim9_test aim9_creat_clo = {
	.setup = creat_setup, .run = creat_run, .teardown = creat_teardown };
const struct aim9_test aim9_link_test = {
	.setup = link_setup, .run = link_run, .teardown = link_teardown };
const struct aim9_test aim9_disk_rr = {
	.setup = disk_rr_setup, .run = disk_run, .teardown = disk_teardown };
const struct aim9_test aim9_disk_rw = {
	.setup = disk_rw_setup, .run = disk_run, .teardown = disk_teardown };
const struct aim9_test aim9_disk_rd = {
	.setup = disk_rd_setup, .run = disk_run, .teardown = disk_teardown };
const struct aim9_test aim9_disk_wrt = {
	.setup = disk_wrt_setup, .run = disk_run, .teardown = disk_teardown };
const struct aim9_test aim9_disk_cp = {
	.setup = disk_cp_setup, .run = disk_run, .teardown = disk_teardown };
const struct aim9_test aim9_sync_disk_rw = {
	.setup = sync_disk_rw_setup, .run = disk_run, .teardown = disk_teardown };
const struct aim9_test aim9_sync_disk_wrt = {
	.setup = sync_disk_wrt_setup, .run = disk_run, .teardown = disk_teardown };
const struct aim9_test aim9_sync_disk_cp = {
	.setup = sync_disk_cp_setup, .run = disk_run, .teardown = disk_teardown };
const struct aim9_test aim9_disk_src = {
	.setup = src_setup, .run = src_run, .teardown = src_teardown };
const struct aim9_test aim9_dir_rtns_1 = {
	.setup = dir_setup, .run = dir_run, .teardown = dir_teardown };
