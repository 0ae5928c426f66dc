/*
 * kbench-worker: the measuring process.  kbench (core/runner.c) forks and
 * executes it for every replica and for a session's prelude; it reads the
 * request (core/wire.h), measures with the harness, replies and exits.
 *
 * Why a program of its own: a fork, an exec or a page fault measured in a
 * process costs more the more that process has mapped, and the front end
 * maps what the store and the reports need (SQLite, libpq and a dozen
 * libraries behind it, GSL, jansson).  The worker is built from the
 * harness, the benchmark families and the platform layer alone, and links
 * the C library and libm only (libtirpc is loaded when an RPC row runs),
 * so that its figures are the ones a small plain program gets, as with
 * lmbench's small separate binaries.  It never stores, prints a report or
 * reads a database.
 */
#ifndef KB_WORKER_H
#define KB_WORKER_H

/*
 * The worker's main: `kbench-worker --build-id` prints the build's id;
 * `kbench-worker --kbench-worker REQ RES LIFELINE PARENT [-- ...]` (what
 * kbench runs) measures; `kbench-worker --kbench-launch ...` starts a copy
 * of a timed job at kbench time's barrier (core/wire.h).  build_id is the
 * one the program was built with.
 */
int worker_main(int argc, char **argv, const char *build_id);

#endif
