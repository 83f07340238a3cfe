# bench_lib.sh: the helpers the live benchmarks share, sourced: those
# against bpftrace (fastpath_syscall.sh, fastpath_strings.sh,
# live_syscall.sh) and those against perf (profile_sampling.sh,
# pmc_sampling.sh).
#
#   bench_start NAME FILE...   exits unless root and every FILE is built;
#                              sets $bpftrace (empty: not installed) and $tmp,
#                              a scratch folder removed at exit
#   perf_bench_start           stops (exit 0, saying so) without perf; sets
#                              $work, a scratch folder removed at exit, with
#                              tests/plugin/pmc's profile_workload built in it
#   now                        wall seconds since the epoch, to the nanosecond
#   median                     the median of the numbers on stdin, one a line
#   timed COMMAND...           wall seconds of one run of COMMAND (with
#                              SYSCALL_WORKLOAD_REPORT=1); its stdout in
#                              $tmp/out, its stderr in $tmp/err
#   workload_cpu, workload_elapsed
#                              the CPU and wall seconds the workload reported
#                              of itself in that run
#   cpu_per_event FILE EVENTS  ns of the workload's own CPU per event: FILE's
#                              median (workload_cpu lines) less $tmp/cpu_alone's

bench_start() {
    name=$1
    shift
    if [ "$(id -u)" != 0 ]; then
        echo "$name: needs root (BPF programs)" >&2
        exit 1
    fi
    for built in "$@"; do
        [ -x "$built" ] || { echo "$name: $built is not built" >&2; exit 1; }
    done
    bpftrace=$(command -v bpftrace || true)
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
}

now() { date +%s.%N; }

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

timed() {
    t0=$(now)
    SYSCALL_WORKLOAD_REPORT=1 "$@" >"$tmp/out" 2>"$tmp/err"
    t1=$(now)
    echo "$t1 - $t0" | bc -l
}

# (syscall_workload's report: "workload elapsed WALL cpu CPU")
workload_cpu() { awk '/^workload elapsed/ {print $5}' "$tmp/err"; }
workload_elapsed() { awk '/^workload elapsed/ {print $3}' "$tmp/err"; }

cpu_per_event() { echo "($(median <"$1") - $(median <"$tmp/cpu_alone")) * 1000000000 / $2" | bc -l; }

perf_bench_start() {
    if ! command -v perf >/dev/null; then
        echo "   (skipped: perf is not installed; scripts/setup.sh installs linux-perf)"
        exit 0
    fi
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cc -O2 -fomit-frame-pointer -o "$work/profile_workload" "$(dirname "$0")/../tests/plugin/pmc/profile_workload.c"
}
