#!/usr/bin/env python3
"""Replay throughput of one trace file: dtrace -qn 'diag:::events { @[arg0] = count(); }' -E FILE.

Usage: replay_figures.py DTRACE FILE EVENTS [PROGRAM]

PROGRAM replaces the D program (the dnet figure runs a dnet:: one).

Prints the file's size, `cat > /dev/null` as the floor, and the replay's wall
time, CPU time (user + system) and max RSS, each the best of three runs (wall
time counts waiting for a CPU on a busy machine, CPU time does not).
"""
import os
import subprocess
import sys
import time


def run(cmd):
    """Wall seconds, CPU seconds (user + system) and max RSS (MB) of one run."""
    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    assert status == 0, cmd
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def best(cmd, runs=3):
    results = [run(cmd) for _ in range(runs)]
    return min(r[0] for r in results), min(r[1] for r in results), max(r[2] for r in results)


def main():
    dtrace, trace, events = sys.argv[1], sys.argv[2], int(sys.argv[3])
    program = sys.argv[4] if len(sys.argv) > 4 else "diag:::events { @[arg0] = count(); }"
    mb = os.path.getsize(trace) / 2**20
    cat_wall, _, _ = best(["sh", "-c", 'cat "$0" > /dev/null', trace])  # also warms the page cache
    wall, cpu, rss = best([dtrace, "-qn", program, "-E", trace])
    print("   file: %.0f MB, %d events" % (mb, events))
    print("   cat > /dev/null: %.2f s wall, %.0f MB/s" % (cat_wall, mb / cat_wall))
    print("   replay: %.2f s wall (%.1f M events/s, %.0f MB/s); %.2f s CPU (%.1f M events/s per core, %.0f MB/s);"
          " max RSS %.0f MB" % (wall, events / wall / 1e6, mb / wall, cpu, events / cpu / 1e6, mb / cpu, rss))
    print("   (best of 3; wall time counts waiting for a CPU on a busy machine, CPU time does not)")


if __name__ == "__main__":
    main()
