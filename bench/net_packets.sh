#!/bin/sh
# net_packets.sh [BUILD_DIR]: udp:::send per packet, live, side by side with
# bpftrace (Debian's), in one run. Root only. A process sends DATAGRAMS
# 64-byte UDP datagrams to itself over loopback, pinned to CPU 0
# (net_workload udp: one packet queued and one received per datagram),
# while a tracer counts packets system-wide:
#   dtrace   `udp:::send { @ = count(); }`  (each UDP packet's headers to user space)
#   bpftrace `tracepoint:net:net_dev_queue { @ = count(); }`  (every packet, counted in the kernel)
# The figure is CPU time (user + system of the tracer and the workload):
# a run of DATAGRAMS costs more than a run of a tenth as many, less the same
# difference without a tracer, per datagram (start-up cancels out). Medians
# of RUNS runs; the ratio dtrace / bpftrace.
set -u
build=${1:-build}
dtrace=$build/dtrace
source=$(dirname "$0")/../tests/live/net_workload.c
datagrams=${DATAGRAMS:-200000}
runs=${RUNS:-5}

if [ "$(id -u)" != 0 ]; then
    echo "net_packets.sh: needs root (BPF programs)" >&2
    exit 1
fi
[ -x "$dtrace" ] || { echo "net_packets.sh: $dtrace is not built" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
workload=$tmp/net_workload # built here: the bench build has no tests
cc -O2 -o "$workload" "$source" || { echo "net_packets.sh: cannot build $source" >&2; exit 1; }
port=$((40000 + $$ % 20000))

python3 - "$dtrace" "$workload" "$datagrams" "$runs" "$port" "$(command -v bpftrace || true)" <<'PY'
import os, re, shutil, statistics, subprocess, sys
dtrace, workload, datagrams, runs, port, bpftrace = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
small = datagrams // 10

def cpu_of(cmd):
    """CPU seconds (user + system) of cmd and its children, and its output."""
    before = os.times()
    child = subprocess.run(cmd, capture_output=True, text=True)
    after = os.times()
    assert child.returncode == 0, (cmd, child.stderr)
    return (after.children_user - before.children_user) + (after.children_system - before.children_system), \
        child.stdout + child.stderr

def per_datagram(make_cmd):
    """CPU per datagram of the large run over the small one: the median of RUNS pairs, and the large run's output."""
    costs, last = [], ""
    for _ in range(runs):
        large, last = cpu_of(make_cmd(datagrams))
        little, _ = cpu_of(make_cmd(small))
        costs.append((large - little) / (datagrams - small))
    return statistics.median(costs), last

taskset = os.path.realpath(shutil.which("taskset"))
pinned = lambda n: "%s -c 0 %s udp %s %d 64" % (taskset, workload, port, n)
alone, _ = per_datagram(lambda n: pinned(n).split())
dt, dt_out = per_datagram(lambda n: [dtrace, "-qn", "udp:::send { @ = count(); } END { printa(\"%@d\\n\", @); }",
                                     "-c", pinned(n)])
drops = sum(int(m) for m in re.findall(r"(\d+) drops? on CPU", dt_out))
counted = re.search(r"^(\d+)$", dt_out, re.M)
print("== udp:::send { @ = count(); } during %d loopback datagrams on CPU 0 (median of %d runs)" % (datagrams, runs))
print("  workload alone      %6.0f ns CPU per datagram" % (alone * 1e9))
print("  dtrace              +%6.0f ns CPU per datagram, drops %d, UDP packets counted %s (>= %d)"
      % ((dt - alone) * 1e9, drops, counted.group(1) if counted else "?", datagrams))
if bpftrace:
    bp, bp_out = per_datagram(lambda n: [bpftrace, "-e", "tracepoint:net:net_dev_queue { @ = count(); }",
                                         "-c", pinned(n)])
    counted = re.search(r"^@: (\d+)", bp_out, re.M)
    print("  bpftrace            +%6.0f ns CPU per datagram, packets counted %s"
          % ((bp - alone) * 1e9, counted.group(1) if counted else "?"))
    if bp > alone:
        print("  ratio of costs (dtrace / bpftrace): %.2f" % ((dt - alone) / (bp - alone)))
else:
    print("  bpftrace: not installed (apt-get install bpftrace)")
PY
