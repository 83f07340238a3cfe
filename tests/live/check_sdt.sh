#!/bin/sh
# check_sdt.sh DTRACE WORKLOAD CASE: the sdt plugin (sdt, proc, sched, io
# ...), live, on a workload of our own with known kernel events
# (sdt_workload.c). Every clause filters on $target or its children (other
# work shares the machine) and every run is bounded in time. Exit 0:
# passed; 1: failed (saying why); 77: skipped (saying what is missing).
dtrace=$1
workload=$2
case_name=$3
limit=120
# (run, fail, the skips; DTRACE_FASTPATH=on|off runs every case with
# -x fastpath=...: the same expectations hold either way, docs/fastpath.md)
. "$(dirname "$0")/live_check.sh"

need_built "$dtrace" "$workload"
need_root "live tracing needs root (BPF programs, tracefs)"
need_dtrace "the sdt plugin cannot list the kernel's tracepoints here" -l -n sdt:sched::sched_switch

script=$dir/script

case "$case_name" in
list)
    # Every tracepoint of available_events but the syscalls, with module
    # = group; the stable providers' probes in module vmlinux.
    run -l -P sdt
    expect_status_0
    tracefs=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
    expected=$(grep -cv '^\(syscalls\|raw_syscalls\|kprobes\|uprobes\):' "$tracefs/available_events")
    listed=$(($(wc -l <"$out") - 1))
    [ "$listed" -gt 100 ] || fail "only $listed sdt probes"
    [ "$listed" -le "$expected" ] || fail "$listed sdt probes, more than the $expected events"
    grep -Eq '^ *[0-9]+ +sdt +sched +sched_switch$' "$out" || fail "no sdt:sched::sched_switch"
    ! grep -Eq ' sdt +syscalls ' "$out" || fail "the syscalls group is listed"
    run -l -n 'proc:::exec-success' -n 'sched:::on-cpu' -n 'io:::start'
    expect_status_0
    [ "$(grep -c ' vmlinux ' "$out")" = 3 ] || fail "not three probes in module vmlinux"
    ;;
typed)
    # Arguments typed from the format file: -lv shows them.
    run -lv -n sdt:sched::sched_switch
    expect_status_0
    grep -q 'args\[0\]: char \*' "$out" || fail "prev_comm is not char *"
    grep -q 'args\[1\]: pid_t' "$out" || fail "prev_pid is not pid_t"
    grep -q 'args\[3\]: long' "$out" || fail "prev_state is not long"
    grep -q 'args\[6\]: int' "$out" || fail "next_prio is not int"
    run -lv -n sdt:sched::sched_process_exec
    grep -q 'args\[0\]: char \*' "$out" || fail "__data_loc filename is not char *"
    run -lv -n io:::start
    grep -q 'args\[1\]: devinfo_t \*' "$out" || fail "io:::start's args[1] is not devinfo_t *"
    ;;
sdt_fire)
    # A tracepoint's fields: integers, a __data_loc string (exec's path)
    # and a char array (exit's comm).
    printf '#!/bin/sh\n%s exit 0\n' "$workload" >"$script"
    chmod +x "$script"
    run -qn 'sdt:sched::sched_process_exit /ppid == $target/ { printf("exit %s %d\n", copyinstr(arg0), args[1] == pid); }
             sdt:sched::sched_process_exec /ppid == $target/ { printf("exec %s %d\n", copyinstr(arg0), args[1] == pid); }' \
        -c "$script"
    expect_status_0
    grep -q "^exec $workload 1\$" "$out" || fail "no exec of the workload with its path"
    grep -q "^exit sdt_workload 1\$" "$out" || fail "no exit of the workload with its comm"
    # The same fields through plain loads, as DTrace reads kernel memory:
    # stringof() of the string fields and a dereference of exec's path.
    run -qn 'sdt:sched::sched_process_exit /ppid == $target/ { printf("exit %s\n", stringof(args[0])); }
             sdt:sched::sched_process_exec /ppid == $target/ { printf("exec %s %c\n", stringof(args[0]), *args[0]); }' \
        -c "$script"
    expect_status_0
    grep -q "^exec $workload $(printf %.1s "$workload")\$" "$out" || fail "stringof() or * of exec's path did not read it"
    grep -q "^exit sdt_workload\$" "$out" || fail "stringof() of exit's comm did not read it"
    ;;
execsnoop)
    # The issue's execsnoop: each new program and its arguments.
    printf '#!/bin/sh\nls / >/dev/null\ndate >/dev/null\n' >"$script"
    chmod +x "$script"
    run -qn 'proc:::exec-success /ppid == $target/ { printf("%s|%s\n", execname, curpsinfo->pr_psargs); }' -c "$script"
    expect_status_0
    printf 'ls|ls /\ndate|date\n\n' | diff - "$out" >/dev/null || fail "not ls / and date"
    ;;
exit)
    # exit's reason (CLD_EXITED 1, CLD_KILLED 2) and the exit code; the
    # child a shell creates (create's psinfo_t: the child's pid).
    run -qn 'proc:::exit /pid == $target/ { printf("reason %d\n", args[0]); }' -c "$workload exit 3"
    [ "$(value_of reason)" = 1 ] || fail "exit's reason is not CLD_EXITED"
    run -qn 'proc:::exit /pid == $target/ { printf("reason %d\n", args[0]); }' -c "$workload kill"
    [ "$(value_of reason)" = 2 ] || fail "a SIGKILL's reason is not CLD_KILLED"
    printf '#!/bin/sh\n%s exit 0\n%s exit 0\n' "$workload" "$workload" >"$script"
    chmod +x "$script"
    run -qn 'proc:::create /pid == $target/ { printf("create %d\n", args[0]->pr_ppid == pid); @c = count(); }
             proc:::start /ppid == $target/ { @s = count(); }
             proc:::exit /ppid == $target/ { @e = count(); }
             END { printa("creates %@d\n", @c); printa("starts %@d\n", @s); printa("exits %@d\n", @e); }' -c "$script"
    expect_status_0
    [ "$(value_of creates)" = 2 ] || fail "not 2 creates"
    [ "$(value_of starts)" = 2 ] || fail "not 2 starts"
    [ "$(value_of exits)" = 2 ] || fail "not 2 exits"
    ! grep -q "^create 0" "$out" || fail "a child's pr_ppid is not its creator"
    ;;
signal)
    # signal-send to itself, signal-handle of SIGUSR1 (10) with its handler.
    run -qn 'proc:::signal-send /pid == $target && args[2] == 10/ { printf("send %d\n", args[1]->pr_pid == pid); }
             proc:::signal-handle /pid == $target/ { printf("handle %d %d\n", args[0], args[2] != 0); }' \
        -c "$workload signal"
    expect_status_0
    grep -q "^send 1\$" "$out" || fail "no SIGUSR1 sent to itself"
    grep -q "^handle 10 1\$" "$out" || fail "no SIGUSR1 handled"
    ;;
sched_pairs)
    # A thread that sleeps 200 times goes off a CPU at least as often, and
    # on-cpu/off-cpu fire exactly when the raw sched_switch names it as next
    # or previous (the kernel itself may switch a thread in fewer times than
    # out: a wake-up that lands before the switch away completes).
    run -qn 'sched:::off-cpu /pid == $target/ { @off = count(); }
             sched:::on-cpu /pid == $target/ { @on = count(); }
             sched:::sleep /pid == $target/ { @sleep = count(); }
             sdt:sched::sched_switch /args[1] == $target/ { @out = count(); }
             sdt:sched::sched_switch /args[5] == $target/ { @in = count(); }
             END { printa("off %@d\n", @off); printa("on %@d\n", @on); printa("sleep %@d\n", @sleep);
                   printa("out %@d\n", @out); printa("in %@d\n", @in); }' \
        -c "$workload sleep 200"
    expect_status_0
    [ "$(value_of sleep)" -ge 200 ] || fail "fewer than 200 sleeps"
    [ "$(value_of off)" -ge "$(value_of sleep)" ] || fail "fewer off-cpu than sleeps"
    [ "$(value_of off)" = "$(value_of out)" ] || fail "off-cpu is not sched_switch's previous thread"
    [ "$(value_of on)" = "$(value_of in)" ] || fail "on-cpu is not sched_switch's next thread"
    [ "$(value_of on)" -ge 180 ] || fail "fewer than 180 on-cpu"
    ;;
sched_stacks)
    # off-cpu's stacks: the kernel's way into the scheduler from the
    # thread's sleep, and the workload's way to its nanosleep(2); on-cpu's
    # kernel stack is the incoming thread's, where it slept.
    run -qn 'sched:::off-cpu /pid == $target/ { @[stack(), ustack()] = count(); }
             sched:::on-cpu /pid == $target/ { @on[stack()] = count(); }' -c "$workload sleep 200"
    expect_status_0
    grep -q 'vmlinux`do_nanosleep+0x' "$out" || fail "no kernel frame of the sleep in stack()"
    grep -q 'vmlinux`bpf_\|vmlinux`__bpf_' "$out" && fail "the tracing machinery's frames are in stack()"
    grep -q 'libc.so.6`clock_nanosleep+0x' "$out" || fail "no libc frame of the sleep in ustack()"
    grep -q 'sdt_workload`main+0x' "$out" || fail "no frame of the workload's main in ustack()"
    # (a sleeping task's stack, as the kernel walks it, starts below the
    # scheduler's frames)
    [ "$(grep -c 'vmlinux`hrtimer_nanosleep+0x' "$out")" -ge 2 ] || fail "on-cpu's stack is not where the thread slept"
    ;;
sched_rusage)
    # The thread's CPU time between on-cpu and off-cpu (vtimestamp) matches
    # getrusage within 5%. The wall time between them (timestamp) is at least
    # that, and more by at most the time the hypervisor took from this VM's
    # CPUs meanwhile (steal in /proc/stat), plus 5%: the kernel leaves steal
    # out of a task's CPU time (CONFIG_PARAVIRT_TIME_ACCOUNTING) but not out
    # of the wall time the task was current, and it is up to 7% here.
    steal_ns() {
        awk -v tick=$((1000000000 / $(getconf CLK_TCK))) '$1 == "cpu" { printf "%.0f\n", $9 * tick }' /proc/stat # (mawk: %d stops at 2^31)
    }
    steal_before=$(steal_ns)
    run -qn 'sched:::on-cpu /pid == $target/ { self->on = timestamp; self->von = vtimestamp; }
             sched:::off-cpu /pid == $target && self->on/ {
                 @wall = sum(timestamp - self->on); @cpu = sum(vtimestamp - self->von); self->on = 0; }
             END { printa("wall %@d\n", @wall); printa("cpu %@d\n", @cpu); }' -c "$workload cpu 400"
    expect_status_0
    steal=$(($(steal_ns) - steal_before))
    rusage=$(value_of rusage)
    wall=$(value_of wall)
    cpu=$(value_of cpu)
    [ -n "$rusage" ] && [ -n "$wall" ] && [ -n "$cpu" ] || fail "no figures"
    diff=$((cpu - rusage))
    [ "$diff" -lt 0 ] && diff=$((-diff))
    [ $((diff * 100)) -le $((rusage * 5)) ] || fail "CPU time traced $cpu ns against getrusage's $rusage ns"
    [ $((wall * 100)) -ge $((cpu * 99)) ] || fail "wall time on CPU $wall ns is less than the CPU time $cpu ns"
    [ $((wall - cpu - steal)) -le $((rusage / 20)) ] ||
        fail "wall time on CPU $wall ns exceeds the CPU time $cpu ns by more than the $steal ns stolen and 5%"
    ;;
io_direct)
    # 40 direct writes of 4096 bytes: each seen at io:::start, 4096 bytes
    # written to the file's device, and matched at io:::done. The workload's
    # requests are known by their sectors: block_bio_queue fires in the
    # context that submits the bio (the workload's), while io:::start fires
    # in whichever task dispatches the request (under blk-mq and other disk
    # load, often another one's) and io:::done in an interrupt. (fsync adds
    # the file system's own writes of the workload.)
    disk_dir=$(dirname "$workload") # (on a block device, unlike a tmpfs /tmp)
    device=$(findmnt -n -o SOURCE --target "$disk_dir" | sed 's|^/dev/||')
    run -qn 'sdt:block::block_bio_queue /pid == $target && args[2] == 8/ { queued[args[0], args[1]] = 1; }
             io:::start /queued[args[0]->b_edev, args[0]->b_blkno] && args[0]->b_bcount == 4096/ {
                 @[args[1]->dev_statname, args[0]->b_flags & B_READ ? "R" : "W"] = count();
                 queued[args[0]->b_edev, args[0]->b_blkno] = 0; started[args[0]->b_edev, args[0]->b_blkno] = 1;
                 @fi[args[2]->fi_pathname, args[2]->fi_fs, args[2]->fi_offset] = count(); }
             io:::done /started[args[0]->b_edev, args[0]->b_blkno]/ {
                 @done = count(); started[args[0]->b_edev, args[0]->b_blkno] = 0; }
             END { printa("%s %s %@d\n", @); printa("done %@d\n", @done); printa("fileinfo %s %s %d %@d\n", @fi); }' \
        -c "$workload direct $disk_dir/sdt_direct.$$ 40"
    expect_status_0
    line=$(grep " W " "$out")
    [ -n "$line" ] || fail "no writes"
    set -- $line
    written=$3
    [ "$written" -ge 40 ] || fail "fewer than 40 direct writes"
    [ -z "$device" ] || [ "$1" = "$device" ] || [ "${device#"$1"}" != "$device" ] || fail "device $1 is not $device"
    # The block layer does not know the file (fileinfo_t, shared with fds[]).
    [ "$(grep -c '^fileinfo ' "$out")" = 1 ] && grep -Eq '^fileinfo <none> <unknown> -1 [0-9]+$' "$out" ||
        fail "io:::start's fileinfo_t is not <none>, <unknown>, -1"
    # Every start (the workload's 4 KB reads of its program's pages too) is
    # done, but for the firings the kernel skipped (an interrupt's io:::done
    # while another tracing program, maybe another tracer's, runs on its
    # CPU), which dtrace reports as drops.
    started=$(awk '$1 != "done" && $1 != "fileinfo" { n += $3 } END { print n + 0 }' "$out")
    completed=$(value_of done)
    completed=${completed:-0}
    drops=$(sed -n 's/^dtrace: \([0-9]*\) drops\{0,1\} on CPU [0-9]*$/\1/p' "$err" | awk '{ n += $1 } END { print n + 0 }')
    [ "$drops" = 0 ] || echo "note: $drops drops reported (firings lost); $completed of $started requests done"
    [ "$completed" -le "$started" ] || fail "more done than started"
    [ $((completed + drops)) -ge "$started" ] || fail "$((started - completed)) requests not done, $drops drops reported"
    ;;
tcp)
    # A loopback connection of the workload's own: connect, the state
    # changes of its client socket, 3000 bytes of payload sent (per packet:
    # ip_plength less the TCP header; data is sent in the workload's
    # context, while receive runs wherever the network's softirq does:
    # check_net.sh counts both by port).
    run -qn 'tcp:::send /pid == $target/ { @sent = sum(args[2]->ip_plength - args[4]->tcp_offset); }
             tcp:::connect-request /pid == $target/ { printf("connect-request %s\n", args[3]->tcps_raddr); }
             tcp:::connect-established /pid == $target/ { printf("connect-established %d\n", args[3]->tcps_state); }
             tcp:::state-change /pid == $target && args[5]->tcps_state == TCP_STATE_SYN_SENT/ {
                 printf("state SYN_SENT -> %d\n", args[3]->tcps_state); }
             END { printa("sent %@d\n", @sent); }' -c "$workload tcp 3000"
    expect_status_0
    [ "$(value_of sent)" = 3000 ] || fail "not 3000 bytes sent"
    grep -q "^connect-request 127.0.0.1\$" "$out" || fail "no connect-request to 127.0.0.1"
    grep -q "^connect-established 6\$" "$out" || fail "no connect-established in ESTABLISHED"
    grep -q "^state SYN_SENT -> 6\$" "$out" || fail "no state change from SYN_SENT to ESTABLISHED"
    ;;
udp)
    # One 300-byte datagram: udp_length counts the 8-byte header.
    run -qn 'udp:::send /pid == $target/ { printf("send %d %d\n", args[4]->udp_length, args[2]->ip_plength); }
             udp:::receive /pid == $target/ { printf("receive %d %s\n", args[4]->udp_length, args[2]->ip_daddr); }' \
        -c "$workload udp 300"
    expect_status_0
    grep -q "^send 308 308\$" "$out" || fail "no 308-byte send"
    grep -q "^receive 308 127.0.0.1\$" "$out" || fail "no 308-byte receive on 127.0.0.1"
    ;;
lockstat)
    # Four threads appending to one file contend for the kernel's locks: the
    # waits are paired (begin to end) with a time, in the waiting thread.
    if ! "$dtrace" -n 'lockstat:::adaptive-block { exit(0); }' -c true >/dev/null 2>"$err"; then
        grep -q "does not have" "$err" && { echo "skipped: $(cat "$err")"; exit 77; }
    fi
    run -qn 'lockstat::: /pid == $target/ { @n = count(); @min = min(arg1); }
             END { printa("waits %@d\n", @n); printa("shortest %@d\n", @min); }' -c "$workload contend 20000"
    expect_status_0
    [ "$(value_of waits)" -gt 0 ] || fail "no lock waits of the workload"
    [ "$(value_of shortest)" -gt 0 ] || fail "a wait of no time"
    ;;
*)
    echo "unknown case $case_name"
    exit 2
    ;;
esac
echo "passed: $case_name"
