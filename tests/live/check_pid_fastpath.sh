#!/bin/sh
# check_pid_fastpath.sh DTRACE TARGETS_DIR CASE: the in-kernel fast path
# (docs/fastpath.md) on pid probes (uprobes), on the test targets of
# tests/targets, whose calls are known. Every probe is pid$target and every
# run is bounded in time. Exit 0: passed; 1: failed (saying why); 77:
# skipped (saying what is missing).
#
#   explain       entry, return and offset clauses run in the kernel, and say so
#   differential  the same bytes with -x fastpath=on and off: counts,
#                 arguments, return offsets and values, thread-locals, records
#   fallback      what stays in user space says why (arguments read from the
#                 stack, copyinstr, ustack) and still prints the right output
dtrace=$1
targets=$2
case_name=$3
limit=120
target=$targets/pid_target

if [ ! -x "$dtrace" ] || [ ! -x "$target" ]; then
    echo "skipped: $dtrace or $target is not built"
    exit 77
fi
if [ "$(id -u)" != 0 ]; then
    echo "skipped: uprobes need root (BPF programs)"
    exit 77
fi
if ! "$dtrace" -qn 'pid$target:a.out:main:entry { exit(0); }' -c "$target" >/dev/null 2>&1; then
    echo "skipped: the pid provider cannot trace here:"
    "$dtrace" -qn 'pid$target:a.out:main:entry { exit(0); }' -c "$target" 2>&1 | head -3
    exit 77
fi

out=$(mktemp)
err=$(mktemp)
dir=$(mktemp -d)
trap 'rm -f "$out" "$err"; rm -rf "$dir"' EXIT

run() {
    timeout "$limit" "$dtrace" "$@" >"$out" 2>"$err"
    status=$?
}

fail() {
    echo "FAILED: $*"
    echo "--- stdout"; cat "$out"
    echo "--- stderr"; cat "$err"
    exit 1
}

# Runs `script` on the target's `steps` with the fast path on, then off:
# the same status and stdout, and (on) the explanation holds `expect`.
same_both_ways() {
    script=$1
    steps=$2
    expect=$3
    run -x fastpath=explain -qn "$script" -c "$target $steps"
    [ "$status" = 0 ] || fail "dtrace -x fastpath=on exited with $status"
    grep -q -- "$expect" "$err" || fail "the explanation does not say: $expect"
    cp "$out" "$dir/on"
    run -x fastpath=off -qn "$script" -c "$target $steps"
    [ "$status" = 0 ] || fail "dtrace -x fastpath=off exited with $status"
    diff "$dir/on" "$out" >"$dir/diff" || { cat "$dir/diff"; fail "fastpath=on and off differ for: $script"; }
    [ -s "$out" ] || fail "no output for: $script"
}

in_kernel="runs in the kernel"

case "$case_name" in
explain)
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
differential)
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
    ;;
fallback)
    # copyinstr() stays in user space (the string copied at the event).
    run -x fastpath=explain -qn 'pid$target:a.out:parse_request:entry { @[copyinstr(arg0)] = count(); }
                                 END { printa("%s %@d\n", @); }' -c "$target parse:GET_7_/index"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "stays in user space: copyinstr() is not available in the kernel path" "$err" || fail "copyinstr() not explained"
    grep -q "^GET_7_/index 1\$" "$out" || fail "the string is not counted"
    # ustack() keys stay in user space too.
    run -x fastpath=explain -qn 'pid$target:a.out:respond:entry { @[ustack(2)] = count(); }' -c "$target calls:2"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -q "(pid[0-9]*:a.out:respond:entry) stays in user space" "$err" || fail "ustack() not explained"
    grep -q "respond" "$out" || fail "no named stack"
    ;;
*)
    echo "unknown case $case_name"
    exit 2
    ;;
esac
echo "passed: $case_name"
