#!/usr/bin/env bash
# pmc_sampling.sh DTRACE: pmc:::cpu-clock-100000 with ustack() against
# `perf record -e cpu-clock -c 100000 -g` on the same workload, in the same
# run: the samples dtrace delivered per second and whether it dropped any,
# and each tool's overhead on the workload (its wall time under the tool over
# its time alone, and the tool's start-up alone; ratios, as timings on a
# shared VM spread). Both sample the command's threads only (dtrace: its
# `pid == $target` predicate opens the event for that process); dtrace
# copies 8 KB of user stack per sample and unwinds it with CFI, perf -g
# walks frame pointers in the kernel (which stop at Debian's libc). Needs
# root and perf (Debian's linux-perf); says so and stops without.
set -euo pipefail
dtrace=$1
. "$(dirname "$0")/bench_lib.sh"
perf_bench_start # $work, with the profile workload
workload=("$work/profile_workload" copy 60000)
idle=("$work/profile_workload" copy 0)

since() { python3 -c "print('%.3f' % ($(now) - $1))"; }
ratio() { python3 -c "print('%.2f' % ($1 / $2))"; }
minus() { python3 -c "print('%.3f' % max($1 - $2, 0.001))"; }

start=$(now)
"${workload[@]}" >/dev/null
alone=$(since "$start")
echo "   workload alone: ${alone} s"

script='pmc:::cpu-clock-100000 /pid == $target/ { @[ustack()] = count(); @n = count(); } END { printa("samples %@d\n", @n); }'
start=$(now)
"$dtrace" -q -n "$script" -c "${idle[*]}" >/dev/null 2>&1
startup=$(since "$start")
start=$(now)
"$dtrace" -q -n "$script" -c "${workload[*]}" >"$work/dtrace.out" 2>"$work/dtrace.err"
wall=$(since "$start")
samples=$(awk '/^samples/ {print $2}' "$work/dtrace.out")
drops=$( (grep -Eo '[0-9]+ drops' "$work/dtrace.err" || true) | awk '{s += $1} END {print s + 0}')
run=$(minus "$wall" "$startup")
echo "   dtrace pmc:::cpu-clock-100000 /pid == \$target/ + ustack(): ${wall} s, ${startup} s of it start-up:" \
     "the workload ran ${run} s ($(ratio "$run" "$alone")x alone), ${samples} samples" \
     "($(python3 -c "print(int($samples / $run))")/s of its run delivered), ${drops} dropped"

start=$(now)
perf record -q -e cpu-clock -c 100000 -g -o "$work/idle.data" -- "${idle[@]}" >/dev/null 2>&1 || true
startup=$(since "$start")
start=$(now)
perf record -q -e cpu-clock -c 100000 -g -o "$work/perf.data" -- "${workload[@]}" >/dev/null 2>"$work/perf.err" || true
wall=$(since "$start")
stats=$(perf report -i "$work/perf.data" --stats 2>/dev/null)
psamples=$(awk '/SAMPLE events/ {print $3; exit}' <<<"$stats")
plost=$(awk '/LOST events/ {print $3; exit}' <<<"$stats")
run=$(minus "$wall" "$startup")
echo "   perf record -e cpu-clock -c 100000 -g: ${wall} s, ${startup} s of it start-up and exit: the workload ran" \
     "${run} s ($(ratio "$run" "$alone")x alone), ${psamples:-?} samples" \
     "($(python3 -c "print(int(${psamples:-0} / $run))")/s of its run), ${plost:-0} lost records"
