#!/usr/bin/env bash
# Sets everything up, then runs a few D programs that show what dtrace does.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
d=build/dtrace
run() { echo; echo "\$ dtrace $*"; "$d" "$@"; }
# Live tracing (root): system calls by process for a second, the latency of a
# command's system calls as power-of-two distributions, and a profile of a
# command with its user stacks (Debian's programs are stripped: their own
# frames show as module`address, libc's are named).
if [ "$(id -u)" -eq 0 ]; then
  run -qn 'syscall:::entry { @[execname] = count(); } tick-1s { exit(0); }
           END { trunc(@, 10); printa("%-20s %@d\n", @); }'
  run -qn 'syscall:::entry /pid == $target/ { self->ts = timestamp; }
           syscall:::return /self->ts/ { @[probefunc] = quantize(timestamp - self->ts); self->ts = 0; }' \
      -c "cat /etc/hostname /etc/os-release"
  run -qn 'profile-997 /pid == $target/ { @[ustack(4)] = count(); } END { trunc(@, 3); }' \
      -c "sha256sum $d $d $d"
  run -qn 'pid$target::malloc:entry { @[ustack(4)] = count(); } END { trunc(@, 3); }' -c 'ls -l /usr'
  run -qn 'proc:::exec-success /pid == $target/ { printf("%d %s\n", pid, curpsinfo->pr_psargs); }' \
      -c "nice nice date -u"
else
  echo; echo "(live tracing skipped: it needs root)"
fi
run -qn 'BEGIN { printf("hello, %s %d\n", "world", 42); exit(0); }'
run -n 'BEGIN { trace(probename); trace(1 + 2 * 3); exit(0); }'
run -qn 'profile:::tick-10ms { @ticks[probename] = count(); @sum = sum(10); } tick-200ms { exit(0); }'
run -l -P dtrace
# A small ETW trace made by the project's own ETL writer (tests/fixtures/etl_writer),
# replayed with -E: every record counted by provider, then the .NET events.
run -qE examples/traces/demo.etl -n 'diag:::events { @[stringof(copyinstr(arg0))] = count(); }'
run -qE examples/traces/demo.etl -n 'microsoft-windows-dotnetruntime:::events { printf("%s pid %d event %d\n", execname, pid, arg0); }'
