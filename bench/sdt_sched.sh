#!/bin/sh
# sdt_sched.sh [BUILD_DIR]: the sched provider, live, side by side with
# bpftrace (Debian's), in one run. Root only. A parent and a child pass a
# byte back and forth over pipes on one CPU (sdt_workload pingpong: two
# context switches per round trip) while a tracer counts every context
# switch system-wide:
#   dtrace   `sched:::on-cpu { @[execname] = count(); }`
#   bpftrace `tracepoint:sched:sched_switch { @[comm] = count(); }`
# Prints the workload's own elapsed time (it times itself, so neither
# tracer's start-up counts) alone and under each tracer, the medians of RUNS
# runs, the slowdowns and their ratio (goal <= 1.0), dtrace's drops, and the
# context switches each counted for the workload.
# Timings on a shared VM spread widely: read the ratio.
set -u
build=${1:-build}
dtrace=$build/dtrace
source=$(dirname "$0")/../tests/live/sdt_workload.c
trips=${TRIPS:-100000}
runs=${RUNS:-5}

if [ "$(id -u)" != 0 ]; then
    echo "sdt_sched.sh: needs root (BPF programs)" >&2
    exit 1
fi
[ -x "$dtrace" ] || { echo "sdt_sched.sh: $dtrace is not built" >&2; exit 1; }
bpftrace=$(command -v bpftrace || true)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The workload, built here (the bench build has no tests); its comm is sdt_workload.
workload=$tmp/sdt_workload
cc -O2 -o "$workload" "$source" || { echo "sdt_sched.sh: cannot build $source" >&2; exit 1; }

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
elapsed() { awk '/^elapsed/ {print $2}' "$tmp/out"; }
# The count of the workload's own name in a tracer's aggregation output.
switches() { awk '$1 == "sdt_workload" {print $2}' "$tmp/out" | head -1; }

: >"$tmp/alone"; : >"$tmp/dtrace"; : >"$tmp/bpftrace"
drops=0
for i in $(seq "$runs"); do
    taskset -c 0 "$workload" pingpong "$trips" >"$tmp/out" 2>/dev/null
    elapsed >>"$tmp/alone"
    taskset -c 0 "$dtrace" -qn 'sched:::on-cpu { @[execname] = count(); }' \
        -c "$workload pingpong $trips" >"$tmp/out" 2>"$tmp/err"
    elapsed >>"$tmp/dtrace"
    dtrace_switches=$(switches)
    d=$(awk '/drops? on CPU/ {n += $2} END {print n + 0}' "$tmp/err")
    drops=$((drops + d))
    if [ -n "$bpftrace" ]; then
        taskset -c 0 "$bpftrace" -e 'tracepoint:sched:sched_switch { @[comm] = count(); }' \
            -c "$workload pingpong $trips" >"$tmp/out" 2>/dev/null
        elapsed >>"$tmp/bpftrace"
        bpftrace_switches=$(awk '/^@\[sdt_workload\]/ {print $2}' "$tmp/out")
    fi
done
alone=$(median <"$tmp/alone")
traced=$(median <"$tmp/dtrace")
added=$((traced - alone))
echo "== sched:::on-cpu { @[execname] = count(); } during $trips pipe round trips on one CPU (median of $runs runs)"
printf "  workload alone      %6.3f s\n" "$(echo "$alone / 1000000000" | bc -l)"
printf "  dtrace              %6.3f s, +%.3f s (%.0f ns per switch), drops %d, workload switches counted %s\n" \
    "$(echo "$traced / 1000000000" | bc -l)" "$(echo "$added / 1000000000" | bc -l)" \
    "$(echo "$added / (2 * $trips)" | bc -l)" "$drops" "${dtrace_switches:-?}"
if [ -n "$bpftrace" ]; then
    bp=$(median <"$tmp/bpftrace")
    bp_added=$((bp - alone))
    printf "  bpftrace            %6.3f s, +%.3f s (%.0f ns per switch), workload switches counted %s\n" \
        "$(echo "$bp / 1000000000" | bc -l)" "$(echo "$bp_added / 1000000000" | bc -l)" \
        "$(echo "$bp_added / (2 * $trips)" | bc -l)" "${bpftrace_switches:-?}"
    if [ "$bp_added" -gt 0 ]; then
        printf "  ratio of slowdowns (dtrace / bpftrace): %.2f (goal <= 1.0)\n" "$(echo "$added / $bp_added" | bc -l)"
    else
        echo "  ratio of slowdowns: bpftrace's slowdown is within the noise ($bp_added ns)"
    fi
else
    echo "  bpftrace: not installed (apt-get install bpftrace)"
fi
