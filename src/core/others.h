/*
 * What other work did with the CPUs while kbench measured: the CPU time
 * of every process that is not kbench's, and the hypervisor's steal, read
 * from the process table before and after, and named by the processes
 * that used most.  A load average at the start says what ran before
 * (kbench's own build, the last run); this says what ran beside.
 */
#ifndef KB_OTHERS_H
#define KB_OTHERS_H

#include <stddef.h>
#include <stdint.h>

#include "plat/plat.h"

/* The names given: the processes that used most, by name. */
#define OTHERS_TOP 3

/* The snapshot taken when the measuring began. */
struct others {
	int ok;				/* taken: the system lists its processes */
	uint64_t wall_ns;		/* when */
	struct plat_cpu_times machine;	/* the machine's CPU times then */
	uint64_t steal_ns;		/* every CPU's steal time then */
	uint64_t own_ns;		/* kbench's own CPU time then, its reaped children's too */
	struct plat_proc *procs;	/* every process then, malloc'd */
	int nprocs;
};

/* What other work used between the snapshot and now. */
struct others_use {
	double wall_s;			/* the window */
	int ncpu;			/* the CPUs there were */
	double cpu_s;			/* CPU time of everything not kbench's */
	double steal_s;			/* time the hypervisor gave the CPUs to others */
	size_t ntop;			/* names in top[] */
	struct {
		char comm[16];		/* the processes' name */
		double cpu_s;		/* their CPU time in the window, all of that name */
	} top[OTHERS_TOP];
};

/* Take the snapshot: 0, or -1 (o->ok 0) where the system cannot say. */
int others_begin(struct others *o);
/* What other work used since others_begin: 0, or -1 when it cannot be said. */
int others_since(const struct others *o, struct others_use *u);
/*
 * Whether that is enough to mention: a tenth of a CPU or more over the
 * window, and at least a fifth of a second of it (the system counts in
 * ticks of 10 ms, so less over a short run is the count's own noise).
 */
int others_worth_saying(const struct others_use *u);
/* One line, without kbench's prefix: "other work used 0.62 CPUs of 2 ... : cc1 20.1 s, ...". */
void others_line(const struct others_use *u, char *buf, size_t len);
void others_free(struct others *o);

#endif
