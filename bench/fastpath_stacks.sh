#!/bin/sh
# fastpath_stacks.sh [BUILD_DIR [WORKLOAD]]: stack keys with the in-kernel
# fast path (docs/fastpath.md, "Stacks") side by side with the user-space
# path (-x fastpath=off) and Debian's bpftrace, in one run. Root only.
# Prints, for CALLS getppid calls of one process (medians of RUNS runs), the
# CPU each event adds (the traced process and the tracer together: the run
# of CALLS calls less the run of one call, which pays the tracer's start-up)
# and the ratios:
#   1. syscall::getppid:entry { @[stack()] = count(); }: in the kernel
#      (fastpath=on), in user space (off), bpftrace's @[kstack];
#   2. syscall::getppid:entry /pid == $target/ { @[ustack()] = count(); }:
#      in the kernel (fastpath=on: the walk by the CFI rows the syscall
#      plugin writes for $target), in user space (off), bpftrace's
#      @[ustack] (frame pointers: fewer frames); and the kernel's run time
#      per event of the program that ran most (BPF statistics,
#      bench/bpf_prog_stats.c: the walk and the aggregation on, the copy of
#      the stack to the ring off, bpftrace's frame-pointer walk);
#   3. pid$target:libc.so.6:syscall:entry { @[ustack()] = count(); } (the
#      workload's getppid goes through libc's syscall()): in the kernel
#      (fastpath=on: the walk by the CFI rows pid writes), in user space
#      (off), bpftrace's uprobe with @[ustack];
#   4. the in-kernel ustack() walk by CFI rows alone (core/fastpath/
#      user_stacks.h, what 3 runs in the kernel), beside the kernel's
#      frame-pointer walk bpftrace's ustack takes: the kernel's run time per
#      walk (bench/ustack_walk_bench.cpp).
# Events dtrace dropped (its buffers full) are said: they were not unwound.
# Timings on a shared VM spread widely: read the ratios.
set -u
build=${1:-build}
dtrace=$build/dtrace
workload=${2:-$build/tests/live/syscall_workload}
calls=${CALLS:-200000}
runs=${RUNS:-3}

if [ "$(id -u)" != 0 ]; then
    echo "fastpath_stacks.sh: needs root (BPF programs)" >&2
    exit 1
fi
for f in "$dtrace" "$workload"; do
    [ -x "$f" ] || { echo "fastpath_stacks.sh: $f is not built" >&2; exit 1; }
done
bpftrace=$(command -v bpftrace || true)
libc=$(ldd "$workload" | awk '/libc.so.6/ {print $3}')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
# The CPU seconds (user + system) of "$@" and every process it waited for
# (dtrace and bpftrace wait for their -c command); its stdout in $tmp/out.
cpu_of() {
    (
        "$@" >"$tmp/out" 2>"$tmp/err"
        times
    ) | tail -1 | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/); print u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}
# The median CPU seconds of $runs runs of "$@" (a tracer with -c) for
# `calls` calls; the drops dtrace reported, summed, in $tmp/drops.
median_cpu() {
    n=$1
    shift
    : >"$tmp/runs"
    for i in $(seq "$runs"); do
        cpu_of "$@" "$workload $n" >>"$tmp/runs"
        grep -q '[0-9]' "$tmp/out" || echo "  (no output from: $*: $(head -2 "$tmp/err"))" >&2
        awk '/drops? on CPU/ {n += $2} END {print n + 0}' "$tmp/err" >>"$tmp/drops"
    done
    median <"$tmp/runs"
}
# Nanoseconds of CPU each event adds under the tracer "$@" (given without
# its -c command); the drops of its runs of $calls calls in $tmp/drops.
added_ns() {
    : >"$tmp/drops"
    one=$(median_cpu 1 "$@")
    : >"$tmp/drops"
    many=$(median_cpu "$calls" "$@")
    echo "($many - $one) * 1000000000 / ($calls - 1)" | bc -l
}
ratio() { echo "$1 / $2" | bc -l; }

printf "== getppid x %d, one process: CPU added per event (tracer and traced process; median of %d runs)\n" \
    "$calls" "$runs"

# "(N events dropped ...)" when dtrace dropped events in the runs just made.
drops_note() {
    dropped=$(awk '{n += $1} END {print n + 0}' "$tmp/drops")
    [ "$dropped" -gt 0 ] && printf " (%s events dropped in %s runs)" "$dropped" "$runs"
}
compare() {
    d_script=$1
    b_script=$2
    on=$(added_ns "$dtrace" -x fastpath=on -qn "$d_script" -c)
    on_note=$(drops_note)
    off=$(added_ns "$dtrace" -x fastpath=off -qn "$d_script" -c)
    off_note=$(drops_note)
    printf "  dtrace fastpath=on %.0f ns%s, off %.0f ns%s (on / off %.2f)" "$on" "$on_note" "$off" "$off_note" \
        "$(ratio "$on" "$off")"
    if [ -n "$bpftrace" ]; then
        bt=$(added_ns "$bpftrace" -e "$b_script" -c)
        printf ", bpftrace %.0f ns; dtrace on / bpftrace %.2f\n" "$bt" "$(ratio "$on" "$bt")"
    else
        echo "; bpftrace: not installed"
    fi
}

echo "== syscall::getppid:entry /pid == \$target/ { @[stack()] = count(); } (in the kernel when on)"
compare 'syscall::getppid:entry /pid == $target/ { @[stack()] = count(); }' \
    'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[kstack] = count(); }'
echo "== syscall::getppid:entry /pid == \$target/ { @[ustack()] = count(); } (in the kernel when on)"
syscall_ustack='syscall::getppid:entry /pid == $target/ { @[ustack()] = count(); }'
bpftrace_ustack='tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[ustack] = count(); }'
compare "$syscall_ustack" "$bpftrace_ustack"
# ns per run of the program that ran most, median of $runs runs of "$@" (a tracer with -c).
kernel_ns() {
    : >"$tmp/kernel"
    for i in $(seq "$runs"); do
        "$stats" "$calls" "$@" "$workload $calls" 2>/dev/null | sort -k4 -n | tail -1 | awk '{print $5}' >>"$tmp/kernel"
    done
    median <"$tmp/kernel"
}
stats=$build/bench/bpf_prog_stats
if [ -x "$stats" ]; then
    k_on=$(kernel_ns "$dtrace" -x fastpath=on -qn "$syscall_ustack" -c)
    k_off=$(kernel_ns "$dtrace" -x fastpath=off -qn "$syscall_ustack" -c)
    printf "  the kernel's run time per event: dtrace on %.0f ns, off %.0f ns" "$k_on" "$k_off"
    if [ -n "$bpftrace" ]; then
        k_bt=$(kernel_ns "$bpftrace" -e "$bpftrace_ustack" -c)
        printf ", bpftrace %.0f ns; dtrace on / bpftrace %.2f\n" "$k_bt" "$(ratio "$k_on" "$k_bt")"
    else
        echo
    fi
else
    echo "  the kernel's run time per event: skipped ($stats is not built)"
fi
echo "== pid\$target:libc.so.6:syscall:entry { @[ustack()] = count(); } (in the kernel when on)"
compare 'pid$target:libc.so.6:syscall:entry { @[ustack()] = count(); }' \
    "uprobe:$libc:syscall /pid == cpid/ { @[ustack] = count(); }"
echo "== the in-kernel ustack() walk by CFI rows alone (docs/fastpath.md, \"Stacks\")"
if [ -x "$build/bench/ustack_walk_bench" ]; then
    "$build/bench/ustack_walk_bench" | sed 's/^/  /'
else
    echo "  $build/bench/ustack_walk_bench is not built"
fi
