# live_check.sh: what every live check script (check_*.sh, fpid_check.sh)
# shares, sourced once the script has set $dtrace and $limit (the seconds a
# dtrace run may take). The script keeps only its own checks.
#
#   skip REASON           says "skipped: REASON" and exits 77 (ctest's skip)
#   need_built FILE...    skips unless every FILE is built (executable)
#   need_root WHY         skips unless we are root, saying what needs it
#   need_btf WHO          skips without the kernel's BTF, saying who needs it
#   need_dtrace REASON ARGS...
#                         skips, with REASON and dtrace's first lines, unless
#                         `dtrace ARGS` succeeds (the provider works here)
#   $dir                  a scratch folder, removed at exit; $out and $err,
#                         dtrace's stdout and stderr of the last run, are in it
#   run ARGS...           dtrace $run_options ARGS, bounded by $limit, with
#                         -x fastpath=$DTRACE_FASTPATH when that is set (the
#                         *.fastpath_off tests) and -x pidbackend=$DTRACE_PIDBACKEND
#                         (the pid provider's *.ptrace tests); sets $status
#   fail WHAT             says what failed, with dtrace's output; exits 1
#   expect_status_0       fails unless the last run exited 0
#   value_of KEY          the rest of stdout's line that starts with `KEY `

skip() {
    echo "skipped: $*"
    exit 77
}

need_built() {
    for built in "$@"; do
        [ -x "$built" ] || skip "$built is not built"
    done
}

need_root() {
    [ "$(id -u)" = 0 ] || skip "$1"
}

need_btf() {
    [ -r /sys/kernel/btf/vmlinux ] || skip "$1 needs the kernel's BTF (/sys/kernel/btf/vmlinux)"
}

need_dtrace() {
    reason=$1
    shift
    if ! timeout "$limit" "$dtrace" "$@" >"$out" 2>"$err"; then
        echo "skipped: $reason:"
        cat "$out" "$err" | head -3
        exit 77
    fi
}

dir=$(mktemp -d)
out=$dir/stdout
err=$dir/stderr
# The folder's name is fixed now: a script may reuse $dir for its own folder.
trap "rm -rf '$dir'" EXIT

run() {
    timeout "$limit" "$dtrace" ${DTRACE_FASTPATH:+-x fastpath=$DTRACE_FASTPATH} \
        ${DTRACE_PIDBACKEND:+-x pidbackend=$DTRACE_PIDBACKEND} $run_options "$@" >"$out" 2>"$err"
    status=$?
}

# (the first 100 lines of stdout: listings run to thousands)
fail() {
    echo "FAILED: $*"
    echo "--- stdout ($(wc -l <"$out") lines)"
    head -100 "$out"
    echo "--- stderr"
    cat "$err"
    exit 1
}

expect_status_0() {
    [ "$status" = 0 ] || fail "dtrace exited with $status"
}

value_of() {
    sed -n "s/^$1 //p" "$out"
}
