#!/bin/sh
# sdt_sched.sh [BUILD_DIR]: the sched provider, live, side by side with
# bpftrace (Debian's), in one run. Root only. A parent and a child pass a
# byte back and forth over pipes on CPU 0 (sdt_workload pingpong: two
# context switches per round trip) while a tracer counts every context
# switch system-wide:
#   dtrace   `sched:::on-cpu { @[execname] = count(); }` (in the kernel:
#            docs/fastpath.md; and with -x fastpath=off, every event to
#            user space)
#   bpftrace `tracepoint:sched:sched_switch { @[comm] = count(); }`
# Wall time on this VM moves with what the other vCPU does (an idle vCPU
# makes wake-ups slower), so the figure is CPU time: the CPU (user + system,
# the tracer and the workload, its child) a run of TRIPS round trips costs
# more than a run of a tenth as many, less the same difference without a
# tracer, per context switch (start-up cancels out). Medians of RUNS runs,
# with their range; the ratio dtrace / bpftrace has the goal <= 1.0.
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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The workload, built here (the bench build has no tests); its comm is sdt_workload.
workload=$tmp/sdt_workload
cc -O2 -o "$workload" "$source" || { echo "sdt_sched.sh: cannot build $source" >&2; exit 1; }

python3 - "$dtrace" "$workload" "$trips" "$runs" "$(command -v bpftrace || true)" <<'PY'
import os, re, shutil, statistics, subprocess, sys
dtrace, workload, trips, runs, bpftrace = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
small = trips // 10

def run(cmd):
    """cmd's stdout and stderr (its CPU shows in os.times()'s children fields)."""
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = child.communicate()
    assert child.returncode == 0, (cmd, err)
    return out, err

def measured(make_cmd):
    """Per-switch CPU cost of the TRIPS run over the small one: the median of RUNS pairs, and their range."""
    costs, last = [], ""
    for _ in range(runs):
        pair = []
        for n in (trips, small):
            before = os.times()
            out, err = run(make_cmd(n))
            after = os.times()
            pair.append((after.children_user - before.children_user) + (after.children_system - before.children_system))
            if n == trips:
                last = out + err
        costs.append((pair[0] - pair[1]) / (2 * (trips - small)))
    return statistics.median(costs), (min(costs), max(costs)), last

taskset = os.path.realpath(shutil.which("taskset"))  # bpftrace -c wants one binary's path
pinned = lambda n: "%s -c 0 %s pingpong %d" % (taskset, workload, n)
alone, spread, _ = measured(lambda n: pinned(n).split())
added = lambda cost, spread: "+%5.0f ns CPU per context switch (runs %.0f..%.0f)" % (
    (cost - alone) * 1e9, (spread[0] - alone) * 1e9, (spread[1] - alone) * 1e9)
print("== sched:::on-cpu { @[execname] = count(); } during %d pipe round trips on CPU 0 (median of %d runs)" % (trips, runs))
print("  workload alone      %5.0f ns CPU per context switch (runs %.0f..%.0f)" % (alone * 1e9, spread[0] * 1e9, spread[1] * 1e9))
dt = None
for mode in ("on", "off"):
    cost, spread, out = measured(lambda n: [dtrace, "-x", "fastpath=" + mode, "-qn", "sched:::on-cpu { @[execname] = count(); }",
                                            "-c", pinned(n)])
    drops = sum(int(m) for m in re.findall(r"(\d+) drops? on CPU", out))
    counted = re.search(r"^\s*sdt_workload\s+(\d+)", out, re.M)
    print("  dtrace fastpath=%-3s %s, drops %d, workload switches counted %s"
          % (mode, added(cost, spread), drops, counted.group(1) if counted else "?"))
    dt = cost if dt is None else dt
if bpftrace:
    bp, spread, bp_out = measured(lambda n: [bpftrace, "-e", "tracepoint:sched:sched_switch { @[comm] = count(); }", "-c", pinned(n)])
    counted = re.search(r"^@\[sdt_workload\]: (\d+)", bp_out, re.M)
    print("  bpftrace            %s, workload switches counted %s" % (added(bp, spread), counted.group(1) if counted else "?"))
    if bp > alone:
        print("  ratio of costs (dtrace with the fast path / bpftrace): %.2f (goal <= 1.0)" % ((dt - alone) / (bp - alone)))
else:
    print("  bpftrace: not installed (apt-get install bpftrace)")
PY
