/*
 * contest: a real job timed while one background load runs, with the
 * load's work and CPU time counted only inside the job's window.
 *
 * Three parts, one file each:
 *   loads.c    the loads: each a process group that works until killed,
 *              publishing its work and CPU time in shared memory as it goes
 *   tree.c     the default job: a deterministic tree of C sources and a
 *              Makefile, built with make -j and the system's cc
 *   contest.c  the driver: starts a load, waits until it is working, reads
 *              the counters, runs the job (fork, exec, wait4), reads the
 *              counters again, kills the load, removes its files
 *
 * Why shared counters: contest (2002) scaled the load's whole-life count by
 * job time / load time, so work done before the job started and while the
 * load was being killed was counted too, and its author called Loads and
 * LCPU% unreliable.  Here every process of a load adds to its own slot as
 * each unit of work completes, and the driver sums the slots at the two
 * instants that bound the job, so the figures cover the window and nothing
 * else (to within one unit of work per process).
 */
#ifndef KB_LOAD_H
#define KB_LOAD_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Processes of one load that publish counters (process_load: 4 x CPUs, up to this). */
#define LOAD_MAX_SLOTS 256

/*
 * One process's counters.  Written by that process only (a single writer,
 * so relaxed atomic adds and stores suffice), read by the driver at any
 * moment: a torn read is impossible, a stale one is at most one unit old.
 */
struct load_slot {
	_Atomic uint64_t work;		/* units of work completed so far */
	_Atomic uint64_t cpu_ns;	/* CPU time used so far: the process's own
					   (CLOCK_PROCESS_CPUTIME_ID), plus that of
					   any program it runs (tar), live and reaped */
};

/*
 * The page shared by the driver and every process of a load, mapped
 * MAP_SHARED | MAP_ANONYMOUS by the driver before it forks the load.
 */
struct load_shared {
	_Atomic int ready;		/* set by the load once prepared and about to
					   work: the driver starts the job after this */
	_Atomic int failed;		/* set once, with why, when the load cannot go on */
	char why[200];			/* "io_load: write: no space left on device" */
	struct load_slot slot[LOAD_MAX_SLOTS];
};

/* What a load is given: where it may write, how big it may be. */
struct load_ctx {
	const char *dir;		/* the load's own empty directory; file loads
					   create files only under it */
	int ncpu;			/* online CPUs */
	uint64_t mem_available;		/* bytes (MemAvailable) when contest started */
	uint64_t disk_free;		/* bytes free for dir when contest started */
	double scale;			/* 1.0 normally; tests pass e.g. 0.01 to make
					   files, trees and buffers that much smaller */
	struct load_shared *sh;
};

/*
 * Safety caps.  A file load's files together stay below both half of
 * disk_free and LOAD_FILE_CAP; mem_load's buffer below half of
 * mem_available and LOAD_MEM_CAP, so the job keeps its memory and the OOM
 * killer has no cause to act; process_load runs 4 x ncpu processes (at
 * most LOAD_MAX_SLOTS).
 */
#define LOAD_FILE_CAP (1ull << 30)
#define LOAD_MEM_CAP (2ull << 30)

enum load_flags {
	LOAD_HIDDEN = 1 << 0,		/* for the tests: not in the default list or help */
	LOAD_FILES = 1 << 1,		/* writes files (so --tmpdir must have room) */
};

struct load {
	const char *name;		/* "io_load": the id is contest.<name> */
	const char *unit;		/* one unit of its work, for the report: "MB written" */
	const char *summary;		/* one line for --help and the manual */
	unsigned flags;			/* enum load_flags */
	/*
	 * The load's body, run in the load's own process, which is the leader
	 * of a process group of its own and dies with the driver.  It prepares
	 * (makes the file to read, the tree to list: untimed, uncounted), sets
	 * sh->ready, forks any workers (they stay in its group), and works
	 * until killed, adding to its slots as each unit completes.  On an
	 * error it calls load_fail and exits.  $TMPDIR is the contest's own,
	 * so what the programs it runs (tar) leave there goes with the
	 * contest.  NULL for noload and cacherun, which start no process.
	 */
	void (*run)(const struct load_ctx *ctx);
};

/* The loads, in contest's order; load_count() of them. */
const struct load *load_table(void);
size_t load_count(void);
/* By name, hidden ones included; NULL if none. */
const struct load *load_find(const char *name);

/* Record why the load cannot go on (first call wins) and exit the process. */
_Noreturn void load_fail(const struct load_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Publish this process's CPU time (its own so far, plus extra_ns) into slot. */
void load_publish_cpu(struct load_slot *slot, uint64_t extra_ns);

/* ------------------------------------------------------------------ */
/* The default job (tree.c)                                            */
/* ------------------------------------------------------------------ */

/*
 * Write the job's sources into dir (which must exist and be empty): a
 * deterministic tree of C files in a few subdirectories and a Makefile that
 * compiles each with $(CC) -O2 and links one program, so `make -j` has many
 * independent compiles, as a kernel build does.  size 1.0 is the default
 * job (30-60 s on a 2-core machine with no load); the number of files
 * scales with it (at least 2).  0, or -1 with err filled.
 */
int tree_make(const char *dir, double size, char *err);
/* The files tree_make writes for size (sources, headers and the Makefile). */
size_t tree_nfiles(double size);

/* ------------------------------------------------------------------ */
/* The driver (contest.c)                                              */
/* ------------------------------------------------------------------ */

struct contest_cfg {
	const char *workload;		/* a shell command, or NULL for the generated tree */
	double size;			/* the generated tree's size (tree_make) */
	int jobs;			/* make -j, for the generated tree */
	const char *tmproot;		/* where the private directory is made */
	double timeout_s;		/* stop the job after this long; 0: never */
	double settle_s;		/* a load works this long before the job starts */
	double scale;			/* the loads' sizes (1.0; tests make them small) */
	int ncpu;
	uint64_t mem_available;		/* bytes, when contest started */
};

/* One job timed under one load. */
struct contest_measure {
	double time_s;			/* the job's elapsed time */
	double user_s, sys_s;		/* its CPU time and its children's, from wait4 */
	double cpu_pct;			/* (user + sys) / elapsed, in % of one CPU */
	uint64_t loads;			/* the load's work inside the job's window */
	double lcpu_pct;		/* the load's CPU time in the window / elapsed, % */
	/* contest's own way, for comparison: the whole life scaled by time */
	uint64_t load_total;		/* work from the load's start until it was killed */
	double load_life_s;		/* from its start until it was killed */
	double old_loads;		/* load_total * time_s / load_life_s */
	double interference;		/* the machine's CPU time in the window that neither
					   the job nor the load used (other programs, kernel
					   threads, a VM's steal), over all CPUs' time; -1
					   unknown */
	double wall_s;			/* the whole measurement: set-up, the load's start,
					   the job, the cleaning up */
};

enum contest_status {
	CONTEST_OK = 0,
	CONTEST_FAILED,			/* this measurement failed (a load failed, the job
					   timed out): err says why, the contest goes on */
	CONTEST_ERROR,			/* the contest cannot go on (the job itself fails,
					   no room for the files): err says why */
	CONTEST_INTERRUPTED,		/* SIGINT, SIGTERM or SIGHUP: everything is stopped */
	CONTEST_SUSPENDED,		/* stopped by Ctrl-Z while the job ran, so its Time
					   holds the stop: no figure, measure it again */
};

/*
 * Time the job once while ld works (noload: alone; cacherun: right after
 * an untimed run of itself).  Everything it starts is in a private
 * directory under cfg->tmproot, with TMPDIR there too, and in process
 * groups of its own; whatever happens, every process is killed and waited
 * for and the directory removed before it returns.  err (ERRBUF_LEN) is
 * filled unless CONTEST_OK.
 */
enum contest_status contest_measure(const struct contest_cfg *cfg, const struct load *ld,
				    struct contest_measure *m, char *err);

/*
 * A load working behind something else than a job: kbench run --load,
 * so that a wakeup latency (wake.*) is measured under contest's loads as
 * schbench and cyclictest are run under a stress.  Started once, working
 * through the whole run, in its own private directory and process group,
 * killed and removed at the end as contest's are.
 */
struct runner_janitor;
struct group_bg;
struct contest_bg {
	char root[4096];		/* the private directory */
	struct load_shared *sh;		/* its counters, MAP_FAILED before */
	struct group_bg *g;		/* its process group (group.h), malloc'd */
	struct runner_janitor *jan;	/* malloc'd */
	const struct load *ld;
};
/*
 * Start ld (one with a body: not noload or cacherun) under cfg (tmproot,
 * ncpu, mem_available, scale, settle_s) and wait until it works.  0, or
 * -1 with err filled and nothing left running.
 */
int contest_bg_start(const struct contest_cfg *cfg, const struct load *ld, struct contest_bg *bg,
		     char *err);
/* Stop it and remove its files: 0, or -1 when it failed meanwhile (why in err). */
int contest_bg_stop(struct contest_bg *bg, char *err);

#endif
