#!/bin/sh
# check_syscall.sh DTRACE WORKLOAD CASE: the syscall provider, live, on a
# workload of our own with known system calls (syscall_workload.c). Every
# clause filters on $target (other work shares the machine) and every run is
# bounded in time. Exit 0: passed; 1: failed (saying why); 77: skipped
# (saying what is missing).
dtrace=$1
workload=$2
case_name=$3
exit_at_once=$4 # ustack_exit's program
limit=120
# (run, fail, $dir, the skips; DTRACE_FASTPATH=on|off runs every case with
# -x fastpath=...: the same expected output either way, docs/fastpath.md)
. "$(dirname "$0")/live_check.sh"

need_built "$dtrace" "$workload"
need_root "live tracing needs root (BPF programs, tracefs)"
need_dtrace "the syscall provider cannot list probes here" -l -n syscall::getppid:entry

# The lines, then the blank line dtrace ends a run with.
expect_output() {
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    printf '%s\n\n' "$1" | diff - "$out" >/dev/null || fail "stdout is not: $1"
}

count='syscall::getppid:entry /pid == $target/ { @ = count(); } END { printa("%@d\n", @); }'

case "$case_name" in
count)
    # The issue's one-liner: exactly the workload's 200000 calls, no drops.
    run -qn "$count" -c "$workload 200000"
    expect_output "200000"
    ! grep -q drop "$err" || fail "drops reported"
    ;;
count_execname)
    # Filtering on execname instead of pid: the same count.
    run -qn 'syscall::getppid:entry /execname == "syscall_workloa" && pid == $target/ { @ = count(); }
             END { printa("%@d\n", @); }' -c "$workload 50000"
    expect_output "50000"
    ;;
strings)
    # A path as the call saw it (argv memory, captured at the event), the
    # return value and errno of a failing open, and write's buffer.
    echo x >"$dir/present"
    run -qn 'syscall::openat:entry /pid == $target && copyinstr(arg1) != "/etc/ld.so.cache" &&
                                    basename(copyinstr(arg1)) != "libc.so.6"/ { printf("open %s\n", copyinstr(arg1)); }
             syscall::openat:return /pid == $target/ { self->n++; }
             syscall::openat:return /pid == $target && self->n > 2/ { printf("= %d errno %d\n", arg1, errno); }
             syscall::write:entry /pid == $target/ { printf("write %d ", arg2); tracemem(copyin(arg1, arg2), 5); }' \
        -c "$workload open:$dir/present open:$dir/absent write:hello"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "^open $dir/present\$" "$out" || fail "no path of the open that worked"
    grep -q "^open $dir/absent\$" "$out" || fail "no path of the open that failed"
    grep -q "^= -1 errno 2\$" "$out" || fail "no -1 with ENOENT on the failing open"
    grep -Eq "^= [0-9]+ errno 0\$" "$out" || fail "no file descriptor with errno 0"
    grep -q "^write 5 " "$out" || fail "no write of 5 bytes"
    grep -q "hello" "$out" || fail "write's buffer not copied"
    ;;
context)
    # The process context every live event carries (the workload waits, so
    # that what is read of /proc after the event is still there).
    run -qn 'syscall::getppid:entry /pid == $target/ {
                 printf("%d %d %d %s %d %d %d %s\n", pid == $target, tid == pid, ppid > 0, execname, uid, gid,
                        curthread != 0, curpsinfo->pr_fname);
                 printf("%d %d %d %d\n", curpsinfo->pr_pid == pid, curpsinfo->pr_ppid == ppid,
                        curlwpsinfo->pr_lwpid == tid, vtimestamp > 0);
                 printf("%d %d\n", walltimestamp > 1600000000000000000, cwd != "");
                 exit(0);
             }' -c "$workload 1 sleep:500"
    expect_output "1 1 1 syscall_workloa $(id -u) $(id -g) 1 syscall_workloa
1 1 1 1
1 1"
    ;;
fds)
    # fds[] of the workload's descriptors: a file it writes and seeks in, one
    # it reads, bad descriptors, and one closed before dtrace reads /proc
    # (fds[] is read from /proc when the clause runs: the workload waits).
    file=$dir/fds_file
    exec 4>>"$file" # the workload's open: what /proc says of it, computed here
    mnt=$(awk '$1 == "mnt_id:" { print $2 }' /proc/$$/fdinfo/4)
    flags=$(awk '$1 == "flags:" { print $2 }' /proc/$$/fdinfo/4)
    exec 4>&-
    fs=$(awk -v id="$mnt" '$1 == id { for (i = 7; i < NF; i++) if ($i == "-") { print $(i + 1); exit } }' \
        /proc/self/mountinfo)
    mount=$(awk -v id="$mnt" '$1 == id { print $5 }' /proc/self/mountinfo)
    path=$(readlink -f "$file")
    run -qn 'syscall::fsync:entry /pid == $target/ {
                 printf("fsync %d %s|%s|%s|%d|%s|%s|0%o\n", (int)arg0, fds[arg0].fi_pathname, fds[arg0].fi_name,
                        fds[arg0].fi_dirname, fds[arg0].fi_offset, fds[arg0].fi_fs, fds[arg0].fi_mount,
                        fds[arg0].fi_oflags);
             }
             syscall::read:entry /pid == $target && fds[arg0].fi_name == "fds_file"/ { self->fd = arg0; }
             syscall::read:return /self->fd/ {
                 printf("read %s %d %d\n", fds[self->fd].fi_pathname, fds[self->fd].fi_offset,
                        fds[self->fd].fi_oflags & O_ACCMODE);
                 self->fd = 0;
             }' -c "$workload fdwrite:$file:4096 fdread:$file:6 fsync:-1 fsync:999 fdclose:$file sleep:1000"
    expect_status_0
    [ -n "$fs" ] && [ -n "$mount" ] || fail "no mount $mnt in /proc/self/mountinfo"
    lines=$(grep -c '^fsync ' "$out")
    [ "$lines" = 4 ] || fail "$lines fsync lines, not 4"
    grep -qx "fsync [0-9]* $path|fds_file|$(dirname "$path")|4096|$fs|$mount|$flags" "$out" ||
        fail "fds[] of the file written is not $path|fds_file|$(dirname "$path")|4096|$fs|$mount|$flags"
    grep -qx "read $path 10 0" "$out" || fail "fds[] of the file read is not at offset 10 (6 + 4), O_RDONLY"
    for bad in -1 999; do
        grep -qx "fsync $bad <none>|<none>|<none>|0|<none>|<none>|00" "$out" ||
            fail "fds[$bad] does not read as DTrace's values for no file"
    done
    # Closed by the time /proc is read (or, rarely, still open then).
    grep -Eqx "fsync [0-9]+ (<none>\|<none>\|<none>\|0\|<none>\|<none>\|00|$path\|.*)" "$out" ||
        fail "no fsync line for the file closed since"
    ;;
fds_begin)
    # At BEGIN (dtrace's own process) fds[] describes dtrace's own
    # descriptors: stdin is the file given, stdout the output file.
    file=$dir/fds_begin
    echo data >"$file"
    path=$(readlink -f "$file")
    run -qn 'BEGIN {
                 printf("%s|%s|%s|%d\n", fds[0].fi_pathname, fds[0].fi_name, fds[0].fi_dirname,
                        fds[0].fi_oflags & O_ACCMODE);
                 printf("%s|%s\n", fds[1].fi_pathname, fds[-1].fi_pathname);
                 exit(0);
             }' <"$file"
    expect_output "$path|fds_begin|$(dirname "$path")|0
$(readlink -f "$out")|<none>"
    ;;
stacks)
    # stack() and ustack() at a system call: the kernel's path from the
    # system call entry, the workload's path to its syscall(2) (the
    # workload waits, so that its mappings are there when the stack is
    # unwound).
    run -qn 'syscall::getppid:entry /pid == $target/ { @k[stack()] = count(); @u[ustack()] = count(); }' \
        -c "$workload 3 sleep:200"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q 'vmlinux`do_syscall_64+0x' "$out" || fail "no kernel frame of the system call's entry"
    grep -q 'vmlinux`perf_syscall\|vmlinux`bpf_' "$out" && fail "the tracing machinery's frames are in stack()"
    grep -q 'libc.so.6`syscall+0x' "$out" || fail "no libc frame in ustack()"
    grep -q 'syscall_workload`main+0x' "$out" || fail "no frame of the workload's main in ustack()"
    [ "$(grep -c '^ *3$' "$out")" = 2 ] || fail "not both stacks counted 3 times"
    ;;
ustack_exit)
    # ustack() of a program that exits right after its write, before the
    # ring is drained (its /proc/PID/maps is gone): its frames are named
    # from the mappings the kernel reported as it ran. Three runs, each
    # naming every function of the program's path to write(2).
    [ -x "$exit_at_once" ] || fail "no exit_at_once program given"
    for attempt in 1 2 3; do
        run -qn 'syscall::write:entry /pid == $target/ { @[ustack()] = count(); }' -c "$exit_at_once"
        [ "$status" = 0 ] || fail "dtrace exited with $status"
        for frame in 'libc.so.6`write+0x' 'exit_at_once`exit_at_once_write+0x' \
                     'exit_at_once`exit_at_once_caller+0x' 'exit_at_once`main+0x'; do
            grep -qF "$frame" "$out" || fail "run $attempt: no frame $frame in ustack()"
        done
        grep -q '^ *0x[0-9a-f]*$' "$out" && fail "run $attempt: a bare address in ustack()"
    done
    ;;
wide)
    # Every call of the target, entry and return: the raw_syscalls programs
    # (found by call number) report the same calls, arguments and errors.
    run -qn 'syscall:::entry /pid == $target/ { @calls[probefunc] = count(); }
             syscall::openat:entry /pid == $target/ { self->path = copyinstr(arg1); }
             syscall:::return /pid == $target && self->path == "'"$dir"'/absent"/ { printf("%s = %d errno %d\n", probefunc, arg0, errno); }
             syscall:::return /pid == $target/ { self->path = ""; }
             END { printa("%s %@d\n", @calls); }' -c "$workload 1000 open:$dir/absent write:hi"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "^getppid 1000\$" "$out" || fail "not 1000 getppid entries"
    grep -q "^write 1\$" "$out" || fail "not 1 write entry"
    grep -q "^openat = -1 errno 2\$" "$out" || fail "no failing openat return"
    ;;
prefilter)
    # Predicates the kernel pre-filters (pid, execname, integer arguments,
    # on entry and return) give the same output as with every event crossing
    # into dtrace (-x livenofilter), and the exact counts.
    script='syscall::getppid:entry /pid == $target/ { @g = count(); }
            syscall::write:entry /pid == $target && arg2 == 5/ { @w5 = count(); }
            syscall::write:entry /pid == $target && arg2 != 5/ { @wother = count(); }
            syscall::openat:entry /execname == "syscall_workloa" && pid == $target/ { @o = count(); }
            syscall::openat:return /pid == $target && arg0 < 0/ { @fail = count(); }
            END { printa("getppid %@d\n", @g); printa("write5 %@d\n", @w5); printa("write %@d\n", @wother);
                  printa("failed %@d\n", @fail); printa("opened %@d\n", @o); }'
    steps="3000 open:$dir/absent write:hello write:hi write:hello"
    run -qn "$script" -c "$workload $steps"
    filtered=$(cat "$out")
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    run -qn "$script" -x livenofilter -c "$workload $steps"
    [ "$status" = 0 ] || fail "dtrace -x livenofilter exited with $status"
    [ "$filtered" = "$(cat "$out")" ] || fail "the pre-filter changed the output: $filtered"
    # The opens: the loader's two (ld.so.cache, libc), /dev/null and the absent file.
    expect_output "getppid 3000
write5 2
write 1
failed 1
opened 4"
    ;;
drops)
    # A one-page ring overflows: the lost events are reported as drops (the
    # ring carries the events only when the clause stays in user space).
    run -qn 'syscall::getppid:entry /pid == $target/ { @ = count(); }' -x livebufsize=4k -x fastpath=off \
        -c "$workload 300000"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -Eq "[0-9]+ drops? on CPU" "$err" || fail "no drops reported"
    ;;
skipped)
    # Firings the kernel skipped are drops: a timer interrupt's
    # hrtimer_expire_entry on the CPU where the workload's getppid program
    # runs finds a tracing program running there and is skipped, counted
    # only in its program's recursion_misses. The workload's own calls
    # (entered from user space, where no program runs) are all counted.
    need_dtrace "the sdt plugin cannot list the kernel's tracepoints here" -l -n sdt:timer::hrtimer_expire_entry
    run -qn 'syscall::getppid:entry /pid == $target/ { @calls = count(); }
             sdt:timer::hrtimer_expire_entry { @timers = count(); }
             END { printa("calls %@d\n", @calls); printa("timers %@d\n", @timers); }' -c "$workload 1000000"
    expect_status_0
    [ "$(value_of calls)" = 1000000 ] || fail "not the workload's 1000000 calls"
    [ "$(value_of timers)" -gt 0 ] || fail "no timer expired"
    grep -Eq "^dtrace: [0-9]+ drops? on CPU 0\$" "$err" || fail "no skipped firings reported as drops"
    ;;
*)
    echo "unknown case $case_name"
    exit 2
    ;;
esac
echo "passed: $case_name"
