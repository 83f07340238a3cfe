# same_both_ways.sh: sourced by the live checks of the in-kernel fast path
# (check_fastpath.sh, check_pid.sh) after live_check.sh, which gives run
# (setting $status, $out, $err), fail and $dir (a scratch folder). The caller
# defines $fastpath_target (the program dtrace starts with -c).
#
# same_both_ways_for SCRIPT COMMAND EXPECT: runs SCRIPT with COMMAND as
# $target with the fast path on, then off: the same status and stdout, and
# (on) the explanation holds EXPECT.
same_both_ways_for() {
    script=$1
    command=$2
    expect=$3
    run -x fastpath=explain -qn "$script" -c "$command"
    [ "$status" = 0 ] || fail "dtrace -x fastpath=on exited with $status"
    grep -q -- "$expect" "$err" || fail "the explanation does not say: $expect"
    cp "$out" "$dir/on"
    run -x fastpath=off -qn "$script" -c "$command"
    [ "$status" = 0 ] || fail "dtrace -x fastpath=off exited with $status"
    diff "$dir/on" "$out" >"$dir/diff" || { cat "$dir/diff"; fail "fastpath=on and off differ for: $script"; }
    # Blank lines alone (an empty aggregation's) are no output either.
    grep -q '[^[:space:]]' "$out" || fail "no output for: $script"
}

# same_both_ways SCRIPT STEPS EXPECT: the same on `$fastpath_target STEPS`.
same_both_ways() {
    same_both_ways_for "$1" "$fastpath_target $2" "$3"
}
