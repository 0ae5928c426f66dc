#!/bin/bash
# Wall time of the quick suite's benchmarks between processes (issue 3's
# target: at most 45 s); bench/quick_wall.sh does the work.
# usage: bench/ipc_quick_wall.sh   (KBENCH=path, RUNS=3)
ONLY='ctx.*,ipc.*' TARGET=45 exec "$(dirname "$0")/quick_wall.sh" "$@"
