/*
 * What kernels and bisect share of kernels.c: a set of kernel files that a
 * command may boot, each opened and booted once plainly when first needed
 * (that it boots, and what its guest is), and a comparison of some of them
 * in rounds, each round booting every one of them once in an order drawn
 * from the seed, stored as one set of runs, a run a kernel.  Nothing here
 * prints a comparison: kernels prints every side against the first, and
 * bisect reads one figure's verdict.
 */
#ifndef KB_CLI_KERNELS_H
#define KB_CLI_KERNELS_H

#include <limits.h>
#include <stdio.h>

#include "cli/run.h"
#include "cli/session.h"
#include "core/engine.h"
#include "core/runner.h"
#include "guest/guest.h"

/* The most kernels one comparison boots: as many sides as a comparison shows. */
#define KERN_MAX ENGINE_MAX_SIDES
/* The most kernel files a command names (bisect's list). */
#define KERN_FILES 1024

/* What the commands ask of the guests besides the selection (run_opts). */
struct kern_ask {
	const char *accel;		/* "kvm" (NULL) or "tcg" */
	const char *append;		/* more of the kernel command line, or NULL */
	const char *modules;		/* --modules: a module tree for every kernel, or NULL */
	const char *modprobe;		/* --modprobe: modules the init loads, comma-separated */
	double timeout;			/* --timeout, 0: the default for the accelerator */
	const char *boot;		/* --boot: "qemu" (NULL), or "kexec", designed only */
};

/* The kernel files of a command, and the comparison being run. */
struct kern {
	const struct run_opts *o;
	struct guest_cfg cfg;
	int nk;				/* kernel files named */
	char *const *paths;		/* as named, nk */
	struct guest_kernel *k;		/* each, once opened (nk) */
	struct guest_sys *sys;		/* each guest, from its plain boot (nk) */
	unsigned char *ready;		/* each opened and booted plainly (nk) */
	struct engine_job *one;		/* the selection's jobs, a kernel's */
	size_t none;
	struct runner_cfg rc;		/* the harness's template */
	struct engine eng;		/* opened once: the host's worker checked */
	/* The comparison being run (kern_compare). */
	int nsides;
	int which[KERN_MAX];		/* each side's kernel, an index into k */
	struct harness_cfg hc[KERN_MAX];	/* each side's requests: its guest's clock figures */
	const char *labels[KERN_MAX];
	int side;			/* the side whose boot the results are from, 0 none */
	struct result *got;		/* that boot's result for each job */
	unsigned char *have;		/* which of got are there, not yet taken */
	char root[PATH_MAX];		/* the private directory, the janitor's */
	struct runner_janitor jan;
};

/*
 * Check the options and the files (each a bzImage or a Debian package),
 * find qemu and the guest's programs, check the accelerator, start the
 * janitor and its private directory, and open the host's worker: dies
 * with one line, nothing stored, on what refuses.  o is validated here
 * (run_validate) and its selection taken; cmd names the command.
 */
void kern_setup(struct kern *k, struct run_opts *o, const struct kern_ask *ask, char *const *paths,
		int n);
/*
 * Kernel i opened and booted once plainly, unless it was: 0, or -1 with
 * err (ERRBUF_LEN): not bootable, no guest by the deadline, a panic.  A
 * signal dies as the command's Ctrl-C does (exit 130, nothing left).
 */
int kern_ready(struct kern *k, int i, char *err);
/* Kernel i's release: its guest's, else its image's, else its file's name. */
const char *kern_release(const struct kern *k, int i);
/*
 * Compare kernels which[0..n-1] (each ready), labelled labels: a session
 * opened on ses, a run begun for each side, the rounds, the runs ended and
 * ses closed; the caller prints from ses->runs and calls session_finish.
 * The failures, as ab_rounds; more as ab_rounds'.
 */
size_t kern_compare(struct kern *k, const int *which, int n, const char *const *labels,
		    struct session *ses, char *more, size_t len);
/* Under TCG, the line with every table saying that its figures are emulation's. */
void kern_mark(const struct kern *k, FILE *out);
/* The private directory removed, qemu gone; what kern_setup took freed. */
void kern_end(struct kern *k);
/* One line and exit 1 (or 130 after a signal), the private directory gone first. */
_Noreturn void kern_die(struct kern *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
