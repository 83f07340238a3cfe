#!/usr/bin/env python3
"""fpid_hit_cost.py [BUILD_DIR]: what an entry probe counting calls costs the
traced thread, per hit, on the tight loop of a tiny function (pid_target's
`loop:N` step, tiny_leaf: `lea 1(%rdi),%eax; ret`), the issue-13 figures:

  fpid      dtrace -qn 'fpid$target:a.out:tiny_leaf:entry { @ = count(); }'
  fpid+ts   the same clause also reading timestamp (the time stamp counter)
  fpid+vt   the same clause also reading vtimestamp (a system call per hit)
  pid       dtrace -x fastpath=on -qn 'pid$target:a.out:tiny_leaf:entry { @ = count(); }'
            (a uprobe; the count runs in the kernel)
  ptrace    the same with -x pidbackend=ptrace: pid's fallback where the
            kernel has no uprobes (an int3 the tracer thread of dtrace handles)
  bpftrace  bpftrace -e 'uprobe:<pid_target>:tiny_leaf /pid == cpid/ { @ = count(); }'

The cost is the traced process's own CPU time (user + system, as it reports
it with TARGET_REPORT), so time spent waiting for a CPU on this shared
machine does not count: each tool runs the loop N and 2N times and the
difference, over N, is the cost of one more hit (what starting, attaching and
the first hit of a thread cost cancels out); the loop alone is measured the
same way and taken off. The tools take turns within each of RUNS rounds, so
that each round's ratios (pid / fpid, pid / bpftrace) compare runs made under
the same load; the figures are the medians over the rounds, with their
spread. Every traced run's count is checked against the calls made, and
drops are refused: a figure from a run that lost events would mean nothing.
Goal (issue 13): fpid <= 15 ns per hit and at least 50x cheaper than pid's
uprobe; pid no slower than bpftrace (ratio <= 1).

A thread stopped at a ptrace breakpoint waits for dtrace, which its CPU time
does not show: pid's two backends are also compared by the target's elapsed
time per hit (2N run minus N run), with ptrace / uprobe as their ratio.

fpid records every hit into a ring that dtrace drains asynchronously, at a
few hundred ns per record on this machine: a loop of 10-ns hits outruns it,
so the ring is made large enough (-x fpidbufsize) to hold the whole run.
dtrace's own CPU per record is printed too. bench/fpid_hit_instructions.sh
counts the instructions of a hit (callgrind), which do not spread.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

build = sys.argv[1] if len(sys.argv) > 1 else "build"
dtrace = os.path.join(build, "dtrace")
runs = int(os.environ.get("RUNS", "5"))
fpid_calls = int(os.environ.get("FPID_CALLS", "10000000"))
uprobe_calls = int(os.environ.get("UPROBE_CALLS", "20000"))
ptrace_calls = int(os.environ.get("PTRACE_CALLS", "20000"))
target = next((p for p in (os.path.join(build, "tests/targets/pid_target"),
                           os.path.join(build, "bench/targets/pid_target")) if os.access(p, os.X_OK)), None)
if os.geteuid() != 0:
    sys.exit("fpid_hit_cost.py: needs root (ptrace, uprobes)")
if target is None or not os.access(dtrace, os.X_OK):
    sys.exit("fpid_hit_cost.py: %s or pid_target is not built under %s" % (dtrace, build))


def run(command, calls):
    """(target CPU seconds, count the tool printed or None, drops, tool CPU seconds, target elapsed seconds)
    of one traced run."""
    env = dict(os.environ, TARGET_REPORT="1")
    start = os.times()
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    end = os.times()
    report = re.search(r"target elapsed ([0-9.]+) cpu ([0-9.]+)", done.stderr)
    if done.returncode != 0 or report is None:
        sys.exit("fpid_hit_cost.py: %s failed:\n%s%s" % (" ".join(command), done.stdout, done.stderr))
    numbers = re.findall(r"^\s*@?:?\s*(\d+)\s*$", done.stdout, re.M)
    drops = sum(int(d) for d in re.findall(r"(\d+) drops? on CPU", done.stderr))
    tool_cpu = (end.children_user + end.children_system) - (start.children_user + start.children_system)
    return float(report.group(2)), int(numbers[-1]) if numbers else None, drops, tool_cpu, float(report.group(1))


# A system call per hit: N/50 hits still take long enough for the target's CPU time to resolve them.
vt_calls = fpid_calls // 50


def per_hit(make_command, calls, name):
    """ns per added hit in one round (2N run minus N run), the tool's CPU per hit, and elapsed ns per hit."""
    cpu1, count1, drops1, tool1, elapsed1 = run(make_command(calls), calls)
    cpu2, count2, drops2, tool2, elapsed2 = run(make_command(2 * calls), 2 * calls)
    for count, expected, drops in ((count1, calls, drops1), (count2, 2 * calls, drops2)):
        if count is not None and (count != expected or drops):
            sys.exit("fpid_hit_cost.py: %s counted %s of %d calls (%d drops): no figure" %
                     (name, count, expected, drops))
    return (cpu2 - cpu1) / calls * 1e9, (tool2 - tool1) / calls * 1e9, (elapsed2 - elapsed1) / calls * 1e9


def alone(n):
    return [target, "loop:%d" % n]


def fpid(n, reads="", record_bytes=8, calls=fpid_calls):
    # The whole 2N run fits, and both runs populate the same ring (its pages
    # are touched at the first hit, a cost of the thread's that the
    # difference of the runs cancels; no bigger than needed, as it spreads).
    ring = 1 << max(22, (2 * calls * record_bytes - 1).bit_length())
    return [dtrace, "-x", "fpidbufsize=%d" % ring, "-qn",
            "fpid$target:a.out:tiny_leaf:entry { @ = count(); %s} END { printa(\"%%@d\\n\", @); }" % reads,
            "-c", "%s loop:%d" % (target, n)]


def fpid_timestamp(n):
    return fpid(n, "self->t = timestamp; ", 16)


def fpid_vtimestamp(n):
    return fpid(n, "self->v = vtimestamp; ", 16, vt_calls)


def pid(n, backend="auto"):
    return [dtrace, "-x", "fastpath=on", "-x", "pidbackend=" + backend, "-qn",
            "pid$target:a.out:tiny_leaf:entry { @ = count(); } END { printa(\"%@d\\n\", @); }",
            "-c", "%s loop:%d" % (target, n)]


def pid_ptrace(n):
    return pid(n, "ptrace")


def bpftrace(n):
    return ["bpftrace", "-e", "uprobe:%s:tiny_leaf /pid == cpid/ { @ = count(); }" % os.path.abspath(target),
            "-c", "%s loop:%d" % (target, n)]


probe = subprocess.run([dtrace, "-l", "-n", "pid$target:a.out:tiny_leaf:entry", "-c", target + " loop:1"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
have_pid = probe.returncode == 0
have_bpftrace = shutil.which("bpftrace") is not None

samples = {}  # name -> one figure per round


def add(name, value):
    samples.setdefault(name, []).append(value)


for _ in range(runs):
    loop_fpid, _, _ = per_hit(alone, fpid_calls, "the loop")
    loop_uprobe, _, loop_elapsed = per_hit(alone, uprobe_calls, "the loop")
    add("loop", loop_fpid)
    fpid_ns, fpid_tool, _ = per_hit(fpid, fpid_calls, "fpid")
    add("fpid", fpid_ns - loop_fpid)
    add("fpid dtrace", fpid_tool)
    ts_ns, _, _ = per_hit(fpid_timestamp, fpid_calls, "fpid+timestamp")
    add("fpid+ts", ts_ns - loop_fpid)
    vt_ns, _, _ = per_hit(fpid_vtimestamp, vt_calls, "fpid+vtimestamp")
    add("fpid+vt", vt_ns - loop_fpid)
    if have_pid:
        pid_ns, _, pid_elapsed = per_hit(pid, uprobe_calls, "pid")
        add("pid", pid_ns - loop_uprobe)
        add("pid / fpid", (pid_ns - loop_uprobe) / (fpid_ns - loop_fpid))
        add("pid elapsed", pid_elapsed - loop_elapsed)
        _, _, ptrace_elapsed = per_hit(pid_ptrace, ptrace_calls, "pid (ptrace)")
        add("ptrace elapsed", ptrace_elapsed - loop_elapsed)
        add("ptrace / uprobe", (ptrace_elapsed - loop_elapsed) / (pid_elapsed - loop_elapsed))
    if have_bpftrace:
        bpf_ns, _, _ = per_hit(bpftrace, uprobe_calls, "bpftrace")
        add("bpftrace", bpf_ns - loop_uprobe)
        if have_pid:
            add("pid / bpftrace", (pid_ns - loop_uprobe) / (bpf_ns - loop_uprobe))


def figure(name):
    values = samples[name]
    return statistics.median(values), min(values), max(values)


print("== cost per hit of an entry probe counting calls of tiny_leaf (target CPU, 2N run minus N run; "
      "median of %d rounds, the tools taking turns, [min max])" % runs)
print("   the loop alone:          %8.1f ns per call  [%.1f %.1f]" % figure("loop"))
print("   fpid (inline hook):      %8.1f ns per hit   [%.1f %.1f]  (N = %d; dtrace's CPU: %.0f ns per record)" %
      (figure("fpid") + (fpid_calls, figure("fpid dtrace")[0])))
print("   fpid reading timestamp:  %8.1f ns per hit   [%.1f %.1f]  (the time stamp counter, rdtsc)" %
      figure("fpid+ts"))
print("   fpid reading vtimestamp: %8.1f ns per hit   [%.1f %.1f]  (N = %d; CLOCK_THREAD_CPUTIME_ID is a system call)" %
      (figure("fpid+vt") + (vt_calls,)))
if have_pid:
    print("   pid (uprobe, fast path): %8.0f ns per hit   [%.0f %.0f]  (N = %d)" % (figure("pid") + (uprobe_calls,)))
else:
    print("   pid (uprobe):            not measured: the pid provider is not built or cannot trace here")
if have_bpftrace:
    print("   bpftrace uprobe:         %8.0f ns per hit   [%.0f %.0f]  (N = %d)" %
          (figure("bpftrace") + (uprobe_calls,)))
else:
    print("   bpftrace uprobe:         not measured: bpftrace is not installed")
if have_pid:
    print("   pid / fpid:              %8.0fx             [%.0f %.0f]  (goal: fpid <= 15 ns and >= 50x cheaper)" %
          figure("pid / fpid"))
if have_pid and have_bpftrace:
    print("   pid / bpftrace:          %8.2f              [%.2f %.2f]  (goal: <= 1)" % figure("pid / bpftrace"))
if have_pid:
    print("== pid's backends by the target's elapsed time per hit (a thread stopped at a ptrace breakpoint "
          "waits for dtrace; median of %d rounds, [min max])" % runs)
    print("   pid (uprobe):            %8.0f ns per hit   [%.0f %.0f]  (N = %d)" %
          (figure("pid elapsed") + (uprobe_calls,)))
    print("   pid (ptrace fallback):   %8.0f ns per hit   [%.0f %.0f]  (N = %d; -x pidbackend=ptrace)" %
          (figure("ptrace elapsed") + (ptrace_calls,)))
    print("   ptrace / uprobe:         %8.1fx             [%.1f %.1f]" % figure("ptrace / uprobe"))
