#!/bin/sh
# check_pid.sh DTRACE TARGETS_DIR CASE: the pid provider, live, on the test
# targets of tests/targets (known call counts). Every probe is pid$target
# (or pid<N> of a target we started), every run is bounded in time. Exit 0:
# passed; 1: failed (saying why); 77: skipped (saying what is missing).
dtrace=$1
targets=$2
case_name=$3
limit=120
target=$targets/pid_target

# (run, fail, $dir, the skips; DTRACE_FASTPATH=on|off runs every case with
# -x fastpath=...: the same expected output either way)
. "$(dirname "$0")/live_check.sh"

need_built "$dtrace" "$target"
need_root "uprobes need root (BPF programs)"
need_dtrace "the pid provider cannot trace here" -qn 'pid$target:a.out:main:entry { exit(0); }' -c "$target"

expected=$dir/expected

# Every "function count" line of $expected is in the output, exactly.
expect_counts() {
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    while read -r function count; do
        grep -Eq "^$function $count\$" "$out" || fail "not $count calls of $function (expected: $(tr '\n' ' ' <"$expected"))"
    done <"$expected"
}

counts='END { printa("%s %@d\n", @); }'

# The fast path's cases (fastpath_*: explain, the same bytes with
# -x fastpath=on and off, what stays in user space) set the option themselves.
fastpath_target=$target
. "$(dirname "$0")/same_both_ways.sh"
in_kernel="runs in the kernel"

case "$case_name" in
entry_counts | return_counts)
    # The issue's one-liner on every build of the C target: each function of
    # the call tree exactly as often as the target says it calls it, and the
    # driver's once.
    name=${case_name%_counts}
    for variant in pid_target pid_target_nofp pid_target_nodebug; do
        run -qn "pid\$target:a.out::$name { @[probefunc] = count(); } $counts" -c "$targets/$variant calls:1000"
        "$targets/$variant" expect:1000 >"$expected"
        printf 'main 1\ntarget_calls 1\n' >>"$expected"
        expect_counts
    done
    ;;
cxx_counts)
    run -qn "pid\$target:a.out::entry { @[probefunc] = count(); } $counts" -c "$targets/pid_target_cxx cxx:500 calls:10"
    { "$targets/pid_target_cxx" cxx-expect:500 expect:10; } >"$expected"
    expect_counts
    ;;
return_values)
    # arg0: the offset of the return instruction, arg1: the value.
    run -qn 'pid$target:a.out:parse_request:return { @[arg0 > 0, arg1] = count(); } END { printa("%d %d %@d\n", @); }' \
        -c "$target calls:30"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    printf '1 3 30\n\n' | diff - "$out" >/dev/null || fail "not 30 returns of 3 at an offset"
    ;;
offsets)
    # respond() is straight-line: each of its instructions once per call,
    # and as many offset probes as objdump shows instructions.
    run -qn "pid\$target:a.out:respond:* { @[probename] = count(); } $counts" -c "$target calls:200"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "^entry 200\$" "$out" || fail "no 200 entries"
    grep -q "^return 200\$" "$out" || fail "no 200 returns"
    grep -q "^0 200\$" "$out" || fail "no 200 hits at offset 0"
    offsets=$(grep -Ec '^[0-9a-f]+ 200$' "$out")
    [ "$offsets" -ge 3 ] || fail "fewer than 3 offset probes of respond"
    ! grep -Ev '^(entry|return|[0-9a-f]+) 200$|^$' "$out" | grep -q . || fail "an offset not hit 200 times"
    # An offset inside an instruction is refused, naming it.
    # (respond begins with a 4-byte lea.)
    run -qn 'pid$target:a.out:respond:1 { exit(0); }' -c "$target"
    [ "$status" != 0 ] || fail "an offset inside an instruction was accepted"
    grep -q "is not the start of an instruction" "$err" || fail "no message about the offset"
    ;;
globs)
    # Globs over functions and modules, and module aliases (a.out, libc).
    run -qn "pid\$target:pid_tar*:parse_*:entry { @[probefunc] = count(); } pid\$target:libc:strtol:entry { @[probemod] = count(); } $counts" \
        -c "$target calls:40"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "^parse_request 40\$" "$out" || fail "parse_request"
    grep -q "^parse_word 120\$" "$out" || fail "parse_word"
    grep -q "^parse_method 40\$" "$out" || fail "parse_method"
    # parse_request's 40, and the target's reading of "calls:40"; a module
    # named by an alias (libc) is the file's name in the probe, as in DTrace.
    grep -q "^libc.so.6 41\$" "$out" || fail "strtol in libc, probemod libc.so.6"
    ;;
dlopen)
    # A library loaded while tracing runs gets its probes (-Z) before its
    # code runs: exact counts.
    run -Z -qn "pid\$target:libpid_target_lib.so::entry { @[probefunc] = count(); } $counts" -c "$target dlopen:25"
    "$target" lib-expect:25 >"$expected"
    expect_counts
    ;;
types)
    # args[] typed from DWARF; without debug information, uint64_t.
    run -lv -n 'pid$target:a.out:parse_request:entry' -c "$target"
    [ "$status" = 0 ] || fail "dtrace -lv exited with $status"
    grep -q "args\[0\]: const char \*" "$out" || fail "args[0] is not const char *"
    grep -q "args\[1\]: struct request \*" "$out" || fail "args[1] is not struct request *"
    run -lv -n 'pid$target:a.out:parse_request:entry' -c "$targets/pid_target_nodebug"
    grep -q "args\[0\]: uint64_t" "$out" || fail "args[0] without DWARF is not uint64_t"
    # The program's struct in D: its size and layout, and a copied-in field.
    run -qn 'pid$target:a.out:parse_request:entry { printf("%d %d %d\n", sizeof(struct request),
                 offsetof(struct request, path), sizeof(args[1]->path)); exit(0); }' -c "$target calls:1"
    printf '56 16 32\n\n' | diff - "$out" >/dev/null || fail "struct request is not 56 bytes with path at 16"
    ;;
strings)
    # copyinstr of a string argument, as the call saw it (copied at the event).
    run -qn 'pid$target:a.out:parse_request:entry { printf("[%s]\n", copyinstr(arg0)); }' -c "$target calls:3"
    expect='[GET 10 /index.html]
[PUT 2048 /upload]
[DELETE 7 /old]'
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    printf '%s\n\n' "$expect" | diff - "$out" >/dev/null || fail "not the three requests"
    ;;
ustack)
    # Named stacks at a pid probe, with and without frame pointers, and
    # demangled C++ names.
    for variant in pid_target pid_target_nofp; do
        run -qn 'pid$target:a.out:respond:entry { @[ustack()] = count(); }' -c "$targets/$variant calls:5"
        [ "$status" = 0 ] || fail "dtrace exited with $status"
        # (handle_request calls respond as a tail call: no frame of its own.)
        for frame in '`respond$' '`target_calls+' '`target_run_steps+' 'libc.so.6`__libc_start'; do
            grep -q "$frame" "$out" || fail "$variant: no frame $frame"
        done
    done
    run -qn 'pid$target:a.out:_ZN4shop4Cart3addEi:entry { @[ustack(2)] = count(); }' -c "$targets/pid_target_cxx cxx:3"
    grep -q 'shop::Cart::add(int)' "$out" || fail "no demangled shop::Cart::add(int)"
    # The issue's malloc stacks of ls: named frames in libc.
    run -n 'pid$target::malloc:entry { @[ustack(5)] = count(); }' -c 'ls -l /usr'
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q 'libc.so.6`malloc$' "$out" || fail "no libc.so.6\`malloc frame"
    ;;
grab)
    # -p: attach to a running target, detach, and the target goes on and
    # exits cleanly afterwards (it calls until $dir/go exists, however long
    # a loaded machine takes to start dtrace).
    "$target" "spin-until:$dir/go" exit:0 &
    victim=$!
    sleep 0.5
    run -qn "pid$victim:a.out:parse_request:entry { @ = count(); } tick-1s { exit(0); } END { printa(\"%@d\n\", @); }" -p "$victim"
    [ "$status" = 0 ] || fail "dtrace -p exited with $status"
    grep -Eq '^[1-9][0-9]*$' "$out" || fail "no calls counted while attached"
    kill -0 "$victim" 2>/dev/null || fail "the target did not survive the detach"
    touch "$dir/go"
    wait "$victim"
    victim_status=$?
    [ "$victim_status" = 0 ] || fail "the target exited with $victim_status after the detach"
    ;;
uregs)
    # uregs[] is the register set the uprobe saw, by Oracle's R_* names:
    # the argument registers are arg0/arg1, rip is the function (entry) or
    # a return instruction in it, rax at return is arg1, the 32-bit alias
    # reads the 64-bit register; a segment register a uprobe does not see
    # is an illegal operation.
    run -qn 'pid$target:a.out:respond:entry {
                 @e[uregs[R_RDI] == arg0, uregs[R_RSI] == arg1, uregs[R_EDI] == uregs[R_RDI],
                    uregs[R_PC] == uregs[R_RIP], uregs[R_RSP] != 0, usym(uregs[R_RIP])] = count(); }
             pid$target:a.out:respond:return { @r[uregs[R_RAX] == arg1, usym(uregs[R_RIP])] = count(); }
             END { printa("entry %d %d %d %d %d %A %@d\n", @e); printa("return %d %A %@d\n", @r); }' \
        -c "$target calls:4"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q '^entry 1 1 1 1 1 pid_target`respond 4$' "$out" || fail "uregs[] at entry is not the registers of respond's 4 calls"
    # (usym() keys name the function, as DTrace merges them: no offset)
    grep -q '^return 1 pid_target`respond 4$' "$out" || fail "uregs[] at return is not the registers of respond's 4 returns"
    run -qn 'pid$target:a.out:respond:entry { trace(uregs[R_DS]); exit(0); }' -c "$target calls:1"
    grep -q "illegal operation" "$err" || fail "uregs[R_DS] read without a fault"
    ;;
refused)
    # What the provider cannot do fails, saying why, with a non-zero status.
    run -qn 'pid999999999:a.out:main:entry { exit(0); }'
    [ "$status" != 0 ] || fail "a process that does not exist was accepted"
    grep -q "cannot trace process 999999999: no such process" "$err" || fail "no message about the process"
    # A function whose first instruction the kernel's uprobes refuse (lock decl).
    run -qn 'pid$target:libc.so.6:pthread_spin_lock:entry { exit(0); }' -c "$target calls:1"
    [ "$status" != 0 ] || fail "an entry probe on a lock-prefixed instruction was accepted"
    grep -q "pthread_spin_lock:entry: its first instruction has a lock prefix" "$err" || fail "no message about the lock prefix"
    ;;
whole_library)
    # Every function of libc in one uprobe_multi link: the kernel refuses a
    # whole link for one site it cannot probe, so none of those is made.
    run -x verbose -qn 'pid$target:libc.so.6::entry { @ = count(); } END { printa("%@d\n", @); }' -c "$target calls:3"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    [ "$(head -1 "$out")" -gt 10 ] || fail "fewer than 10 calls into libc counted"
    ! grep -q "attached one by one" "$err" || fail "the kernel refused the link of libc's functions"
    ;;
target_dies)
    # A target that crashes, or exits at once, mid-trace: dtrace ends, with
    # what it saw, and leaves no stopped process behind.
    run -qn "pid\$target:a.out:respond:entry { @[probefunc] = count(); } $counts" -c "$target calls:7 crash"
    grep -q "^respond 7\$" "$out" || fail "not 7 calls before the crash"
    run -qn "pid\$target:a.out:respond:entry { @[probefunc] = count(); } $counts" -c "$target calls:9 exit:3"
    grep -q "^respond 9\$" "$out" || fail "not 9 calls before the exit"
    ;;
threads_fork)
    # Threads started while traced count exactly; a fork child and a
    # posix_spawn'ed one (vfork, exec) run on without tripping over the
    # parent's probes (the target exits 3 if a child failed) and are not
    # counted: probes are the process's own.
    run -qn "pid\$target:a.out::entry { @[probefunc] = count(); } $counts" -c "$target threads:300 fork:50 spawn calls:5"
    { for i in 1 2 3 4; do "$target" expect:300; done; "$target" expect:5; } |
        awk '{ n[$1] += $2 } END { for (f in n) print f, n[f] }' >"$expected"
    expect_counts
    ;;
ptrace_detach)
    # The ptrace fallback lets a -p process go however dtrace ends (exit(),
    # ^C): no thread left stopped or traced, no int3 left in its text (the
    # target would die of SIGTRAP at its next call), and it exits cleanly.
    "$target" "spin-until:$dir/go" exit:0 &
    victim=$!
    sleep 0.5
    for ending in "tick-1s { exit(0); }" "tick-10s { exit(0); }"; do
        signal=KILL seconds=$limit how="exit()"
        [ "$ending" = "tick-1s { exit(0); }" ] || signal=INT seconds=1.5 how="^C"
        timeout -s "$signal" "$seconds" "$dtrace" -x pidbackend=ptrace -qn "pid$victim:a.out:respond:entry,
            pid$victim:a.out:parse_request:return { @ = count(); } $ending END { printa(\"%@d\n\", @); }" \
            -p "$victim" >"$out" 2>"$err"
        grep -Eq '^[1-9][0-9]*$' "$out" || fail "no calls counted while attached ($how)"
        grep -q '^TracerPid:[[:space:]]*0$' "/proc/$victim/status" || fail "the target is still traced ($how)"
        grep -q '^State:[[:space:]]*[RS]' "/proc/$victim/status" || fail "the target is not running ($how)"
    done
    touch "$dir/go"
    wait "$victim"
    victim_status=$?
    [ "$victim_status" = 0 ] || fail "the target exited with $victim_status after the detach"
    # A mode that does not exist is refused, naming the option.
    run -x pidbackend=bogus -qn 'pid$target:a.out:main:entry { exit(0); }' -c "$target"
    [ "$status" != 0 ] || fail "-x pidbackend=bogus was accepted"
    grep -q 'pidbackend must be auto, uprobe or ptrace, not "bogus"' "$err" || fail "no message about pidbackend"
    ;;
ptrace_fallback)
    # Where the kernel has no uprobe PMU (hidden here by an empty sysfs
    # folder in a mount namespace of our own), pid probes fall back to
    # ptrace by themselves, saying so once, with the same counts.
    command -v unshare >/dev/null || skip "unshare (util-linux) is missing"
    unshare -m true 2>/dev/null || skip "cannot make a mount namespace here"
    timeout "$limit" unshare -m sh -c 'mount -t tmpfs none /sys/bus/event_source/devices && exec "$@"' sh \
        "$dtrace" -qn "pid\$target:a.out::entry { @[probefunc] = count(); } $counts" -c "$target calls:300" \
        >"$out" 2>"$err"
    status=$?
    "$target" expect:300 >"$expected"
    expect_counts
    [ "$(grep -c 'pid probes use ptrace breakpoints because uprobes are not available (this kernel has no uprobes' "$err")" = 1 ] ||
        fail "no one-line notice of the ptrace fallback"
    ;;
fastpath_explain)
    run -x fastpath=explain -qn 'pid$target:a.out:tiny_leaf:entry { @ = count(); } END { printa("%@d\n", @); }' \
        -c "$target loop:5000"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    printf '5000\n\n' | diff - "$out" >/dev/null || fail "not 5000 calls"
    grep -q "clause at line 1 (pid[0-9]*:a.out:tiny_leaf:entry) runs in the kernel on 1 probe" "$err" ||
        fail "the count does not run in the kernel"
    run -x fastpath=explain -qn 'pid$target:a.out:parse_request:return { @[arg1] = count(); }
                                 pid$target:a.out:respond:0 { @o = count(); }' -c "$target calls:3"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "(pid[0-9]*:a.out:parse_request:return) runs in the kernel" "$err" || fail "the return clause is not in the kernel"
    grep -q "(pid[0-9]*:a.out:respond:0) runs in the kernel" "$err" || fail "the offset clause is not in the kernel"
    ;;
fastpath_differential)
    # (functions of names under 16 bytes: a longer probefunc key stays in user space)
    same_both_ways 'pid$target:a.out:[hpr]*:entry { @[probefunc] = count(); }' "calls:200" "$in_kernel"
    same_both_ways 'pid$target:a.out:[hpr]*:return { @[probefunc, arg0 > 0] = count(); }' "calls:100" "$in_kernel"
    # Arguments from the SysV registers, the return value (rax) and offset.
    same_both_ways 'pid$target:a.out:tiny_leaf:entry { @a = quantize(arg0); @s = sum(arg0); @mx = max(arg0); }
                    pid$target:a.out:parse_request:return { @r[arg0, arg1] = count(); }
                    pid$target:a.out:parse_request:entry { @p[arg1 != 0, arg2, arg3 * 0] = count(); }' \
        "loop:300 calls:20" "$in_kernel"
    # Thread-locals between entry and return, records, the empty clause.
    same_both_ways 'pid$target:a.out:parse_request:entry { self->in = 1; self->n++; }
                    pid$target:a.out:parse_request:return /self->in/ { printf("%s %d %d\n", probefunc, arg1, self->n); self->in = 0; }
                    pid$target:a.out:respond:entry /self->n == 2/ { }' "calls:5" "$in_kernel"
    same_both_ways 'pid$target:a.out:tiny_framed:entry { @[execname, pid == $target, tid > 0] = count(); }' \
        "loop-framed:1000" "$in_kernel"
    # Arguments on the stack (arg6, arg7: read from user memory by the program), as the call passed them.
    same_both_ways 'pid$target:a.out:eight_args:entry { @[arg6, arg7] = count(); @s = sum(args[7]); }' \
        "eight:12" "$in_kernel"
    for pair in "60 70" "61 71" "60 72" "61 70" "60 71" "61 72"; do
        echo "$pair 2" | awk '{ printf "^ +%s +%s +%s$\n", $1, $2, $3 }' >"$dir/pattern"
        grep -Eqf "$dir/pattern" "$out" || fail "eight_args's arg6, arg7 are not $pair twice"
    done
    ;;
fastpath_fallback)
    # copyinstr() of an argument runs in the kernel (read at the event).
    run -x fastpath=explain -qn 'pid$target:a.out:parse_request:entry { @[copyinstr(arg0)] = count(); }
                                 END { printa("%s %@d\n", @); }' -c "$target parse:GET_7_/index"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "(pid[0-9]*:a.out:parse_request:entry) runs in the kernel" "$err" || fail "copyinstr() not in the kernel"
    grep -q "^GET_7_/index 1\$" "$out" || fail "the string is not counted"
    # uregs[] stays in user space.
    run -x fastpath=explain -qn 'pid$target:a.out:parse_request:entry { @[uregs[R_RDI] != 0] = count(); }' \
        -c "$target parse:GET_7_/index"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "(pid[0-9]*:a.out:parse_request:entry) stays in user space" "$err" || fail "uregs[] not explained"
    ;;
fastpath_ustack)
    # ustack() keys run in the kernel (the walk by the CFI: pid gives it
    # its process's rows and a way back), and print the same stacks as in
    # user space: libc's strtol (frames without frame pointers), in a tuple,
    # in the program built without frame pointers.
    run -x fastpath=explain -qn 'pid$target:a.out:respond:entry { @[ustack(2)] = count(); }' -c "$target calls:2"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "(pid[0-9]*:a.out:respond:entry) runs in the kernel" "$err" || fail "ustack() not in the kernel"
    grep -q "respond" "$out" || fail "no named stack"
    same_both_ways 'pid$target::strtol:entry { @[ustack(5)] = count(); }' "calls:3" "$in_kernel"
    grep -q 'pid_target`parse_request+' "$out" || fail "no frame of parse_request above libc's strtol"
    same_both_ways_for 'pid$target:a.out:respond:entry { @[ustack(), probefunc] = count(); @t[ustack(3), execname] = count(); }' \
        "$targets/pid_target_nofp calls:3" "$in_kernel"
    grep -q 'pid_target_nofp`target_calls+' "$out" || fail "no frame of target_calls in ustack()"
    # Events whose walk meets a signal frame go back to user space whole:
    # the same stacks and counts as with the fast path off, the kernel's
    # and user space's entries of one aggregation merged.
    same_both_ways_for 'pid$target:a.out:leaf:entry { @[ustack()] = count(); } pid$target:a.out:leaf:entry { @n[ustack(5)] = sum(arg0); }' \
        "$targets/ustack_target 25" "$in_kernel"
    for frame in '`call_directly+' '`call_from_signals+' 'libc.so.6`__restore_rt$'; do
        grep -q "$frame" "$out" || fail "no frame $frame"
    done
    [ "$(grep -Ec '^ +25$' "$out")" = 2 ] || fail "not 25 stacks of each way"
    # A clause that a declined event would run in user space against other
    # state than the kernel's keeps its probe's clauses there.
    run -x fastpath=explain -qn 'pid$target:a.out:leaf:entry { @[ustack()] = count(); self->n++; }' \
        -c "$targets/ustack_target 2"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "stays in user space: ustack() keys in the kernel path with self-> or global variables" "$err" ||
        fail "self-> beside ustack() not explained"
    ;;
unsized)
    # Functions whose symbols have no size (crti's _init, crtstuff's): their
    # code ends at the first ret no branch jumps past, so they have return
    # and offset probes too. _init runs once at start, deregister_tm_clones
    # once at exit (from __do_global_dtors_aux).
    run -qn 'pid$target:a.out:_init:,pid$target:a.out:deregister_tm_clones: { @[probefunc, probename] = count(); }
             END { printa("%s %s %@d\n", @); }' -c "$target calls:1"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    for line in "_init entry 1" "_init return 1" "_init 0 1" "deregister_tm_clones entry 1" \
        "deregister_tm_clones return 1"; do
        grep -q "^$line\$" "$out" || fail "not: $line"
    done
    ;;
fastpath_copyin)
    # copyin() reads the bytes the call saw: reuse:N overwrites the record
    # (id -1) and its name ("reused") as soon as take_record returns. In the
    # kernel the clause reads them at the event; in user space (fastpath
    # off) the uprobe program fetched them at the event (the fetch plan).
    same_both_ways 'pid$target:a.out:take_record:entry {
            this->r = (struct record *)copyin(arg0, sizeof(struct record));
            @ids[this->r->id] = count(); @flags[this->r->flags] = count(); @sum = sum(this->r->id);
            @names[copyinstr(*(uintptr_t *)copyin(arg0 + 8, 8))] = count(); }
        END { printa("id %d %@d\n", @ids); printa("flags %d %@d\n", @flags); printa("sum %@d\n", @sum);
              printa("name %s %@d\n", @names); }' "reuse:40" "(pid[0-9]*:a.out:take_record:entry) runs in the kernel"
    i=0
    while [ $i -lt 40 ]; do
        grep -q "^id $i 1\$" "$out" || fail "id $i not seen once"
        grep -q "^name rec-$i 1\$" "$out" || fail "name rec-$i not seen once"
        i=$((i + 1))
    done
    grep -q "^sum 780\$" "$out" || fail "the ids do not sum to 780"
    printf 'flags 0 14\nflags 1 13\nflags 2 13\n' >"$expected"
    grep '^flags' "$out" | sort | diff "$expected" - >/dev/null || fail "not 14, 13, 13 records of flags 0, 1, 2"
    ! grep -Eq '^id -1|reused' "$out" || fail "a record read after the call overwrote it"
    # The same bytes either way where the memory stays (the request texts
    # are constants, and the target sleeps while user space reads them):
    # loads of each width, signed and not, at offsets.
    same_both_ways 'pid$target:a.out:parse_request:entry {
            this->t = (char *)copyin(arg0, 8);
            @[this->t[0], *(uint16_t *)(this->t + 2), *(int *)copyin(arg0 + 4, 4), *(uint64_t *)this->t] = count(); }' \
        "calls:20 sleep:500" "$in_kernel"
    # A size not known at compile time, a load the engine faults on for its
    # alignment, stay in user space, saying why.
    run -x fastpath=explain -qn 'pid$target:a.out:take_record:entry { @[*(int *)((char *)copyin(arg0, 8) + 2)] = count(); }' \
        -c "$target reuse:2 sleep:300"
    grep -q "stays in user space: a load of 4 bytes at offset 2 of copyin()'s bytes, not aligned" "$err" ||
        fail "an unaligned load is not explained"
    grep -q "invalid alignment" "$err" || fail "the unaligned load does not fault in user space"
    run -x fastpath=explain -qn 'pid$target:a.out:take_record:entry { @[*(int *)copyin(arg0, arg1 + 4)] = count(); }' \
        -c "$target reuse:2"
    grep -q "stays in user space: copyin() of a size not known at compile time" "$err" ||
        fail "a copyin() of a computed size is not explained"
    # An address that faults: DTrace's error, as in user space.
    run -x fastpath=explain -qn 'pid$target:a.out:take_record:entry { @[*(int *)copyin(8, 4)] = count(); }' \
        -c "$target reuse:1"
    grep -q "runs in the kernel" "$err" || fail "the faulting copyin() is not in the kernel"
    grep -q "invalid address (0x8) in action #1" "$err" || fail "no invalid address error"
    ;;
*)
    echo "unknown case $case_name"
    exit 2
    ;;
esac
echo "passed: $case_name"
