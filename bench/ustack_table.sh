#!/bin/sh
# ustack_table.sh [BUILD_DIR]: what writing a process's table into the
# in-kernel ustack() walk's maps costs (docs/fastpath.md, "Stacks";
# bench/ustack_table_bench.cpp): the first write of a C++ process's table
# and its rewrite after a dlopen(), one map update per entry (as before
# batching) against the table's batched writes of only what changed.
# bpftrace has no counterpart (its ustack follows frame pointers, no
# table). Root only. Timings on a shared VM spread widely: read the ratios.
set -u
build=${1:-build}
bench=$build/bench/ustack_table_bench
if [ "$(id -u)" != 0 ]; then
    echo "ustack_table.sh: needs root (BPF maps, tracepoint programs)" >&2
    exit 1
fi
[ -x "$bench" ] || { echo "ustack_table.sh: $bench is not built" >&2; exit 1; }
RUNS=${RUNS:-5} "$bench"
