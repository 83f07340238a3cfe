# steps.sh: sourced by the shell tests that run a sequence of commands in a
# scratch directory $work (which the sourcing script creates).
#
# step DESCRIPTION COMMAND...: runs a command, logging its output to
# $work/step.log; on failure prints FAIL, the description and the log, and
# exits 1.
step() {
    local what=$1
    shift
    if ! "$@" >"$work/step.log" 2>&1; then
        echo "FAIL: $what"
        cat "$work/step.log"
        exit 1
    fi
}
