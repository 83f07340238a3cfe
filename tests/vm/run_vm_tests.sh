#!/usr/bin/env bash
# run_vm_tests.sh BUILD_DIR [FILTER]: the golden tests that need a kernel
# this machine's lacks (kprobes for fbt), run in one VM boot: Debian's own
# kernel under qemu (scripts/vm/), our dtrace from BUILD_DIR shared into the
# guest over 9p. Each tests/vm/<chapter>/NAME.cmd (with NAME.out, and
# optionally NAME.err and NAME.status) runs through tests/golden/run_golden.py
# inside the guest, twice: as written (the in-kernel fast path on, dtrace's
# default) and with -x fastpath=off, against the same expectations (the fast
# path's differential test, as tests/live/same_both_ways.sh on the host);
# the results come back and print here. FILTER (a regex)
# picks tests by chapter/NAME. With BLESS=1 the actual outputs become the
# expectations (review them before committing).
# Exit 0: all passed; 1: some failed; 77: skipped (saying what is missing).
set -uo pipefail
build=$(cd "${1:?usage: run_vm_tests.sh BUILD_DIR [FILTER]}" && pwd)
filter=${2:-.}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

if [ "$(id -u)" != 0 ]; then
  echo "skipped: the VM's tests trace the guest's kernel as root; run as root"
  exit 77
fi
kernel_dir=$build/vm-kernel
"$root/scripts/vm/prepare-kernel.sh" "$kernel_dir"
status=$?
[ $status -eq 77 ] && { echo "skipped: no test kernel (see the message above)"; exit 77; }
[ $status -ne 0 ] && { echo "FAILED: scripts/vm/prepare-kernel.sh exited $status"; exit 1; }

# The results folder must not be under /tmp: the guest mounts a tmpfs there.
out=$build/vm-results
rm -rf "$out" && mkdir -p "$out"
tests=()
for cmd in "$here"/*/*.cmd; do
  name=$(basename "$(dirname "$cmd")")/$(basename "$cmd" .cmd)
  [[ $name =~ $filter ]] && tests+=("$name")
done
[ ${#tests[@]} -gt 0 ] || { echo "FAILED: no test matches $filter"; exit 1; }
# dtrace with -x fastpath=off first on its command line: a wrapper in a
# folder that mirrors the build tree's top level (the golden runner's $BUILD
# is the binary's folder), also first on PATH for the cases' `sh -c`.
off_build=$out/fastpath-off
mkdir -p "$off_build"
for entry in "$build"/*; do [ "$entry" = "$build/dtrace" ] || ln -s "$entry" "$off_build/"; done
printf '#!/bin/sh\nexec %s -x fastpath=off "$@"\n' "$build/dtrace" >"$off_build/dtrace" && chmod +x "$off_build/dtrace"
# Blessing takes the expectations from the fast path's runs only.
variants=("on:$build/dtrace")
[ -n "${BLESS:-}" ] || variants+=("off:$off_build/dtrace")
log_of() { echo "$out/$(echo "$1" | tr / _)@$2.log"; }
# The guest's time: a run takes ~10-30 s (emulated, on a busy host); a
# minute each leaves room (one that hangs is ended by its own timeout).
export VM_TIMEOUT=${VM_TIMEOUT:-$((300 + 60 * ${#tests[@]} * ${#variants[@]}))}
{
  echo "# Written by tests/vm/run_vm_tests.sh: runs in the guest."
  # The cases are copied to the writable results folder (the host's / is read-only in the guest).
  echo "cp -r $here $out/cases && cd $out/cases"
  for name in "${tests[@]}"; do
    for variant in "${variants[@]}"; do
      log=$(log_of "$name" "${variant%%:*}")
      echo "GOLDEN_TIMEOUT=240 timeout 300 python3 $root/tests/golden/run_golden.py ${variant#*:} $out/cases/$name.cmd ${BLESS:+--bless} >$log 2>&1; echo \$? >$log.status"
    done
  done
} >"$out/guest.sh"

"$root/scripts/vm/run-in-vm.sh" "$kernel_dir" "$out"
vm_status=$?
if [ $vm_status -eq 77 ]; then echo "skipped: the VM cannot run here"; exit 77; fi
failed=0
for name in "${tests[@]}"; do
  for variant in "${variants[@]}"; do
    log=$(log_of "$name" "${variant%%:*}")
    result=$(cat "$log.status" 2>/dev/null || echo missing)
    if [ "$result" = 0 ]; then
      echo "PASS vm/$name (fastpath=${variant%%:*})"
    else
      echo "FAIL vm/$name (fastpath=${variant%%:*}, status $result)"
      cat "$log" 2>/dev/null
      failed=1
    fi
  done
done
if [ $vm_status -ne 0 ]; then
  echo "FAILED: the guest exited $vm_status"; cat "$out/stderr" 2>/dev/null
  failed=1
fi
if [ -n "${BLESS:-}" ] && [ $failed = 0 ]; then
  for name in "${tests[@]}"; do
    rm -f "$here/$name.out" "$here/$name.err" "$here/$name.status"
    for suffix in out err status; do
      [ -f "$out/cases/$name.$suffix" ] && cp "$out/cases/$name.$suffix" "$here/$name.$suffix"
    done
  done
  echo "blessed: review git diff tests/vm before committing"
fi
exit $failed
