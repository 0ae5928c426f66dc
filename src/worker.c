/*
 * kbench-worker: the measuring process kbench starts for every replica
 * (core/worker.h says why it is a program of its own).  Its build id
 * (build_id.h, made from the measuring library by scripts/build_id.py)
 * is what kbench checks before it trusts a figure from it.
 */
#include "build_id.h"
#include "core/worker.h"

int main(int argc, char **argv)
{
	return worker_main(argc, argv, KB_BUILD_ID);
}
