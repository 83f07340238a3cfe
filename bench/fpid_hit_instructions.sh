#!/bin/sh
# fpid_hit_instructions.sh [SOURCE_TREE]: instructions per fpid entry hit
# (bench/fpid_hit_instructions.c, under callgrind) for a counting clause
# (no parts), with the time stamp counter (timestamp) and with the thread's
# CPU time (vtimestamp: the system call itself is not counted, callgrind
# sees the instructions around it). SOURCE_TREE (default: this one) gives
# plugins/fpid (its agent.h must have fpid_hook_info_set), so another
# worktree's hot path compares exactly.
tree=${1:-$(dirname "$0")/..}
here=$(dirname "$0")
if ! command -v valgrind >/dev/null; then
    echo "fpid_hit_instructions.sh: valgrind is not installed"
    exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cc -O2 -mgeneral-regs-only -I"$tree/plugins/fpid/agent" -I"$tree/plugins/fpid/hook" -o "$work/hits" \
    "$here/fpid_hit_instructions.c" "$tree/plugins/fpid/agent/hits.c" || exit 1
per_hit() { # $1 flags: (instructions of 2N hits - of N hits) / N
    n=100000
    for hits in $n $((2 * n)); do
        valgrind --tool=callgrind --callgrind-out-file="$work/out.$hits" "$work/hits" $hits "$1" >/dev/null 2>&1
    done
    one=$(callgrind_annotate "$work/out.$n" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    two=$(callgrind_annotate "$work/out.$((2 * n))" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    echo $(((two - one) / n))
}
echo "== instructions per fpid entry hit (callgrind, $tree)"
echo "   counting (no parts):      $(per_hit 0)"
echo "   timestamp (TSC):          $(per_hit 0x8)"
echo "   vtimestamp (+ syscall):   $(per_hit 0x28)"
