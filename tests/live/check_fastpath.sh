#!/bin/sh
# check_fastpath.sh DTRACE WORKLOAD CASE [LIBRARY]: the in-kernel fast path
# (docs/fastpath.md) on the syscall provider, with a workload of our own
# whose calls and arguments are known (syscall_workload.c), and on the sdt
# plugin's probes (the sdt_* cases, with sdt_workload.c). Every clause
# filters on $target and every run is bounded in time. Exit 0: passed; 1:
# failed (saying why); 77: skipped (saying what is missing).
#
#   explain       the issue's one-liners run in the kernel, and say so
#   differential  scripts of every kind the kernel path takes print the
#                 same bytes with -x fastpath=on and off
#   strings       copyinstr(), long strings, faults, shared programs
#   fallback      what the kernel path cannot do stays in user space, with
#                 the reason, and still prints the right output
#   stacks        stack() keys and records in the kernel, named as the
#                 user-space path names them
#   ustack        ustack() keys in the kernel for $target (LIBRARY: what
#                 the workload loads with dlopen), another process's calls
#                 not counted, the reason without $target
#   sdt_explain, sdt_differential, sdt_fallback
#                 the same for sdt:<group>::<event>, sched, proc and io
#   sdt_with_syscall
#                 syscall and sdt clauses in one session, both in the kernel
#   sdt_ustack    ustack() keys at sdt probes in the kernel for $target
#                 (with syscall_workload), in user space where the probe's
#                 thread is not the current task
dtrace=$1
workload=$2
case_name=$3
limit=120
. "$(dirname "$0")/live_check.sh" # run, fail, $dir, the skips

need_built "$dtrace" "$workload"
need_root "live tracing needs root (BPF programs, tracefs)"
case "$case_name" in
sdt_*) needs=sdt:sched::sched_switch ;;
*) needs=syscall::getppid:entry ;;
esac
need_dtrace "dtrace cannot list $needs here" -l -n "$needs"

fastpath_target=$workload
. "$(dirname "$0")/same_both_ways.sh"

steps="2000 write:hello write:hi write:hello write:abcdefghijkl open:$dir/absent open:$dir"
in_kernel="runs in the kernel"

case "$case_name" in
explain)
    run -x fastpath=explain -qn 'syscall::getppid:entry /pid == $target/ { @ = count(); } END { printa("%@d\n", @); }' \
        -c "$workload 5000"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    printf '5000\n\n' | diff - "$out" >/dev/null || fail "not 5000 calls"
    grep -q "clause at line 1 (syscall::getppid:entry) runs in the kernel on 1 probe" "$err" ||
        fail "the count does not run in the kernel"
    grep -q "clause at line 1 (END) stays in user space: the dtrace provider has no kernel path" "$err" ||
        fail "END's clause is not explained"
    run -x fastpath=explain -qn 'syscall:::entry { @[execname] = count(); } tick-1ms { exit(0); }'
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "(syscall:::entry) runs in the kernel" "$err" || fail "syscall:::entry by execname is not in the kernel"
    run -x fastpath=explain -qn 'syscall::read:entry { self->ts = timestamp; }
        syscall::read:return /self->ts/ { @[execname] = quantize(timestamp - self->ts); self->ts = 0; }
        tick-1ms { exit(0); }'
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    [ "$(grep -c "(syscall::read:[a-z]*) runs in the kernel" "$err")" = 2 ] ||
        fail "the read latency quantize is not in the kernel"
    ;;
differential)
    same_both_ways 'syscall::getppid:entry /pid == $target/ { @[execname] = count(); }' "$steps" "$in_kernel"
    same_both_ways 'syscall::write:entry /pid == $target/ { @s = sum(arg2); @mn = min(arg2); @mx = max(arg2);
                        @a = avg(arg2); @q = quantize(arg2); @l = lquantize(arg2, 0, 10, 2); @k[arg0, execname] = count(); }' \
        "$steps" "$in_kernel"
    same_both_ways 'syscall::write:entry /pid == $target/ { self->n = arg2; }
                    syscall::write:return /self->n/ { @r[self->n, arg0] = count(); self->n = 0; }' "$steps" "$in_kernel"
    same_both_ways 'syscall::write:entry /pid == $target && arg2 > 2/ { this->x = arg2 * 3 + 1; @t[this->x % 4, this->x / 2] = count(); }
                    syscall::openat:return /pid == $target/ { @e[errno, arg0, arg1 < 0] = count(); }' "$steps" "$in_kernel"
    same_both_ways 'syscall::getppid:entry /execname == "syscall_workloa" && pid == $target/ { @c["calls"] = count(); }
                    syscall::getppid:entry /execname != "syscall_workloa" && pid == $target/ { @c["others"] = count(); }
                    syscall::write:entry /pid == $target/ { @w[execname] = sum(arg2); @w["all"] = sum(arg2); }
                    END { normalize(@w, 2); printa("%s %@d\n", @w); printa(@c); trunc(@c, 1); printa(@c); }' \
        "$steps" "$in_kernel"
    same_both_ways 'syscall:::entry /pid == $target/ { @[probefunc == "getppid"] = count(); }
                    syscall::write:entry /pid == $target/ { @w = lquantize(arg2, 0, 20, 1); }
                    syscall::write:entry /pid == $target/ { @w = lquantize(arg2, 0, 20, 1); }' "$steps" "$in_kernel"
    same_both_ways 'syscall:::entry /pid == $target/ { @[uid, gid, tid == pid, cpu >= 0] = count(); }' "$steps" "$in_kernel"
    # Records: trace(), printf() of integers, execname and the probe's names, the empty clause.
    same_both_ways 'syscall::write:entry /pid == $target/ { printf("%d %s %s:%s:%s %d|", arg2, execname, probeprov, probefunc, probename, (int)arg0 > 0); trace(arg2 * 2); }
                    syscall::openat:return /pid == $target/ { trace(errno); trace(arg0 < 0); printf("\n"); }
                    syscall::getppid:entry /pid == $target && arg0 == 1/ { }' "$steps" "$in_kernel"
    same_both_ways 'syscall::write:entry /pid == $target/ { @s = stddev(arg2 * 1000000000 - arg0); @t[execname] = stddev(arg2);
                        @l = llquantize(arg2, 2, 0, 6, 4); @m[probefunc] = llquantize(arg2 * arg2 * 1000, 10, 0, 6, 20); }' \
        "$steps" "$in_kernel"
    # Global scalars and associative arrays, self-> arrays, of integers keyed by integers and strings.
    same_both_ways 'int total; int len[string, int]; self int w[int];
                    syscall::write:entry /pid == $target/ { n++; total += arg2; len[execname, arg0 > 0] += arg2;
                        self->w[arg2] = self->w[arg2] + 1; printf("%d %d %d %d\n", n, total, len[execname, 1], self->w[arg2]); }
                    syscall::getppid:entry /pid == $target && n > 0/ { @g[n, len["syscall_workloa", 1]] = count(); len["syscall_workloa", 1] = 0; }' \
        "3 write:hello 2 write:hi write:hello 4 write:hello 1" "$in_kernel"
    # ppid (the workload is dtrace's child), vtimestamp and walltimestamp (their values differ from run to run).
    same_both_ways 'syscall::write:entry /pid == $target/ { printf("%d %d %d\n", ppid == $pid, walltimestamp > 1600000000000000000,
                        vtimestamp > 0); @[ppid == $pid, ppid > 1] = count(); }' "$steps" "$in_kernel"
    same_both_ways 'syscall::write:entry,syscall::getppid:entry /pid == $target/ { @[probefunc] = count(); }
                    syscall::write:return /pid == $target/ { printf("%s returned %d\n", probefunc, arg1); }' "$steps" "$in_kernel"
    ;;
stacks)
    # Kernel stacks at a system call: skip where the user-space path has none.
    run -x fastpath=off -qn 'syscall::getppid:entry /pid == $target/ { @[stack()] = count(); }' -c "$workload 3"
    grep -q 'vmlinux`' "$out" || { echo "skipped: no kernel stack at syscall::getppid:entry here"; exit 77; }
    same_both_ways 'syscall::getppid:entry /pid == $target/ { @[stack()] = count(); }' "$steps" "$in_kernel"
    grep -q 'vmlinux`do_syscall_64+0x' "$out" || fail "no frame of the system call's entry in stack()"
    grep -q 'vmlinux`perf_syscall\|vmlinux`bpf_' "$out" && fail "the tracing machinery's frames are in stack()"
    same_both_ways 'syscall::write:entry,syscall::getppid:entry /pid == $target/ { @[stack(3), execname] = count();
                        @q[stack(1), probefunc] = quantize(arg0); }
                    END { printa("%k %s %@d\n", @); }' "$steps" "$in_kernel"
    same_both_ways 'syscall::write:return /pid == $target/ { @[arg0, stack(2)] = sum(arg1); }' "$steps" "$in_kernel"
    # The stack() action: the frames in the clause's record.
    same_both_ways 'syscall::getppid:entry /pid == $target/ { printf("%d", arg0); stack(3); trace(tid > 0); }' \
        "5 write:hi" "$in_kernel"
    ;;
ustack)
    # ustack() keys at syscall probes run in the kernel for $target (the
    # walk by the CFI over its rows, the other processes' events declined)
    # and print the same stacks as in user space (few calls where the
    # fast path is off: each event brings its user stack's bytes, which a
    # burst would drop).
    library=$4
    [ -f "$library" ] || fail "no library for the dlopen step: $library"
    same_both_ways 'syscall::getppid:entry /pid == $target/ { @[ustack()] = count(); }' "100 write:hi" "$in_kernel"
    grep -q 'syscall_workload`main+0x' "$out" || fail "no frame of the workload's main in ustack()"
    grep -Eq '^ +100$' "$out" || fail "not 100 getppid calls under one stack"
    # The calls after the table was written again for the libraries the
    # dynamic linker mapped: every one walked in the kernel, none brought
    # the mappings to user space, and the frames are named all the same.
    same_both_ways 'syscall::getppid:entry /pid == $target/ { @[ustack()] = count(); }' "sleep:300 100" "$in_kernel"
    grep -q 'libc.so.6`syscall+0x' "$out" && grep -q 'syscall_workload`main+0x' "$out" ||
        fail "unnamed frames where the kernel walked every stack"
    same_both_ways 'syscall::write:entry /pid == $target/ { @[ustack(3), execname] = count(); }' \
        "5 write:hello write:hi" "$in_kernel"
    # A wide description (raw_syscalls, the way back by call number), the
    # return too (the dynamic linker's calls left out: some of their frames
    # are unnamed addresses, which differ from run to run).
    same_both_ways 'syscall:::entry /pid == $target && (probefunc == "getppid" || probefunc == "write")/ {
                        @[ustack(5), probefunc] = count(); }
                    syscall::getppid:return /pid == $target/ { @r[ustack(2), arg0 > 0] = count(); }' \
        "20 write:hello" "$in_kernel"
    grep -q '^ *getppid  *20$' "$out" && grep -q '^ *write  *1$' "$out" || fail "no getppid and write keys beside ustack()"
    # Another process's calls at the same time: not walked by $target's
    # rows, not counted.
    "$workload" 20000000 &
    other=$!
    run -x fastpath=explain -qn 'syscall::getppid:entry /pid == $target/ { @[ustack(1)] = count(); }' \
        -c "$workload sleep:200 100 sleep:200"
    kill "$other" 2>/dev/null
    wait "$other" 2>/dev/null
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "$in_kernel" "$err" || fail "ustack(1) beside another process does not run in the kernel"
    [ "$(grep -c '[^[:space:]]' "$out")" = 2 ] && grep -Eq '^ +100$' "$out" ||
        { cat "$out"; fail "another process's calls counted with \$target's"; }
    # A library mapped after the table was written (dlopen): the events
    # after it are declined, the table written again, and the library's
    # frames named either way.
    same_both_ways 'syscall::getppid:entry /pid == $target/ { @[ustack(3)] = count(); }' \
        "10 dlopen:50:$library 10 dlopen:30:$library" "$in_kernel"
    grep -q 'ustack_dlopen_lib.so`workload_calls+0x' "$out" || fail "no frame of the library loaded by dlopen()"
    grep -Eq '^ +80$' "$out" || fail "not 80 calls from the library"
    # Without $target the walk has no process's rows: user space, saying why.
    run -x fastpath=explain -qn 'syscall::getppid:entry { @[ustack()] = count(); } tick-1ms { exit(0); }'
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "stays in user space: ustack() keys are not available in the kernel path: at syscall probes.*-c or -p" "$err" ||
        fail "ustack() without \$target is not explained"
    ;;
sdt_ustack)
    # ustack() keys at sdt probes run in the kernel for $target where the
    # probe's thread is the current task: a tracepoint of the thread's own
    # (hrtimer_start, at each nanosleep()) and sched:::off-cpu, the same
    # stacks as in user space. Only the sleeps' stacks are compared: what
    # else arms a timer or is preempted differs from run to run, and a
    # sleep may arm its timer more than once (the counts are compared apart).
    sleeps_of() { awk 'BEGIN { RS = "" } /nanosleep/' "$1" | grep -Ev '^ +[0-9]+$'; }
    # The counts of the sleeps' stacks, one a line.
    sleep_counts() { awk 'BEGIN { RS = "" } /nanosleep/ { print $NF }' "$1"; }
    for script in 'sdt:timer::hrtimer_start /pid == $target/ { @[ustack()] = count(); }' \
        'sched:::off-cpu /pid == $target/ { @[ustack(4)] = count(); }'; do
        run -x fastpath=explain -qn "$script" -c "$workload sleep:20 sleep:20 sleep:20 100"
        [ "$status" = 0 ] || fail "dtrace -x fastpath=on exited with $status"
        grep -q "$in_kernel" "$err" || { cat "$err"; fail "not in the kernel: $script"; }
        sleeps_of "$out" >"$dir/on"
        sleep_counts "$out" >"$dir/on_counts"
        run -x fastpath=off -qn "$script" -c "$workload sleep:20 sleep:20 sleep:20 100"
        [ "$status" = 0 ] || fail "dtrace -x fastpath=off exited with $status"
        sleeps_of "$out" | diff "$dir/on" - >"$dir/diff" || { cat "$dir/diff"; fail "fastpath=on and off differ for: $script"; }
        grep -q 'syscall_workload`main+0x' "$dir/on" || fail "no frame of the workload's main in: $script"
        for counts in "$(cat "$dir/on_counts")" "$(sleep_counts "$out")"; do
            [ "$(echo "$counts" | awk '$1 >= 3 && $1 < 10' | wc -l)" = 1 ] ||
                fail "not 3 sleeps (a few more timers at most) under one stack: $script: $counts"
        done
    done
    # Another process sleeping at the same time (the same program, the
    # same stacks): declined by the walk, dropped by the pre-filter.
    others=""
    i=0
    while [ $i -lt 200 ]; do others="$others sleep:1"; i=$((i + 1)); done
    "$workload" $others $others &
    other=$!
    run -x fastpath=explain -qn 'sched:::off-cpu /pid == $target/ { @[ustack(1)] = count(); }
                                 sdt:timer::hrtimer_start /pid == $target/ { @t[ustack(1)] = count(); }' \
        -c "$workload sleep:100 sleep:20 sleep:20 sleep:20 sleep:100"
    kill "$other" 2>/dev/null
    wait "$other" 2>/dev/null
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    [ "$(grep -c "$in_kernel" "$err")" = 2 ] || { cat "$err"; fail "ustack(1) beside another process does not run in the kernel"; }
    # (the other process's 400 sleeps would show as hundreds)
    [ "$(grep -c 'clock_nanosleep' "$out")" = 2 ] && [ "$(sleep_counts "$out" | awk '$1 >= 5 && $1 < 20' | wc -l)" = 2 ] ||
        { cat "$out"; fail "another process's sleeps counted with \$target's"; }
    # Where the probe's thread is not the current task, ustack() keys stay
    # in user space, saying why: on-cpu's thread is the one coming on;
    # io:::done's tracepoint fires in interrupts.
    run -x fastpath=explain -qn 'sched:::on-cpu /pid == $target/ { @[ustack()] = count(); }
                                 io:::done { @d[ustack()] = count(); }' -c "$workload sleep:20"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "(sched:::on-cpu) stays in user space: ustack() keys are not available in the kernel path: at sched:::on-cpu the probe's thread is the one coming on" "$err" ||
        { cat "$err"; fail "ustack() at on-cpu is not kept in user space"; }
    grep -q "(io:::done) stays in user space: ustack() keys are not available in the kernel path: the probe's tracepoint fires in interrupts" "$err" ||
        { cat "$err"; fail "ustack() at io:::done is not kept in user space"; }
    grep -Eq '^ +[1-9][0-9]*$' "$out" || fail "no on-cpu of the workload"
    # Without $target the walk has no process's rows: user space, saying why.
    run -x fastpath=explain -qn 'sched:::off-cpu { @[ustack()] = count(); } tick-1ms { exit(0); }'
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "stays in user space: ustack() keys are not available in the kernel path: at tracepoint probes (sdt, proc, sched, io ...) the walk.*-c or -p" "$err" ||
        fail "ustack() without \$target is not explained"
    ;;
strings)
    # copyinstr() (keys, predicates against constants, records), string
    # constants and probe names of 16 bytes or more, and faults: the same
    # output and the same error messages both ways.
    long=$dir/a_path_longer_than_sixteen_bytes
    touch "$long"
    # (after the workload's first getppid: the kernel cannot read a page
    # not yet faulted in, such as the workload's own constant "/dev/null")
    same_both_ways 'syscall::getppid:entry /pid == $target/ { self->go = 1; }
                    syscall::openat:entry /self->go/ { @[copyinstr(arg1)] = count(); }
                    syscall::openat:entry /self->go && copyinstr(arg1) == "'"$long"'"/ { printf("%s|%s|%d\n", copyinstr(arg1), execname, arg2); }
                    syscall::write:entry /pid == $target/ { @w[copyinstr(arg1, 3), arg2] = count(); @c["a constant longer than sixteen"] = count(); }' \
        "3 open:$long open:$dir/absent write:hello write:hi open:$long sleep:500" "$in_kernel"
    # A bad address (write's count as a pointer): DTrace's error, the clause abandoned.
    bad='syscall::write:entry /pid == $target/ { @[copyinstr(arg2)] = count(); } syscall::write:entry /pid == $target/ { @n = count(); }'
    same_both_ways "$bad" "write:hello write:hi" "$in_kernel"
    grep 'error on enabled probe' "$err" >"$dir/errors_off"
    grep -q "invalid address (0x5) in action #1 at DIF offset" "$dir/errors_off" || fail "no error for the bad address"
    run -x fastpath=on -qn "$bad" -c "$workload write:hello write:hi"
    grep 'error on enabled probe' "$err" | diff - "$dir/errors_off" || fail "the kernel's errors differ from the engine's"
    # Probe names longer than 15 bytes, one program shared by the probes.
    same_both_ways 'syscall:::entry /pid == $target/ { @[probefunc] = count(); printf("%s:%s\n", probefunc, probename); }' \
        "$steps" "$in_kernel"
    run -x fastpath=explain -qn 'syscall:::entry /pid == $target/ { printf("%s\n", probefunc); }' -c "$workload 1"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    # One program, or one per call the build does not number (a kernel newer than its tables).
    grep -q "(syscall:::entry) runs in the kernel on [0-9]* probes (\(a BPF program\|[0-9]* BPF programs\)" "$err" ||
        fail "the records of syscall:::entry do not share programs"
    programs=$(sed -n 's/.*(syscall:::entry) runs in the kernel on [0-9]* probes (\([0-9]*\) BPF programs.*/\1/p' "$err")
    [ "${programs:-1}" -lt 100 ] || fail "syscall:::entry's probes load $programs programs"
    ;;
fallback)
    # Each clause that cannot run in the kernel says why, and the output is
    # still right (the user-space path prints it).
    run -x fastpath=explain -qn 'syscall::getppid:entry /pid == $target/ { @[strjoin(execname, "!")] = count(); }
                                 END { printa("%s %@d\n", @); }' -c "$workload 300"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "stays in user space: strjoin() is not available in the kernel path" "$err" || fail "strjoin() not explained"
    printf 'syscall_workloa! 300\n\n' | diff - "$out" >/dev/null || fail "wrong count in user space"
    # A variable shared with a user-space clause keeps both in user space.
    run -x fastpath=explain -qn 'syscall::getppid:entry /pid == $target/ { self->n++; }
                                 syscall::exit_group:entry /pid == $target/ { printf("%s%d\n", strjoin("n=", ""), self->n); }' -c "$workload 77"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "self->n is also used by the clause" "$err" || fail "the shared variable is not explained"
    printf 'n=77\n\n' | diff - "$out" >/dev/null || fail "wrong thread-local count"
    # Records come all from the kernel or all from user space (in order).
    run -x fastpath=explain -qn 'syscall::getppid:entry /pid == $target/ { printf("g\n"); }
                                 syscall::write:entry /pid == $target/ { printf("%s\n", strjoin("w", "!")); }' \
        -c "$workload 2 write:a 1"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "(syscall::getppid:entry) stays in user space: it records, and so does the clause at line 2" "$err" ||
        fail "the order of records is not explained"
    printf 'g\ng\nw!\ng\n\n' | diff - "$out" >/dev/null || fail "records out of order"
    # -x fastpath=off: nothing goes to the kernel, nothing is explained.
    run -x fastpath=off -qn 'syscall::getppid:entry /pid == $target/ { @ = count(); }' -c "$workload 10"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    ! grep -q fastpath "$err" || fail "fastpath=off explained something"
    run -x fastpath=sometimes -qn 'syscall::getppid:entry { @ = count(); }'
    [ "$status" != 0 ] || fail "a wrong fastpath value was accepted"
    ;;
sdt_explain)
    # The issue's one-liners, and on-cpu/off-cpu against the raw
    # sched_switch's next and previous thread (every clause in the kernel):
    # on-cpu's pid and tid are the thread coming on.
    run -x fastpath=explain -qn 'sched:::on-cpu { @[execname] = count(); } proc:::exec-success { @e[execname] = count(); }
                                 tick-1ms { exit(0); }'
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "(sched:::on-cpu) runs in the kernel on 1 probe" "$err" || fail "sched:::on-cpu is not in the kernel"
    grep -q "(proc:::exec-success) runs in the kernel on 1 probe" "$err" || fail "proc:::exec-success is not in the kernel"
    run -x fastpath=explain -qn 'sched:::on-cpu /pid == $target/ { @on = count(); }
                                 sdt:sched::sched_switch /args[5] == $target/ { @in = count(); }
                                 sched:::off-cpu /pid == $target/ { @off = count(); }
                                 sdt:sched::sched_switch /args[1] == $target/ { @out = count(); }
                                 END { printa("on %@d\n", @on); printa("in %@d\n", @in); printa("off %@d\n", @off);
                                       printa("out %@d\n", @out); }' -c "$workload sleep 100"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    [ "$(grep -c "runs in the kernel on 1 probe" "$err")" = 4 ] || fail "not every sched clause runs in the kernel"
    value() { sed -n "s/^$1 //p" "$out"; }
    [ "$(value on)" -ge 90 ] || fail "fewer than 90 on-cpu for 100 sleeps"
    [ "$(value on)" = "$(value in)" ] || fail "on-cpu is not sched_switch's next thread"
    [ "$(value off)" = "$(value out)" ] || fail "off-cpu is not sched_switch's previous thread"
    ;;
sdt_differential)
    # Tracepoint fields of each size and sign, on-cpu's and off-cpu's
    # thread, proc and io by execname: the same bytes with the fast path on and off.
    printf '#!/bin/sh\n%s exit 0\n%s signal\n' "$workload" "$workload" >"$dir/script"
    chmod +x "$dir/script"
    same_both_ways_for 'sdt:sched::sched_process_fork /pid == $target/ { @f[execname, args[1] == pid, args[3] != pid] = count(); }
                        sdt:sched::sched_process_exit /ppid == $target/ { @x[execname, args[1] == pid, args[2] > 0] = count(); }
                        sdt:signal::signal_deliver /ppid == $target/ { @d[execname, args[0], args[2], args[3] != 0] = count(); }
                        proc:::exec-success /ppid == $target/ { @e[execname, ppid == $target] = count(); }' \
        "$dir/script" "$in_kernel"
    same_both_ways 'sched:::on-cpu /pid == $target/ { @m[execname, uid, gid, ppid == $pid, tid == pid] = max(vtimestamp > 0); }
                    sched:::off-cpu /pid == $target/ { @o[execname, uid, ppid == $pid, tid == pid] = max(1); }' \
        "sleep 20" "$in_kernel"
    same_both_ways 'io:::start /pid == $target/ { @[execname] = max(1); }' "direct $dir/direct 10" "$in_kernel"
    # A tracepoint's kernel stack as a key: the fork's way through the kernel.
    same_both_ways_for 'sdt:sched::sched_process_fork /pid == $target/ { @k[stack()] = count(); @n[stack(2), execname] = count(); }' \
        "$dir/script" "$in_kernel"
    grep -q 'vmlinux`kernel_clone+0x' "$out" || fail "no frame of the fork in stack()"
    ;;
sdt_with_syscall)
    # syscall and sdt clauses in one session: each plugin's probes run
    # programs with maps of their own, and print as in user space.
    script='syscall::*nanosleep:entry /pid == $target/ { @n = count(); }
            sdt:sched::sched_process_exit /pid == $target/ { @x = count(); }
            sched:::off-cpu /pid == $target/ { @o = max(1); }'
    run -x fastpath=explain -qn "$script END { printa(\"%@d \", @n); printa(\"%@d\\n\", @x); }" -c "$workload sleep 20"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "(syscall::\*nanosleep:entry) runs in the kernel" "$err" || fail "the syscall clause is not in the kernel"
    grep -q "(sdt:sched::sched_process_exit) runs in the kernel" "$err" || fail "the sdt clause is not in the kernel"
    grep -q "(sched:::off-cpu) runs in the kernel" "$err" || fail "the sched clause is not in the kernel"
    [ "$(head -1 "$out")" = "20 1" ] || fail "not 20 sleeps and 1 exit"
    same_both_ways "$script" "sleep 20" "$in_kernel"
    ;;
sdt_fallback)
    # What the kernel path cannot do at these probes stays in user space,
    # with the reason, and prints the right output.
    run -x fastpath=explain -qn 'sched:::sleep /pid == $target/ { @s = count(); }
                                 proc:::exit /pid == $target/ { @r = sum(args[0]); }
                                 io:::start /pid == $target/ { @b = sum(args[0]->b_bcount); }
                                 sdt:sched::sched_switch /args[1] == $target/ { @c[stringof(args[0])] = max(1); }
                                 END { printa("sleeps %@d\n", @s); printa("reason %@d\n", @r); printa("%s %@d\n", @c); }' \
        -c "$workload sleep 20"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "(sched:::sleep) stays in user space: sched:vmlinux::sleep: the probe fires on some of sched_switch's events only" "$err" ||
        fail "sched:::sleep is not explained"
    grep -q "(proc:::exit) stays in user space: proc:vmlinux::exit: the probe fires on some of its tracepoint's events only" "$err" ||
        fail "proc:::exit is not explained"
    grep -q "(io:::start) stays in user space: args\[0\] of this probe is not available in the kernel path" "$err" ||
        fail "io:::start's args[0] is not explained"
    grep -q "(sdt:sched::sched_switch) stays in user space: args\[0\] of this probe is not available" "$err" ||
        fail "a string field is not explained"
    [ "$(sed -n 's/^sleeps //p' "$out")" -ge 20 ] || fail "fewer than 20 sleeps"
    grep -q "^reason 1\$" "$out" || fail "exit's reason is not CLD_EXITED"
    grep -q "^sdt_workload 1\$" "$out" || fail "no switch of the workload with its comm"
    # A probe sharing its tracepoint with another keeps its clauses in user space.
    run -x fastpath=explain -qn 'proc:::exit /pid == $target/ { @r = count(); }
                                 sdt:sched::sched_process_exit /pid == $target/ { @x = count(); }
                                 END { printa("%@d ", @r); printa("%@d\n", @x); }' -c "$workload exit 0"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "(sdt:sched::sched_process_exit) stays in user space: .*another enabled probe shares its tracepoint" "$err" ||
        fail "a shared tracepoint is not explained"
    printf '1 1\n\n' | diff - "$out" >/dev/null || fail "not one exit each"
    # ustack() keys at sched:::off-cpu (in the kernel for $target: the
    # sdt_ustack case) print the same stacks (sdt_workload is built without
    # frame pointers). Only the sleeps' stacks are compared: where a busy
    # machine preempts the workload (in ld.so's start, say) differs from
    # run to run.
    ustack_script='sched:::off-cpu /pid == $target/ { @[ustack(), probefunc] = max(1); @t[ustack(3), execname] = max(1); }'
    sleeps_of() { awk 'BEGIN { RS = "" } /nanosleep/' "$1"; }
    run -x fastpath=explain -qn "$ustack_script" -c "$fastpath_target sleep 5"
    [ "$status" = 0 ] || fail "dtrace -x fastpath=on exited with $status"
    grep -q "$in_kernel" "$err" || fail "ustack() keys at off-cpu do not run in the kernel"
    sleeps_of "$out" >"$dir/on"
    run -x fastpath=off -qn "$ustack_script" -c "$fastpath_target sleep 5"
    [ "$status" = 0 ] || fail "dtrace -x fastpath=off exited with $status"
    sleeps_of "$out" | diff "$dir/on" - >"$dir/diff" || { cat "$dir/diff"; fail "fastpath=on and off differ for: $ustack_script"; }
    grep -q 'libc.so.6`__libc_start_main+' "$dir/on" || fail "no libc frame in ustack() at off-cpu"
    ;;
*)
    echo "unknown case $case_name"
    exit 2
    ;;
esac
echo "passed: $case_name"
