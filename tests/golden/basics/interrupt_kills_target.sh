#!/bin/bash
# Ctrl-C (SIGINT, or SIGTERM when $1 says TERM, sent to dtrace alone) while a
# -c command runs: END's output
# and the aggregations print, dtrace exits 0 and the command is killed, not
# waited for. Bounded: the command would sleep 60 s; the readiness wait gives
# up after 10 s. (A background job of a script starts with SIGINT ignored,
# which dtrace, as DTrace, leaves ignored: env gives it back its default.)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
signal=${1:-INT}
env --default-signal="$signal" dtrace -q -x switchrate=10ms -c 'sleep 60' -o "$work/out" -n '
    BEGIN { printf("target %d\n", $target); @started = count(); }
    END { printf("END ran\n"); }' 2>"$work/err" &
dtrace_pid=$!
for _ in $(seq 100); do
    grep -q '^target' "$work/out" 2>/dev/null && break
    sleep 0.1
done
target=$(sed -n 's/^target //p' "$work/out")
kill -"$signal" "$dtrace_pid"
wait "$dtrace_pid"
echo "dtrace exit status: $?"
sed -e '/^target /d' "$work/out"
cat "$work/err"
if [ -n "$target" ] && kill -0 "$target" 2>/dev/null; then
    echo "the -c command $target is still running"
    kill -KILL "$target"
else
    echo "the -c command is gone"
fi
