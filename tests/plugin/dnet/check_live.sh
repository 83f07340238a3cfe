#!/bin/sh
# check_live.sh DTRACE FAKE_APP FIXTURES CASES: the live dnet plugin against
# a stand-in for a .NET program (tests/unit/dnet/fake_dotnet_app: a
# diagnostics server of our own that streams a nettrace file; no .NET runtime
# can be installed here). Each script of CASES prints the same traced live
# (-c, and -p) as over the file the stand-in streams (-E); a stream cut
# short ends the session cleanly, with END, saying where it was cut. The
# stand-in streams the whole file, then waits 30 s for StopTracing: a
# session that waited for more than the stream (a reader waiting for a full
# chunk of a live socket) runs into the 20 s timeout.
dtrace=$1 app=$2 fixtures=$3 cases=$4
failed=0
fail() { echo "FAIL: $*"; failed=1; }

for script in allocations exceptions gc_durations raw_args; do
    for trace in runtime-v4 runtime-v5-32 runtime-v6; do
        file=$fixtures/$trace.nettrace
        replayed=$("$dtrace" -qE "$file" -s "$cases/$script.d" 2>&1) || fail "replay of $trace with $script.d"
        live=$(timeout 20 "$dtrace" -q -c "$app $file" -s "$cases/$script.d" 2>&1) || fail "-c of $trace with $script.d"
        [ "$replayed" = "$live" ] || { fail "-c: $script.d on $trace differs from its replay"; echo "$live"; }
    done
done

# -p: a program that was running before dtrace.
file=$fixtures/runtime-v6.nettrace
"$app" "$file" &
app_pid=$!
for _ in $(seq 50); do
    ls "${TMPDIR:-/tmp}/dotnet-diagnostic-$app_pid-"*-socket >/dev/null 2>&1 && break
    sleep 0.1
done
replayed=$("$dtrace" -qE "$file" -s "$cases/exceptions.d" 2>&1)
live=$(timeout 20 "$dtrace" -q -p "$app_pid" -s "$cases/exceptions.d" 2>&1) || fail "-p with exceptions.d"
[ "$replayed" = "$live" ] || { fail "-p: exceptions.d differs from its replay"; echo "$live"; }
wait "$app_pid" || fail "the program traced with -p did not end after StopTracing"

# A runtime that dies mid-stream: what came is printed, then END.
out=$(timeout 20 "$dtrace" -q -c "$app $file --die-after 1000" -n 'dnet:::gc-start {} END { printf("END\n"); }' 2>&1)
status=$?
[ "$status" -eq 0 ] || fail "a stream cut short: exit status $status"
echo "$out" | grep -q '^END$' || fail "a stream cut short: no END"
echo "$out" | grep -q 'dtrace: dnet: process [0-9]*: offset 0x[0-9a-f]*: the stream ends inside' ||
    fail "a stream cut short: not reported"

# Without a target the dnet probes are not there, and the hint says why.
out=$("$dtrace" -q -n 'dnet:::gc-start' 2>&1) && fail "dnet probes without a target"
echo "$out" | grep -q 'does not match any probes' || fail "without a target: $out"

[ "$failed" -eq 0 ] && echo "live output equals the replays"
exit "$failed"
