#!/bin/sh
# live_syscall.sh [BUILD_DIR [WORKLOAD]]: the syscall provider, live, side by
# side with bpftrace (Debian's), in one run. Root only. Prints:
#   1. the added wall time of counting 1,000,000 getppid calls of one process
#      (`syscall::getppid:entry /pid == $target/ { @ = count(); }` against
#      bpftrace's `tracepoint:syscalls:sys_enter_getppid /pid == cpid/`),
#      against the workload alone: the medians of RUNS runs, the ratio of the
#      added times (goal <= 1.0), the drops, and the traced process's own CPU
#      per call (what the probe costs the traced thread);
#   2. `syscall:::entry { @[execname] = count(); }` system-wide while the
#      workload makes its calls: events delivered per second of the workload,
#      drops, and dtrace's own CPU per event.
# Timings on a shared VM spread widely: read the ratios and per-call CPU.
set -u
build=${1:-build}
dtrace=$build/dtrace
workload=${2:-$build/tests/live/syscall_workload}
calls=${CALLS:-1000000}
runs=${RUNS:-3}

. "$(dirname "$0")/bench_lib.sh" # bench_start, now, timed, median, workload_cpu/elapsed, cpu_per_event
bench_start live_syscall.sh "$dtrace" "$workload"

echo "== getppid x $calls, one process (median of $runs runs)"
: >"$tmp/alone"; : >"$tmp/dtrace"; : >"$tmp/bpftrace"; : >"$tmp/cpu_alone"; : >"$tmp/cpu_dtrace"; : >"$tmp/cpu_bpftrace"
drops=0
for i in $(seq "$runs"); do
    timed "$workload" "$calls" >>"$tmp/alone"
    workload_cpu >>"$tmp/cpu_alone"
    timed "$dtrace" -qn 'syscall::getppid:entry /pid == $target/ { @ = count(); } END { printa("%@d\n", @); }' \
        -c "$workload $calls" >>"$tmp/dtrace"
    workload_cpu >>"$tmp/cpu_dtrace"
    [ "$(head -1 "$tmp/out")" = "$calls" ] || echo "  dtrace counted $(head -1 "$tmp/out"), not $calls"
    d=$(awk '/drops? on CPU/ {n += $2} END {print n + 0}' "$tmp/err")
    drops=$((drops + d))
    if [ -n "$bpftrace" ]; then
        timed "$bpftrace" -e 'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @ = count(); }' \
            -c "$workload $calls" >>"$tmp/bpftrace"
        workload_cpu >>"$tmp/cpu_bpftrace"
    fi
done
alone=$(median <"$tmp/alone")
traced=$(median <"$tmp/dtrace")
added=$(echo "$traced - $alone" | bc -l)
per_call() { cpu_per_event "$1" "$calls"; }
printf "  workload alone      %6.2f s wall\n" "$alone"
printf "  dtrace              %6.2f s wall, +%.2f s, drops %d, traced thread +%.0f ns CPU per call\n" \
    "$traced" "$added" "$drops" "$(per_call "$tmp/cpu_dtrace")"
if [ -n "$bpftrace" ]; then
    bp=$(median <"$tmp/bpftrace")
    bp_added=$(echo "$bp - $alone" | bc -l)
    printf "  bpftrace            %6.2f s wall, +%.2f s, traced thread +%.0f ns CPU per call\n" \
        "$bp" "$bp_added" "$(per_call "$tmp/cpu_bpftrace")"
    printf "  ratio of added times (dtrace / bpftrace): %.2f (goal <= 1.0)\n" "$(echo "$added / $bp_added" | bc -l)"
else
    echo "  bpftrace: not installed (apt-get install bpftrace)"
fi

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
