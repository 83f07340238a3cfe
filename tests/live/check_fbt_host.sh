#!/bin/sh
# check_fbt_host.sh DTRACE CASE: the fbt provider on this machine's kernel,
# which may lack kprobes (ours do): listing and typing work everywhere,
# enabling says what the kernel lacks. Nothing here attaches anything.
# Exit 0: passed; 1: failed (saying why); 77: skipped (saying what is missing).
dtrace=$1
case_name=$2
limit=60
run_options="-x plugins=fbt"
. "$(dirname "$0")/live_check.sh" # run, fail, the skips

need_built "$dtrace"
need_btf "the fbt provider"

case $case_name in
list)
    # Every traceable function, entry and return.
    run -l -P fbt
    [ $status = 0 ] || fail "dtrace -l -P fbt exited $status"
    probes=$(($(wc -l <"$out") - 1))
    [ "$probes" -gt 10000 ] || fail "only $probes fbt probes listed"
    grep -Eq '^ *[0-9]+ +fbt +vmlinux +vfs_read entry$' "$out" || fail "no fbt:vmlinux:vfs_read:entry"
    grep -Eq '^ *[0-9]+ +fbt +vmlinux +vfs_read return$' "$out" || fail "no fbt:vmlinux:vfs_read:return"
    grep -q '__pfx_' "$out" && fail "padding symbols (__pfx_) listed as functions"
    ;;
types)
    run -lv -n fbt::vfs_read:entry
    [ $status = 0 ] || fail "dtrace -lv exited $status"
    printf '\t\targs[0]: struct file *\n\t\targs[1]: char *\n\t\targs[2]: size_t\n\t\targs[3]: loff_t *\n' >"$err.want"
    grep 'args\[' "$out" | diff "$err.want" - >/dev/null || fail "vfs_read's argument types"
    rm -f "$err.want"
    run -lv -n fbt::vfs_read:return
    grep -q 'args\[1\]: ssize_t' "$out" || fail "vfs_read's return value is not typed ssize_t"
    ;;
enable)
    if [ -e /sys/bus/event_source/devices/kprobe ]; then
        echo "skipped: this kernel has kprobes (tests/vm tests enabling fbt probes)"
        exit 77
    fi
    # The clause compiles against BTF types; enabling then fails, saying why, in one line.
    run -n 'fbt::vfs_read:entry { @[stringof(args[0]->f_path.dentry->d_name.name)] = count(); }'
    [ $status = 1 ] || fail "enabling exited $status, not 1"
    [ "$(wc -l <"$err")" = 1 ] || fail "not one line of error"
    grep -q 'failed to enable fbt:vmlinux:vfs_read:entry: this kernel has no kprobes (CONFIG_KPROBES is off' "$err" ||
        fail "the error does not name the missing kprobes"
    ;;
lazy)
    # A script without fbt probes reads neither the function list nor BTF.
    if ! command -v strace >/dev/null; then
        echo "skipped: strace is not installed"
        exit 77
    fi
    timeout "$limit" strace -f -e trace=openat -o "$out" "$dtrace" -n 'BEGIN { exit(0); }' >/dev/null 2>"$err" ||
        fail "dtrace -n BEGIN failed"
    grep -Eq 'kallsyms|available_filter_functions|btf/vmlinux' "$out" && fail "the kernel's function list or BTF read at startup"
    ;;
*)
    echo "unknown case $case_name"
    exit 2
    ;;
esac
exit 0
