/*
 * Virtual memory: lmbench's bw_mmap_rd (summing a cached file through a
 * mapping), lat_mmap (map, touch, unmap), lat_sig prot (a write to a
 * read-only page) and lat_pagefault, plus the first touch of anonymous
 * memory.
 *
 * Page faults are counted, not assumed.  On a file fault Linux maps the
 * cached neighbours of the page too ("fault-around", 16 pages), so lmbench,
 * dividing by the pages it touched, reported a sixteenth or so of a real
 * fault.  Here the run counts the minor faults around its loop and sets
 * ctx->ops_per_iter to faults per page, so the figure is per real fault,
 * and pages_per_fault says how many pages each one mapped.
 *
 * Files live in ctx->tmpdir and are removed in teardown.  Their 4 KiB
 * blocks each start with the block's index, over a fixed pattern, so a
 * mapping that shows the wrong data, or a sum that missed some, is seen.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/families.h"
#include "bench/peer.h"
#include "plat/plat.h"

/* The unit of the files' layout, stamped with its index; not the page size. */
#define VM_BLOCK 4096
#define VM_WORDS (VM_BLOCK / sizeof(uint64_t))
/* Files are written in chunks of this many bytes. */
#define VM_CHUNK (64 * 1024)

/* A file of stamped blocks in the private directory. */
struct vm_file {
	char path[4096];	/* "" when there is none to remove */
	int fd;			/* open read-write, -1 when closed */
	size_t size;		/* a multiple of VM_BLOCK */
	uint64_t sum;		/* the sum of its 64-bit words, modulo 2^64 */
};

/* The words after each block's stamp: from a fixed-seed generator. */
static void vm_pattern(uint64_t block[VM_WORDS])
{
	uint64_t x = 0x9e3779b97f4a7c15ull;

	for (size_t i = 0; i < VM_WORDS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		block[i] = x;
	}
}

static void vm_file_close(struct vm_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (f->path[0])
		unlink(f->path);
	f->path[0] = '\0';
}

/*
 * Make f: `size` bytes (rounded down to whole blocks) written through
 * plat_write, so an injected fault shows up as a failed or damaged file.
 * Its sum is known in closed form: every block is the pattern with the
 * first word replaced by the block's index.
 */
static enum bench_status vm_file_make(struct bench_ctx *ctx, struct vm_file *f,
				      const char *name, size_t size)
{
	uint64_t block[VM_WORDS], rest = 0, nblocks;
	unsigned char *chunk;

	f->fd = -1;
	f->path[0] = '\0';
	f->size = size / VM_BLOCK * VM_BLOCK;
	if (f->size == 0)
		return bench_skip(ctx, "%zu bytes hold no whole %d-byte block", size, VM_BLOCK);
	/* The file lives in the page cache: it must fit beside everything else. */
	if (bench_check_memory(ctx, (double)f->size, "the file") != BENCH_OK)
		return BENCH_SKIP;
	chunk = malloc(VM_CHUNK);
	if (!chunk)
		return bench_fail(ctx, ENOMEM, "a buffer of %d bytes", VM_CHUNK);
	snprintf(f->path, sizeof(f->path), "%s/%s", ctx->tmpdir, name);
	f->fd = plat_open(f->path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (f->fd < 0) {
		int err = errno;

		f->path[0] = '\0';
		free(chunk);
		return bench_fail(ctx, err, "cannot create a file in '%s'", ctx->tmpdir);
	}
	vm_pattern(block);
	for (size_t i = 1; i < VM_WORDS; i++)
		rest += block[i];
	for (size_t off = 0; off < f->size; off += VM_CHUNK) {
		size_t len = f->size - off < VM_CHUNK ? f->size - off : VM_CHUNK;
		ssize_t put;

		for (size_t b = 0; b < len; b += VM_BLOCK) {
			block[0] = (off + b) / VM_BLOCK;
			memcpy(chunk + b, block, VM_BLOCK);
		}
		put = plat_write(f->fd, chunk, len);
		if (put < 0 || (size_t)put != len) {
			int err = put < 0 ? errno : 0;

			free(chunk);
			vm_file_close(f);
			return bench_fail(ctx, err, "writing %zu bytes at offset %zu of '%s' "
					  "returned %zd", len, off, name, put);
		}
	}
	free(chunk);
	/* nblocks * rest + (0 + 1 + ... + nblocks - 1), halving the even factor first. */
	nblocks = f->size / VM_BLOCK;
	f->sum = nblocks * rest + (nblocks % 2 ? nblocks * ((nblocks - 1) / 2)
					       : (nblocks / 2) * (nblocks - 1));
	return BENCH_OK;
}

/*
 * Read f once, so every page is in the page cache and each fault on it is
 * a minor one: writing put them there, but nothing promises they stay.
 */
static enum bench_status vm_file_read_once(struct bench_ctx *ctx, struct vm_file *f)
{
	unsigned char buf[VM_CHUNK];
	ssize_t k;

	if (plat_lseek(f->fd, 0, SEEK_SET) != 0)
		return bench_fail(ctx, errno, "lseek to the start of '%s'", f->path);
	while ((k = plat_read(f->fd, buf, sizeof(buf))) != 0)
		if (k < 0 && errno != EINTR)
			return bench_fail(ctx, errno, "reading '%s'", f->path);
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* Summing a cached file through a mapping                             */
/* ------------------------------------------------------------------ */

struct vm_reread {
	struct vm_file file;		/* the file summed */
	const unsigned char *map;	/* the whole file, read-only; NULL before mmap */
};

static void vm_reread_teardown(struct bench_ctx *ctx)
{
	struct vm_reread *r = ctx->priv;

	if (!r)
		return;
	if (r->map)
		munmap((void *)r->map, r->file.size);
	vm_file_close(&r->file);
	free(r);
	ctx->priv = NULL;
}

static enum bench_status vm_reread_setup(struct bench_ctx *ctx)
{
	struct vm_reread *r = calloc(1, sizeof(*r));
	enum bench_status st;
	void *map;
	uint64_t got;

	if (!r)
		return bench_fail(ctx, ENOMEM, "setup");
	ctx->priv = r;
	st = vm_file_make(ctx, &r->file, "kbench-mmap-reread", bench_buffer_size(ctx));
	if (st != BENCH_OK) {
		vm_reread_teardown(ctx);
		return st;
	}
	map = plat_mmap(NULL, r->file.size, PROT_READ, MAP_SHARED, r->file.fd, 0);
	if (map == MAP_FAILED) {
		st = bench_fail(ctx, errno, "mmap of a %zu-byte file", r->file.size);
		vm_reread_teardown(ctx);
		return st;
	}
	r->map = map;
	/* Once untimed: every page in the cache and mapped, and the content right. */
	got = peer_sum(r->map, r->file.size);
	if (got != r->file.sum) {
		st = bench_fail(ctx, 0, "the mapped file sums to %#llx, not the %#llx written: "
				"it was damaged on the way", (unsigned long long)got,
				(unsigned long long)r->file.sum);
		vm_reread_teardown(ctx);
		return st;
	}
	ctx->bytes_per_iter = (double)r->file.size;
	bench_value(ctx, "file_size", (double)r->file.size);
	return BENCH_OK;
}

/*
 * The sum is peer_sum, 32 bytes per add: word by word the loop, not the
 * memory, would set the pace, and this is compared with fs.reread.bw.
 */
static enum bench_status vm_reread_run(struct bench_ctx *ctx, uint64_t n)
{
	struct vm_reread *r = ctx->priv;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t got = peer_sum(r->map, r->file.size);

		if (got != r->file.sum)
			return bench_fail(ctx, 0, "pass %llu over the mapping summed to %#llx, "
					  "not %#llx", (unsigned long long)i + 1,
					  (unsigned long long)got, (unsigned long long)r->file.sum);
	}
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* Map, touch, unmap                                                   */
/* ------------------------------------------------------------------ */

/* lmbench's lat_mmap: 8 MiB by default, a byte every 16 KiB of the first tenth. */
#define VM_MMAP_DEFAULT (8u << 20)
#define VM_MMAP_STRIDE (16 * 1024)
#define VM_MMAP_PART 10
/* Bytes of the last cycle read back after a run. */
#define VM_MMAP_CHECKS 16

struct vm_mmap {
	struct vm_file file;	/* the file mapped, open for the reads back */
	uint64_t cycles;	/* cycles so far: the byte each writes comes from it */
};

static void vm_mmap_teardown(struct bench_ctx *ctx)
{
	struct vm_mmap *m = ctx->priv;

	if (!m)
		return;
	vm_file_close(&m->file);
	free(m);
	ctx->priv = NULL;
}

static enum bench_status vm_mmap_setup(struct bench_ctx *ctx)
{
	struct vm_mmap *m = calloc(1, sizeof(*m));
	enum bench_status st;

	if (!m)
		return bench_fail(ctx, ENOMEM, "setup");
	ctx->priv = m;
	st = vm_file_make(ctx, &m->file, "kbench-mmap", ctx->size ? ctx->size : VM_MMAP_DEFAULT);
	if (st != BENCH_OK) {
		vm_mmap_teardown(ctx);
		return st;
	}
	bench_value(ctx, "size", (double)m->file.size);
	return BENCH_OK;
}

/* Never 0, and different from the cycle before. */
static unsigned char vm_mmap_byte(uint64_t cycle)
{
	return (unsigned char)(cycle % 255 + 1);
}

static enum bench_status vm_mmap_run(struct bench_ctx *ctx, uint64_t n)
{
	struct vm_mmap *m = ctx->priv;
	size_t size = m->file.size, part = size / VM_MMAP_PART, touched, checks;
	unsigned char c = 0, got;

	for (uint64_t i = 0; i < n; i++) {
		volatile unsigned char *p = plat_mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
						      m->file.fd, 0);

		if (p == MAP_FAILED)
			return bench_fail(ctx, errno, "mmap of a %zu-byte file", size);
		c = vm_mmap_byte(m->cycles++);
		for (size_t off = 0; off < part; off += VM_MMAP_STRIDE)
			p[off] = c;
		if (munmap((void *)p, size) != 0)
			return bench_fail(ctx, errno, "munmap of a %zu-byte mapping", size);
	}
	/*
	 * The last cycle's bytes must be in the file: the mapping was really
	 * shared.  A few of them, evenly spread, first and last included: with
	 * --size 1g, reading back all 6,400 would cost a sixth of a cycle.
	 */
	touched = (part + VM_MMAP_STRIDE - 1) / VM_MMAP_STRIDE;
	checks = touched < VM_MMAP_CHECKS ? touched : VM_MMAP_CHECKS;
	for (size_t j = 0; n > 0 && j < checks; j++) {
		size_t off = (checks > 1 ? j * (touched - 1) / (checks - 1) : 0) * VM_MMAP_STRIDE;
		ssize_t k;

		if (plat_lseek(m->file.fd, (off_t)off, SEEK_SET) != (off_t)off)
			return bench_fail(ctx, errno, "lseek to offset %zu", off);
		k = plat_read(m->file.fd, &got, 1);
		if (k != 1)
			return bench_fail(ctx, k < 0 ? errno : 0, "reading back the byte at offset "
					  "%zu returned %zd", off, k);
		if (got != c)
			return bench_fail(ctx, 0, "the byte at offset %zu reads back %#x, but the "
					  "last cycle wrote %#x through the mapping", off, got, c);
	}
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* A write to a read-only page                                         */
/* ------------------------------------------------------------------ */

/*
 * The handler's state.  SIGSEGV from our own write is synchronous, so the
 * handler runs between two instructions of the loop, never concurrently
 * with it: plain volatile objects are enough.
 */
static sigjmp_buf vm_prot_env;
static volatile char *vm_prot_page;
static size_t vm_prot_len;
static volatile uint64_t vm_prot_caught;
static struct sigaction vm_prot_old;

/*
 * Ours: count it and jump back over the write.  Anyone else's fault: put
 * the old action back and return, so the write faults again and gets the
 * crash (or the sanitizer's report) it would have had without us.
 */
static void vm_prot_handler(int sig, siginfo_t *info, void *uc)
{
	char *addr = info->si_addr;

	(void)uc;
	if (vm_prot_page && addr >= (char *)vm_prot_page && addr < (char *)vm_prot_page + vm_prot_len) {
		vm_prot_caught++;
		siglongjmp(vm_prot_env, 1);
	}
	sigaction(sig, &vm_prot_old, NULL);
}

static void vm_prot_teardown(struct bench_ctx *ctx)
{
	sigaction(SIGSEGV, &vm_prot_old, NULL);
	if (vm_prot_page)
		munmap((void *)vm_prot_page, vm_prot_len);
	vm_prot_page = NULL;
	ctx->priv = NULL;
}

static enum bench_status vm_prot_setup(struct bench_ctx *ctx)
{
	struct sigaction sa;
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	vm_prot_len = page > 0 ? (size_t)page : 4096;
	p = plat_mmap(NULL, vm_prot_len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return bench_fail(ctx, errno, "mmap of a read-only page");
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = vm_prot_handler;
	/*
	 * SA_NODEFER: the handler leaves by siglongjmp, so SIGSEGV must not
	 * stay blocked; with it, the jump need not restore a signal mask
	 * either (sigsetjmp's savemask 0), and the loop makes no system call.
	 */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (plat_sigaction(SIGSEGV, &sa, &vm_prot_old) != 0) {
		int err = errno;

		munmap(p, vm_prot_len);
		return bench_fail(ctx, err, "sigaction(SIGSEGV)");
	}
	vm_prot_page = p;
	bench_value(ctx, "page_size", (double)vm_prot_len);
	return BENCH_OK;
}

static enum bench_status vm_prot_run(struct bench_ctx *ctx, uint64_t n)
{
	/* Volatile: the loop's own state must survive the jumps back into it. */
	volatile uint64_t i;

	vm_prot_caught = 0;
	for (i = 0; i < n; i++)
		if (sigsetjmp(vm_prot_env, 0) == 0)
			vm_prot_page[0] = 1;
	if (vm_prot_caught != n)
		return bench_fail(ctx, 0, "%llu writes to a read-only page raised %llu SIGSEGVs",
				  (unsigned long long)n, (unsigned long long)vm_prot_caught);
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* Page faults: first touch of a cached file's pages, of fresh memory   */
/* ------------------------------------------------------------------ */

/* The cached file whose pages are faulted in (lmbench's lat_pagefault file). */
#define VM_FAULT_FILE (64u << 20)

/*
 * How the file's pages are laid out.  NORMAL maps the whole file at a
 * time, so each fault also maps its cached neighbours.  RANDOM gives each
 * page a mapping of its own and advises MADV_RANDOM: the advice alone does
 * not stop fault-around on Linux (only userfaultfd does; the advice only
 * turns off readahead), but fault-around never reaches past the mapping.
 */
enum vm_fault_kind { VM_FAULT_FILE_NORMAL, VM_FAULT_FILE_RANDOM, VM_FAULT_ANON };

struct vm_fault_param {
	enum vm_fault_kind kind;
	const char *advice;	/* recorded as "advice" for the file rows */
};

/* One region laid out by prepare, unmapped with one call. */
struct vm_map {
	unsigned char *p;	/* its start */
	size_t len;		/* its length in bytes, whole pages */
};

struct vm_fault {
	struct vm_file file;	/* the file rows' file; fd -1 for anonymous memory */
	size_t page;		/* the system page size */
	size_t per;		/* pages in the file */
	struct vm_map *maps;	/* the regions laid out for the next run */
	size_t nmaps, cap;	/* regions mapped now; room in maps */
};

static void vm_fault_unmap(struct vm_fault *f)
{
	for (size_t i = 0; i < f->nmaps; i++)
		munmap(f->maps[i].p, f->maps[i].len);
	f->nmaps = 0;
}

static void vm_fault_teardown(struct bench_ctx *ctx)
{
	struct vm_fault *f = ctx->priv;

	if (!f)
		return;
	vm_fault_unmap(f);
	free(f->maps);
	vm_file_close(&f->file);
	free(f);
	ctx->priv = NULL;
}

static enum bench_status vm_fault_setup(struct bench_ctx *ctx)
{
	const struct vm_fault_param *p = ctx->arg;
	struct vm_fault *f = calloc(1, sizeof(*f));
	long page = sysconf(_SC_PAGESIZE);
	enum bench_status st;

	if (!f)
		return bench_fail(ctx, ENOMEM, "setup");
	ctx->priv = f;
	f->file.fd = -1;
	f->page = page > 0 ? (size_t)page : 4096;
	if (f->page % VM_BLOCK != 0 && p->kind != VM_FAULT_ANON) {
		st = bench_skip(ctx, "a page of %zu bytes is not a whole number of %d-byte "
				"blocks", f->page, VM_BLOCK);
		vm_fault_teardown(ctx);
		return st;
	}
	bench_value(ctx, "page_size", (double)f->page);
	if (p->kind == VM_FAULT_ANON)
		return BENCH_OK;
	st = vm_file_make(ctx, &f->file, "kbench-fault", VM_FAULT_FILE / f->page * f->page);
	if (st == BENCH_OK)
		st = vm_file_read_once(ctx, &f->file);
	if (st != BENCH_OK) {
		vm_fault_teardown(ctx);
		return st;
	}
	f->per = f->file.size / f->page;
	bench_value_text(ctx, "advice", p->advice);
	bench_value(ctx, "mapping_pages", p->kind == VM_FAULT_FILE_RANDOM ? 1 : (double)f->per);
	return BENCH_OK;
}

/* Room for k regions in f->maps. */
static int vm_fault_room(struct vm_fault *f, size_t k)
{
	struct vm_map *more;

	if (k <= f->cap)
		return 0;
	more = realloc(f->maps, k * sizeof(*more));
	if (!more)
		return -1;
	f->maps = more;
	f->cap = k;
	return 0;
}

/* One region of n pages; anonymous and unreserved, or a reservation. */
static enum bench_status vm_fault_region(struct bench_ctx *ctx, struct vm_fault *f, uint64_t n,
					 int prot, const char *what)
{
	struct vm_map *m;

	if (vm_fault_room(f, 1) < 0)
		return bench_fail(ctx, ENOMEM, "setup");
	m = &f->maps[0];
	m->len = (size_t)n * f->page;
	m->p = plat_mmap(NULL, m->len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m->p == MAP_FAILED)
		return bench_fail(ctx, errno, "mmap of %llu pages (%s)", (unsigned long long)n, what);
	f->nmaps = 1;
	return BENCH_OK;
}

/* The file offset of page i of a RANDOM layout: descending, so no two merge. */
static size_t vm_fault_scattered(const struct vm_fault *f, uint64_t i)
{
	return (f->per - 1 - (size_t)(i % f->per)) * f->page;
}

/*
 * RANDOM: n one-page mappings side by side in a reservation.  Neighbours
 * map pages of the file in descending order, so the kernel cannot merge
 * them into one mapping (that needs ascending, adjacent offsets).
 */
static enum bench_status vm_fault_map_pages(struct bench_ctx *ctx, struct vm_fault *f, uint64_t n)
{
	enum bench_status st = vm_fault_region(ctx, f, n, PROT_NONE, "a reservation");
	unsigned char *base;

	if (st != BENCH_OK)
		return st;
	base = f->maps[0].p;
	for (uint64_t i = 0; i < n; i++) {
		void *q = plat_mmap(base + i * f->page, f->page, PROT_READ, MAP_SHARED | MAP_FIXED,
				    f->file.fd, (off_t)vm_fault_scattered(f, i));

		if (q == MAP_FAILED)
			return bench_fail(ctx, errno, "mmap of page %llu of %llu on its own (a "
					  "mapping each; see vm.max_map_count)",
					  (unsigned long long)i + 1, (unsigned long long)n);
	}
	if (plat_madvise(base, f->maps[0].len, MADV_RANDOM) != 0)
		return bench_fail(ctx, errno, "madvise(MADV_RANDOM)");
	return BENCH_OK;
}

/*
 * Untimed: unmap the last run's pages and map n fresh ones.  NORMAL maps
 * the cached file as often as it takes; none of the pages is mapped yet,
 * so each first touch must fault.
 */
static enum bench_status vm_fault_prepare(struct bench_ctx *ctx, uint64_t n)
{
	const struct vm_fault_param *p = ctx->arg;
	struct vm_fault *f = ctx->priv;
	enum bench_status st;
	size_t k;

	vm_fault_unmap(f);
	if (p->kind == VM_FAULT_ANON) {
		st = bench_check_memory(ctx, (double)n * (double)f->page, "the pages to fault in");
		if (st == BENCH_OK)
			st = vm_fault_region(ctx, f, n, PROT_READ | PROT_WRITE, "fresh memory");
		if (st != BENCH_OK)
			return st;
		/*
		 * A 4 KiB fault is what is measured: a huge page (or a large
		 * folio) would fill many pages in one fault, and pages_per_fault
		 * would show it.  A kernel without them says EINVAL, which is
		 * just as good.
		 */
#ifdef MADV_NOHUGEPAGE
		if (plat_madvise(f->maps[0].p, f->maps[0].len, MADV_NOHUGEPAGE) != 0 && errno != EINVAL)
			return bench_fail(ctx, errno, "madvise(MADV_NOHUGEPAGE)");
#endif
		return BENCH_OK;
	}
	if (p->kind == VM_FAULT_FILE_RANDOM)
		return vm_fault_map_pages(ctx, f, n);
	k = (size_t)((n + f->per - 1) / f->per);
	if (vm_fault_room(f, k) < 0)
		return bench_fail(ctx, ENOMEM, "room for %zu mappings", k);
	for (size_t i = 0; i < k; i++) {
		uint64_t left = n - (uint64_t)i * f->per;
		struct vm_map *m = &f->maps[i];

		m->len = (left < f->per ? (size_t)left : f->per) * f->page;
		m->p = plat_mmap(NULL, m->len, PROT_READ, MAP_SHARED, f->file.fd, 0);
		if (m->p == MAP_FAILED)
			return bench_fail(ctx, errno, "mmap %zu of the file", i + 1);
		f->nmaps++;
	}
	return BENCH_OK;
}

/*
 * The faults the run took, checked against the pages it touched: none
 * means the pages were mapped already, many more means something else
 * faulted; either way the figure would not be a page fault's cost.
 */
static enum bench_status vm_fault_count(struct bench_ctx *ctx, uint64_t n, uint64_t before)
{
	uint64_t after, faults;

	if (plat_minor_faults(&after) < 0)
		return bench_fail(ctx, errno, "cannot count page faults");
	faults = after - before;
	if (faults == 0)
		return bench_fail(ctx, 0, "touching %llu fresh pages took no page fault",
				  (unsigned long long)n);
	if (faults > n + n / 8 + 8)
		return bench_fail(ctx, 0, "touching %llu pages took %llu page faults",
				  (unsigned long long)n, (unsigned long long)faults);
	ctx->ops_per_iter = (double)faults / (double)n;
	bench_value(ctx, "pages_per_fault", (double)n / (double)faults);
	return BENCH_OK;
}

/* A page's stamp: the first word of its first block is that block's index. */
static unsigned vm_fault_wrong(const unsigned char *p, size_t off)
{
	return *(const volatile uint64_t *)(const void *)p != off / VM_BLOCK ? 1u : 0u;
}

/* Read each page's stamp: the first touch faults it in, and shows it is the file's. */
static enum bench_status vm_fault_file_run(struct bench_ctx *ctx, uint64_t n)
{
	const struct vm_fault_param *p = ctx->arg;
	struct vm_fault *f = ctx->priv;
	uint64_t before, wrong = 0;

	if (plat_minor_faults(&before) < 0)
		return bench_fail(ctx, errno, "cannot count page faults");
	if (p->kind == VM_FAULT_FILE_RANDOM) {
		const unsigned char *base = f->maps[0].p;
		size_t off = f->per * f->page;

		/* Descending offsets, as vm_fault_scattered laid them out. */
		for (uint64_t i = 0; i < n; i++) {
			off = (off == 0 ? f->per * f->page : off) - f->page;
			wrong += vm_fault_wrong(base + i * f->page, off);
		}
	} else {
		for (size_t i = 0; i < f->nmaps; i++)
			for (size_t off = 0; off < f->maps[i].len; off += f->page)
				wrong += vm_fault_wrong(f->maps[i].p + off, off);
	}
	if (wrong)
		return bench_fail(ctx, 0, "%llu of %llu mapped pages do not hold the file's data",
				  (unsigned long long)wrong, (unsigned long long)n);
	return vm_fault_count(ctx, n, before);
}

/* Write one byte of each page: the first touch of fresh anonymous memory. */
static enum bench_status vm_fault_anon_run(struct bench_ctx *ctx, uint64_t n)
{
	struct vm_fault *f = ctx->priv;
	volatile unsigned char *p = f->maps[0].p;
	uint64_t before;

	if (plat_minor_faults(&before) < 0)
		return bench_fail(ctx, errno, "cannot count page faults");
	for (size_t off = 0; off < f->maps[0].len; off += f->page)
		p[off] = 1;
	return vm_fault_count(ctx, n, before);
}

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

static const struct vm_fault_param vm_fault_normal = { VM_FAULT_FILE_NORMAL, "normal" };
static const struct vm_fault_param vm_fault_random = { VM_FAULT_FILE_RANDOM, "random" };
static const struct vm_fault_param vm_fault_anon = { VM_FAULT_ANON, "" };

/*
 * To add a row: an id from DESIGN.md's catalogue; a fault benchmark takes
 * a struct vm_fault_param and counts its faults with vm_fault_count, so
 * its figure stays per real fault.
 */
const struct bench vm_benches[] = {
	{ .id = "vm.mmap_reread.bw", .metric = METRIC_MBPS, .better = BETTER_HIGHER,
	  .suites = SUITE_SUMMARY, .flags = BENCH_SIZED,
	  .summary = "sum of a cached file's words through a read-only mapping (--size)",
	  .setup = vm_reread_setup, .run = vm_reread_run, .teardown = vm_reread_teardown,
	  .points = bench_size_points },
	{ .id = "vm.mmap", .metric = METRIC_US, .better = BETTER_LOWER,
	  .suites = SUITE_SUMMARY, .flags = BENCH_SIZED,
	  .summary = "mmap of an 8 MiB file (--size), a write every 16 KiB of its first tenth, munmap",
	  .setup = vm_mmap_setup, .run = vm_mmap_run, .teardown = vm_mmap_teardown },
	{ .id = "vm.prot_fault", .metric = METRIC_US, .better = BETTER_LOWER,
	  .suites = SUITE_SUMMARY,
	  .summary = "a write to a read-only page, delivered as SIGSEGV and recovered",
	  .setup = vm_prot_setup, .run = vm_prot_run, .teardown = vm_prot_teardown },
	{ .id = "vm.page_fault", .metric = METRIC_US, .better = BETTER_LOWER,
	  .suites = SUITE_SUMMARY,
	  .summary = "first read of every page of a cached 64 MiB file through a mapping, per real fault (fault-around on)",
	  .setup = vm_fault_setup, .prepare = vm_fault_prepare, .run = vm_fault_file_run,
	  .teardown = vm_fault_teardown, .arg = &vm_fault_normal },
	{ .id = "vm.page_fault_random", .metric = METRIC_US, .better = BETTER_LOWER,
	  .suites = SUITE_SUMMARY,
	  .summary = "the same, each page in a mapping of its own with MADV_RANDOM (no fault-around)",
	  .setup = vm_fault_setup, .prepare = vm_fault_prepare, .run = vm_fault_file_run,
	  .teardown = vm_fault_teardown, .arg = &vm_fault_random },
	{ .id = "vm.page_fault_anon", .metric = METRIC_US, .better = BETTER_LOWER,
	  .suites = SUITE_SUMMARY,
	  .summary = "first write to fresh anonymous memory (no huge pages), per real fault",
	  .setup = vm_fault_setup, .prepare = vm_fault_prepare, .run = vm_fault_anon_run,
	  .teardown = vm_fault_teardown, .arg = &vm_fault_anon },
};
const size_t vm_nbenches = sizeof(vm_benches) / sizeof(vm_benches[0]);
