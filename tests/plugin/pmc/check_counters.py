#!/usr/bin/env python3
"""check_counters.py DTRACE WORKLOAD: pmc["name"], the firing thread's counts read at other probes.

Each check runs dtrace live against our own workload, filters on $target, and is bounded in
time. The counts must be exact: a read() into N new pages faults exactly N times between the
call's entry and its return. Exits 0 when every check passes, 1 on a failure, 77 when the dtrace
binary or the syscall provider is missing here (the message says which).
"""
import os
import re
import sys

from live_checks import SKIP, Checks

PAGES = 64
dtrace, workload = sys.argv[1], sys.argv[2]
checks = Checks(dtrace)
run, check = checks.run, checks.check


def delta_over_read(counter):
    """{delta: calls} of pmc[counter] between entry and return of the workload's big read()s."""
    size = PAGES * os.sysconf("SC_PAGESIZE")
    script = (f'syscall::read:entry /pid == $target && arg2 == {size}/ '
              f'{{ self->in = 1; self->c = pmc["{counter}"]; }} '
              f'syscall::read:return /self->in/ {{ @[pmc["{counter}"] - self->c] = count(); self->in = 0; }} '
              'END { printa("%d %@d\\n", @); }')
    status, out, err = run(script, f"{workload} readpages {PAGES}")
    pairs = dict(tuple(map(int, line.split())) for line in out.splitlines() if re.fullmatch(r"\d+ \d+", line))
    return status, pairs, out + err


def main():
    if not os.access(dtrace, os.X_OK):
        print(f"SKIP: {dtrace} does not exist yet")
        return SKIP
    status, out, err = run("syscall::getppid:entry { exit(0); } tick-1s { exit(0); }")
    if status != 0:
        print(f"SKIP: the syscall provider does not run here: {err.strip()}")
        return SKIP

    # A read() of PAGES pages of /dev/zero into PAGES new pages: the kernel faults each in.
    for counter, expected in (("page-faults", PAGES), ("minor-faults", PAGES), ("major-faults", 0)):
        status, pairs, output = delta_over_read(counter)
        check(f'pmc["{counter}"] over each of the 3 reads: {expected} ({pairs})',
              status == 0 and pairs == {expected: 3}, output)

    # A sleep switches the thread out at least once; its on-CPU time never goes back.
    status, out, err = run('syscall::clock_nanosleep:entry /pid == $target/ { self->in = 1;'
                           ' self->s = pmc["context-switches"]; self->t = pmc["task-clock"]; }'
                           ' syscall::clock_nanosleep:return /self->in/ {'
                           ' printf("%d %d\\n", pmc["context-switches"] - self->s, pmc["task-clock"] >= self->t); }',
                           f"{workload} sleep 1")
    match = re.search(r"^(\d+) (\d)$", out, re.M)
    check(f'pmc["context-switches"] over a sleep >= 1 and pmc["task-clock"] monotonic ({out.strip()})',
          status == 0 and match is not None and int(match.group(1)) >= 1 and match.group(2) == "1", out + err)

    # Refusals at compile time, exit 1, each naming what is wrong.
    status, out, err = run('BEGIN { trace(pmc["no-such-counter"]); }')
    check("an unknown counter: D_IDENT_UNDEF naming it and listing the readable ones",
          status == 1 and 'pmc["no-such-counter"]: unknown counter' in err and "page-faults" in err, err)
    status, out, err = run('BEGIN { trace(pmc[1]); }')
    check("a key that is not a string constant: D_ARR_BADREF", status == 1 and "pmc[ ] takes one key" in err, err)
    status, out, err = run('BEGIN { trace(pmc["page-faults"]); }', extra=["-x", "plugins=syscall"])
    check("without the pmc plugin: says it is not loaded",
          status == 1 and "supplied by plugin 'pmc', which is not loaded" in err, err)
    status, out, err = run('BEGIN { trace(pmc["cycles"]); }')
    check("a hardware counter: refused with why (no PMU here, or not readable at other probes yet)",
          status == 1 and ("no PMU" in err or "only the kernel's per-thread counts" in err), err)

    # An event that carries no per-thread counts (a replay, a sample): the clause faults.
    status, out, err = run('profile-97 { trace(pmc["page-faults"]); exit(0); } tick-2s { exit(0); }')
    check("a read where the event carries no counts faults: illegal operation",
          "illegal operation" in err, out + err)

    return checks.status()


if __name__ == "__main__":
    sys.exit(main())
