#!/bin/sh
# fastpath_syscall.sh [BUILD_DIR [WORKLOAD]]: the in-kernel fast path
# (docs/fastpath.md) side by side with the user-space path (-x fastpath=off)
# and Debian's bpftrace, in one run. Root only. Prints:
#   1. getppid x CALLS of one process counted with /pid == $target/: added
#      wall time over the workload alone (medians of RUNS runs), the ratio of
#      dtrace's to bpftrace's (goal <= 0.7), and the traced thread's own CPU
#      per call, the in-kernel cost of one event (goal: within 10% of
#      bpftrace's);
#   2. system-wide `syscall:::entry { @[execname] = count(); }` while the
#      workload makes CALLS getppid calls: the workload's slowdown against
#      bpftrace's `tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }`
#      (goal: ratio <= 1.0);
#   3. the read-latency quantize (self->ts) system-wide while dd reads one
#      byte READS times: reads per second and the slowdown, against
#      bpftrace's equivalent;
#   4. printf() of each of CALLS / 10 getppid calls (records written in the
#      kernel, -x fastpath=on): added wall time against bpftrace's printf;
#   1b. the same count's in-kernel ns per event and BPF instructions, from
#      the kernel's BPF statistics (bench/bpf_prog_stats), against bpftrace's;
#   5. startup: a script that enables one syscall probe and exits in BEGIN,
#      wall seconds from start to exit, against bpftrace's.
# Timings on a shared VM spread widely: read the ratios and per-call CPU.
set -u
build=${1:-build}
dtrace=$build/dtrace
workload=${2:-$build/tests/live/syscall_workload}
calls=${CALLS:-1000000}
reads=${READS:-300000}
runs=${RUNS:-3}

. "$(dirname "$0")/bench_lib.sh" # bench_start, timed, median, workload_cpu, cpu_per_event
bench_start fastpath_syscall.sh "$dtrace" "$workload"
per_call() { cpu_per_event "$1" "$calls"; }

count='syscall::getppid:entry /pid == $target/ { @ = count(); } END { printa("%@d\n", @); }'
echo "== getppid x $calls, one process, /pid == \$target/ { @ = count(); } (median of $runs runs)"
for f in alone on off bpftrace cpu_alone cpu_on cpu_off cpu_bpftrace; do : >"$tmp/$f"; done
for i in $(seq "$runs"); do
    timed "$workload" "$calls" >>"$tmp/alone"
    workload_cpu >>"$tmp/cpu_alone"
    for mode in on off; do
        timed "$dtrace" -x fastpath=$mode -b 64m -qn "$count" -c "$workload $calls" >>"$tmp/$mode"
        workload_cpu >>"$tmp/cpu_$mode"
        [ "$(head -1 "$tmp/out")" = "$calls" ] || echo "  dtrace -x fastpath=$mode counted $(head -1 "$tmp/out")"
    done
    if [ -n "$bpftrace" ]; then
        timed "$bpftrace" -e 'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @ = count(); }' \
            -c "$workload $calls" >>"$tmp/bpftrace"
        workload_cpu >>"$tmp/cpu_bpftrace"
    fi
done
alone=$(median <"$tmp/alone")
added() { echo "$(median <"$tmp/$1") - $alone" | bc -l; }
printf "  workload alone         %6.2f s wall\n" "$alone"
printf "  dtrace, fastpath=on    +%.2f s wall, traced thread +%.0f ns CPU per call\n" "$(added on)" "$(per_call "$tmp/cpu_on")"
printf "  dtrace, fastpath=off   +%.2f s wall, traced thread +%.0f ns CPU per call\n" "$(added off)" \
    "$(per_call "$tmp/cpu_off")"
if [ -n "$bpftrace" ]; then
    printf "  bpftrace               +%.2f s wall, traced thread +%.0f ns CPU per call\n" "$(added bpftrace)" \
        "$(per_call "$tmp/cpu_bpftrace")"
    printf "  added wall time, dtrace (fastpath=on) / bpftrace: %.2f (goal <= 0.7); off / bpftrace: %.2f\n" \
        "$(echo "$(added on) / $(added bpftrace)" | bc -l)" "$(echo "$(added off) / $(added bpftrace)" | bc -l)"
    printf "  in-kernel CPU per event, dtrace / bpftrace: %.2f (goal <= 1.1)\n" \
        "$(echo "$(per_call "$tmp/cpu_on") / $(per_call "$tmp/cpu_bpftrace")" | bc -l)"
else
    echo "  bpftrace: not installed (apt-get install bpftrace)"
fi

# The in-kernel cost per event as the kernel counts it (BPF statistics,
# bench/bpf_prog_stats.c): ns per run of the program that ran most (a
# tail-called program's time counts to its caller) and its instructions.
stats=$build/bench/bpf_prog_stats
if [ -x "$stats" ]; then
    echo "== the same count, in-kernel ns per event from the kernel's BPF statistics (median of $runs runs)"
    for f in k_on k_bpftrace; do : >"$tmp/$f"; done
    busiest() { sort -k4 -n | tail -1; } # id type name runs ns_per_run xlated_insns jited_bytes
    for i in $(seq "$runs"); do
        "$stats" "$calls" "$dtrace" -qn "$count" -c "$workload $calls" 2>/dev/null | busiest >>"$tmp/k_on"
        [ -n "$bpftrace" ] && "$stats" "$calls" "$bpftrace" -e \
            'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @ = count(); }' -c "$workload $calls" 2>/dev/null |
            busiest >>"$tmp/k_bpftrace"
    done
    ns() { awk '{print $5}' "$tmp/$1" | median; }
    insns() { awk '{print $6}' "$tmp/$1" | median; }
    printf "  dtrace (fastpath=on) %.1f ns per event, %s BPF instructions\n" "$(ns k_on)" "$(insns k_on)"
    if [ -n "$bpftrace" ]; then
        printf "  bpftrace             %.1f ns per event, %s BPF instructions; ratio %.2f (goal <= 1.1)\n" \
            "$(ns k_bpftrace)" "$(insns k_bpftrace)" "$(echo "$(ns k_on) / $(ns k_bpftrace)" | bc -l)"
    fi
else
    echo "== in-kernel ns per event: skipped ($stats is not built)"
fi

# Starts a tracer in the background and waits until its BEGIN has printed
# "ready" (everything attached); the tracer's pid in $tracer.
start_tracer() {
    "$@" >"$tmp/tracer" 2>&1 &
    tracer=$!
    for _ in $(seq 300); do
        grep -q ready "$tmp/tracer" && return 0
        sleep 0.1
    done
    echo "  the tracer did not start: $(head -3 "$tmp/tracer")"
}
# SIGTERM, then SIGKILL after 10 s: a tracer signalled before it was ready
# (bpftrace still attaching) may never act on SIGTERM.
stop_tracer() {
    kill -TERM "$tracer" 2>/dev/null
    for _ in $(seq 100); do
        kill -0 "$tracer" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$tracer" 2>/dev/null
    wait "$tracer" 2>/dev/null
}
# The workload's wall seconds while "$@" traces (nothing: alone).
traced_seconds() {
    [ $# -gt 0 ] && start_tracer "$@"
    seconds=$(timed $traced_command)
    [ $# -gt 0 ] && stop_tracer
    echo "$seconds"
}
# Medians of the workload alone, under dtrace on and off and under bpftrace,
# and the slowdowns (the traced time over the time alone, minus one).
compare() {
    d_script=$1
    b_script=$2
    for f in alone on off bpftrace; do : >"$tmp/s_$f"; done
    for i in $(seq "$runs"); do
        traced_seconds >>"$tmp/s_alone"
        traced_seconds "$dtrace" -x fastpath=on -qn "BEGIN { printf(\"ready\\n\"); } $d_script" >>"$tmp/s_on"
        traced_seconds "$dtrace" -x fastpath=off -qn "BEGIN { printf(\"ready\\n\"); } $d_script" >>"$tmp/s_off"
        [ -n "$bpftrace" ] && traced_seconds "$bpftrace" -e "BEGIN { printf(\"ready\\n\"); } $b_script" >>"$tmp/s_bpftrace"
    done
    alone=$(median <"$tmp/s_alone")
    slowdown() { echo "$(median <"$tmp/s_$1") / $alone - 1" | bc -l; }
    printf "  workload alone %.2f s (%.0f calls/s)\n" "$alone" "$(echo "$events / $alone" | bc -l)"
    printf "  slowdown: dtrace fastpath=on %.0f%%, off %.0f%%" "$(echo "100 * $(slowdown on)" | bc -l)" \
        "$(echo "100 * $(slowdown off)" | bc -l)"
    if [ -n "$bpftrace" ]; then
        printf ", bpftrace %.0f%%; ratio dtrace (on) / bpftrace %.2f (goal <= 1.0)\n" \
            "$(echo "100 * $(slowdown bpftrace)" | bc -l)" "$(echo "$(slowdown on) / $(slowdown bpftrace)" | bc -l)"
    else
        echo
    fi
    printf "  traced events per second: dtrace fastpath=on %.0f, off %.0f\n" \
        "$(echo "$events / $(median <"$tmp/s_on")" | bc -l)" "$(echo "$events / $(median <"$tmp/s_off")" | bc -l)"
}

echo "== syscall:::entry { @[execname] = count(); } system-wide during getppid x $calls (median of $runs runs)"
traced_command="$workload $calls"
events=$calls
compare 'syscall:::entry { @[execname] = count(); }' 'tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }'

echo "== read latency: self->ts and quantize() system-wide during dd's $reads one-byte reads (median of $runs runs)"
traced_command="dd if=/dev/zero of=/dev/null bs=1 count=$reads status=none"
events=$reads
compare 'syscall::read:entry { self->ts = timestamp; }
         syscall::read:return /self->ts/ { @[execname] = quantize(timestamp - self->ts); self->ts = 0; }' \
    'tracepoint:syscalls:sys_enter_read { @ts[tid] = nsecs; }
     tracepoint:syscalls:sys_exit_read /@ts[tid]/ { @[comm] = hist(nsecs - @ts[tid]); delete(@ts[tid]); }'

printf_calls=$((calls / 10))
echo "== printf(\"%d %s\\\\n\", arg0, execname) of getppid x $printf_calls, one process, -b 64m (median of $runs runs)"
for f in alone on off bpftrace; do : >"$tmp/p_$f"; done
for i in $(seq "$runs"); do
    timed "$workload" "$printf_calls" >>"$tmp/p_alone"
    for mode in on off; do
        timed "$dtrace" -x fastpath=$mode -b 64m -qn 'syscall::getppid:entry /pid == $target/ { printf("%d %s\n", arg0, execname); }' \
            -c "$workload $printf_calls" >>"$tmp/p_$mode"
        [ "$(wc -l <"$tmp/out")" -ge "$printf_calls" ] || echo "  dtrace -x fastpath=$mode printed $(wc -l <"$tmp/out") lines"
    done
    [ -n "$bpftrace" ] && timed "$bpftrace" -e 'tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { printf("%d %s\n", 0, comm); }' \
        -c "$workload $printf_calls" >>"$tmp/p_bpftrace"
done
alone=$(median <"$tmp/p_alone")
p_added() { echo "$(median <"$tmp/p_$1") - $alone" | bc -l; }
printf "  added wall time: dtrace fastpath=on %.2f s, off %.2f s" "$(p_added on)" "$(p_added off)"
if [ -n "$bpftrace" ]; then
    printf ", bpftrace %.2f s; ratio on / bpftrace %.2f\n" "$(p_added bpftrace)" \
        "$(echo "$(p_added on) / $(p_added bpftrace)" | bc -l)"
else
    echo
fi

echo "== startup: one syscall probe enabled, exit in BEGIN (median of $((runs * 3)) runs)"
for f in on bpftrace; do : >"$tmp/u_$f"; done
for i in $(seq $((runs * 3))); do
    timed "$dtrace" -qn 'syscall::getppid:entry { @ = count(); } BEGIN { exit(0); }' >>"$tmp/u_on"
    [ -n "$bpftrace" ] && timed "$bpftrace" -e 'tracepoint:syscalls:sys_enter_getppid { @ = count(); } BEGIN { exit(); }' \
        >>"$tmp/u_bpftrace"
done
printf "  dtrace %.2f s" "$(median <"$tmp/u_on")"
[ -n "$bpftrace" ] && printf ", bpftrace %.2f s" "$(median <"$tmp/u_bpftrace")"
echo
