#!/usr/bin/env bash
# Builds the benchmarks in build-bench/ (Release) and prints the figures the
# issues ask for. Numbers vary with the machine; run on an idle one.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDTRACE_BUILD_TESTS=OFF -DDTRACE_BUILD_BENCH=ON >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
dtrace="$build/dtrace"

# Mean wall time of a command over N runs, in milliseconds.
mean_ms() {
  local n=$1; shift
  python3 - "$n" "$@" <<'PY'
import subprocess, sys, time
n = int(sys.argv[1]); cmd = sys.argv[2:]
subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)  # warm the page cache
times = []
for _ in range(n):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    times.append((time.perf_counter() - t) * 1000)
times.sort()
print("%.1f ms mean, %.1f ms median, %.1f ms min (%d runs)" % (sum(times) / n, times[n // 2], times[0], n))
PY
}

echo "== startup: dtrace -qn 'BEGIN { exit(0); }' with every plugin in $build/plugins discovered (target <= 20 ms)"
echo "   plugins discovered: $(ls "$build"/plugins/*.so 2>/dev/null | wc -l)"
mean_ms 30 "$dtrace" -qn 'BEGIN { exit(0); }'

echo "== startup with 20 -n programs: the providers' D libraries are compiled once, not per program"
programs=()
for i in $(seq 1 20); do programs+=(-n "BEGIN { x$i = $i; }"); done
mean_ms 30 "$dtrace" -q "${programs[@]}" -n 'BEGIN { exit(0); }'

echo "== listing 100,000 probes from a plugin: dtrace -l (target <= 0.5 s)"
BENCH_PROBES=100000 mean_ms 5 "$dtrace" -x plugin="$build/bench/bench_probes.so" -l
echo "   rows printed: $(BENCH_PROBES=100000 "$dtrace" -x plugin="$build/bench/bench_probes.so" -l | wc -l)"

echo "== compile time of a 2,000-line D script: dtrace -e -s (target <= 100 ms)"
script=$(mktemp --suffix=.d)
python3 - "$script" <<'PY'
import sys
lines = []
i = 0
while len(lines) < 2000:
    lines += ["tick-%dms" % (i % 50 + 1), "/arg0 > %d && self->n%d < 10/" % (i, i % 7), "{",
              "\tself->n%d++;" % (i % 7), "\tthis->v = (arg0 * %d + %d) %% 97;" % (i, i + 3),
              "\t@counts[probename, this->v] = count();", "\t@sums[probename] = sum(this->v);",
              "\tprintf(\"%%s %%d %%d\\n\", probename, this->v, self->n%d);" % (i % 7), "}", ""]
    i += 1
open(sys.argv[1], "w").write("\n".join(lines[:2000]) + "\n")
PY
echo "   lines: $(wc -l < "$script")"
mean_ms 10 "$dtrace" -e -s "$script"
rm -f "$script"

echo "== cost per firing (targets: <= 50 ns for /arg0 > 10/ { @[probefunc] = count(); }, BM_FirePredicatedCount;"
echo "   <= 80 ns for @[probefunc] = quantize(arg0);, BM_FireQuantize)"
"$build/bench/engine_bench" --benchmark_min_time=1 2>/dev/null | grep -E '^(BM_|Benchmark|-)'

echo "== printa() of an aggregation with 1,000,000 keys, sorted (target <= 1 s)"
"$build/bench/printa_bench" 2>/dev/null | grep -E '^(BM_|Benchmark|-)'

echo "== etw replay: dtrace -qn 'diag:::events { @[arg0] = count(); }' -E over a 1 GB synthetic trace"
echo "   (target >= 10 M events/s on one core, max RSS <= 100 MB whatever the size)"
trace=$(mktemp --suffix=.etl)
events=$("$build/bench/etl_bench_trace" "$trace" "${ETL_BENCH_MB:-1024}")
bench/replay_figures.py "$dtrace" "$trace" "$events"
rm -f "$trace"

echo "== the in-kernel fast path: getppid counts, syscall:::entry by execname, read latency; against bpftrace"
if [[ $(id -u) == 0 && -x $build/bench/bench_syscall_workload ]]; then
  bench/fastpath_syscall.sh "$build" "$build/bench/bench_syscall_workload"
else
  echo "   skipped: needs root and $build/bench/bench_syscall_workload"
fi

echo "== the syscall provider: dtrace's own CPU per event, syscall:::entry system-wide"
if [[ $(id -u) == 0 && -x $build/bench/bench_syscall_workload ]]; then
  bench/live_syscall.sh "$build" "$build/bench/bench_syscall_workload"
else
  echo "   skipped: needs root and $build/bench/bench_syscall_workload"
fi

echo "== the fast path's strings and shared programs: startup of printf(probefunc), @[copyinstr(arg1)]; against bpftrace"
if [[ $(id -u) == 0 && -x $build/bench/bench_syscall_workload ]]; then
  bench/fastpath_strings.sh "$build" "$build/bench/bench_syscall_workload"
else
  echo "   skipped: needs root and $build/bench/bench_syscall_workload"
fi

echo "== the fast path's stack keys: @[stack()] in the kernel, @[ustack()] at syscall and pid probes; against bpftrace"
if [[ $(id -u) == 0 && -x $build/bench/bench_syscall_workload ]]; then
  bench/fastpath_stacks.sh "$build" "$build/bench/bench_syscall_workload"
else
  echo "   skipped: needs root and $build/bench/bench_syscall_workload"
fi

echo "== the in-kernel ustack() walk's table: first write and rewrite after a dlopen, one update per entry against batched writes of what changed"
if [[ $(id -u) == 0 && -x $build/bench/ustack_table_bench ]]; then
  bench/ustack_table.sh "$build"
else
  echo "   skipped: needs root and $build/bench/ustack_table_bench"
fi

echo "== profile-4999 with ustack(): samples/s delivered, drops, against perf record --call-graph dwarf"
bench/profile_sampling.sh "$dtrace" "$build"
echo "== pmc:::cpu-clock-100000 with ustack(): samples/s delivered, drops, overhead against perf record -g"
bench/pmc_sampling.sh "$dtrace"
if [[ -x $build/bench/live_stacks_bench ]]; then
  echo "== live stacks: CFI unwinding and symbolization cost per frame (stack captured inside libc's qsort)"
  "$build/bench/live_stacks_bench" --benchmark_counters_tabular=true 2>/dev/null | grep -E '^BM_|Benchmark'
fi

echo "== nettrace replay: dtrace -qn 'diag:::events { @[arg0] = count(); }' -E over a 1 GB synthetic .nettrace"
echo "   (V5, compressed headers, four threads per region; target >= 10 M events/s on one core, RSS bounded)"
nettrace=$(mktemp --suffix=.nettrace)
nettrace_events=$("$build/bench/nettrace_bench_trace" "$nettrace" "${NETTRACE_BENCH_MB:-1024}")
bench/replay_figures.py "$dtrace" "$nettrace" "$nettrace_events"
echo "== the same file through the dnet probes: dtrace -qn 'dnet:::allocate-tick { @[args[0]->gc_kind] = sum(args[0]->gc_amt); }'"
echo "   (a quarter of the events are allocation ticks, each decoded with its manifest template and translated)"
bench/replay_figures.py "$dtrace" "$nettrace" "$nettrace_events" \
  "dnet:::allocate-tick { @[args[0]->gc_kind] = sum(args[0]->gc_amt); }"
rm -f "$nettrace"
echo "== the same two replays: instructions an event (callgrind, a 16 MB file of the same shape; bench/nettrace_replay.md)"
if command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null; then
  nettrace=$(mktemp --suffix=.nettrace)
  nettrace_events=$("$build/bench/nettrace_bench_trace" "$nettrace" 16)
  bench/instructions_per_event.py "$dtrace" "$nettrace" "$nettrace_events"
  bench/instructions_per_event.py "$dtrace" "$nettrace" "$nettrace_events" \
    "dnet:::allocate-tick { @[args[0]->gc_kind] = sum(args[0]->gc_amt); }"
  rm -f "$nettrace"
else
  echo "   skipped: needs valgrind (callgrind)"
fi

echo "== sched:::on-cpu { @[execname] = count(); } against bpftrace's sched_switch count, context-switch-heavy workload"
if [[ $(id -u) == 0 ]]; then
  bench/sdt_sched.sh "$build"
else
  echo "   skipped: needs root (BPF programs)"
fi
echo "== udp:::send per packet against bpftrace's net_dev_queue count, loopback datagrams"
if [[ $(id -u) == 0 ]]; then
  bench/net_packets.sh "$build"
else
  echo "   skipped: needs root (BPF programs)"
fi
echo "== pid provider: cost per hit against bpftrace's uprobe: (and fpid when built); attach/detach of libc's functions"
bench/pid_probes.sh "$build"
echo "== fbt: dtrace -l -P fbt, every kernel function (target <= 1 s); startup above includes fbt.so"
mean_ms 5 "$dtrace" -l -P fbt
echo "   probes listed: $(("$("$dtrace" -l -P fbt | wc -l)" - 1))"
echo "== fbt entry counting against bpftrace's kprobe: in a VM (Debian's kernel under qemu), ratio only"
bench/fbt_vm.sh "$build"

echo "== fpid: cost per hit of an entry probe counting a tiny function's calls, against pid's uprobe and bpftrace's"
python3 bench/fpid_hit_cost.py "$build"
bench/fpid_hit_instructions.sh
