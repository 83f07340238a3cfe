#!/usr/bin/env bash
# check_tickprov.sh DTRACE PLUGIN [basic|pending]
#
# Runs a dtrace binary against the SDK's example provider (tickprov, provider
# tick_example) and checks what a user sees.
#   basic    the -lv listing with typed and translated argument types, a
#            one-tick trace, and the label read with copyinstr through the
#            plugin's memory reader (the default)
#   pending  what the compiler does not do yet: args[] of a probe typed
#            through arg_info (slow), and args[3] translated by the
#            provider's d_source translator
# Exits 77 (CTest's skip code here) when the dtrace binary does not exist yet.
set -uo pipefail

readonly SKIP=77
readonly RUN_TIMEOUT=30s
dtrace=$1
plugin=$2
checks=${3:-basic}
load=(-x "plugin=$plugin")

if [[ ! -x $dtrace ]]; then
    echo "SKIP: $dtrace does not exist yet (the dtrace CLI target has not been built)"
    exit $SKIP
fi

failures=0
fail() {
    echo "FAIL: $1"
    [[ $# -gt 1 ]] && printf '%s\n' "--- output:" "$2" "---"
    failures=$((failures + 1))
}

# expect_match DESCRIPTION OUTPUT REGEX...: every regex must match some line.
expect_match() {
    local what=$1 output=$2 regex missing=()
    shift 2
    for regex in "$@"; do
        grep -Eq -- "$regex" <<<"$output" || missing+=("/$regex/")
    done
    ((${#missing[@]} == 0)) || fail "$what: no line matches ${missing[*]}" "$output"
}

check_basic() {
    local listing trace label status
    listing=$(timeout "$RUN_TIMEOUT" "$dtrace" "${load[@]}" -lv -n 'tick_example:::' 2>&1) ||
        fail "dtrace -lv exited with status $?" "$listing"
    expect_match "-lv listing" "$listing" \
        'tick_example +timer +fast +tick$' \
        'tick_example +timer +slow +tick$' \
        'args\[0\]: uint64_t$' \
        'args\[1\]: int$' \
        'args\[2\]: char \*$' \
        'args\[3\]: tickinfo_t$'
    [[ $(grep -c 'args\[3\]: tickinfo_t' <<<"$listing") == 2 ]] ||
        fail "both probes (typed at registration and through arg_info) must show args[3]" "$listing"

    # args[] needs a description matching one probe (D_ARGS_MULTI otherwise).
    trace=$(timeout "$RUN_TIMEOUT" "$dtrace" "${load[@]}" -qn 'tick_example::fast:tick { printf("%d\n", args[0]); exit(0); }')
    status=$?
    [[ $status == 0 && $trace == 1 ]] || fail "one-tick trace: status $status, expected the single line 1" "$trace"

    trace=$(timeout "$RUN_TIMEOUT" "$dtrace" "${load[@]}" -qn 'tick_example:::tick { printf("%d\n", arg0); exit(0); }')
    status=$?
    [[ $status == 0 && $trace == 1 ]] || fail "one-tick trace on both probes: status $status" "$trace"

    label=$(timeout "$RUN_TIMEOUT" "$dtrace" "${load[@]}" \
        -qn 'tick_example::fast:tick { printf("%s|%d\n", copyinstr(arg2), args[1]); exit(0); }')
    status=$?
    [[ $status == 0 && $label == 'fast timer, 10 ms|10' ]] || fail "label read with copyinstr: status $status" "$label"
}

check_pending() {
    local out status
    # args[2] is a char *: D passes it to copyinstr() only through a cast, as in DTrace.
    out=$(timeout "$RUN_TIMEOUT" "$dtrace" "${load[@]}" \
        -qn 'tick_example::slow:tick { printf("%s|%d\n", copyinstr((uintptr_t)args[2]), args[1]); exit(0); }' 2>&1)
    status=$?
    [[ $status == 0 && $out == 'slow timer, 100 ms|100' ]] ||
        fail "args[] of a probe typed through arg_info: status $status" "$out"
    out=$(timeout "$RUN_TIMEOUT" "$dtrace" "${load[@]}" \
        -qn 'tick_example::fast:tick { printf("%d|%d\n", args[3].ti_count, args[3].ti_in_lap); exit(0); }' 2>&1)
    status=$?
    [[ $status == 0 && $out == '1|1' ]] || fail "args[3] through the provider's translator: status $status" "$out"
}

case $checks in
basic) check_basic ;;
pending) check_pending ;;
*)
    echo "unknown check set '$checks'"
    exit 2
    ;;
esac

if ((failures > 0)); then
    echo "$failures $checks check(s) failed for $plugin"
    exit 1
fi
echo "tickprov $checks checks passed with $dtrace"
