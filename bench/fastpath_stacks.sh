#!/bin/sh
# fastpath_stacks.sh [BUILD_DIR [WORKLOAD]]: stack keys with the in-kernel
# fast path (docs/fastpath.md, "Stacks") side by side with the user-space
# path (-x fastpath=off) and Debian's bpftrace, in one run. Root only.
# Prints, for CALLS getppid calls of one process (medians of RUNS runs), the
# CPU each event adds (the traced process and the tracer together, over the
# workload alone) and the ratios:
#   1. syscall::getppid:entry { @[stack()] = count(); }: in the kernel
#      (fastpath=on), in user space (off), bpftrace's @[kstack];
#   2. syscall::getppid:entry { @[ustack()] = count(); }: user space either
#      way (the kernel path keeps ustack() keys there: frame pointers against
#      the CFI), bpftrace's @[ustack] (frame pointers: fewer frames);
#   3. pid$target:libc.so.6:syscall:entry { @[ustack()] = count(); } (the
#      workload's getppid goes through libc's syscall()), bpftrace's uprobe.
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
# Nanoseconds of CPU each call adds under "$@" (the median of $runs runs,
# less the workload alone's).
added_ns() {
    : >"$tmp/runs"
    for i in $(seq "$runs"); do
        cpu_of "$@" >>"$tmp/runs"
        grep -q '[0-9]' "$tmp/out" || echo "  (no output from: $*: $(head -2 "$tmp/err"))" >&2
    done
    echo "($(median <"$tmp/runs") - $alone) * 1000000000 / $calls" | bc -l
}
ratio() { echo "$1 / $2" | bc -l; }

: >"$tmp/alone"
for i in $(seq "$runs"); do cpu_of "$workload" "$calls" >>"$tmp/alone"; done
alone=$(median <"$tmp/alone")
printf "== getppid x %d, one process: CPU added per event (tracer and traced process; median of %d runs)\n" \
    "$calls" "$runs"
printf "  workload alone %.2f s CPU\n" "$alone"

compare() {
    d_script=$1
    b_script=$2
    on=$(added_ns "$dtrace" -x fastpath=on -qn "$d_script" -c "$workload $calls")
    off=$(added_ns "$dtrace" -x fastpath=off -qn "$d_script" -c "$workload $calls")
    printf "  dtrace fastpath=on %.0f ns, off %.0f ns (on / off %.2f)" "$on" "$off" "$(ratio "$on" "$off")"
    if [ -n "$bpftrace" ]; then
        bt=$(added_ns "$bpftrace" -e "$b_script" -c "$workload $calls")
        printf ", bpftrace %.0f ns; dtrace on / bpftrace %.2f\n" "$bt" "$(ratio "$on" "$bt")"
    else
        echo "; bpftrace: not installed"
    fi
}

echo "== syscall::getppid:entry /pid == \$target/ { @[stack()] = count(); } (in the kernel when on)"
compare 'syscall::getppid:entry /pid == $target/ { @[stack()] = count(); }' \
    'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[kstack] = count(); }'
echo "== syscall::getppid:entry /pid == \$target/ { @[ustack()] = count(); } (user space either way)"
compare 'syscall::getppid:entry /pid == $target/ { @[ustack()] = count(); }' \
    'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[ustack] = count(); }'
echo "== pid\$target:libc.so.6:syscall:entry { @[ustack()] = count(); } (user space either way)"
compare 'pid$target:libc.so.6:syscall:entry { @[ustack()] = count(); }' \
    "uprobe:$libc:syscall /pid == cpid/ { @[ustack] = count(); }"
