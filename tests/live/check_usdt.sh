#!/bin/sh
# check_usdt.sh DTRACE WORKLOAD THROWER LIBRARY CASE: USDT probes, live, on programs
# with known probe firings: usdt_workload (its header and object made by this
# build's dtrace -h and -G), usdt_thrower (libstdc++'s own probes), Debian's
# python3.11 (its own probes). Every description names $target or a pid;
# every run is bounded in time. Exit 0: passed; 1: failed (saying why); 77:
# skipped (saying what is missing).
dtrace=$1
workload=$2
thrower=$3
library=$4
case_name=$5
here=$(dirname "$0")
limit=120

. "$here/live_check.sh" # run, fail, $dir, the skips

need_built "$dtrace" "$workload" "$thrower"
need_root "live tracing needs root (BPF programs, uprobes)"

# The non-blank lines of dtrace's output (the workload's own line, printed
# to the same stdout, removed when $2 says so).
expect_output() {
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    grep -v -e '^$' -e "${2:-^ never $}" "$out" >"$dir/lines"
    printf '%s\n' "$1" | diff - "$dir/lines" >/dev/null || fail "stdout is not:
$1"
}

case "$case_name" in
list)
    # The five probes of the definition, named as DTrace names them.
    run -l -n 'demo$target:::' -c "$workload requests 1"
    [ "$status" = 0 ] || fail "dtrace -l exited with $status"
    names=$(awk 'NR > 1 { print $2 != "" ? $NF : "" }' "$out" | sort | tr '\n' ' ')
    [ "$names" = "located many request-done request-start tick " ] || fail "probes listed: $names"
    awk 'NR > 1 && ($2 !~ /^demo[0-9]+$/ || $3 != "usdt_workload" || $4 != "requests" && $4 != "main") { exit 1 }' \
        "$out" || fail "provider, module or function column"
    ;;
types)
    # Our -G object carries the definition's types; libstdc++'s probes have the notes' sizes only.
    run -lv -n 'demo$target:::request-done' -c "$workload requests 1"
    [ "$status" = 0 ] || fail "dtrace -lv exited with $status"
    grep -q 'args\[0\]: char \*' "$out" && grep -q 'args\[1\]: int$' "$out" &&
        grep -q 'args\[2\]: long$' "$out" || fail "argument types from the provider definition"
    run -lv -n 'libstdcxx$target:::throw' -c "$thrower 1"
    [ "$status" = 0 ] || fail "dtrace -lv exited with $status"
    if grep -q throw "$out"; then
        grep -q 'args\[0\]: uint64_t' "$out" && grep -q 'args\[1\]: uint64_t' "$out" ||
            fail "argument types from the note specs"
    fi
    ;;
strings)
    # Each path as it was at the event (the buffer is overwritten after it).
    run -qn 'demo$target:::request-start { printf("%s %d\n", copyinstr(arg0), arg1); }' -c "$workload requests 3"
    expect_output '/req/0 0
/req/1 1
/req/2 2' '^enabled'
    grep -qx 'enabled 3' "$out" || fail "request-start was not enabled at each request"
    ;;
counts)
    run -qn 'demo$target:::request-done /arg2 == 200 + arg1/ { @done = count(); }
             demo$target:::many /arg7 == arg0 + 7 && arg6 == arg0 + 6 && arg5 == arg0 + 5/ { @many = count(); }
             demo$target:::tick { @tick = count(); }
             END { printa("done %@d\n", @done); printa("many %@d\n", @many); printa("tick %@d\n", @tick); }' \
        -c "$workload requests 500"
    expect_output 'done 500
many 500
tick 1' '^enabled'
    ;;
enabled)
    # Untraced, the is-enabled test is false; with request-start enabled it is true every time.
    [ "$("$workload" requests 5)" = "enabled 0" ] || fail "request-start enabled without a tracer"
    run -qn 'demo$target:::request-start { }' -c "$workload requests 5"
    expect_output 'enabled 5'
    ;;
list_pid)
    # dtrace -l -p PID: every probe of a running process.
    "$workload" watch 4000 >/dev/null &
    pid=$!
    sleep 0.5
    run -l -p $pid
    kill $pid 2>/dev/null
    wait $pid
    [ "$status" = 0 ] || fail "dtrace -l -p exited with $status"
    [ "$(grep -c " demo$pid " "$out")" = 5 ] || fail "the 5 probes of demo$pid"
    ;;
dlopen)
    # A library loaded while tracing runs: its probes are registered, enabled
    # by the description, and its semaphore raised, before dlopen returns
    # (the dynamic linker's link-map hook).
    run -qn 'demo$target:::tick { @[probemod] = count(); } END { printa("%s %@d\n", @); }' \
        -c "$workload dlopen $library 7"
    expect_output "lib-enabled-at-load=1
lib-enabled=1
usdt_workload 1
$(basename "$library") 7"
    ;;
restored)
    # The semaphore goes up while dtrace runs and back down when it ends.
    "$workload" watch 8000 >"$out.watch" &
    pid=$!
    run -qn "demo$pid:::tick { } tick-2s { exit(0); }"
    wait $pid
    result=$(cat "$out.watch")
    rm -f "$out.watch"
    [ "$status" = 0 ] || fail "dtrace -p exited with $status"
    [ "$result" = "seen-enabled=1 restored=1" ] || fail "semaphore: $result"
    ;;
bpftrace)
    # The same program's probes seen by bpftrace's usdt: (the notes follow the convention).
    if ! command -v bpftrace >/dev/null; then
        echo "skipped: bpftrace is not installed"
        exit 77
    fi
    timeout "$limit" bpftrace -l "usdt:$workload:*" >"$out" 2>"$err"
    [ "$(sort "$out" | tr '\n' ' ')" = "usdt:$workload:demo:located usdt:$workload:demo:many usdt:$workload:demo:request__done usdt:$workload:demo:request__start usdt:$workload:demo:tick " ] ||
        fail "bpftrace -l"
    timeout "$limit" bpftrace -e "usdt:$workload:demo:request__start { printf(\"%s %d\\n\", str(arg0), arg1); }" \
        -c "$workload requests 2" >"$out" 2>"$err"
    [ "$(grep '^/req' "$out" | tr '\n' ' ')" = "/req/0 0 /req/1 1 " ] || fail "bpftrace's firings"
    # A struct pointer argument, read through by bpftrace at the event: y is 2 * arg1.
    timeout "$limit" bpftrace -e "usdt:$workload:demo:located { printf(\"located %d %d\\n\", *(int32 *)(arg0 + 4), arg1); }" \
        -c "$workload requests 3" >"$out" 2>"$err"
    [ "$(grep '^located' "$out" | tr '\n' ' ')" = "located 0 0 located 2 1 located 4 2 " ] ||
        fail "bpftrace's firings of located(struct demo_point *, int)"
    ;;
python_gc)
    python=/usr/bin/python3.11
    if [ ! -x "$python" ] || ! "$dtrace" -l -n 'python$target:::gc-start' -c "$python -c pass" >/dev/null 2>&1; then
        echo "skipped: $python with its USDT probes (Debian's python3.11) is not here"
        exit 77
    fi
    # Explicit collections are of generation 2 (gc-start's arg0).
    gc='python$target:::gc-start /arg0 == 2/ { @ = count(); } END { printa("%@d\n", @); }'
    run -qn "$gc" -c "$python $here/usdt_gc.py 0"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    none=$(grep -v '^$' "$out")
    run -qn "$gc" -c "$python $here/usdt_gc.py 25"
    [ "$status" = 0 ] || fail "dtrace exited with $status"
    some=$(grep -v '^$' "$out")
    [ $((some - none)) = 25 ] || fail "gc-start: $some with 25 collections, $none with none"
    ;;
cxx_throw)
    run -l -n 'libstdcxx$target:::' -c "$thrower 20"
    [ "$status" = 0 ] || fail "dtrace -l exited with $status"
    names=$(awk 'NR > 1 { print $NF }' "$out" | sort | tr '\n' ' ')
    case "$names" in
    *catch*rethrow*throw*) ;;
    *) echo "skipped: this libstdc++ has no throw/catch/rethrow probes ($names)"; exit 77 ;;
    esac
    run -qn 'libstdcxx$target:::throw { @throw = count(); } libstdcxx$target:::rethrow { @rethrow = count(); }
             END { printa("throw %@d\n", @throw); printa("rethrow %@d\n", @rethrow); }' -c "$thrower 20"
    expect_output 'throw 20
rethrow 20'
    ;;
struct_pointer)
    # A struct pointer argument (dtrace -h passes it as an address): typed
    # as the definition declares it, the same address at each firing (one
    # variable of the workload's), the int after it right.
    run -lv -n 'demo$target:::located' -c "$workload requests 1"
    grep -q 'args\[0\]: struct demo_point \*$' "$out" || fail "located's args[0] type"
    run -qn 'demo$target:::located /arg0 != 0/ { @a[arg0] = count(); @i[arg1] = count(); }
             END { printa("at %@d\n", @a); printa("%d %@d\n", @i); }' -c "$workload requests 3"
    expect_output 'at 3
0 1
1 1
2 1' '^enabled'
    ;;
installed_types)
    # Provider definitions installed as D files type the probes of programs
    # that carry none (provider_definitions.h): libstdc++'s from -x usdtpath,
    # a copy of usdt_workload without its -G types from its own .d beside it
    # (which wins over usdtpath's); a broken definition is a warning naming
    # the file and line, and the probes keep the notes' types.
    if ! command -v objcopy >/dev/null; then
        echo "skipped: objcopy (binutils) is not installed"
        exit 77
    fi
    mkdir "$dir/defs" "$dir/broken"
    printf '%s\n' 'provider libstdcxx {' '	probe throw(void *, void *) : (uintptr_t, void *);' \
        '	probe rethrow(void *, void *);' '	probe catch(void *, void *);' '};' >"$dir/defs/libstdcxx.d"
    printf '%s\n' 'provider demo {' '	probe request__start(int64_t, int);' '};' >"$dir/defs/demo.d"
    printf '%s\n' 'provider libstdcxx {' '	probe throw(void *, void *' '};' >"$dir/broken/libstdcxx.d"
    run -lv -x usdtpath="$dir/defs" -n 'libstdcxx$target:::throw' -c "$thrower 1"
    [ "$status" = 0 ] || fail "dtrace -lv exited with $status"
    if grep -q throw "$out"; then
        grep -q 'args\[0\]: uintptr_t$' "$out" && grep -q 'args\[1\]: void \*$' "$out" ||
            fail "libstdc++'s throw typed from $dir/defs/libstdcxx.d"
        run -lv -x usdtpath="$dir/broken:$dir/defs" -n 'libstdcxx$target:::throw' -c "$thrower 1"
        [ "$status" = 0 ] || fail "dtrace -lv with a broken definition exited with $status"
        grep -q "warning: ignoring provider definition $dir/broken/libstdcxx.d: line 3: " "$err" ||
            fail "no warning naming the broken definition and its line"
        grep -q 'args\[0\]: uintptr_t$' "$out" || fail "the next directory's definition after a broken one"
    fi
    cp "$workload" "$dir/prog"
    objcopy --remove-section=.dtrace_usdt_types "$dir/prog"
    run -lv -x usdtpath="$dir/defs" -n 'demo$target:::request-start' -c "$dir/prog requests 1"
    grep -q 'args\[0\]: int64_t$' "$out" || fail "demo's types from $dir/defs/demo.d"
    printf '%s\n' 'provider demo {' '	probe request__start(const char *, int) : (string, int);' '};' >"$dir/prog.d"
    run -lv -x usdtpath="$dir/defs" -n 'demo$target:::request-start' -c "$dir/prog requests 1"
    grep -q 'args\[0\]: string$' "$out" && grep -q 'args\[1\]: int$' "$out" ||
        fail "demo's types from $dir/prog.d, beside the program"
    printf '%s\n' 'provider demo {' '	probe request__start(const char *);' '};' >"$dir/prog.d"
    run -lv -n 'demo$target:::request-start' -c "$dir/prog requests 1"
    grep -q 'declares 1 arguments, its notes in .* carry 2' "$err" && grep -q 'args\[1\]: int32_t$' "$out" ||
        fail "a definition with another number of arguments is reported and not used"
    ;;
*)
    echo "unknown case $case_name"
    exit 1
    ;;
esac
exit 0
