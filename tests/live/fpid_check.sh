#!/bin/sh
# fpid_check.sh DTRACE TARGETS_DIR CASE: the fpid provider, live, on the
# pid/fpid test programs (tests/targets), whose call counts are known
# exactly (their expect:N steps print them). Every probe is on $target's
# functions, every run bounded in time; after each case no shared memory of
# the session is left. Exit 0: passed; 1: failed (saying why); 77: skipped
# (saying what is missing).
dtrace=$1
targets=$2
case_name=$3
limit=120
target=$targets/pid_target

. "$(dirname "$0")/live_check.sh" # run, fail, $dir, the skips

need_built "$dtrace" "$target"
need_root "fpid loads its agent with ptrace, which needs root here"
need_dtrace "the fpid provider cannot list probes here" -l -n 'fpid$target:a.out:parse_word:entry' -c "$target"

expected=$dir/expected

# No session's shared memory outlives its dtrace (fpid_shm.dtrace_pid is at byte 16).
no_leftovers() {
    for f in /dev/shm/dtrace-fpid.*; do
        [ -e "$f" ] || continue
        owner=$(od -An -t d4 -j 16 -N 4 "$f" | tr -d ' ')
        kill -0 "$owner" 2>/dev/null || fail "shared memory $f left behind by dtrace $owner"
    done
}

# Counts at entry and at return of every function the program's own
# expectations name: "entry NAME COUNT" and "return NAME COUNT" lines.
counts='fpid$target:a.out::entry { @e[probefunc] = count(); }
        fpid$target:a.out::return { @r[probefunc] = count(); }
        END { printa("entry %s %@d\n", @e); printa("return %s %@d\n", @r); }'

# $1 program, $2 its run step, $3 its expect step.
expect_counts() {
    "$1" "$3" >"$expected" || fail "$1 $3 failed"
    run -qn "$counts" -c "$1 $2"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    ! grep -q drop "$err" || fail "drops reported"
    while read -r name count; do
        grep -qx "entry $name $count" "$out" || fail "entry $name is not $count"
        grep -qx "return $name $count" "$out" || fail "return $name is not $count"
    done <"$expected"
}

# $1 pid, $2 a file it maps, $3 a function of that file: 0 when the
# function's first bytes in the process are the file's (no hook left).
original_bytes_back() {
    python3 - "$1" "$2" "$3" <<'PY'
import subprocess, sys
pid, path, name = sys.argv[1], sys.argv[2], sys.argv[3]
symbol = next(l.split() for l in subprocess.run(["nm", path], capture_output=True, text=True).stdout.splitlines()
              if l.endswith(" " + name))
offset = int(symbol[0], 16)
base = next(int(l.split("-")[0], 16) for l in open("/proc/%s/maps" % pid) if l.rstrip().endswith(path.split("/")[-1])
            and l.split()[2] == "00000000")
with open("/proc/%s/mem" % pid, "rb") as mem, open(path, "rb") as exe:
    mem.seek(base + offset); exe.seek(offset)  # a PIE's first mapping is the file from offset 0
    sys.exit(0 if mem.read(8) == exe.read(8) else 1)
PY
}

# attach_and_detach STEP MODULE FUNCTION FILE: dtrace -p on the target
# running STEP counts MODULE's FUNCTION while attached, leaves FUNCTION's
# first bytes as FILE has them, and the program exits cleanly afterwards.
attach_and_detach() {
    "$target" "$1" >/dev/null 2>&1 &
    pid=$!
    sleep 0.3
    run -qn "fpid\$target:$2:$3:entry { @ = count(); } tick-500ms { exit(0); }
             END { printa(\"%@d\n\", @); }" -p "$pid"
    [ "$status" = 0 ] || { kill "$pid"; fail "dtrace exited with $status"; }
    hits=$(grep -E '^[0-9]+$' "$out")
    [ -n "$hits" ] && [ "$hits" -gt 0 ] || { kill "$pid"; fail "no hits while attached"; }
    original_bytes_back "$pid" "$4" "$3" || { kill "$pid"; fail "$3's first bytes differ from the file's"; }
    touch "$dir/go"
    wait "$pid"
    [ $? = 0 ] || fail "the program did not exit cleanly after dtrace detached"
}

case "$case_name" in
counts)
    # The issue's test: every function of the program counted exactly, at entry and at return.
    expect_counts "$target" calls:200 expect:200
    ;;
counts_nofp)
    # Built without frame pointers: the hooks do not care.
    expect_counts "$targets/pid_target_nofp" calls:200 expect:200
    ;;
counts_cxx)
    # C++ methods and templates, probes named by their mangled names.
    expect_counts "$targets/pid_target_cxx" "cxx:300 calls:20" cxx-expect:300
    ;;
same_as_pid)
    # The Done-when: pid$target and fpid$target count the same calls.
    if ! "$dtrace" -l -n 'pid$target:a.out:parse_word:entry' -c "$target" >/dev/null 2>&1; then
        echo "skipped: the pid provider cannot trace here"
        exit 77
    fi
    run -qn 'pid$target:a.out::entry { @[probefunc] = count(); }' -c "$target calls:50"
    [ "$status" = 0 ] || fail "dtrace (pid) exited with $status"
    cp "$out" "$expected"
    run -qn 'fpid$target:a.out::entry { @[probefunc] = count(); }' -c "$target calls:50"
    [ "$status" = 0 ] || fail "dtrace (fpid) exited with $status"
    diff "$expected" "$out" >/dev/null || fail "pid counted: $(cat "$expected")"
    ;;
args)
    # respond(length, method) of the three requests, in turn; its return
    # value (arg1); arg0 at return is 0 (the hook does not know which ret it was).
    run -qn 'fpid$target:a.out:respond:entry { @[arg0, arg1] = count(); }
             fpid$target:a.out:respond:return { @r[arg1] = count(); @o[arg0] = count(); }
             END { printa("%d %d %@d\n", @); printa("= %d %@d\n", @r); printa("offset %d %@d\n", @o); }' \
        -c "$target calls:30"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    for line in "10 1 10" "2048 2 10" "7 0 10" "= 31 10" "= 6146 10" "= 21 10" "offset 0 30"; do
        grep -qx "$line" "$out" || fail "no line '$line'"
    done
    ;;
timestamps)
    # A time stamp where a clause reads one: parse_request's calls take some time, never less than none.
    run -qn 'fpid$target:a.out:parse_request:entry { self->t = timestamp; }
             fpid$target:a.out:parse_request:return /self->t/ { @n = count(); @neg = sum(timestamp < self->t); self->t = 0; }
             END { printa("calls %@d\n", @n); printa("backwards %@d\n", @neg); }' -c "$target calls:100"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -qx "calls 100" "$out" || fail "not 100 timed calls"
    grep -qx "backwards 0" "$out" || fail "a return stamped before its entry"
    ;;
vtimestamp)
    # The thread's CPU time where a clause reads vtimestamp: never backwards
    # from entry to return, and far below timestamp (the time since boot),
    # which it would equal if the hit had not recorded it.
    run -qn 'fpid$target:a.out:parse_request:entry { self->v = vtimestamp; }
             fpid$target:a.out:parse_request:return /self->v/ { @n = count(); @neg = sum(vtimestamp < self->v);
                 @below = sum(vtimestamp < timestamp / 2); self->v = 0; }
             END { printa("calls %@d\n", @n); printa("backwards %@d\n", @neg); printa("below %@d\n", @below); }' \
        -c "$target calls:100"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -qx "calls 100" "$out" && grep -qx "backwards 0" "$out" && grep -qx "below 100" "$out" ||
        fail "vtimestamp is not the thread's CPU time"
    ;;
psinfo)
    # curpsinfo and curlwpsinfo at fpid probes, built from the hit and /proc
    # (read while the program still runs: it sleeps after its calls).
    run -qn 'fpid$target:a.out:parse_request:entry {
                 @[curpsinfo->pr_pid == pid, curpsinfo->pr_ppid == ppid, curlwpsinfo->pr_lwpid == tid,
                   curpsinfo->pr_fname, curpsinfo->pr_psargs] = count(); }
             END { printa("%d %d %d %s [%s] %@d\n", @); }' -c "$target calls:100 sleep:500"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -qx "1 1 1 pid_target \[$target calls:100 sleep:500\] 100" "$out" || fail "curpsinfo/curlwpsinfo at fpid probes"
    ;;
exceptions)
    # C++ exceptions unwind through functions whose returns are hooked: the
    # program catches every one and runs to its end; the frames the
    # exceptions left fire no return, the others do (their returns hooked
    # again once caught).
    "$targets/pid_target_cxx" throws-expect:40 >"$expected" || fail "throws-expect failed"
    run -qn "$counts" -c "$targets/pid_target_cxx throws:40"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -qx "caught 20" "$out" || fail "the program did not catch its 20 exceptions"
    while read -r line; do
        grep -qx "$line" "$out" || fail "no line '$line'"
    done <"$expected"
    ! grep -q '^return _ZN4shop6refuseEl' "$out" || fail "refuse, which always throws, returned"
    ;;
ustack)
    # Stacks at entry, walked through the frame pointers and demangled.
    run -qn 'fpid$target:a.out:_ZN4shop4Cart3addEi:entry { @[ustack()] = count(); }' \
        -c "$targets/pid_target_cxx cxx:7"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q 'pid_target_cxx`shop::Cart::add(int)$' "$out" || fail "no demangled shop::Cart::add(int) frame"
    grep -q 'pid_target_cxx`cxx_step(char const\*)+0x' "$out" || fail "no caller frame"
    grep -q 'pid_target_cxx`target_run_steps+0x' "$out" || fail "no frame above the caller"
    [ "$(grep -cx ' *7' "$out")" = 2 ] || fail "not two call sites of 7 calls each"
    ;;
attach)
    # -p: attached while the program runs, detached with the original
    # bytes back, and the program goes on and exits cleanly.
    attach_and_detach "spin-until:$dir/go" a.out parse_word "$target"
    ;;
dlopen)
    # A library loaded while tracing runs (-Z: it matches nothing at first)
    # is hooked before its code runs, unhooked when it is unloaded, and
    # hooked again when it is loaded again: exact counts at entry and return,
    # and at entry the same counts as pid's.
    lib=libpid_target_lib.so
    "$target" lib-expect:35 >"$expected"
    run -Z -qn "fpid\$target:$lib::entry { @e[probefunc] = count(); } fpid\$target:$lib::return { @r[probefunc] = count(); }
                END { printa(\"entry %s %@d\n\", @e); printa(\"return %s %@d\n\", @r); }" -c "$target dlopen:25 dlopen:10"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    while read -r name count; do
        grep -qx "entry $name $count" "$out" && grep -qx "return $name $count" "$out" || fail "$name is not $count"
    done <"$expected"
    grep '^entry ' "$out" | sed 's/^entry //' >"$expected"
    run -Z -qn "pid\$target:$lib::entry { @[probefunc] = count(); } END { printa(\"%s %@d\n\", @); }" \
        -c "$target dlopen:25 dlopen:10"
    if [ "$status" = 0 ]; then
        grep -v '^$' "$out" | diff "$expected" - >/dev/null || fail "pid counted otherwise than fpid's $(tr '\n' ' ' <"$expected")"
    else
        echo "not compared with pid: the pid provider cannot trace here"
    fi
    ;;
attach_library)
    # -p while the program has the library loaded: its hooks go when dtrace
    # detaches (the original bytes back), and the program goes on to unload
    # it and exit cleanly.
    attach_and_detach "lib-spin:3000" libpid_target_lib.so lib_work "$targets/libpid_target_lib.so"
    ;;
ctor_dlopen)
    # -c: a library's constructor dlopens pid_target_lib before the entry
    # point (where the agent is loaded): its functions are hooked too.
    need_built "$targets/pid_target_ctor"
    run -Z -qn 'fpid$target:libpid_target_lib.so:lib_work:entry,fpid$target:libpid_target_lib.so:lib_work:return
                { @[probename] = count(); } END { printa("%s %@d\n", @); }' -c "$targets/pid_target_ctor 7"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -qx "entry 7" "$out" && grep -qx "return 7" "$out" || fail "not 7 entries and returns of lib_work"
    ;;
attach_dlopen)
    # -p, then the program loads the library: exact counts in it (dtrace
    # ends when the program exits).
    go=$(mktemp -u)
    "$target" "wait-file:$go" dlopen:25 >/dev/null 2>&1 &
    pid=$!
    timeout "$limit" "$dtrace" -Z -qn 'fpid$target:libpid_target_lib.so::entry { @[probefunc] = count(); }
        END { printa("%s %@d\n", @); }' -p "$pid" >"$out" 2>"$err" &
    tracer=$!
    # The program goes on once the agent is in it.
    for i in $(seq 600); do
        grep -q libdtrace-fpid-agent "/proc/$pid/maps" 2>/dev/null && break
        sleep 0.1
    done
    touch "$go"
    wait "$pid"
    program=$?
    wait "$tracer"
    status=$?
    rm -f "$go"
    [ "$program" = 0 ] || fail "the program exited with $program"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    "$target" lib-expect:25 >"$expected"
    while read -r name count; do
        grep -qx "$name $count" "$out" || fail "$name is not $count"
    done <"$expected"
    ;;
crash)
    # The program dies of SIGSEGV mid-trace: what it did before is counted, dtrace ends cleanly.
    run -qn 'fpid$target:a.out:parse_word:entry { @ = count(); } END { printa("%@d\n", @); }' \
        -c "$target calls:10 crash calls:10"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -qx 30 "$out" || fail "not the 30 calls made before the crash"
    ;;
exit_mid)
    run -qn 'fpid$target:a.out:parse_word:entry { @ = count(); } END { printa("%@d\n", @); }' \
        -c "$target calls:10 exit:3 calls:10"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -qx 30 "$out" || fail "not the 30 calls made before _exit"
    ;;
copyin)
    # What fpid cannot do is refused when the program is compiled.
    run -qn 'fpid$target:a.out:parse_request:entry { trace(copyinstr(arg0)); }' -c "$target calls:1"
    [ "$status" = 1 ] || fail "copyinstr() at an fpid probe was not refused"
    grep -q 'copyinstr( ) is not available at fpid[0-9]* probes' "$err" || fail "no message saying why"
    ;;
*)
    echo "unknown case $case_name"
    exit 2
    ;;
esac
no_leftovers
echo "passed: $case_name"
