#!/bin/sh
# check_oneliners.sh DTRACE CASE: classic DTrace one-liners a user types
# first (the Guide's and the well-known lists'), live, on small shell
# scripts of our own as -c targets. Every clause filters on $target or its
# children and every run is bounded in time. Exit 0: passed; 1: failed
# (saying why); 77: skipped (saying what is missing).
dtrace=$1
case_name=$2
limit=120
. "$(dirname "$0")/live_check.sh"

need_built "$dtrace"
need_root "live tracing needs root (BPF programs, tracefs)"

script=$dir/script

# $script: a shell script of the lines given, made executable.
workload() {
    printf '#!/bin/sh\n' >"$script"
    printf '%s\n' "$@" >>"$script"
    chmod +x "$script"
}

case "$case_name" in
progenyof)
    # progenyof($target) of a child gone before the clause runs (an ls).
    need_dtrace "the proc provider is not available here" -l -n proc:::exec-success
    workload 'ls / >/dev/null' 'exit 0'
    run -qn 'proc:::exec-success /progenyof($target)/ { printf("%s\n", execname); }' -c "$script"
    expect_status_0
    printf 'ls\n\n' | diff - "$out" >/dev/null || fail "progenyof(\$target) is not true of its child ls"
    ;;
signal_target)
    # kill.d: signal-send's psinfo_t of a process the signal kills, gone by
    # the time the clause reads it.
    need_dtrace "the proc provider is not available here" -l -n proc:::signal-send
    workload 'sleep 30 &' 'kill $!' 'wait' 'exit 0'
    run -qn 'syscall::kill:entry /pid == $target/ { printf("kill %d\n", arg0); }
             proc:::signal-send /pid == $target && args[2] == 15/ { printf("sent %d %d\n", args[1]->pr_pid, args[0]->pr_lwpid); }' \
        -c "$script"
    expect_status_0
    killed=$(value_of kill)
    [ -n "$killed" ] || fail "no kill(2) seen"
    [ "$(value_of sent)" = "$killed $killed" ] || fail "signal-send's target is not pid $killed"
    ;;
target_signals)
    # The signals of a -c target are the program's own: dtrace does not stop
    # it (SIGSTOP, then SIGCONT) at its library loads when no description
    # names its pid or USDT probes (a psinfo_t type once made the pid plugin
    # hold every -c target).
    need_dtrace "the proc provider is not available here" -l -n proc:::signal-send
    workload 'ls / >/dev/null' "trap '' USR1" 'kill -USR1 $$' 'exit 0'
    run -qn 'proc:::signal-send /pid == $target || args[1]->pr_pid == $target/ { printf("sig %d\n", args[2]); }' \
        -c "$script"
    expect_status_0
    grep -Eq '^sig (18|19)$' "$out" && fail "the target was stopped and continued by dtrace"
    grep -q '^sig 10$' "$out" || fail "not the SIGUSR1 the target sent itself"
    ;;
write_buffer)
    # What a process writes: stringof(copyin(arg1, arg2)), bytes without a NUL.
    need_dtrace "the syscall provider is not available here" -l -n syscall::write:entry
    workload 'echo hello >/dev/null' 'exit 0'
    run -qn 'syscall::write:entry /pid == $target/ { printf("[%s]", stringof(copyin(arg1, arg2))); }' -c "$script"
    expect_status_0
    printf '[hello\n]\n' | diff - "$out" >/dev/null || fail "not the bytes written"
    ;;
user_address)
    # printf("%A") of an integer (ucaller) with -c: allowed, and named in
    # $target's address space.
    need_dtrace "the syscall provider is not available here" -l -n syscall::write:entry
    workload 'echo hello >/dev/null' 'exit 0'
    run -qn 'syscall::write:entry /pid == $target/ { printf("at %A\n", ucaller); }' -c "$script"
    expect_status_0
    # (the shell's own code calls libc's write: a module of the target names it)
    value_of at | grep -Eq '^[^0][^`]*`' || fail "ucaller is not named by a module of the target: $(value_of at)"
    ;;
profile_execname)
    # profile-997's @[execname] of a -c target that exits before the
    # sampler reads its samples (a run under the ring's 50 ms poll): the
    # name is the target's, not an empty key read from a /proc entry gone.
    need_dtrace "the profile provider is not available here" -l -n profile:::profile-997
    head -c 4000000 /dev/zero >"$dir/data"
    sampled=0
    for attempt in 1 2 3; do
        run -qn 'profile-997 /pid == $target/ { @[execname] = count(); }' -c "sha256sum $dir/data"
        expect_status_0
        keys=$(grep -v -e '^$' -e '^[0-9a-f]\{64\}  ' "$out" | awk '{ print $1 }' | sort -u)
        [ -z "$keys" ] && continue
        sampled=1
        [ "$keys" = sha256sum ] || fail "the keys are not the target's execname: $keys"
    done
    [ "$sampled" = 1 ] || skip "no profile-997 sample of a 4 MB sha256sum in three runs"
    ;;
profile_fork)
    # profile-997 in a child the target forks without an exec (a subshell
    # busy for ~30 ms), gone when the sampler reads its samples: it is known
    # from the kernel's fork record, by its parent's name, with ppid $target.
    need_dtrace "the profile provider is not available here" -l -n profile:::profile-997
    workload '(i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done)' 'exit 0'
    for attempt in 1 2 3; do
        run -qn 'profile-997 /pid == $target || ppid == $target/ {
                     @[pid == $target ? "target" : "child", execname] = count(); }' -c "$script"
        expect_status_0
        [ "$(awk '$1 == "child" { print $2 }' "$out")" = script ] ||
            fail "the subshell's samples are not those of a child of \$target named script"
    done
    ;;
profile_running)
    # profile-997 of a process that ran before dtrace and is killed as
    # tracing starts (-c kill), gone when the sampler reads its samples: it
    # is known from /proc as sampling starts, not an empty execname.
    need_dtrace "the profile provider is not available here" -l -n profile:::profile-997
    sampled=0
    for attempt in 1 2 3; do
        sha256sum /dev/zero &
        busy=$!
        sleep 0.2
        run -qn "profile-997 /pid == $busy/ { @[execname] = count(); }" -c "kill $busy"
        kill "$busy" 2>/dev/null
        wait "$busy"
        expect_status_0
        keys=$(grep -v '^$' "$out" | awk '{ print $1 }' | sort -u)
        [ -z "$keys" ] && continue
        sampled=1
        [ "$keys" = sha256sum ] || fail "the keys are not the busy process's execname: $keys"
    done
    [ "$sampled" = 1 ] || skip "no profile-997 sample of a busy sha256sum in three runs"
    ;;
*)
    echo "unknown case $case_name"
    exit 2
    ;;
esac
exit 0
