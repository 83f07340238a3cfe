#!/bin/sh
# fbt_vm.sh [BUILD_DIR]: the fbt provider's cost per hit against bpftrace's
# kprobe: on the same function, in the same guest run (Debian's kernel under
# qemu, scripts/vm/; our machines' kernel has no kprobes). The workload is
# dd copying N bytes one at a time (N vfs_read calls), traced by our fbt
# through fentry and through kprobes, and by bpftrace; dd's own reported
# time, traced and alone, gives the added time per hit without either
# tool's start-up. A second pair counts by file name
# (args[0]->f_path.dentry->d_name.name, read at the event by both: our
# fetch plan, bpftrace's probe reads). Guest timings are emulation timings:
# only the ratio means anything. Root only; says what is missing when the VM
# cannot run.
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
hits=${HITS:-100000}
kernel_dir=${VM_KERNEL_DIR:-$build/vm-kernel}
"$root/scripts/vm/prepare-kernel.sh" "$kernel_dir" || { echo "  skipped: no test kernel (see above)"; exit 0; }
out=$build/vm-bench
rm -rf "$out" && mkdir -p "$out"
cat >"$out/guest.sh" <<GUEST
# dd's own time (seconds) of copying $hits bytes one at a time, under "\$@".
dd_seconds() { "\$@" 2>&1 >/dev/null | sed -n 's/.* copied, \\([0-9.e-]*\\) s,.*/\\1/p' | tail -1; }
workload="/usr/bin/dd if=/dev/zero of=/dev/null bs=1 count=$hits"
for run in 1 2 3; do
  echo "alone \$(dd_seconds \$workload)"
  for mode in fentry kprobe; do
    echo "dtrace-\$mode \$(dd_seconds $build/dtrace -x plugins=fbt -x fbtattach=\$mode -q -n 'fbt::vfs_read:entry /pid == \$target/ { @ = count(); }' -c "\$workload")"
  done
  echo "bpftrace \$(dd_seconds bpftrace -e 'kprobe:vfs_read /pid == cpid/ { @ = count(); }' -c "\$workload")"
  echo "dtrace-names \$(dd_seconds $build/dtrace -x plugins=fbt -q -n 'fbt::vfs_read:entry /pid == \$target/ { @[stringof(args[0]->f_path.dentry->d_name.name)] = count(); }' -c "\$workload")"
  echo "bpftrace-names \$(dd_seconds bpftrace -e 'kprobe:vfs_read /pid == cpid/ { @[str(((struct file *)arg0)->f_path.dentry->d_name.name)] = count(); }' -c "\$workload")"
done
$build/dtrace -x plugins=fbt -q -n 'fbt::vfs_read:entry /pid == \$target/ { @ = count(); } END { printa("count %@d\n", @); }' -c "\$workload" 2>&1 >/dev/null | sed -n 's/^dtrace: \([0-9]*\) drops\{0,1\} on CPU.*/drops \1/p'
$build/dtrace -x plugins=fbt -q -n 'fbt::vfs_read:entry /pid == \$target/ { @ = count(); } END { printa("count %@d\n", @); }' -c "\$workload" 2>/dev/null
GUEST
"$root/scripts/vm/run-in-vm.sh" "$kernel_dir" "$out" || { echo "  the guest failed:"; cat "$out/stderr"; exit 0; }
python3 - "$out/stdout" "$hits" <<'PY'
import statistics, sys
runs = {}
count = None
drops = 0
for line in open(sys.argv[1]):
    words = line.split()
    if len(words) == 2 and words[0] == "count":
        count = int(words[1])
    elif len(words) == 2 and words[0] == "drops":
        drops = drops + int(words[1])
    elif len(words) == 2:
        runs.setdefault(words[0], []).append(float(words[1]))
hits = int(sys.argv[2])
alone = statistics.median(runs["alone"])
print("   guest: dd of %d one-byte reads, median of %d runs (dd's own time, no tool start-up)" % (hits, len(runs["alone"])))
print("   alone %.2f s; dtrace fbt::vfs_read:entry counted %s hits (%d dropped in another run)" % (alone, count, drops))
added = {}
for tool in ("dtrace-fentry", "dtrace-kprobe", "bpftrace", "dtrace-names", "bpftrace-names"):
    if runs.get(tool):
        added[tool] = statistics.median(runs[tool]) - alone
        print("   %-14s %.2f s, +%.1f us per hit (emulated)" % (tool, statistics.median(runs[tool]), added[tool] / hits * 1e6))
for tool in ("dtrace-fentry", "dtrace-kprobe"):
    if tool in added and added.get("bpftrace", 0) > 0:
        print("   ratio of added time per hit, %s / bpftrace kprobe: %.2f" % (tool, added[tool] / added["bpftrace"]))
if "dtrace-names" in added and added.get("bpftrace-names", 0) > 0:
    print("   ratio of added time per hit counting by file name, dtrace / bpftrace: %.2f" %
          (added["dtrace-names"] / added["bpftrace-names"]))
PY
