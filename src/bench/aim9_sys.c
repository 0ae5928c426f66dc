/*
 * AIM Suite IX's tests of the system (aim9.c's rows): the break moved by
 * sbrk (page_test, brk_test), setjmp and longjmp, signals caught, processes
 * forked and programs loaded, shell scripts, System V shared memory, and
 * messages through sockets, a FIFO and pipes.  One iteration is what one
 * call of the AIM9 test does, with its counts and sizes, and each checks
 * what it did: the break where it was asked to be, every longjmp landed,
 * every signal caught, every child's exit status, every message's bytes
 * read back.  A comment that starts "AIM9:" marks where kbench does what
 * AIM9 meant rather than what it did on a 64-bit system, or supplies what
 * AIM9 never published; the manual lists them.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "bench/aim9.h"
#include "bench/proc.h"
#include "config.h"
#include "plat/plat.h"

/* ------------------------------------------------------------------ */
/* page_test, brk_test: the break                                      */
/* ------------------------------------------------------------------ */

/* AIM9's sizes: 16 pages of 4 KiB given back, then taken again one at a time. */
#define BRK_PAGE 4096
#define BRK_PAGES 16
/* AIM9's first grow, so that the give-back never reaches memory malloc holds. */
#define BRK_HEADROOM (1024 * 1024)
/* page_test dirties every 128th byte of each page it takes back. */
#define BRK_TOUCH_STRIDE 128

struct brk_param {
	unsigned rounds;	/* give-backs per call, each followed by 16 grows */
	int touch;		/* page_test: write to each page taken */
};

static const struct brk_param brk_page = { 100, 1 };
static const struct brk_param brk_only = { 1000, 0 };

/* What went wrong between two sbrk calls, told only once the break is back. */
struct brk_fault {
	const char *call;	/* NULL: nothing */
	int err;		/* errno of a call that returned (void *)-1, else 0 */
	char *got, *want;	/* a break that was not where it should be */
};

static int brk_bad(struct brk_fault *f, const char *call, char *got, char *want)
{
	f->call = call;
	f->err = got == (char *)-1 ? errno : 0;
	f->got = got;
	f->want = want;
	return -1;
}

/*
 * AIM9: it declared sbrk without a prototype, so its -65536 went as an
 * int, which a 64-bit system received as +4 GiB (the give-back failed
 * unnoticed, or reserved 4 GiB), and it tested results as truncated ints.
 * Here sbrk gets the intptr_t it meant, and each result is compared with
 * (void *)-1 and with the break it must return, so that a round really
 * gives 16 pages back and takes them again one by one.  AIM9 also left
 * the break where it found it, aligned or not, hoping for "~ 1 page" a
 * grow; brk_call aligns it, so that each grow is exactly one new page.
 * The factor counts these 17 calls a round, not the call's set-up.
 */
static int brk_rounds(const struct brk_param *p, char *top, struct brk_fault *f)
{
	char *bottom = top - BRK_PAGE * BRK_PAGES, *got;

	for (unsigned r = 0; r < p->rounds; r++) {
		if ((got = sbrk(-(intptr_t)(BRK_PAGE * BRK_PAGES))) != top)
			return brk_bad(f, "sbrk(-65536)", got, top);
		for (int i = 0; i < BRK_PAGES; i++) {
			volatile char *page;

			if ((got = sbrk(BRK_PAGE)) != bottom + i * BRK_PAGE)
				return brk_bad(f, "sbrk(4096)", got, bottom + i * BRK_PAGE);
			page = got;
			for (int j = 0; p->touch && j < BRK_PAGE; j += BRK_TOUCH_STRIDE)
				page[j] = ' ';
		}
	}
	return 0;
}

/*
 * One call.  malloc moves the same break, so nothing here calls it (nor
 * bench_fail, which may) until the break is back where the call found it.
 */
static enum bench_status brk_call(struct bench_ctx *ctx, const struct brk_param *p)
{
	struct brk_fault f = { 0 };
	char *old = sbrk(0), *now;
	intptr_t pad;

	if (old == (char *)-1)
		return bench_fail(ctx, errno, "sbrk(0)");
	pad = (intptr_t)(-(uintptr_t)old & (BRK_PAGE - 1));
	if (sbrk(BRK_HEADROOM + pad) == (void *)-1)
		return bench_fail(ctx, errno, "sbrk(1 MiB)");
	brk_rounds(p, old + pad + BRK_HEADROOM, &f);
	if (brk(old) != 0)
		return bench_fail(ctx, errno, "brk back to where the call found the break");
	if ((now = sbrk(0)) != old)
		return bench_fail(ctx, 0, "sbrk(0) after brk: the break is at %p, not %p", (void *)now,
				  (void *)old);
	if (f.call && f.err)
		return bench_fail(ctx, f.err, "%s", f.call);
	if (f.call)
		return bench_fail(ctx, 0, "%s returned %p, the break was at %p", f.call, (void *)f.got,
				  (void *)f.want);
	return BENCH_OK;
}

/* The break must move here at all: it cannot under some sanitizers and systems. */
static enum bench_status brk_setup(struct bench_ctx *ctx)
{
	void *old = sbrk(0);

	if (old == (void *)-1)
		return bench_skip(ctx, "sbrk is not available here: %s", strerror(errno));
	if (sbrk(BRK_HEADROOM + BRK_PAGE) == (void *)-1)
		return bench_skip(ctx, "sbrk cannot move the break here: %s", strerror(errno));
	if (brk(old) != 0)
		return bench_fail(ctx, errno, "brk back to where setup found the break");
	return BENCH_OK;
}

static enum bench_status brk_run(struct bench_ctx *ctx, uint64_t n, const struct brk_param *p)
{
	for (uint64_t i = 0; i < n; i++)
		if (brk_call(ctx, p) != BENCH_OK)
			return BENCH_FAIL;
	return BENCH_OK;
}

static enum bench_status page_run(struct bench_ctx *ctx, uint64_t n)
{
	return brk_run(ctx, n, &brk_page);
}

static enum bench_status brk_only_run(struct bench_ctx *ctx, uint64_t n)
{
	return brk_run(ctx, n, &brk_only);
}

/* ------------------------------------------------------------------ */
/* jmp_test                                                            */
/* ------------------------------------------------------------------ */

#define JMP_COUNT 1000
/* AIM9's helper is called with 10 and recurses down to 0: 11 frames. */
#define JMP_DEPTH 10

static jmp_buf jmp_env;
/* Always 1: that jmp_deep could return keeps the compiler from calling it noreturn. */
static volatile int jmp_armed = 1;

/*
 * One frame per level: the volatile local is read after the call returns,
 * so the recursion can be neither inlined nor turned into a loop.
 */
static __attribute__((noinline)) int jmp_deep(int depth)
{
	volatile int frame = depth;

	if (depth <= 0) {
		if (jmp_armed)
			longjmp(jmp_env, 1);
		return 0;
	}
	return jmp_deep(depth - 1) + frame;
}

/* 1 when the longjmp came back to the setjmp, 0 when the calls returned instead. */
static __attribute__((noinline)) int jmp_once(int depth)
{
	if (setjmp(jmp_env) != 0)
		return 1;
	jmp_deep(depth);
	return 0;
}

static enum bench_status jmp_run(struct bench_ctx *ctx, uint64_t n)
{
	int depth = (int)aim9_opaque_long(JMP_DEPTH);

	for (uint64_t i = 0; i < n; i++) {
		unsigned landed = 0;

		for (unsigned k = 0; k < JMP_COUNT; k++)
			landed += (unsigned)jmp_once(depth);
		if (landed != JMP_COUNT)
			return bench_fail(ctx, 0, "longjmp landed %u times of %d", landed, JMP_COUNT);
	}
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* signal_test                                                         */
/* ------------------------------------------------------------------ */

#define SIG_COUNT 1000

/* Written only by the handler, read after the kills. */
static volatile sig_atomic_t sig_caught, sig_other;

/*
 * AIM9: its handler re-installed itself with signal() at every trap, a
 * habit from System V's one-shot handlers; a sigaction handler stays, so
 * it does not here.  It checks the signal is SIGUSR2, as AIM9's did.
 */
static void sig_handler(int sig)
{
	if (sig != SIGUSR2)
		sig_other = 1;
	sig_caught++;
}

struct sig_state {
	struct sigaction sa;	/* the handler's */
	struct sigaction old;	/* what SIGUSR2 did before setup, put back by teardown */
};

static enum bench_status sig_setup(struct bench_ctx *ctx)
{
	struct sig_state *s = calloc(1, sizeof(*s));

	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	s->sa.sa_handler = sig_handler;
	sigemptyset(&s->sa.sa_mask);
	if (plat_sigaction(SIGUSR2, &s->sa, &s->old) != 0) {
		int e = errno;

		free(s);
		return bench_fail(ctx, e, "sigaction(SIGUSR2)");
	}
	ctx->priv = s;
	return BENCH_OK;
}

static enum bench_status sig_run(struct bench_ctx *ctx, uint64_t n)
{
	struct sig_state *s = ctx->priv;

	for (uint64_t i = 0; i < n; i++) {
		pid_t self = getpid();

		sig_caught = 0;
		sig_other = 0;
		/* As AIM9 installed its handler at the start of every call. */
		if (plat_sigaction(SIGUSR2, &s->sa, NULL) != 0)
			return bench_fail(ctx, errno, "sigaction(SIGUSR2)");
		for (int k = 0; k < SIG_COUNT; k++)
			if (plat_kill(self, SIGUSR2) != 0)
				return bench_fail(ctx, errno, "kill(SIGUSR2)");
		/* A signal sent to oneself and not blocked is caught before kill() returns. */
		if (sig_caught != SIG_COUNT || sig_other)
			return bench_fail(ctx, 0, "sent %d SIGUSR2, the handler caught %d%s", SIG_COUNT,
					  (int)sig_caught, sig_other ? ", some of another signal" : "");
	}
	return BENCH_OK;
}

static void sig_teardown(struct bench_ctx *ctx)
{
	struct sig_state *s = ctx->priv;

	sigaction(SIGUSR2, &s->old, NULL);
	free(s);
	ctx->priv = NULL;
}

/* ------------------------------------------------------------------ */
/* Children: fork_test, exec_test, shell_rtns_1..3                     */
/* ------------------------------------------------------------------ */

#define FORK_COUNT 100
#define EXEC_COUNT 5

/*
 * Children are waited for by pid (proc_wait): AIM9 called wait() until it
 * failed with ECHILD, one wait more a child.
 */

/*
 * AIM9 printed a child's bad status and counted it as done; here it fails
 * the run.  detail ("" or ": ...") says more, e.g. what a script printed;
 * without one, 127 is the status of a child whose execve failed.
 */
static enum bench_status child_status(struct bench_ctx *ctx, int status, int want,
				      const char *what, const char *detail)
{
	if (!WIFEXITED(status))
		return bench_fail(ctx, 0, "%s child killed by signal %d%s", what, WTERMSIG(status),
				  detail);
	if (WEXITSTATUS(status) != want)
		return bench_fail(ctx, 0, "%s child exited %d, expected %d%s%s", what,
				  WEXITSTATUS(status), want,
				  WEXITSTATUS(status) == 127 && !detail[0] ? " (execve failed)" : "",
				  detail);
	return BENCH_OK;
}

/* AIM9's child called exit(); _exit here, so it flushes none of its parent's stdio. */
static enum bench_status fork_run(struct bench_ctx *ctx, uint64_t n)
{
	return proc_forks(ctx, n * FORK_COUNT);
}

/*
 * AIM9: it loaded "./true", a program of its own whose source is not
 * public; kbench-tiny does as little, and exits with a status of its own
 * that the parent checks, so a failed exec cannot pass for a fast one.
 */
static enum bench_status exec_run(struct bench_ctx *ctx, uint64_t n)
{
	struct proc_tiny *s = ctx->priv;
	char *const argv[] = { s->path, NULL };

	return proc_spawn(ctx, n * EXEC_COUNT, argv, "exec");
}

/*
 * AIM9: aim_1.sh, aim_2.sh and aim_3.sh, its "customizable" scripts, are
 * not public.  These are kbench's own, one of each kind a shell spends its
 * time on: builtins in loops, small programs in pipelines, a here-document
 * and variables.  Each checks its own answers and prints nothing unless
 * one is wrong, when it says which and exits 1.  $1 is the private
 * directory.
 */
struct shell_script {
	const char *file;		/* its name in ctx->tmpdir */
	const char *data;		/* a file it writes there, or NULL */
	const char *const *needs;	/* programs it runs besides /bin/sh */
	const char *text;		/* the script, written to file by setup */
};

static const char *const shell_needs_none[] = { NULL };
static const char *const shell_needs_utils[] = { "sort", "grep", "wc", NULL };

static const struct shell_script shell_1 = {
	.file = "aim9_1.sh", .needs = shell_needs_none,
	.text = "# kbench's shell_rtns_1: builtins only, no program started.\n"
		"i=0 sum=0\n"
		"while [ \"$i\" -lt 200 ]; do\n"
		"\tsum=$((sum + i * i))\n"
		"\ti=$((i + 1))\n"
		"done\n"
		"[ \"$sum\" -eq 2646700 ] || { echo \"sum of squares $sum, not 2646700\"; exit 1; }\n"
		"s=\n"
		"for w in alpha beta gamma delta epsilon; do\n"
		"\tcase $w in\n"
		"\t*a) s=\"$s${w%a},\" ;;\n"
		"\t*) s=\"$s$w,\" ;;\n"
		"\tesac\n"
		"done\n"
		"[ \"$s\" = alph,bet,gamm,delt,epsilon, ] || { echo \"words '$s'\"; exit 1; }\n"
		"IFS=,\n"
		"set -- $s\n"
		"IFS=' '\n"
		"[ $# -eq 5 ] && [ \"$3\" = gamm ] || { echo \"$# fields, the third '$3'\"; exit 1; }\n"
		"exit 0\n",
};

static const struct shell_script shell_2 = {
	.file = "aim9_2.sh", .data = "aim9_2.words", .needs = shell_needs_utils,
	.text = "# kbench's shell_rtns_2: a file written, then sorted, searched and counted.\n"
		"f=\"$1/aim9_2.words\"\n"
		"for w in pear fig apple plum kiwi date lime pear fig apple quince plum; do\n"
		"\techo \"$w\"\n"
		"done > \"$f\"\n"
		"n=$(sort -u \"$f\" | wc -l)\n"
		"[ $n -eq 8 ] || { echo \"$n different words, not 8\"; exit 1; }\n"
		"n=$(grep -c '^p' \"$f\")\n"
		"[ $n -eq 4 ] || { echo \"$n words starting with p, not 4\"; exit 1; }\n"
		"n=$(sort \"$f\" | grep -n '^kiwi$')\n"
		"[ \"$n\" = 6:kiwi ] || { echo \"kiwi sorted at '$n', not 6:kiwi\"; exit 1; }\n"
		"n=$(sort -r \"$f\" | grep -v '^[a-f]' | wc -l)\n"
		"[ $n -eq 7 ] || { echo \"$n words after f, not 7\"; exit 1; }\n"
		"exit 0\n",
};

static const struct shell_script shell_3 = {
	.file = "aim9_3.sh", .needs = shell_needs_none,
	.text = "# kbench's shell_rtns_3: a here-document read line by line, and variables.\n"
		"count=0 total=0 names=\n"
		"while read -r name qty price; do\n"
		"\tcount=$((count + 1))\n"
		"\ttotal=$((total + qty * price))\n"
		"\tnames=\"$names$name \"\n"
		"done <<EOF\n"
		"bolt 12 3\n"
		"nut 40 1\n"
		"washer 25 2\n"
		"screw 7 11\n"
		"EOF\n"
		"[ $count -eq 4 ] && [ $total -eq 203 ] ||\n"
		"\t{ echo \"$count lines, total $total, not 4 and 203\"; exit 1; }\n"
		"[ \"$names\" = 'bolt nut washer screw ' ] || { echo \"names '$names'\"; exit 1; }\n"
		"path=/usr/local/share/kbench/aim9.tar.gz\n"
		"base=${path##*/} dir=${path%/*}\n"
		"ext=${base#*.} stem=${base%%.*}\n"
		"[ \"$base $dir $ext $stem ${#path}\" = "
		"'aim9.tar.gz /usr/local/share/kbench tar.gz aim9 35' ] ||\n"
		"\t{ echo \"expansions '$base $dir $ext $stem ${#path}'\"; exit 1; }\n"
		"exit 0\n",
};

struct shell_state {
	const struct shell_script *script;	/* the test's */
	char path[PATH_MAX];		/* the script */
	char data[PATH_MAX];		/* the file it writes, "" for none */
	char out_path[PATH_MAX];	/* where its output goes */
	char dir[PATH_MAX];		/* its $1: ctx->tmpdir */
	char env_tmpdir[PATH_MAX + 8];	/* TMPDIR=ctx->tmpdir, for a here-document's file */
	int out;			/* out_path, the script's stdout and stderr; -1 */
};

/* The scripts find their programs here; sort's order is the C locale's. */
static char shell_env_path[] = "PATH=/usr/bin:/bin";
static char shell_env_locale[] = "LC_ALL=C";

static void shell_teardown(struct bench_ctx *ctx)
{
	struct shell_state *s = ctx->priv;

	if (s->out >= 0)
		close(s->out);
	unlink(s->out_path);
	unlink(s->path);
	if (s->data[0])
		unlink(s->data);
	free(s);
	ctx->priv = NULL;
}

/* The programs the script runs, each in /usr/bin or /bin; NULL, or the first missing. */
static const char *shell_missing(const char *const *needs)
{
	char path[64];

	for (; *needs; needs++) {
		snprintf(path, sizeof(path), "/usr/bin/%s", *needs);
		if (access(path, X_OK) == 0)
			continue;
		snprintf(path, sizeof(path), "/bin/%s", *needs);
		if (access(path, X_OK) != 0)
			return *needs;
	}
	return NULL;
}

static enum bench_status shell_write_script(struct bench_ctx *ctx, struct shell_state *s)
{
	size_t len = strlen(s->script->text), done = 0;
	int fd = plat_open(s->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		return bench_fail(ctx, errno, "open of %s", s->path);
	/* A short write is written on: the next one fails with the reason (ENOSPC, EFBIG). */
	while (done < len) {
		ssize_t w = plat_write(fd, s->script->text + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = w < 0 ? errno : EIO;

			close(fd);
			return bench_fail(ctx, e, "write of %zu bytes to %s, %zu written", len, s->path, done);
		}
		done += (size_t)w;
	}
	close(fd);
	return BENCH_OK;
}

static enum bench_status shell_prepare(struct bench_ctx *ctx, struct shell_state *s)
{
	const struct shell_script *sc = s->script;
	const char *missing = shell_missing(sc->needs);

	if (access("/bin/sh", X_OK) != 0)
		return bench_skip(ctx, "no /bin/sh");
	if (missing)
		return bench_skip(ctx, "the script runs %s, found in neither /usr/bin nor /bin", missing);
	if (snprintf(s->path, sizeof(s->path), "%s/%s", ctx->tmpdir, sc->file) >= (int)sizeof(s->path) ||
	    snprintf(s->out_path, sizeof(s->out_path), "%s/%s.out", ctx->tmpdir, sc->file) >=
		    (int)sizeof(s->out_path) ||
	    snprintf(s->dir, sizeof(s->dir), "%s", ctx->tmpdir) >= (int)sizeof(s->dir))
		return bench_fail(ctx, ENAMETOOLONG, "the private directory '%s'", ctx->tmpdir);
	if (sc->data)
		snprintf(s->data, sizeof(s->data), "%s/%s", ctx->tmpdir, sc->data);
	snprintf(s->env_tmpdir, sizeof(s->env_tmpdir), "TMPDIR=%s", ctx->tmpdir);
	if (shell_write_script(ctx, s) != BENCH_OK)
		return BENCH_FAIL;
	s->out = plat_open(s->out_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (s->out < 0)
		return bench_fail(ctx, errno, "open of %s", s->out_path);
	return BENCH_OK;
}

static enum bench_status shell_setup(struct bench_ctx *ctx, const struct shell_script *sc)
{
	struct shell_state *s = calloc(1, sizeof(*s));
	enum bench_status st;

	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	s->script = sc;
	s->out = -1;
	ctx->priv = s;
	st = shell_prepare(ctx, s);
	if (st != BENCH_OK)
		shell_teardown(ctx);
	return st;
}

static enum bench_status shell_1_setup(struct bench_ctx *ctx)
{
	return shell_setup(ctx, &shell_1);
}

static enum bench_status shell_2_setup(struct bench_ctx *ctx)
{
	return shell_setup(ctx, &shell_2);
}

static enum bench_status shell_3_setup(struct bench_ctx *ctx)
{
	return shell_setup(ctx, &shell_3);
}

/*
 * The script must have exited 0 and printed nothing: what it printed is
 * its complaint (or a shell's or a program's), quoted in the failure.
 */
static enum bench_status shell_check(struct bench_ctx *ctx, struct shell_state *s, int status)
{
	char said[160] = "";
	struct stat st;
	ssize_t got;

	if (plat_fstat(s->out, &st) != 0)
		return bench_fail(ctx, errno, "fstat of %s", s->out_path);
	if (st.st_size == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return BENCH_OK;
	got = pread(s->out, said + 2, sizeof(said) - 3, 0);
	if (got > 0) {
		said[0] = ':';
		said[1] = ' ';
		said[2 + got] = '\0';
		said[strcspn(said, "\n")] = '\0';
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return bench_fail(ctx, 0, "/bin/sh %s exited 0 but printed%s", s->script->file, said);
	return child_status(ctx, status, 0, s->script->file, said);
}

/*
 * AIM9: its child called system("aim_N.sh"), a second fork and a
 * /bin/sh -c that then found the script on $PATH, and its parent never
 * saw the script's status; here the child runs /bin/sh on the script,
 * whose status and output the parent checks.
 */
static enum bench_status shell_run(struct bench_ctx *ctx, uint64_t n)
{
	struct shell_state *s = ctx->priv;
	char sh[] = "/bin/sh";
	char *const argv[] = { sh, s->path, s->dir, NULL };
	char *const envp[] = { shell_env_path, shell_env_locale, s->env_tmpdir, NULL };

	for (uint64_t i = 0; i < n; i++) {
		pid_t pid = plat_fork();
		int status;

		if (pid < 0)
			return bench_fail(ctx, errno, "fork");
		if (pid == 0) {
			if (dup2(s->out, STDOUT_FILENO) < 0 || dup2(s->out, STDERR_FILENO) < 0)
				_exit(126);
			plat_execve(sh, argv, envp);
			_exit(127);
		}
		if (proc_wait(ctx, pid, &status) != BENCH_OK || shell_check(ctx, s, status) != BENCH_OK)
			return BENCH_FAIL;
	}
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* Messages: the sizes and bytes shared_memory and the channels send   */
/* ------------------------------------------------------------------ */

/* AIM9's message sizes, cycled: 31 of 1 to 2048 bytes, 10176 in all. */
static const unsigned short msg_sizes[] = {
	1, 3, 5, 7, 16, 32, 64, 512, 1024, 2048,
	1, 3, 5, 7, 16, 32, 64, 512, 1024, 2048,
	32, 32, 32, 32, 32, 32,
	512, 512, 512, 512, 512,
};
#define MSG_NSIZES (sizeof(msg_sizes) / sizeof(msg_sizes[0]))
/* AIM9's MAXBLK: the largest message, and the shared memory segment. */
#define MSG_MAX 2048
/* Offsets into the pattern a message starts at, so that consecutive ones differ. */
#define MSG_SHIFTS 251

/* AIM9 sent an uninitialised buffer; here bytes that show a lost or stale message. */
static unsigned char msg_pattern[MSG_MAX + MSG_SHIFTS];

/*
 * AIM9: one cursor into the sizes for all its message tests, never reset,
 * so a test's sizes depended on what ran before it; here each instance
 * has its own, which goes on from call to call as AIM9's did.
 */
struct msg_cursor {
	unsigned size;		/* the next entry of msg_sizes */
	unsigned shift;		/* the next message's offset into msg_pattern */
};

static void msg_fill_pattern(void)
{
	uint32_t x = 2463534242u;

	for (size_t i = 0; i < sizeof(msg_pattern); i++) {
		x = x * 1103515245u + 12345u;
		msg_pattern[i] = (unsigned char)(x >> 24);
	}
}

/* The next message: its size, and its bytes in *bytes. */
static size_t msg_next(struct msg_cursor *c, const unsigned char **bytes)
{
	size_t size = msg_sizes[c->size];

	c->size = (c->size + 1) % MSG_NSIZES;
	*bytes = msg_pattern + c->shift;
	c->shift = (c->shift + 1) % MSG_SHIFTS;
	return size;
}

/* ------------------------------------------------------------------ */
/* shared_memory                                                       */
/* ------------------------------------------------------------------ */

#define SHM_COPIES 100

/* semctl's fourth argument, which the caller defines; named apart from the BSDs' semun. */
union shm_semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

struct shm_state {
	int shmid, semid;		/* -1 when not made */
	void *addr;			/* the segment attached, or NULL */
	struct msg_cursor cur;		/* where the copies are in the message sizes */
	unsigned char back[MSG_MAX];	/* what was copied out */
};

/* Keep the first of several failures, which may have caused the others. */
static void shm_first(const char **failed, const char *call, int *err)
{
	if (!*failed) {
		*failed = call;
		*err = errno;
	}
}

/*
 * Remove whatever of the call's objects exist, every one even when one
 * fails, so that none outlives the instance: the first call that failed,
 * with its errno in *err, or NULL.
 */
static const char *shm_clear(struct shm_state *s, int *err)
{
	const char *failed = NULL;

	if (s->addr && shmdt(s->addr) != 0)
		shm_first(&failed, "shmdt", err);
	if (s->shmid >= 0 && shmctl(s->shmid, IPC_RMID, NULL) != 0)
		shm_first(&failed, "shmctl(IPC_RMID)", err);
	if (s->semid >= 0 && semctl(s->semid, 0, IPC_RMID) != 0)
		shm_first(&failed, "semctl(IPC_RMID)", err);
	s->addr = NULL;
	s->shmid = s->semid = -1;
	return failed;
}

static enum bench_status shm_semop(struct bench_ctx *ctx, int semid, short op)
{
	struct sembuf b = { .sem_num = 0, .sem_op = op, .sem_flg = 0 };

	if (semop(semid, &b, 1) != 0)
		return bench_fail(ctx, errno, "semop(%+d)", op);
	return BENCH_OK;
}

/* 100 copies in and out of the segment, each under the semaphore, each checked. */
static enum bench_status shm_copies(struct bench_ctx *ctx, struct shm_state *s)
{
	for (int m = 0; m < SHM_COPIES; m++) {
		const unsigned char *bytes;
		size_t size = msg_next(&s->cur, &bytes);

		if (shm_semop(ctx, s->semid, -1) != BENCH_OK)
			return BENCH_FAIL;
		memcpy(s->addr, bytes, size);
		if (shm_semop(ctx, s->semid, 1) != BENCH_OK || shm_semop(ctx, s->semid, -1) != BENCH_OK)
			return BENCH_FAIL;
		memcpy(s->back, s->addr, size);
		if (shm_semop(ctx, s->semid, 1) != BENCH_OK)
			return BENCH_FAIL;
		if (memcmp(s->back, bytes, size) != 0)
			return bench_fail(ctx, 0, "copy %d of %zu bytes came back from shared memory "
					  "different", m + 1, size);
	}
	return BENCH_OK;
}

/*
 * One call makes its segment and semaphore and removes them, as AIM9's
 * did.  AIM9: it keyed both by its pid, which two copies of a test would
 * share; IPC_PRIVATE here, so each call's objects are its own.
 */
static enum bench_status shm_call(struct bench_ctx *ctx, struct shm_state *s)
{
	union shm_semun one = { .val = 1 };
	void *addr;

	s->shmid = shmget(IPC_PRIVATE, MSG_MAX, IPC_CREAT | 0600);
	if (s->shmid < 0)
		return bench_fail(ctx, errno, "shmget");
	s->semid = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
	if (s->semid < 0)
		return bench_fail(ctx, errno, "semget");
	addr = shmat(s->shmid, NULL, 0);
	if (addr == (void *)-1)
		return bench_fail(ctx, errno, "shmat");
	s->addr = addr;
	if (semctl(s->semid, 0, SETVAL, one) != 0)
		return bench_fail(ctx, errno, "semctl(SETVAL)");
	return shm_copies(ctx, s);
}

static enum bench_status shm_run(struct bench_ctx *ctx, uint64_t n)
{
	struct shm_state *s = ctx->priv;

	for (uint64_t i = 0; i < n; i++) {
		enum bench_status st = shm_call(ctx, s);
		int e = 0;
		const char *failed = shm_clear(s, &e);

		if (st == BENCH_OK && failed)
			st = bench_fail(ctx, e, "%s", failed);
		if (st != BENCH_OK)
			return st;
	}
	return BENCH_OK;
}

static void shm_teardown(struct bench_ctx *ctx)
{
	int e;

	shm_clear(ctx->priv, &e);
	free(ctx->priv);
	ctx->priv = NULL;
}

/* System V IPC must exist here: a kernel or a sandbox can leave it out. */
static enum bench_status shm_setup(struct bench_ctx *ctx)
{
	struct shm_state *s = calloc(1, sizeof(*s));
	enum bench_status st = BENCH_OK;
	int e;

	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	msg_fill_pattern();
	s->semid = -1;
	ctx->priv = s;
	if ((s->shmid = shmget(IPC_PRIVATE, MSG_MAX, IPC_CREAT | 0600)) < 0)
		st = bench_skip(ctx, "System V shared memory is not available: shmget: %s",
				strerror(errno));
	else if ((s->semid = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600)) < 0)
		st = bench_skip(ctx, "System V semaphores are not available: semget: %s",
				strerror(errno));
	if (shm_clear(s, &e) && st == BENCH_OK)
		st = bench_fail(ctx, e, "removing the System V objects setup made");
	if (st != BENCH_OK)
		shm_teardown(ctx);
	return st;
}

/* ------------------------------------------------------------------ */
/* tcp_test, udp_test, fifo_test, stream_pipe, dgram_pipe, pipe_cpy    */
/* ------------------------------------------------------------------ */

struct msg_state;

/*
 * A channel.  AIM9 sent each message and read it back in the same
 * process, with no peer, so one call measures both ends' system calls.
 */
struct msg_kind {
	const char *what;	/* the channel, for messages: "pipe", "TCP connection" */
	/*
	 * Messages a call sends: the row's factor.  AIM9: its loop
	 * (while (--loops > 0)) sent one fewer than the factor counted,
	 * 89 and 99; here as many as counted.
	 */
	unsigned count;
	int dgram;		/* a write is one datagram: read whole, or it is lost */
	/* Open fd[0] to read, fd[1] to write and any other in fd[2]: 0, or -1 with ctx->err. */
	int (*open)(struct bench_ctx *ctx, struct msg_state *s);
};

struct msg_state {
	const struct msg_kind *kind;	/* the test's channel */
	struct msg_cursor cur;		/* where the messages are in the sizes */
	int fd[3];			/* the call's descriptors, -1 when closed */
	char fifo[PATH_MAX];		/* fifo_test's FIFO, "" for the others */
	unsigned char back[MSG_MAX];	/* what was read */
};

static int msg_fail(struct bench_ctx *ctx, const char *what)
{
	bench_fail(ctx, errno, "%s", what);
	return -1;
}

/* A socket in *fd bound to 127.0.0.1 and an ephemeral port, read back into addr. */
static int msg_loopback(struct bench_ctx *ctx, int type, struct sockaddr_in *addr, int *fd)
{
	socklen_t len = sizeof(*addr);

	*fd = plat_socket(AF_INET, type, 0);
	if (*fd < 0)
		return msg_fail(ctx, type == SOCK_STREAM ? "socket(AF_INET, SOCK_STREAM)"
							 : "socket(AF_INET, SOCK_DGRAM)");
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (plat_bind(*fd, (struct sockaddr *)addr, sizeof(*addr)) < 0)
		return msg_fail(ctx, "bind to 127.0.0.1");
	if (getsockname(*fd, (struct sockaddr *)addr, &len) < 0)
		return msg_fail(ctx, "getsockname");
	return 0;
}

/*
 * AIM9: it bound to the address gethostbyname() gave for the host's own
 * name; loopback here, so that no resolver or network device takes part.
 * It set TCP_NODELAY on the listening socket for the accepted one to
 * inherit; here on the accepted one, which writes, the effect it meant.
 */
static int msg_tcp_open(struct bench_ctx *ctx, struct msg_state *s)
{
	struct sockaddr_in addr;
	int one = 1;

	if (msg_loopback(ctx, SOCK_STREAM, &addr, &s->fd[2]) < 0)
		return -1;
	if (plat_listen(s->fd[2], 5) < 0)
		return msg_fail(ctx, "listen");
	s->fd[0] = plat_socket(AF_INET, SOCK_STREAM, 0);
	if (s->fd[0] < 0)
		return msg_fail(ctx, "socket(AF_INET, SOCK_STREAM)");
	if (plat_connect(s->fd[0], (struct sockaddr *)&addr, sizeof(addr)) < 0)
		return msg_fail(ctx, "connect to 127.0.0.1");
	while ((s->fd[1] = plat_accept(s->fd[2], NULL, NULL)) < 0 && errno == EINTR)
		;
	if (s->fd[1] < 0)
		return msg_fail(ctx, "accept");
	if (plat_setsockopt(s->fd[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)
		return msg_fail(ctx, "setsockopt(TCP_NODELAY)");
	return 0;
}

static int msg_udp_open(struct bench_ctx *ctx, struct msg_state *s)
{
	struct sockaddr_in to, from;

	if (msg_loopback(ctx, SOCK_DGRAM, &to, &s->fd[0]) < 0 ||
	    msg_loopback(ctx, SOCK_DGRAM, &from, &s->fd[1]) < 0)
		return -1;
	if (plat_connect(s->fd[1], (struct sockaddr *)&to, sizeof(to)) < 0)
		return msg_fail(ctx, "connect of a UDP socket to 127.0.0.1");
	return 0;
}

/*
 * AIM9: fifo_test's source is not public.  kbench's: a FIFO made in the
 * private directory, both ends opened, the messages, both closed and the
 * FIFO unlinked, every call.  The reading end is opened first and without
 * waiting for a writer, then the writing end finds it, so neither open
 * blocks (O_RDWR on a FIFO is undefined in POSIX); the reads then block
 * as the other channels' do.
 */
static int msg_fifo_open(struct bench_ctx *ctx, struct msg_state *s)
{
	if (mkfifo(s->fifo, 0600) < 0)
		return msg_fail(ctx, "mkfifo");
	s->fd[0] = plat_open(s->fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
	if (s->fd[0] < 0)
		return msg_fail(ctx, "open of the FIFO for reading");
	s->fd[1] = plat_open(s->fifo, O_WRONLY | O_CLOEXEC, 0);
	if (s->fd[1] < 0)
		return msg_fail(ctx, "open of the FIFO for writing");
	if (fcntl(s->fd[0], F_SETFL, 0) < 0)
		return msg_fail(ctx, "fcntl(F_SETFL) of the FIFO's reading end");
	return 0;
}

static int msg_socketpair_open(struct bench_ctx *ctx, struct msg_state *s, int type,
			       const char *what)
{
	int fds[2];

	if (plat_socketpair(AF_UNIX, type, 0, fds) < 0)
		return msg_fail(ctx, what);
	s->fd[0] = fds[0];
	s->fd[1] = fds[1];
	return 0;
}

static int msg_stream_open(struct bench_ctx *ctx, struct msg_state *s)
{
	return msg_socketpair_open(ctx, s, SOCK_STREAM, "socketpair(AF_UNIX, SOCK_STREAM)");
}

static int msg_dgram_open(struct bench_ctx *ctx, struct msg_state *s)
{
	return msg_socketpair_open(ctx, s, SOCK_DGRAM, "socketpair(AF_UNIX, SOCK_DGRAM)");
}

static int msg_pipe_open(struct bench_ctx *ctx, struct msg_state *s)
{
	int fds[2];

	if (plat_pipe(fds) < 0)
		return msg_fail(ctx, "pipe");
	s->fd[0] = fds[0];
	s->fd[1] = fds[1];
	return 0;
}

static const struct msg_kind msg_tcp = {
	.what = "TCP connection", .count = 90, .open = msg_tcp_open,
};
static const struct msg_kind msg_udp = {
	.what = "UDP socket", .count = 100, .dgram = 1, .open = msg_udp_open,
};
static const struct msg_kind msg_fifo = {
	.what = "FIFO", .count = 100, .open = msg_fifo_open,
};
static const struct msg_kind msg_stream = {
	.what = "AF_UNIX stream socket", .count = 100, .open = msg_stream_open,
};
static const struct msg_kind msg_dgram = {
	.what = "AF_UNIX datagram socket", .count = 100, .dgram = 1, .open = msg_dgram_open,
};
static const struct msg_kind msg_pipe = {
	.what = "pipe", .count = 100, .open = msg_pipe_open,
};

/*
 * All of a message written, going on after a partial write as AIM9's
 * writen() did; a datagram goes whole or not at all, since its rest would
 * be a datagram of its own.
 */
static enum bench_status msg_write(struct bench_ctx *ctx, const struct msg_kind *k, int fd,
				   const unsigned char *bytes, size_t size)
{
	size_t done = 0;

	while (done < size) {
		ssize_t w = plat_write(fd, bytes + done, size - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return bench_fail(ctx, errno, "write of %zu bytes to the %s", size, k->what);
		if (w == 0 || (k->dgram && (size_t)w != size))
			return bench_fail(ctx, 0, "write of %zu bytes to the %s wrote %zd", size - done,
					  k->what, w);
		done += (size_t)w;
	}
	return BENCH_OK;
}

/* All of a message read, as AIM9's readn() did; a datagram whole. */
static enum bench_status msg_read(struct bench_ctx *ctx, const struct msg_kind *k, int fd,
				  unsigned char *buf, size_t size)
{
	size_t done = 0;

	while (done < size) {
		ssize_t r = plat_read(fd, buf + done, size - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return bench_fail(ctx, errno, "read of %zu bytes from the %s", size, k->what);
		if (r == 0)
			return bench_fail(ctx, 0, "read from the %s: end of file after %zu of %zu bytes",
					  k->what, done, size);
		if (k->dgram && (size_t)r != size)
			return bench_fail(ctx, 0, "read of a %zu-byte datagram from the %s returned %zd",
					  size, k->what, r);
		done += (size_t)r;
	}
	return BENCH_OK;
}

/* The call's messages, each written, read back in the same process and compared. */
static enum bench_status msg_send(struct bench_ctx *ctx, struct msg_state *s)
{
	const struct msg_kind *k = s->kind;

	for (unsigned m = 0; m < k->count; m++) {
		const unsigned char *bytes;
		size_t size = msg_next(&s->cur, &bytes);

		if (msg_write(ctx, k, s->fd[1], bytes, size) != BENCH_OK ||
		    msg_read(ctx, k, s->fd[0], s->back, size) != BENCH_OK)
			return BENCH_FAIL;
		if (memcmp(s->back, bytes, size) != 0)
			return bench_fail(ctx, 0, "message %u of %zu bytes came back from the %s different",
					  m + 1, size, k->what);
	}
	return BENCH_OK;
}

/* AIM9's order: the reading end, the writing end, then the listener. */
static void msg_close(struct msg_state *s)
{
	for (int i = 0; i < 3; i++) {
		if (s->fd[i] >= 0)
			close(s->fd[i]);
		s->fd[i] = -1;
	}
}

/* One iteration is one call: the channel opened, its messages, the channel gone. */
static enum bench_status msg_run(struct bench_ctx *ctx, uint64_t n)
{
	struct msg_state *s = ctx->priv;

	for (uint64_t i = 0; i < n; i++) {
		enum bench_status st = s->kind->open(ctx, s) == 0 ? msg_send(ctx, s) : BENCH_FAIL;

		msg_close(s);
		if (st == BENCH_OK && s->fifo[0] && plat_unlink(s->fifo) != 0)
			st = bench_fail(ctx, errno, "unlink of the FIFO");
		if (st != BENCH_OK)
			return st;
	}
	return BENCH_OK;
}

static void msg_teardown(struct bench_ctx *ctx)
{
	struct msg_state *s = ctx->priv;

	msg_close(s);
	if (s->fifo[0])
		unlink(s->fifo);
	free(s);
	ctx->priv = NULL;
}

static enum bench_status msg_setup(struct bench_ctx *ctx, const struct msg_kind *k)
{
	struct msg_state *s = calloc(1, sizeof(*s));

	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	msg_fill_pattern();
	s->kind = k;
	s->fd[0] = s->fd[1] = s->fd[2] = -1;
	if (k == &msg_fifo &&
	    snprintf(s->fifo, sizeof(s->fifo), "%s/aim9.fifo", ctx->tmpdir) >= (int)sizeof(s->fifo)) {
		free(s);
		return bench_fail(ctx, ENAMETOOLONG, "the private directory '%s'", ctx->tmpdir);
	}
	ctx->priv = s;
	return BENCH_OK;
}

static enum bench_status msg_tcp_setup(struct bench_ctx *ctx)
{
	return msg_setup(ctx, &msg_tcp);
}

static enum bench_status msg_udp_setup(struct bench_ctx *ctx)
{
	return msg_setup(ctx, &msg_udp);
}

static enum bench_status msg_fifo_setup(struct bench_ctx *ctx)
{
	return msg_setup(ctx, &msg_fifo);
}

static enum bench_status msg_stream_setup(struct bench_ctx *ctx)
{
	return msg_setup(ctx, &msg_stream);
}

static enum bench_status msg_dgram_setup(struct bench_ctx *ctx)
{
	return msg_setup(ctx, &msg_dgram);
}

static enum bench_status msg_pipe_setup(struct bench_ctx *ctx)
{
	return msg_setup(ctx, &msg_pipe);
}

/* ------------------------------------------------------------------ */
/* The tests, as aim9.c's rows name them                               */
/* ------------------------------------------------------------------ */

const struct aim9_test aim9_page_test = { .setup = brk_setup, .run = page_run };
const struct aim9_test aim9_brk_test = { .setup = brk_setup, .run = brk_only_run };
const struct aim9_test aim9_jmp_test = { .run = jmp_run };
const struct aim9_test aim9_signal_test = { .setup = sig_setup, .run = sig_run,
					    .teardown = sig_teardown };
const struct aim9_test aim9_exec_test = { .setup = proc_tiny_setup, .run = exec_run,
					  .teardown = proc_tiny_teardown };
const struct aim9_test aim9_fork_test = { .run = fork_run };
const struct aim9_test aim9_shell_rtns_1 = { .setup = shell_1_setup, .run = shell_run,
					     .teardown = shell_teardown };
const struct aim9_test aim9_shell_rtns_2 = { .setup = shell_2_setup, .run = shell_run,
					     .teardown = shell_teardown };
const struct aim9_test aim9_shell_rtns_3 = { .setup = shell_3_setup, .run = shell_run,
					     .teardown = shell_teardown };
const struct aim9_test aim9_shared_memory = { .setup = shm_setup, .run = shm_run,
					      .teardown = shm_teardown };
const struct aim9_test aim9_tcp_test = { .setup = msg_tcp_setup, .run = msg_run,
					 .teardown = msg_teardown };
const struct aim9_test aim9_udp_test = { .setup = msg_udp_setup, .run = msg_run,
					 .teardown = msg_teardown };
const struct aim9_test aim9_fifo_test = { .setup = msg_fifo_setup, .run = msg_run,
					  .teardown = msg_teardown };
const struct aim9_test aim9_stream_pipe = { .setup = msg_stream_setup, .run = msg_run,
					    .teardown = msg_teardown };
const struct aim9_test aim9_dgram_pipe = { .setup = msg_dgram_setup, .run = msg_run,
					   .teardown = msg_teardown };
const struct aim9_test aim9_pipe_cpy = { .setup = msg_pipe_setup, .run = msg_run,
					 .teardown = msg_teardown };
