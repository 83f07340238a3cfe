#!/usr/bin/env bash
# profile_sampling.sh DTRACE BUILD_DIR: profile-4999 with ustack() against
# `perf record --call-graph dwarf` at the same rate, on the same workload, in
# the same run. Prints the workload's wall time alone and under each tool,
# the samples each delivered and lost, and the time each took to name them.
# Needs root and perf (Debian's linux-perf); says so and stops without them.
set -euo pipefail
dtrace=$1
build=$2
. "$(dirname "$0")/bench_lib.sh"
perf_bench_start # $work, with the profile workload
workload=("$work/profile_workload" copy 60000)
period_ns=200040 # profile-4999: 1e9 / 4999 ns, as dtrace rounds it

seconds() { python3 -c 'import sys,time,subprocess; t=time.perf_counter(); subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); print("%.3f" % (time.perf_counter()-t))' "$@"; }

alone=$(seconds "${workload[@]}")
echo "   workload alone: ${alone} s"

# dtrace: every CPU sampled; the target's samples aggregated by user stack.
# With the default rings and with rings large enough to ride out a busy machine.
for rings in default 32m; do
  options=()
  [[ $rings != default ]] && options=(-x "perfbufsize=$rings")
  start=$(date +%s.%N)
  "$dtrace" -q "${options[@]}" -n 'profile-4999 { @all = count(); } profile-4999 /pid == $target/ { @[ustack()] = count(); @target = count(); }
    END { printa("samples %@d\n", @all); printa("target %@d\n", @target); }' \
    -c "${workload[*]}" >"$work/dtrace.out" 2>"$work/dtrace.err"
  end=$(date +%s.%N)
  samples=$(awk '/^samples/ {print $2}' "$work/dtrace.out")
  target=$(awk '/^target/ {print $2}' "$work/dtrace.out")
  drops=$( (grep -Eo '[0-9]+ drops' "$work/dtrace.err" || true) | awk '{s += $1} END {print s + 0}')
  wall=$(python3 -c "print('%.3f' % ($end - $start))")
  echo "   dtrace profile-4999 + ustack() (rings: $rings): run ${wall} s, ${samples} samples on all CPUs" \
       "($(python3 -c "print(int($samples / $wall))") samples/s delivered), ${target} of the target, ${drops} dropped"
done

# perf record at the same period, all CPUs, user stacks copied for DWARF unwinding.
start=$(date +%s.%N)
perf record -q -a -e cpu-clock -c "$period_ns" -g --call-graph dwarf -o "$work/perf.data" -- "${workload[@]}" \
  >/dev/null 2>"$work/perf.err" || true
end=$(date +%s.%N)
wall=$(python3 -c "print('%.3f' % ($end - $start))")
stats=$(perf report -i "$work/perf.data" --stats 2>/dev/null)
psamples=$(awk '/SAMPLE events/ {print $3; exit}' <<<"$stats")
plost=$(awk '/LOST events/ {print $3; exit}' <<<"$stats")
echo "   perf record -e cpu-clock -c $period_ns -g --call-graph dwarf -a: run ${wall} s, ${psamples:-?} samples" \
     "($(python3 -c "print(int(${psamples:-0} / $wall))") samples/s), ${plost:-0} lost records"
# Naming: perf unwinds and names after the fact; dtrace unwound at the sample and named at the end.
# (--comms: the kernel keeps 15 characters of a command name.)
start=$(date +%s.%N)
perf script -i "$work/perf.data" --comms profile_workloa -F ip,sym,dso >"$work/perf.script" 2>/dev/null || true
end=$(date +%s.%N)
echo "   perf script (unwind + name the target's samples): $(grep -c . "$work/perf.script" || true) frame lines in" \
     "$(python3 -c "print('%.3f' % ($end - $start))") s"
