#!/bin/sh
# pid_probes.sh [BUILD_DIR]: the pid provider, live, side by side with
# bpftrace's uprobe: (Debian's) on the same binary, in one run. Root only.
# Prints:
#   1. the cost per hit of an entry probe counting calls, on a tight loop of
#      a tiny function (tests/targets: tiny_leaf, `lea; ret`, whose first
#      instruction uprobes single-step, and tiny_framed, which begins with a
#      push they emulate): the traced process's added CPU per call (what the
#      probe costs the traced thread), dtrace's own CPU per event, and the
#      ratio of the added wall times pid / bpftrace (goal <= 1.0). With the
#      fpid plugin built, fpid$target the same way.
#      pid runs the count in the kernel (the fast path); pid_user is the same
#      with -x fastpath=off (every event to dtrace).
#   2. the time to attach `pid$target:libc.so.6::entry` (every function of
#      libc) to a running process and to detach, against a one-probe
#      session; `get*` of libc with both tools; and bpftrace's
#      `uprobe:libc:*` (BPFTRACE_MAX_PROBES raised), which stops at the
#      first function the kernel cannot probe (BPFTRACE_ALL_LIMIT seconds at most).
# Timings on a shared VM spread widely: read the ratios and CPU per call.
set -u
build=${1:-build}
dtrace=$build/dtrace
target=$(ls "$build"/tests/targets/pid_target "$build"/bench/targets/pid_target 2>/dev/null | head -1)
calls=${CALLS:-200000}
runs=${RUNS:-3}

if [ "$(id -u)" != 0 ]; then
    echo "pid_probes.sh: needs root (uprobes)" >&2
    exit 1
fi
[ -x "$dtrace" ] && [ -n "$target" ] || { echo "pid_probes.sh: dtrace or pid_target is not built in $build" >&2; exit 1; }
target=$(readlink -f "$target")
bpftrace=$(command -v bpftrace || true)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
# Runs "$@" with the target's report on; appends the target's own CPU and
# elapsed seconds (its loop, without the tool's start-up) to $tmp/NAME.cpu
# and $tmp/NAME.wall, and the tool's own CPU (start-up included; time(1)
# counts the target too, which is taken off) to $tmp/NAME.tool.
measure() {
    name=$1; shift
    TARGET_REPORT=1 /usr/bin/time -f "tool_cpu %U %S" "$@" >"$tmp/out" 2>"$tmp/err"
    awk '/^target elapsed/ {print $3}' "$tmp/err" >>"$tmp/$name.wall"
    awk '/^target elapsed/ {print $5}' "$tmp/err" >>"$tmp/$name.cpu"
    awk '/^target elapsed/ {target = $5} /^tool_cpu/ {tool = $2 + $3} END {print tool - target}' "$tmp/err" \
        >>"$tmp/$name.tool"
}
per_call_us() { echo "($1 - $2) * 1000000 / $calls" | bc -l | xargs printf '%.2f'; }

for function in tiny_leaf tiny_framed; do
    step=loop:$calls
    [ "$function" = tiny_framed ] && step=loop-framed:$calls
    echo "== $function x $calls, entry probe counting (median of $runs runs)"
    rm -f "$tmp"/*.cpu "$tmp"/*.wall "$tmp"/*.tool
    for i in $(seq "$runs"); do
        measure alone "$target" "$step"
        # pid: the count in the kernel (the fast path, the default); pid_user: every event to dtrace.
        for mode in on off; do
            name=pid; [ "$mode" = off ] && name=pid_user
            measure $name "$dtrace" -x fastpath=$mode \
                -qn "pid\$target:a.out:$function:entry { @ = count(); } END { printa(\"%@d\\n\", @); }" -c "$target $step"
            [ "$(head -1 "$tmp/out")" = "$calls" ] || echo "   $name counted $(head -1 "$tmp/out"), not $calls"
        done
        if [ -f "$build/plugins/fpid.so" ]; then
            measure fpid "$dtrace" -qn "fpid\$target:a.out:$function:entry { @ = count(); }" -c "$target $step"
        fi
        if [ -n "$bpftrace" ]; then
            measure bpftrace "$bpftrace" -e "uprobe:$target:$function { @ = count(); }" -c "$target $step"
        fi
    done
    alone_cpu=$(median <"$tmp/alone.cpu"); alone_wall=$(median <"$tmp/alone.wall")
    for tool in pid pid_user fpid bpftrace; do
        [ -s "$tmp/$tool.cpu" ] || continue
        cpu=$(median <"$tmp/$tool.cpu"); wall=$(median <"$tmp/$tool.wall"); own=$(median <"$tmp/$tool.tool")
        printf '   %-8s target CPU +%s us/call; target elapsed +%s us/call; the tool'"'"'s own CPU %s us/call (start-up included)\n' \
            "$tool" "$(per_call_us "$cpu" "$alone_cpu")" "$(per_call_us "$wall" "$alone_wall")" "$(per_call_us "$own" 0)"
    done
    if [ -s "$tmp/bpftrace.wall" ]; then
        for tool in pid pid_user; do
            echo "   $tool / bpftrace added target elapsed: $(echo "($(median <"$tmp/$tool.wall") - $alone_wall) / ($(median <"$tmp/bpftrace.wall") - $alone_wall)" | bc -l | xargs printf '%.2f'); added target CPU: $(echo "($(median <"$tmp/$tool.cpu") - $alone_cpu) / ($(median <"$tmp/bpftrace.cpu") - $alone_cpu)" | bc -l | xargs printf '%.2f') (goal <= 1.0)"
        done
    fi
done

echo "== attach and detach pid\$target:libc.so.6::entry on a running process (median of $runs runs)"
python3 - "$dtrace" "$target" "$runs" "$bpftrace" <<'PY'
import os, subprocess, sys, time
dtrace, target, runs, bpftrace = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
victim = subprocess.Popen([target, "sleep:600000"])
time.sleep(0.3)
pid = str(victim.pid)

def session(argv, ready, env=None):
    """Seconds to the first line containing `ready` (probes attached) and from there to the end (detach)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    t1 = None
    for line in p.stdout:
        if t1 is None and ready in line:
            t1 = time.perf_counter()
    p.wait()
    t2 = time.perf_counter()
    return (t1 or t2) - t0, t2 - (t1 or t2)

def median(values):
    return sorted(values)[len(values) // 2]

def probe_count(description):
    out = subprocess.run([dtrace, "-l", "-n", description], capture_output=True, text=True).stdout
    return max(len(out.splitlines()) - 1, 0)

script = 'BEGIN { printf("attached\\n"); exit(0); }'
one = [session([dtrace, "-qn", "pid%s:a.out:main:entry { @ = count(); } %s" % (pid, script)], "attached") for _ in range(runs)]
libc = [session([dtrace, "-qn", "pid%s:libc.so.6::entry { @ = count(); } %s" % (pid, script)], "attached") for _ in range(runs)]
n = probe_count("pid%s:libc.so.6::entry" % pid)
print("   dtrace: %d probes: attach %.0f ms, detach %.0f ms (a one-probe session: %.0f ms, %.0f ms)"
      % (n, median([a for a, _ in libc]) * 1000, median([d for _, d in libc]) * 1000,
         median([a for a, _ in one]) * 1000, median([d for _, d in one]) * 1000))
# A set both tools can attach (bpftrace 0.17 refuses all of libc, below).
subset = [session([dtrace, "-qn", "pid%s:libc.so.6:get*:entry { @ = count(); } %s" % (pid, script)], "attached") for _ in range(runs)]
print("   dtrace pid%s:libc.so.6:get*:entry (%d probes): attach %.0f ms, detach %.0f ms"
      % (pid, probe_count("pid%s:libc.so.6:get*:entry" % pid), median([a for a, _ in subset]) * 1000,
         median([d for _, d in subset]) * 1000))
if bpftrace:
    libc = "/lib/x86_64-linux-gnu/libc.so.6"
    env = dict(os.environ, BPFTRACE_MAX_PROBES="100000")
    def bpftrace_session(glob):
        return session([bpftrace, "-p", pid, "-e",
                        'uprobe:%s:%s { @ = count(); } BEGIN { printf("attached\\n"); exit(); }' % (libc, glob)],
                       "attached", env)
    bt = [bpftrace_session("get*") for _ in range(runs)]
    print("   bpftrace uprobe:libc.so.6:get*: attach %.0f ms, detach %.0f ms" % (median([a for a, _ in bt]) * 1000, median([d for _, d in bt]) * 1000))
    # Every function of libc: bpftrace attaches one perf uprobe after the
    # other (some 20 ms each here) and stops at the first the kernel refuses.
    # It makes tracefs uprobe events (named ..._bcc_<its pid>) and leaves
    # them when stopped or failing: removed after it.
    limit = int(os.environ.get("BPFTRACE_ALL_LIMIT", "30"))
    t0 = time.perf_counter()
    p = subprocess.Popen([bpftrace, "-p", pid, "-e", 'uprobe:%s:* { @ = count(); } BEGIN { exit(); }' % libc],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        output, _ = p.communicate(timeout=limit)
        errors = [l for l in output.splitlines() if l.startswith("ERROR")]
        print("   bpftrace uprobe:libc.so.6:*: %s after %.0f ms" % (errors[-1] if errors else "exit %d" % p.returncode,
                                                                 (time.perf_counter() - t0) * 1000))
    except subprocess.TimeoutExpired:
        p.send_signal(2)
        try:
            p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
        print("   bpftrace uprobe:libc.so.6:*: not attached after %d s (stopped)" % limit)
    # (the kernel refuses to remove one while its last user is going: retried)
    events = "/sys/kernel/tracing/uprobe_events"
    for line in open(events).read().splitlines():
        name = line.split()[0].split(":", 1)[1] if ":" in line.split()[0] else ""
        if not name.endswith("_bcc_%d" % p.pid):
            continue
        for attempt in range(20):
            try:
                with open(events, "a") as f:
                    f.write("-:%s\n" % name)
                break
            except OSError:
                time.sleep(0.5)
        else:
            print("   (could not remove bpftrace's leftover uprobe event %s)" % name)
victim.kill()
victim.wait()
PY
