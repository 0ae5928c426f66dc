/*
 * Kernels as sides (DESIGN.md): a kernel booted in a QEMU guest of a fixed
 * shape, whose init runs kbench's requests in the statically linked worker
 * and sends the replies back over a serial port, in the worker's own wire
 * format.  Here is the host's part: what a kernel file is (a bzImage, or
 * a Debian package holding one), the initramfs (cpio.h) with the init,
 * the worker and the requests, QEMU's command line, the boot with its
 * deadline, and what the guest said (console.h).  kbench kernels
 * (cli/kernels.c) schedules the boots; nothing here stores or prints.
 */
#ifndef KB_GUEST_GUEST_H
#define KB_GUEST_GUEST_H

#include <limits.h>
#include <stddef.h>

#include "core/harness.h"
#include "core/sysinfo.h"
#include "core/wire.h"
#include "guest/console.h"

/* Inside the guest: where the init finds its parts and writes. */
#define GUEST_PORT_DEV "/dev/ttyS1"	/* the records' port; ttyS0 is the kernel's console */
#define GUEST_WORKER "/kbench-worker"
#define GUEST_TINY "/kbench-tiny"	/* next to the worker, as proc.exec looks for it */
#define GUEST_REQDIR "/kb"		/* the requests, one file each, run in name order */
#define GUEST_TMPDIR "/tmp/kbench-guest"	/* every request's private directory, on tmpfs */
#define GUEST_MAX_REQUESTS 4096
#define GUEST_MODDIR "/lib/modules/kbench"	/* --modules' tree, whatever its release */
#define GUEST_MODLIST "/kbench-modules"	/* the files the init loads, one a line, in order;
					   '?' before one whose failure is no error */

/*
 * The guest's fixed shape: every kernel of a comparison boots in the same
 * one, with the same command line, so that the kernel is what differs.
 */
#define GUEST_CPUS 2
#define GUEST_MEM_MB 1024
#define GUEST_CMDLINE "console=ttyS0 panic=-1 quiet"

/* The programs the initramfs holds: built statically beside kbench. */
#define GUEST_INIT_NAME "kbench-init"
#define GUEST_WORKER_NAME "kbench-worker-static"
#define GUEST_TINY_NAME "kbench-tiny"

enum guest_accel {
	GUEST_KVM,	/* the host's virtualisation: the kernel's own costs */
	GUEST_TCG,	/* QEMU's emulation: its figures are emulation's, never a kernel's */
};

/* The guest's description, its first record: the init's build, its prelude, its sysinfo. */
struct guest_sys {
	char build_id[WIRE_ID_LEN];
	struct wire_prelude pre;
	struct sysinfo si;
};

/* A kernel as the user named it, and what boots. */
struct guest_kernel {
	const char *arg;		/* as given */
	char image[PATH_MAX];		/* the bzImage booted: arg, or the package's */
	char release[128];		/* from the image's header, "" when it has none */
	int package;			/* arg is a Debian package */
};

struct runner_janitor;

/* What a boot needs besides the kernel. */
struct guest_cfg {
	char qemu[PATH_MAX];		/* qemu-system-x86_64 */
	char init[PATH_MAX], worker[PATH_MAX], tiny[PATH_MAX];	/* the static programs */
	const char *dir;		/* the private directory: initramfs, ports, logs */
	enum guest_accel accel;
	const char *append;		/* more of the kernel's command line, or NULL */
	const char *modules;		/* a module tree (holding modules.dep) put into the
					   initramfs, or NULL */
	const char *modprobe;		/* the modules of it the init loads, comma-separated:
					   then only they and what they depend on go in */
	double timeout_s;		/* a boot that gave no result by then is killed */
	struct runner_janitor *jan;	/* told of qemu's process group */
};

/* One request's bytes, as wire_request_write wrote them. */
struct guest_req {
	unsigned char *data;
	size_t len;
};

/* What one boot came to. */
struct guest_out {
	struct guest_sys sys;		/* the guest, as its init described it */
	struct console_rec *recs;	/* every record, in order (console_free) */
	size_t nrecs;
	double seconds;			/* from qemu's start to its exit */
};

/*
 * What arg is: a bzImage, its release read from its header; or a Debian
 * package, whose boot/vmlinuz-* is taken out into dir (which must exist)
 * with dpkg-deb.  0, or -1 with err (ERRBUF_LEN): not a kernel, a package
 * without one, dpkg-deb missing or failing; 1 when a signal stopped it.
 */
int guest_kernel_open(struct guest_kernel *k, const char *arg, const char *dir, char *err);
/*
 * What arg is, without taking anything out: 0 a bzImage, 1 a Debian
 * package, -1 with err when it is neither or cannot be read.
 */
int guest_kernel_check(const char *arg, char *err);
/* The release in a bzImage's header into buf, "" when none: 0, or -1 when it is no bzImage. */
int guest_image_release(const char *path, char *buf, size_t len);
/*
 * The programs a boot needs into cfg: qemu ($KBENCH_QEMU, else on PATH) and
 * the static init, worker and tiny program (as kbench-worker is found).
 * 0, or -1 with err naming what is missing and how to get it.
 */
int guest_find(struct guest_cfg *cfg, char *err);
/*
 * Whether dir is a module tree kbench can put into a guest: a directory
 * holding modules.dep (lib/modules/RELEASE).  0, or -1 with err.
 */
int guest_modules_check(const char *dir, char *err);
/*
 * The files of dir (a module tree) that loading the comma-separated
 * modules needs, in the order they load: each module's dependencies (as
 * modules.dep lists them, deepest first) before it, none twice, and its
 * soft dependencies (modules.softdep's pre: before it, post: after, a
 * name or an alias of modules.alias) marked optional by a '?' before
 * their path.  Module names match a file's name less its ".ko" and
 * compression suffix, '-' and '_' alike.  *paths malloc'd (each a path
 * relative to dir), *n of them; 0, or -1 with err naming a module the
 * tree does not have.
 */
int guest_modules_plan(const char *dir, const char *modules, char ***paths, size_t *n, char *err);
void guest_modules_free(char **paths, size_t n);
/* Whether KVM can be opened here: 0, or -1 with err saying why not. */
int guest_kvm_check(char *err);
/* "kvm" or "tcg". */
const char *guest_accel_name(enum guest_accel a);
/*
 * A request for b under hc (NULL b: none; hc's tmpdir is replaced by the
 * guest's), as the worker reads it, into r: 0, or -1 with err.
 */
int guest_request(const struct bench *b, const struct harness_cfg *hc, const char *build_id,
		  const char *dir, struct guest_req *r, char *err);
void guest_request_free(struct guest_req *r);
/*
 * Boot k with the requests (the init runs them in order, request i named
 * by i): the initramfs written, qemu run until it powers off or the
 * deadline, the records read into out.  0 when the guest ran every
 * request; -1 with err (one line: no result by the deadline, a panic, a
 * damaged record, qemu's own error); 1 when a signal came (qemu killed).
 * qemu is never left running, and its files are removed.
 */
int guest_boot(const struct guest_cfg *cfg, const struct guest_kernel *k,
	       const struct guest_req *reqs, size_t nreqs, struct guest_out *out, char *err);
void guest_out_free(struct guest_out *out);

#endif
