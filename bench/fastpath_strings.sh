#!/bin/sh
# fastpath_strings.sh [BUILD_DIR [WORKLOAD]]: the kernel path's strings and
# shared programs (docs/fastpath.md) side by side with Debian's bpftrace, in
# one run. Root only. Prints:
#   1. startup of `syscall:::entry { printf("%s\n", probefunc); }` (every
#      system call's probe, one shared program), exiting in BEGIN: wall
#      seconds, median of RUNS, against bpftrace's
#      `tracepoint:syscalls:sys_enter_* { printf("%s\n", probe); }`;
#   2. `syscall::openat:entry { @[copyinstr(arg1)] = count(); }` while the
#      workload opens one path OPENS times: the workload's slowdown (wall
#      over the workload alone) with fastpath=on, off, and bpftrace's
#      `tracepoint:syscalls:sys_enter_openat { @[str(args->filename)] = count(); }`,
#      and the workload's own CPU per open (the programs run on its thread:
#      steadier than wall time on a shared VM).
# Timings on a shared VM spread widely: read the ratios.
set -u
build=${1:-build}
dtrace=$build/dtrace
workload=${2:-$build/tests/live/syscall_workload}
opens=${OPENS:-200000}
runs=${RUNS:-3}

. "$(dirname "$0")/bench_lib.sh" # bench_start, timed, median, workload_cpu, cpu_per_event
bench_start fastpath_strings.sh "$dtrace" "$workload"

echo "== startup: syscall:::entry { printf(\"%s\\\\n\", probefunc); }, exit in BEGIN (median of $runs runs)"
for f in on off bpftrace; do : >"$tmp/$f"; done
for i in $(seq "$runs"); do
    for mode in on off; do
        timed "$dtrace" -x fastpath=$mode -qn 'syscall:::entry { printf("%s\n", probefunc); } BEGIN { exit(0); }' \
            >>"$tmp/$mode"
    done
    [ -n "$bpftrace" ] &&
        timed "$bpftrace" -e 'tracepoint:syscalls:sys_enter_* { printf("%s\n", probe); } BEGIN { exit(); }' \
            >>"$tmp/bpftrace"
done
"$dtrace" -x fastpath=explain -qn 'syscall:::entry { printf("%s\n", probefunc); } BEGIN { exit(0); }' 2>&1 >/dev/null |
    grep "syscall:::entry" | sed 's/^/  /'
printf "  dtrace, fastpath=on    %.2f s\n" "$(median <"$tmp/on")"
printf "  dtrace, fastpath=off   %.2f s\n" "$(median <"$tmp/off")"
[ -n "$bpftrace" ] && printf "  bpftrace               %.2f s\n" "$(median <"$tmp/bpftrace")"

echo "== openat x $opens of one path, @[copyinstr(arg1)] = count() system-wide (median of $runs runs)"
path=/etc/hostname
for f in alone on off bpftrace; do : >"$tmp/$f"; : >"$tmp/cpu_$f"; done
for i in $(seq "$runs"); do
    timed "$workload" "opens:$opens:$path" >>"$tmp/alone"
    workload_cpu >>"$tmp/cpu_alone"
    for mode in on off; do
        "$dtrace" -x fastpath=$mode -qn 'syscall::openat:entry { @[copyinstr(arg1)] = count(); }' \
            >"$tmp/trace_$mode" 2>&1 &
        tracer=$!
        sleep 3 # attached
        timed "$workload" "opens:$opens:$path" >>"$tmp/$mode"
        workload_cpu >>"$tmp/cpu_$mode"
        kill -TERM $tracer # a background job ignores SIGINT
        wait $tracer
        grep -q "$path *[0-9]" "$tmp/trace_$mode" || echo "  dtrace -x fastpath=$mode did not count $path"
    done
    if [ -n "$bpftrace" ]; then
        "$bpftrace" -e 'tracepoint:syscalls:sys_enter_openat { @[str(args->filename)] = count(); }' \
            >"$tmp/trace_bpftrace" 2>&1 &
        tracer=$!
        sleep 3
        timed "$workload" "opens:$opens:$path" >>"$tmp/bpftrace"
        workload_cpu >>"$tmp/cpu_bpftrace"
        kill -TERM $tracer # a background job ignores SIGINT
        wait $tracer
    fi
done
alone=$(median <"$tmp/alone")
slowdown() { echo "$(median <"$tmp/$1") / $alone" | bc -l; }
per_open() { cpu_per_event "$tmp/cpu_$1" "$opens"; }
printf "  workload alone         %.2f s (%.0f opens/s)\n" "$alone" "$(echo "$opens / $alone" | bc -l)"
for who in on off bpftrace; do
    [ -s "$tmp/$who" ] || continue
    printf "  %-22s x%.2f wall, workload +%.0f ns CPU per open\n" \
        "$([ "$who" = bpftrace ] && echo bpftrace || echo "dtrace, fastpath=$who")" "$(slowdown "$who")" "$(per_open "$who")"
done
if [ -s "$tmp/bpftrace" ]; then
    printf "  CPU per open, dtrace (fastpath=on) / bpftrace: %.2f\n" "$(echo "$(per_open on) / $(per_open bpftrace)" | bc -l)"
fi
