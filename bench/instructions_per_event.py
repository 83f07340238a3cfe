#!/usr/bin/env python3
"""Instructions per replayed event: dtrace -qn PROGRAM -E FILE under callgrind.

Usage: instructions_per_event.py DTRACE FILE EVENTS [PROGRAM]

Counts the instructions of the replay thread (ReplayThread::run, inclusive:
reading, dispatch, the engine's firings), without dtrace's start and end, and
divides by EVENTS. Wall times on a shared machine spread by half; instruction
counts do not, so this is the figure to compare before and after a change.
"""
import os
import re
import subprocess
import sys
import tempfile


def main():
    dtrace, trace, events = sys.argv[1], sys.argv[2], int(sys.argv[3])
    program = sys.argv[4] if len(sys.argv) > 4 else "diag:::events { @[arg0] = count(); }"
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, dtrace, "-qn", program, "-E",
                        trace], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        report = subprocess.run(["callgrind_annotate", "--inclusive=yes", out], capture_output=True, text=True,
                                check=True).stdout
    total = re.search(r"^\s*([\d,]+) \S+\s+PROGRAM TOTALS", report, re.M)
    replay = re.search(r"^\s*([\d,]+) .*ReplayThread::run\(", report, re.M)
    if not total or not replay:
        sys.exit("instructions_per_event: no replay thread in the profile")
    total, replay = (int(m.group(1).replace(",", "")) for m in (total, replay))
    print("   %d events: %.0f instructions an event in the replay thread (%d M of %d M in all)"
          % (events, replay / events, replay // 10**6, total // 10**6))


if __name__ == "__main__":
    main()
