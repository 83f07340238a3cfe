#!/usr/bin/env bash
# check_progress.sh DTRACE TRACE
#
# The progress line of a replay (-E): absent when stderr is not a terminal,
# present with -x progress, absent with -q even then; on a terminal (through
# script(1)) shown and erased before the aggregations print.
# Exits 77 (skip) when the dtrace binary or the trace is missing.
set -uo pipefail

readonly SKIP=77
dtrace=$1
trace=$2
[[ -x $dtrace ]] || { echo "SKIP: $dtrace has not been built"; exit $SKIP; }
[[ -f $trace ]] || { echo "SKIP: $trace is missing"; exit $SKIP; }
program='diag:::events { @[stringof(copyinstr(arg0))] = count(); }'
line='dtrace: replaying [0-9]+% \([0-9]+ events, [0-9]+ events/s\)'
fail() {
    echo "FAIL: $*"
    exit 1
}

err=$("$dtrace" -E "$trace" -n "$program" 2>&1 >/dev/null)
grep -q "replaying" <<<"$err" && fail "progress shown on a stderr that is not a terminal: $err"

err=$("$dtrace" -E "$trace" -x progress -n "$program" 2>&1 >/dev/null)
grep -Eq "^$line$" <<<"$err" || fail "no progress line with -x progress: $err"

err=$("$dtrace" -qE "$trace" -x progress -n "$program" 2>&1 >/dev/null)
[[ -z $err ]] || fail "-q did not silence the progress line: $err"

if ! command -v script >/dev/null; then
    echo "SKIP: script(1) (util-linux) is not installed: the terminal case is not checked"
    exit $SKIP
fi
tty_output=$(script -qec "$(printf '%q ' "$dtrace" -E "$trace" -n "$program")" /dev/null | od -An -c | tr -s ' \n' ' ')
grep -q "r e p l a y i n g" <<<"$tty_output" || fail "no progress on a terminal: $tty_output"
# The last progress line ends with "\r ESC [K", which erases it.
grep -qF ') \r 033 [ K' <<<"$tty_output" || fail "the progress line was not erased: $tty_output"
echo "progress checks passed"
