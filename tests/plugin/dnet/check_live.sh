#!/bin/sh
# check_live.sh DTRACE FAKE_APP FIXTURES CASES: the live dnet plugin against
# a stand-in for a .NET program (tests/unit/dnet/fake_dotnet_app: a
# diagnostics server of our own that streams a nettrace file; no .NET runtime
# can be installed here). Each script of CASES prints the same traced live
# (-c, and -p) as over the file the stand-in streams (-E); a stream cut
# short ends the session cleanly, with END, saying where it was cut. With
# -c, dtrace starts the program with its diagnostic port in
# DOTNET_DiagnosticPorts, and the runtime waits at its startup until the
# session is on: the program's startup events (the stand-in's --startup:
# its whole stream, logged as it starts running) are seen, which a session
# started later (-p) does not see. The
# stand-in streams the whole file, then waits 30 s for StopTracing: a
# session that waited for more than the stream (a reader waiting for a full
# chunk of a live socket) runs into the 20 s timeout.
dtrace=$1 app=$2 fixtures=$3 cases=$4
failed=0
# The stand-ins' sockets (dotnet-diagnostic-<pid>-*-socket) and dtrace's
# diagnostic ports go to a directory of this run, removed at its end: a
# stand-in that dtrace kills as it exits (-c) cannot remove its own.
TMPDIR=$(mktemp -d) || exit 1
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
fail() { echo "FAIL: $*"; failed=1; }

for script in allocations exceptions gc_durations raw_args; do
    for trace in runtime-v4 runtime-v5-32 runtime-v6; do
        file=$fixtures/$trace.nettrace
        replayed=$("$dtrace" -qE "$file" -s "$cases/$script.d" 2>&1) || fail "replay of $trace with $script.d"
        live=$(timeout 20 "$dtrace" -q -c "$app $file --startup" -s "$cases/$script.d" 2>&1) ||
            fail "-c of $trace with $script.d"
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

# The startup events are lost to a session that starts after the program
# runs: what the -c runs above saw, they saw through the port.
"$app" "$file" --startup &
app_pid=$!
for _ in $(seq 50); do
    ls "${TMPDIR:-/tmp}/dotnet-diagnostic-$app_pid-"*-socket >/dev/null 2>&1 && break
    sleep 0.1
done
late=$(timeout 20 "$dtrace" -q -p "$app_pid" -s "$cases/exceptions.d" 2>&1) || fail "-p of a program past its startup"
echo "$late" | grep -q Exception && fail "-p saw startup events it cannot have seen: $late"
wait "$app_pid"

# -c without dnet probes: the runtime is resumed all the same.
out=$(timeout 20 "$dtrace" -q -c "$app $file --say-running" -n 'tick-1s { exit(0); }' 2>&1)
[ "$out" = "running" ] || fail "-c without dnet probes: the program did not run: $out"

# The user's own diagnostic ports stay; dtrace's is added.
out=$(DOTNET_DiagnosticPorts=/tmp/theirs,nosuspend timeout 20 "$dtrace" -q -c 'printenv DOTNET_DiagnosticPorts' \
    -n 'BEGIN {}' 2>&1)
echo "$out" | grep -Eq '^/tmp/theirs,nosuspend;/.*/dtrace-dnet-[^/]*/port,connect,suspend$' ||
    fail "DOTNET_DiagnosticPorts of a -c program: $out"

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
