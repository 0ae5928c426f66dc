/*
 * The default contest job: a toy kernel tree of C sources and a Makefile
 * that compiles each with $(CC) -O2 and links one program, so `make -j` has
 * many independent compiles and one link at the end, as a kernel build does.
 *
 * Everything written is a function of the size alone.  The code of unit i
 * comes from a pseudo-random generator seeded by i, so two trees of the same
 * size are byte-identical (the job is the same from run to run and from
 * machine to machine), while no two units are alike, so neither the
 * compiler nor a cache can share work between them.  Nothing depends on the
 * time, the environment or the directory's name.
 *
 * The tree, under dir:
 *   include/kbt/types.h   types and structs, included by every file
 *   include/kbt/lib.h     static inline helpers, included by every file
 *   kernel/ mm/ fs/ drivers/fileN.c
 *                         the units, dealt round the four directories; each
 *                         a handful of functions and one entry kbt_unitN
 *   init/main.c           calls every entry, so the link needs every unit
 *   objs.list             the objects, which the link reads as @objs.list
 *   Makefile
 *
 * It writes only under dir and never prints: errors go to the caller's
 * buffer.  After a failure dir may hold part of a tree; the caller, which
 * owns dir, removes it.
 */
#include "load/load.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/err.h"

/*
 * Units per 1.0 of size, for a default job of about 40 s.  Calibrated on
 * the 2-core machine contest's figures come from (gcc 12.2 -O2, GNU make
 * 4.3, `make -j4 -s` of a fresh tree, nothing else of ours running): 280
 * units took 56.5 s (0.39 CPU s a unit), so 200; 200 units took 39.4, 40.7
 * and 39.3 s.
 */
#define TREE_UNITS_PER_SIZE 200.0

/*
 * The largest tree: 100000 units, 500 times the default job (hours).  A
 * bound keeps the count from overflowing, and this one keeps each glob in
 * the Makefile's clean rule (25000 names) well inside the limit on arguments.
 */
#define TREE_MAX_UNITS 100000.0

/* Files besides the units: two headers, main.c, objs.list, the Makefile. */
#define TREE_EXTRA_FILES 5

/* The directories the units are dealt round, as a kernel's subsystems. */
static const char *const tree_subdirs[] = { "kernel", "mm", "fs", "drivers" };
#define TREE_NSUBDIRS (sizeof(tree_subdirs) / sizeof(tree_subdirs[0]))

/* Every directory tree_make creates, parents first. */
static const char *const tree_dirs[] = {
	"include", "include/kbt", "init", "kernel", "mm", "fs", "drivers",
};

static const char tree_types_h[] =
	"/* Types every file of the tree shares, as a kernel's headers are shared. */\n"
	"#ifndef KBT_TYPES_H\n"
	"#define KBT_TYPES_H\n"
	"\n"
	"typedef unsigned int u32;\n"
	"typedef unsigned long long u64;\n"
	"\n"
	"#define KBT_PAGE_WORDS 8\n"
	"#define KBT_INODE_BLOCKS 12\n"
	"#define KBT_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))\n"
	"\n"
	"struct kbt_page {\n"
	"\tu64 flags;\n"
	"\tu32 order;\n"
	"\tu32 refs;\n"
	"\tu64 data[KBT_PAGE_WORDS];\n"
	"};\n"
	"\n"
	"struct kbt_inode {\n"
	"\tu32 ino;\n"
	"\tu32 mode;\n"
	"\tu64 size;\n"
	"\tu32 blocks[KBT_INODE_BLOCKS];\n"
	"\tstruct kbt_inode *next;\n"
	"};\n"
	"\n"
	"struct kbt_task {\n"
	"\tu32 pid;\n"
	"\tu32 prio;\n"
	"\tu64 vruntime;\n"
	"\tu64 regs[8];\n"
	"};\n"
	"\n"
	"#endif\n";

static const char tree_lib_h[] =
	"/* Small helpers every file may use, inline as a kernel's are. */\n"
	"#ifndef KBT_LIB_H\n"
	"#define KBT_LIB_H\n"
	"\n"
	"#include \"kbt/types.h\"\n"
	"\n"
	"static inline u32 kbt_rol32(u32 x, unsigned r)\n"
	"{\n"
	"\treturn (x << (r & 31)) | (x >> ((32 - r) & 31));\n"
	"}\n"
	"\n"
	"static inline u64 kbt_mix64(u64 x)\n"
	"{\n"
	"\tx ^= x >> 33;\n"
	"\tx *= 0xff51afd7ed558ccdull;\n"
	"\tx ^= x >> 33;\n"
	"\tx *= 0xc4ceb9fe1a85ec53ull;\n"
	"\tx ^= x >> 33;\n"
	"\treturn x;\n"
	"}\n"
	"\n"
	"static inline u32 kbt_hash32(u32 x)\n"
	"{\n"
	"\tx ^= x >> 16;\n"
	"\tx *= 0x7feb352du;\n"
	"\tx ^= x >> 15;\n"
	"\tx *= 0x846ca68bu;\n"
	"\tx ^= x >> 16;\n"
	"\treturn x;\n"
	"}\n"
	"\n"
	"static inline u32 kbt_min(u32 a, u32 b)\n"
	"{\n"
	"\treturn a < b ? a : b;\n"
	"}\n"
	"\n"
	"static inline u32 kbt_max(u32 a, u32 b)\n"
	"{\n"
	"\treturn a > b ? a : b;\n"
	"}\n"
	"\n"
	"static inline unsigned kbt_popcount32(u32 x)\n"
	"{\n"
	"\tx = x - ((x >> 1) & 0x55555555u);\n"
	"\tx = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);\n"
	"\tx = (x + (x >> 4)) & 0x0f0f0f0fu;\n"
	"\treturn (x * 0x01010101u) >> 24;\n"
	"}\n"
	"\n"
	"#endif\n";

/* splitmix64: tiny, and the same sequence on every machine. */
struct tree_rng {
	uint64_t s;		/* the state; the seed is the unit's index */
};

/* One file being written, and the first thing that went wrong with it. */
struct tree_out {
	FILE *f;
	char path[PATH_MAX];	/* dir/rel, for the error message */
	int errnum;		/* errno of the first failed write; 0 while all is well */
};

static uint64_t tree_next(struct tree_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A number in [lo, hi]. */
static unsigned tree_range(struct tree_rng *r, unsigned lo, unsigned hi)
{
	return lo + (unsigned)(tree_next(r) % (hi - lo + 1));
}

static unsigned tree_u32(struct tree_rng *r)
{
	return (unsigned)(tree_next(r) & 0xffffffffu);
}

static unsigned long long tree_u64(struct tree_rng *r)
{
	return (unsigned long long)tree_next(r);
}

/* strerror starts with a capital; kbench's messages do not (err_errno_text). */
static void tree_errno_text(int errnum, char *buf, size_t len)
{
	err_errno_text(errnum, buf, len);
}

static int tree_fail_errno(char *err, const char *what, const char *path, int errnum)
{
	char text[128];

	tree_errno_text(errnum, text, sizeof(text));
	errbuf_set(err, "%s '%s': %s", what, path, text);
	return -1;
}

static int tree_path(char *buf, size_t len, const char *dir, const char *rel, char *err)
{
	int n = snprintf(buf, len, "%s/%s", dir, rel);

	if (n < 0 || (size_t)n >= len) {
		errbuf_set(err, "path too long: '%s/%s'", dir, rel);
		return -1;
	}
	return 0;
}

static int tree_open(struct tree_out *o, const char *dir, const char *rel, char *err)
{
	o->errnum = 0;
	if (tree_path(o->path, sizeof(o->path), dir, rel, err) < 0)
		return -1;
	o->f = fopen(o->path, "w");
	if (!o->f)
		return tree_fail_errno(err, "cannot create", o->path, errno);
	return 0;
}

/*
 * Writes are checked as they go but reported once, at tree_close: after the
 * first failure the rest of the file is skipped, and the message names the
 * file and the first reason.
 */
__attribute__((format(printf, 2, 3)))
static void tree_put(struct tree_out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->errnum)
		return;
	errno = 0;
	va_start(ap, fmt);
	if (vfprintf(o->f, fmt, ap) < 0)
		o->errnum = errno ? errno : EIO;
	va_end(ap);
}

/* Most of the data reaches the disk here, so this is where a full one shows. */
static int tree_close(struct tree_out *o, char *err)
{
	int e = o->errnum;

	if (!e && ferror(o->f))
		e = EIO;
	errno = 0;
	if (fclose(o->f) != 0 && !e)
		e = errno ? errno : EIO;
	o->f = NULL;
	if (e)
		return tree_fail_errno(err, "cannot write", o->path, e);
	return 0;
}

/* A file whose whole text is known in advance: the two headers. */
static int tree_write_text(const char *dir, const char *rel, const char *text, char *err)
{
	struct tree_out o;

	if (tree_open(&o, dir, rel, err) < 0)
		return -1;
	tree_put(&o, "%s", text);
	return tree_close(&o, err);
}

/* ------------------------------------------------------------------ */
/* The units' code                                                     */
/* ------------------------------------------------------------------ */

/* The u32 variables every generated expression may name. */
static const char *const tree_vars[] = { "a", "b", "c", "d" };

/*
 * A random u32 expression over a, b, c and d.  Only unsigned arithmetic
 * and shifts by 1..31, so the program is free of undefined behaviour
 * whatever the generator picks.  compound is set where a bare variable or
 * constant will not do (the right side of "v =", which could be "v = v").
 */
static void tree_expr(struct tree_out *o, struct tree_rng *r, int depth, int compound)
{
	static const char ops[] = "+-^|&";
	unsigned v;

	if (!compound && (depth <= 0 || tree_range(r, 0, 4) == 0)) {
		if (tree_range(r, 0, 2) == 0)
			tree_put(o, "0x%08xu", tree_u32(r));
		else
			tree_put(o, "%s", tree_vars[tree_range(r, 0, 3)]);
		return;
	}
	switch (tree_range(r, 0, 8)) {
	case 5:
		tree_put(o, "(");
		tree_expr(o, r, depth - 1, 0);
		tree_put(o, " * 0x%08xu)", tree_u32(r) | 1u);
		break;
	case 6:
		tree_put(o, "kbt_rol32(");
		tree_expr(o, r, depth - 1, 0);
		tree_put(o, ", %u)", tree_range(r, 1, 31));
		break;
	case 7:
		tree_put(o, "(");
		tree_expr(o, r, depth - 1, 0);
		tree_put(o, " >> %u)", tree_range(r, 1, 31));
		break;
	case 8:
		/* Two different variables: clang warns about "a > a" by default. */
		v = tree_range(r, 0, 3);
		tree_put(o, "(%s > %s ? ", tree_vars[v], tree_vars[(v + tree_range(r, 1, 3)) % 4]);
		tree_expr(o, r, depth - 1, 0);
		tree_put(o, " : ");
		tree_expr(o, r, depth - 1, 0);
		tree_put(o, ")");
		break;
	default:
		tree_put(o, "(");
		tree_expr(o, r, depth - 1, 0);
		tree_put(o, " %c ", ops[tree_range(r, 0, 4)]);
		tree_expr(o, r, depth - 1, 0);
		tree_put(o, ")");
		break;
	}
}

/* One statement "v op= expr;" at the given indent. */
static void tree_stmt(struct tree_out *o, struct tree_rng *r, const char *indent, int depth)
{
	static const char *const assign[] = { "=", "^=", "+=" };
	unsigned op = tree_range(r, 0, 2);

	tree_put(o, "%s%s %s ", indent, tree_vars[tree_range(r, 0, 3)], assign[op]);
	tree_expr(o, r, depth, op == 0);
	tree_put(o, ";\n");
}

/* A state machine: a loop round a switch whose cases compute and jump. */
static void tree_fn_machine(struct tree_out *o, struct tree_rng *r, unsigned fn)
{
	unsigned ncase = tree_range(r, 6, 14);

	tree_put(o, "static u64 f%u(u64 seed)\n{\n", fn);
	tree_put(o, "\tu32 a = (u32)seed, b = (u32)(seed >> 32);\n");
	tree_put(o, "\tu32 c = 0x%08xu ^ a, d = 0x%08xu + b;\n", tree_u32(r), tree_u32(r));
	tree_put(o, "\tu32 st = (a ^ b) %% %uu;\n\tunsigned i;\n\n", ncase);
	tree_put(o, "\tfor (i = 0; i < %uu; i++) {\n\t\tswitch (st) {\n", tree_range(r, 16, 64));
	for (unsigned k = 0; k < ncase; k++) {
		unsigned nstmt = tree_range(r, 1, 3);

		tree_put(o, "\t\tcase %u:\n", k);
		for (unsigned s = 0; s < nstmt; s++)
			tree_stmt(o, r, "\t\t\t", 3);
		if (tree_range(r, 0, 3) == 0) {
			tree_put(o, "\t\t\tst = %uu;\n", tree_range(r, 0, ncase - 1));
		} else {
			tree_put(o, "\t\t\tst = ");
			tree_expr(o, r, 2, 0);
			tree_put(o, " %% %uu;\n", ncase);
		}
		tree_put(o, "\t\t\tbreak;\n");
	}
	tree_put(o, "\t\t}\n\t}\n");
	tree_put(o, "\treturn (((u64)a << 32) | b) ^ ((u64)c << 16) ^ d;\n}\n\n");
}

/* Pages: an array of structs filled, then walked with a switch on a field. */
static void tree_fn_pages(struct tree_out *o, struct tree_rng *r, unsigned fn)
{
	unsigned npage = tree_range(r, 4, 12);

	tree_put(o, "static u64 f%u(u64 seed)\n{\n", fn);
	tree_put(o, "\tstruct kbt_page pg[%u];\n", npage);
	tree_put(o, "\tu64 sum = 0x%016llxull;\n\tunsigned i, j;\n\n", tree_u64(r));
	tree_put(o, "\tfor (i = 0; i < KBT_ARRAY_SIZE(pg); i++) {\n");
	tree_put(o, "\t\tpg[i].flags = kbt_mix64(seed + i * 0x%016llxull);\n", tree_u64(r));
	tree_put(o, "\t\tpg[i].order = (u32)(pg[i].flags >> %u) & 7u;\n", tree_range(r, 0, 60));
	tree_put(o, "\t\tpg[i].refs = (u32)pg[i].flags & 0x%08xu;\n", tree_u32(r));
	tree_put(o, "\t\tfor (j = 0; j < KBT_PAGE_WORDS; j++)\n");
	tree_put(o, "\t\t\tpg[i].data[j] = pg[i].flags ^ (j * 0x%016llxull);\n\t}\n", tree_u64(r));
	tree_put(o, "\tfor (i = 0; i < KBT_ARRAY_SIZE(pg); i++) {\n");
	tree_put(o, "\t\tu32 a = (u32)pg[i].data[i %% KBT_PAGE_WORDS], b = pg[i].refs;\n");
	tree_put(o, "\t\tu32 c = pg[i].order, d = (u32)(sum >> 7);\n\n");
	tree_put(o, "\t\tif (pg[i].flags & 0x%016llxull) {\n", tree_u64(r));
	tree_stmt(o, r, "\t\t\t", 3);
	tree_stmt(o, r, "\t\t\t", 3);
	tree_put(o, "\t\t} else {\n");
	tree_stmt(o, r, "\t\t\t", 3);
	tree_stmt(o, r, "\t\t\t", 3);
	tree_put(o, "\t\t}\n\t\tswitch (pg[i].order) {\n");
	for (unsigned k = 0; k < 8; k++) {
		tree_put(o, "\t\tcase %u:\n", k);
		tree_stmt(o, r, "\t\t\t", 2);
		tree_put(o, "\t\t\tsum += ");
		tree_expr(o, r, 3, 0);
		tree_put(o, ";\n\t\t\tbreak;\n");
	}
	tree_put(o, "\t\t}\n\t\tpg[i].refs = a ^ b;\n");
	tree_put(o, "\t\tsum = (sum << 1) ^ pg[i].refs ^ c ^ d;\n\t}\n\treturn sum;\n}\n\n");
}

/* Small matrix products, which -O2 unrolls and vectorises. */
static void tree_fn_matrix(struct tree_out *o, struct tree_rng *r, unsigned fn)
{
	unsigned dim = tree_range(r, 3, 6);

	tree_put(o, "static u64 f%u(u64 seed)\n{\n", fn);
	tree_put(o, "\tu32 m[%u][%u], n[%u][%u], p[%u][%u];\n", dim, dim, dim, dim, dim, dim);
	tree_put(o, "\tu64 tr = 0;\n\tunsigned i, j, k, round;\n\n");
	tree_put(o, "\tfor (i = 0; i < %uu; i++) {\n\t\tfor (j = 0; j < %uu; j++) {\n", dim, dim);
	tree_put(o, "\t\t\tm[i][j] = (u32)(seed >> ((i * %uu + j) & 31)) * 0x%08xu + i;\n",
		 dim, tree_u32(r) | 1u);
	tree_put(o, "\t\t\tn[i][j] = kbt_rol32((u32)seed ^ 0x%08xu, (i + j * %uu) & 31);\n",
		 tree_u32(r), tree_range(r, 1, 7));
	tree_put(o, "\t\t}\n\t}\n");
	tree_put(o, "\tfor (round = 0; round < %uu; round++) {\n", tree_range(r, 2, 4));
	tree_put(o, "\t\tfor (i = 0; i < %uu; i++) {\n\t\t\tfor (j = 0; j < %uu; j++) {\n", dim, dim);
	tree_put(o, "\t\t\t\tu32 s = 0x%08xu;\n\n", tree_u32(r));
	tree_put(o, "\t\t\t\tfor (k = 0; k < %uu; k++)\n", dim);
	tree_put(o, "\t\t\t\t\ts += m[i][k] * n[k][j];\n");
	tree_put(o, "\t\t\t\tp[i][j] = s ^ 0x%08xu;\n\t\t\t}\n\t\t}\n", tree_u32(r));
	tree_put(o, "\t\tfor (i = 0; i < %uu; i++)\n\t\t\tfor (j = 0; j < %uu; j++)\n", dim, dim);
	tree_put(o, "\t\t\t\tm[i][j] = p[i][j] + (p[j][i] >> %u);\n\t}\n", tree_range(r, 1, 31));
	tree_put(o, "\tfor (i = 0; i < %uu; i++)\n\t\ttr = (tr << 1) ^ m[i][i] ^ n[i][%uu - 1 - i];\n",
		 dim, dim);
	tree_put(o, "\treturn tr;\n}\n\n");
}

/* An insertion sort of generated numbers, then binary searches in them. */
static void tree_fn_sort(struct tree_out *o, struct tree_rng *r, unsigned fn)
{
	unsigned len = tree_range(r, 16, 48);

	tree_put(o, "static u64 f%u(u64 seed)\n{\n", fn);
	tree_put(o, "\tu32 v[%u];\n\tu32 x = (u32)seed | 1u;\n\tu64 h = 0;\n\tunsigned i, j;\n\n", len);
	tree_put(o, "\tfor (i = 0; i < %uu; i++) {\n", len);
	tree_put(o, "\t\tx = x * 0x%08xu + 0x%08xu;\n", (tree_u32(r) & ~3u) | 1u, tree_u32(r) | 1u);
	tree_put(o, "\t\tv[i] = x >> %u;\n\t}\n", tree_range(r, 0, 12));
	tree_put(o, "\tfor (i = 1; i < %uu; i++) {\n\t\tu32 key = v[i];\n\n\t\tj = i;\n", len);
	tree_put(o, "\t\twhile (j > 0 && v[j - 1] > key) {\n\t\t\tv[j] = v[j - 1];\n\t\t\tj--;\n\t\t}\n");
	tree_put(o, "\t\tv[j] = key;\n\t}\n");
	tree_put(o, "\tfor (i = 0; i < %uu; i++) {\n", tree_range(r, 4, 12));
	tree_put(o, "\t\tu32 want = v[(i * %uu) %% %uu] ^ (i & %uu);\n", tree_range(r, 1, 97), len,
		 tree_range(r, 0, 3));
	tree_put(o, "\t\tunsigned lo = 0, hi = %uu;\n\n", len);
	tree_put(o, "\t\twhile (lo < hi) {\n\t\t\tunsigned mid = lo + (hi - lo) / 2;\n\n");
	tree_put(o, "\t\t\tif (v[mid] < want)\n\t\t\t\tlo = mid + 1;\n\t\t\telse\n\t\t\t\thi = mid;\n\t\t}\n");
	tree_put(o, "\t\th = h * 0x%016llxull + lo;\n\t}\n\treturn h;\n}\n\n", tree_u64(r) | 1ull);
}

/* Straight-line mixing: long dependency chains for the scheduler to untangle. */
static void tree_fn_mix(struct tree_out *o, struct tree_rng *r, unsigned fn)
{
	unsigned nstmt = tree_range(r, 20, 40);

	tree_put(o, "static u64 f%u(u64 seed)\n{\n", fn);
	tree_put(o, "\tu32 a = (u32)seed, b = (u32)(seed >> 32);\n");
	tree_put(o, "\tu32 c = 0x%08xu, d = a ^ 0x%08xu;\n\n", tree_u32(r), tree_u32(r));
	for (unsigned s = 0; s < nstmt; s++)
		tree_stmt(o, r, "\t", 3);
	tree_put(o, "\treturn ((u64)(a ^ c) << 32) | (b ^ d);\n}\n\n");
}

/* Inodes linked in a permuted ring, walked a bounded number of steps. */
static void tree_fn_inodes(struct tree_out *o, struct tree_rng *r, unsigned fn)
{
	unsigned n = 1u << tree_range(r, 3, 5);

	tree_put(o, "static u64 f%u(u64 seed)\n{\n", fn);
	tree_put(o, "\tstruct kbt_inode in[%u];\n\tstruct kbt_inode *p;\n", n);
	tree_put(o, "\tu64 bytes = 0;\n\tunsigned i, j, steps;\n\n");
	tree_put(o, "\tfor (i = 0; i < %uu; i++) {\n", n);
	tree_put(o, "\t\tin[i].ino = i * %uu;\n", tree_range(r, 1, 1000));
	tree_put(o, "\t\tin[i].mode = (u32)(seed >> (i & 31)) & 0xfffu;\n");
	tree_put(o, "\t\tin[i].size = kbt_mix64(seed ^ i);\n");
	tree_put(o, "\t\tfor (j = 0; j < KBT_INODE_BLOCKS; j++)\n");
	tree_put(o, "\t\t\tin[i].blocks[j] = (u32)in[i].size + j * 0x%08xu;\n", tree_u32(r));
	/* An odd multiplier mod a power of two is a permutation: every next is valid. */
	tree_put(o, "\t\tin[i].next = &in[(i * %uu + %uu) & %uu];\n\t}\n", tree_u32(r) | 1u,
		 tree_range(r, 0, n - 1), n - 1);
	tree_put(o, "\tfor (p = &in[0], steps = 0; steps < %uu; p = p->next, steps++) {\n",
		 tree_range(r, n, 4 * n));
	tree_put(o, "\t\tu32 a = p->mode, b = p->ino, c = (u32)p->size;\n");
	tree_put(o, "\t\tu32 d = p->blocks[steps %% KBT_INODE_BLOCKS];\n\n");
	tree_put(o, "\t\tswitch ((p->mode >> %u) & 3u) {\n", tree_range(r, 0, 9));
	for (unsigned k = 0; k < 4; k++) {
		tree_put(o, "\t\tcase %u:\n", k);
		tree_stmt(o, r, "\t\t\t", 3);
		tree_stmt(o, r, "\t\t\t", 2);
		tree_put(o, "\t\t\tbreak;\n");
	}
	tree_put(o, "\t\t}\n\t\tif ((a ^ b) & 0x%08xu)\n\t\t\tbytes += ", tree_u32(r));
	tree_expr(o, r, 3, 0);
	tree_put(o, ";\n\t\telse\n\t\t\tbytes ^= (u64)");
	tree_expr(o, r, 3, 0);
	tree_put(o, " << %u;\n", tree_range(r, 1, 31));
	tree_put(o, "\t\tp->blocks[a %% KBT_INODE_BLOCKS] = b ^ c ^ d;\n\t}\n\treturn bytes;\n}\n\n");
}

/* The kinds of function a unit is made of, drawn at random for each. */
static void (*const tree_fns[])(struct tree_out *, struct tree_rng *, unsigned) = {
	tree_fn_machine, tree_fn_pages, tree_fn_matrix, tree_fn_sort, tree_fn_mix, tree_fn_inodes,
};

static void tree_unit_path(char *buf, size_t len, size_t i, const char *ext)
{
	snprintf(buf, len, "%s/file%zu.%s", tree_subdirs[i % TREE_NSUBDIRS], i, ext);
}

static int tree_write_unit(const char *dir, size_t i, char *err)
{
	struct tree_rng r = { (uint64_t)i };
	struct tree_out o;
	char rel[64];
	unsigned nfn;

	tree_unit_path(rel, sizeof(rel), i, "c");
	if (tree_open(&o, dir, rel, err) < 0)
		return -1;
	tree_put(&o, "/* %s: unit %zu of the kbench contest tree (generated). */\n", rel, i);
	tree_put(&o, "#include \"kbt/types.h\"\n#include \"kbt/lib.h\"\n\n");
	nfn = tree_range(&r, 6, 10);
	for (unsigned fn = 0; fn < nfn; fn++)
		tree_fns[tree_range(&r, 0, sizeof(tree_fns) / sizeof(tree_fns[0]) - 1)](&o, &r, fn);
	tree_put(&o, "u64 kbt_unit%zu(u64 seed);\n\n", i);
	tree_put(&o, "u64 kbt_unit%zu(u64 seed)\n{\n\tu64 h = seed ^ 0x%016llxull;\n\n", i, tree_u64(&r));
	for (unsigned fn = 0; fn < nfn; fn++)
		tree_put(&o, "\th = kbt_mix64(h + f%u(h));\n", fn);
	tree_put(&o, "\treturn h;\n}\n");
	return tree_close(&o, err);
}

static int tree_write_main(const char *dir, size_t nunits, char *err)
{
	struct tree_out o;

	if (tree_open(&o, dir, "init/main.c", err) < 0)
		return -1;
	tree_put(&o, "/* init/main.c: calls every unit once, so the link needs them all. */\n");
	tree_put(&o, "#include \"kbt/lib.h\"\n\n");
	for (size_t i = 0; i < nunits; i++)
		tree_put(&o, "u64 kbt_unit%zu(u64 seed);\n", i);
	tree_put(&o, "\nstatic volatile u64 kbt_sink;\n\nint main(void)\n{\n\tu64 h = 1;\n\n");
	for (size_t i = 0; i < nunits; i++)
		tree_put(&o, "\th = kbt_unit%zu(h);\n", i);
	tree_put(&o, "\tkbt_sink = h;\n\treturn 0;\n}\n");
	return tree_close(&o, err);
}

/*
 * The link reads the objects from a file (gcc and clang both take @file)
 * because a command line naming tens of thousands of them would pass the
 * kernel's limit on arguments.
 */
static int tree_write_objs(const char *dir, size_t nunits, char *err)
{
	struct tree_out o;
	char rel[64];

	if (tree_open(&o, dir, "objs.list", err) < 0)
		return -1;
	tree_put(&o, "init/main.o\n");
	for (size_t i = 0; i < nunits; i++) {
		tree_unit_path(rel, sizeof(rel), i, "o");
		tree_put(&o, "%s\n", rel);
	}
	return tree_close(&o, err);
}

/*
 * One explicit rule per object, no pattern rules and no $<, so any make
 * runs it.  Every object depends on both headers, as a kernel's objects do
 * on theirs: make then knows the whole graph, and `make -j` has nothing to
 * get wrong.
 */
static int tree_write_makefile(const char *dir, size_t nunits, char *err)
{
	struct tree_out o;
	char obj[64], src[64];

	if (tree_open(&o, dir, "Makefile", err) < 0)
		return -1;
	tree_put(&o, "# The kbench contest job (generated): %zu units and init/main.c, linked into kbt.\n",
		 nunits);
	tree_put(&o, "CC ?= cc\nCFLAGS ?= -O2\nHDRS = include/kbt/types.h include/kbt/lib.h\n\n");
	tree_put(&o, "OBJS = \\\n\tinit/main.o");
	for (size_t i = 0; i < nunits; i++) {
		tree_unit_path(obj, sizeof(obj), i, "o");
		tree_put(&o, " \\\n\t%s", obj);
	}
	tree_put(&o, "\n\nall: kbt\n\n");
	tree_put(&o, "kbt: $(OBJS) objs.list\n\t$(CC) $(CFLAGS) $(LDFLAGS) -o kbt @objs.list\n\n");
	tree_put(&o, "init/main.o: init/main.c $(HDRS)\n");
	tree_put(&o, "\t$(CC) $(CFLAGS) $(CPPFLAGS) -Iinclude -c -o init/main.o init/main.c\n\n");
	for (size_t i = 0; i < nunits; i++) {
		tree_unit_path(obj, sizeof(obj), i, "o");
		tree_unit_path(src, sizeof(src), i, "c");
		tree_put(&o, "%s: %s $(HDRS)\n\t$(CC) $(CFLAGS) $(CPPFLAGS) -Iinclude -c -o %s %s\n\n",
			 obj, src, obj, src);
	}
	/* Globs, not $(OBJS): rm gets the names from the shell, not one long line. */
	tree_put(&o, "clean:\n\trm -f kbt init/*.o");
	for (size_t d = 0; d < TREE_NSUBDIRS; d++)
		tree_put(&o, " %s/*.o", tree_subdirs[d]);
	tree_put(&o, "\n\n.PHONY: all clean\n");
	return tree_close(&o, err);
}

/* The units for size, or 0 when size is not one tree_make accepts. */
static size_t tree_nunits(double size)
{
	double n;

	if (!(size > 0) || size * TREE_UNITS_PER_SIZE > TREE_MAX_UNITS)
		return 0;
	n = size * TREE_UNITS_PER_SIZE + 0.5;
	return n < 2 ? 2 : (size_t)n;
}

/* 0 if dir can be opened and holds nothing, else -1 with err filled. */
static int tree_check_empty(const char *dir, char *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return tree_fail_errno(err, "cannot open directory", dir, errno);
	while (!found && (e = readdir(d)) != NULL)
		found = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	if (found) {
		errbuf_set(err, "directory '%s' is not empty", dir);
		return -1;
	}
	return 0;
}

size_t tree_nfiles(double size)
{
	size_t n = tree_nunits(size);

	return n ? n + TREE_EXTRA_FILES : 0;
}

int tree_make(const char *dir, double size, char *err)
{
	size_t nunits = tree_nunits(size);
	char path[PATH_MAX];

	if (!(size > 0)) {
		errbuf_set(err, "tree size %g is not a positive number", size);
		return -1;
	}
	if (!nunits) {
		errbuf_set(err, "tree size %g is too large (at most %g)", size,
			   TREE_MAX_UNITS / TREE_UNITS_PER_SIZE);
		return -1;
	}
	if (tree_check_empty(dir, err) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(tree_dirs) / sizeof(tree_dirs[0]); i++) {
		if (tree_path(path, sizeof(path), dir, tree_dirs[i], err) < 0)
			return -1;
		if (mkdir(path, 0777) < 0)
			return tree_fail_errno(err, "cannot create directory", path, errno);
	}
	if (tree_write_text(dir, "include/kbt/types.h", tree_types_h, err) < 0 ||
	    tree_write_text(dir, "include/kbt/lib.h", tree_lib_h, err) < 0)
		return -1;
	for (size_t i = 0; i < nunits; i++)
		if (tree_write_unit(dir, i, err) < 0)
			return -1;
	/* The Makefile last: a tree cut short by an error has none to build. */
	if (tree_write_main(dir, nunits, err) < 0 || tree_write_objs(dir, nunits, err) < 0 ||
	    tree_write_makefile(dir, nunits, err) < 0)
		return -1;
	return 0;
}
