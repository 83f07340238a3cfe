#!/bin/sh
# live_syscall.sh [BUILD_DIR [WORKLOAD]]: what dtrace itself spends on the
# syscall provider's events. Root only. Prints, for
# `syscall:::entry { @[execname] = count(); }` system-wide while the
# workload makes CALLS getppid calls: the events delivered per second of the
# workload, the drops, and dtrace's own CPU per event. (The cost to the traced
# thread, against bpftrace, is fastpath_syscall.sh's first figure.)
# Timings on a shared VM spread widely: read the per-event CPU.
set -u
build=${1:-build}
dtrace=$build/dtrace
workload=${2:-$build/tests/live/syscall_workload}
calls=${CALLS:-1000000}

. "$(dirname "$0")/bench_lib.sh" # bench_start, now, workload_cpu, workload_elapsed
bench_start live_syscall.sh "$dtrace" "$workload"

echo "== syscall:::entry { @[execname] = count(); } system-wide, during getppid x $calls"
start=$(now)
/usr/bin/time -f "%U %S" -o "$tmp/time" env SYSCALL_WORKLOAD_REPORT=1 "$dtrace" -qn \
    'syscall:::entry { @[execname] = count(); @all = count(); }
     syscall:::entry /pid == $target/ { @mine = count(); }
     END { printa("all %@d\n", @all); printa("mine %@d\n", @mine); }' \
    -c "$workload $calls" >"$tmp/out" 2>"$tmp/err"
end=$(now)
all=$(awk '$1 == "all" {print $2}' "$tmp/out")
mine=$(awk '$1 == "mine" {print $2}' "$tmp/out")
elapsed=$(workload_elapsed)
cpu_total=$(awk '{print $1 + $2}' "$tmp/time")
cpu_dtrace=$(echo "$cpu_total - $(workload_cpu)" | bc -l)
d=$(awk '/drops? on CPU/ {n += $2} END {print n + 0}' "$tmp/err")
printf "  events %d (the workload's %d in %.2f s: %.0f events/s), drops %d\n" "$all" "$mine" "$elapsed" \
    "$(echo "$mine / $elapsed" | bc -l)" "$d"
printf "  dtrace's own CPU %.2f s: %.0f ns per event; whole run %.1f s wall (attaching and detaching %s tracepoints)\n" \
    "$cpu_dtrace" "$(echo "$cpu_dtrace * 1000000000 / $all" | bc -l)" "$(echo "$end - $start" | bc -l)" \
    "$(ls /sys/kernel/tracing/events/syscalls | grep -c sys_enter_)"
