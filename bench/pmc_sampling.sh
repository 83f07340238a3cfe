#!/usr/bin/env bash
# pmc_sampling.sh DTRACE: pmc:::cpu-clock-100000 with ustack() against
# `perf record -e cpu-clock -c 100000 -g` on the same workload, in the same
# run: the samples dtrace delivered per second and whether it dropped any,
# and each tool's overhead on the workload (its wall time under the tool over
# its time alone; ratios, as timings on a shared VM spread). dtrace samples
# every CPU and copies 8 KB of user stack per sample for DWARF unwinding;
# perf -g samples the command's threads and walks frame pointers in the
# kernel. Needs root and perf (Debian's linux-perf); says so and stops without.
set -euo pipefail
dtrace=$1
if ! command -v perf >/dev/null; then
  echo "   (skipped: perf is not installed; scripts/setup.sh installs linux-perf)"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -fomit-frame-pointer -o "$work/profile_workload" "$(dirname "$0")/../tests/plugin/pmc/profile_workload.c"
workload=("$work/profile_workload" copy 60000)

now() { date +%s.%N; }
ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }

start=$(now)
"${workload[@]}" >/dev/null
alone=$(python3 -c "print('%.3f' % ($(now) - $start))")
echo "   workload alone: ${alone} s"

start=$(now)
"$dtrace" -q -n 'pmc:::cpu-clock-100000 { @all = count(); } pmc:::cpu-clock-100000 /pid == $target/ {
    @[ustack()] = count(); @target = count(); } END { printa("samples %@d\n", @all); printa("target %@d\n", @target); }' \
  -c "${workload[*]}" >"$work/dtrace.out" 2>"$work/dtrace.err"
wall=$(python3 -c "print('%.3f' % ($(now) - $start))")
samples=$(awk '/^samples/ {print $2}' "$work/dtrace.out")
target=$(awk '/^target/ {print $2}' "$work/dtrace.out")
drops=$( (grep -Eo '[0-9]+ drops' "$work/dtrace.err" || true) | awk '{s += $1} END {print s + 0}')
echo "   dtrace pmc:::cpu-clock-100000 + ustack(): ${wall} s ($(ratio "$wall" "$alone")x the workload alone)," \
     "${samples} samples ($(python3 -c "print(int($samples / $wall))")/s delivered), ${target} of the target, ${drops} dropped"

start=$(now)
perf record -q -e cpu-clock -c 100000 -g -o "$work/perf.data" -- "${workload[@]}" >/dev/null 2>"$work/perf.err" || true
wall=$(python3 -c "print('%.3f' % ($(now) - $start))")
stats=$(perf report -i "$work/perf.data" --stats 2>/dev/null)
psamples=$(awk '/SAMPLE events/ {print $3; exit}' <<<"$stats")
plost=$(awk '/LOST events/ {print $3; exit}' <<<"$stats")
echo "   perf record -e cpu-clock -c 100000 -g: ${wall} s ($(ratio "$wall" "$alone")x the workload alone)," \
     "${psamples:-?} samples ($(python3 -c "print(int(${psamples:-0} / $wall))")/s), ${plost:-0} lost records"
