#!/bin/sh
# fbt_vm.sh [BUILD_DIR]: the fbt provider's cost per hit against bpftrace's
# kprobe: `fbt::vfs_read:entry { @ = count(); }` against `kprobe:vfs_read
# { @ = count(); }`, in the same guest run (Debian's kernel under qemu,
# scripts/vm/; our machines' kernel has no kprobes; bpftrace is the host's,
# run in the guest through the shared /). The workload is dd copying N bytes
# one at a time (N vfs_read calls); dd's own reported time, traced and alone,
# gives the added time per hit without either tool's start-up. dtrace runs
# the clause in the kernel (the fast path, the default: a kprobe tail-calling
# dtrace's program), and in user space (-x fastpath=off) through kprobes and
# through fentry. A second pair counts by file name
# (args[0]->f_path.dentry->d_name.name, read at the event by both: a load
# from kernel memory keeps dtrace's clause in user space, with its fetch
# plan; bpftrace's probe reads). The guest's clock counts its instructions
# (VM_ICOUNT: one nanosecond each), so its times are instruction counts,
# the same on a busy host (with the host's clock, runs on our shared
# machines spread 4x); only the ratio means anything. Root only; says what
# is missing when the VM cannot run.
# HITS (20000) bounds the run: every event of the user-space paths is also
# dtrace's work in the one emulated CPU (100000 did not finish in 900 s on
# a busy host). The spread of dd's time alone over the runs, per hit, is
# printed as the figures' resolution. VM_TIMEOUT (3600 s) bounds the guest.
set -u
build=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
hits=${HITS:-20000}
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
  echo "dtrace-kernel \$(dd_seconds $build/dtrace -x plugins=fbt -q -n 'fbt::vfs_read:entry { @ = count(); }' -c "\$workload")"
  for mode in kprobe fentry; do
    echo "dtrace-user-\$mode \$(dd_seconds $build/dtrace -x plugins=fbt -x fastpath=off -x fbtattach=\$mode -q -n 'fbt::vfs_read:entry { @ = count(); }' -c "\$workload")"
  done
  echo "bpftrace \$(dd_seconds bpftrace -e 'kprobe:vfs_read { @ = count(); }' -c "\$workload")"
  echo "dtrace-names \$(dd_seconds $build/dtrace -x plugins=fbt -q -n 'fbt::vfs_read:entry /pid == \$target/ { @[stringof(args[0]->f_path.dentry->d_name.name)] = count(); }' -c "\$workload")"
  echo "bpftrace-names \$(dd_seconds bpftrace -e 'kprobe:vfs_read /pid == cpid/ { @[str(((struct file *)arg0)->f_path.dentry->d_name.name)] = count(); }' -c "\$workload")"
done
# The count each way (dd's reads, a few of its loader's too), and the drops.
for path in on off; do
  $build/dtrace -x plugins=fbt -x fastpath=\$path -q -n 'fbt::vfs_read:entry /pid == \$target/ { @ = count(); } END { printa("count %@d\\n", @); }' -c "\$workload" >/tmp/count.out 2>/tmp/count.err
  sed -n "s/^count /count-\$path /p" /tmp/count.out
  sed -n 's/^dtrace: \([0-9]*\) drops\{0,1\} on CPU.*/drops \1/p' /tmp/count.err
done
GUEST
VM_ICOUNT=1 VM_TIMEOUT=${VM_TIMEOUT:-3600} "$root/scripts/vm/run-in-vm.sh" "$kernel_dir" "$out" || { echo "  the guest failed:"; cat "$out/stderr"; exit 0; }
python3 - "$out/stdout" "$hits" <<'PY'
import statistics, sys
runs = {}
counts = {}
drops = 0
for line in open(sys.argv[1]):
    words = line.split()
    if len(words) == 2 and words[0].startswith("count-"):
        counts[words[0][len("count-"):]] = int(words[1])
    elif len(words) == 2 and words[0] == "drops":
        drops = drops + int(words[1])
    elif len(words) == 2:
        runs.setdefault(words[0], []).append(float(words[1]))
hits = int(sys.argv[2])
alone = statistics.median(runs["alone"])
print("   guest: dd of %d one-byte reads, median of %d runs (dd's own time, no tool start-up)" % (hits, len(runs["alone"])))
print("   alone %.4f s (%.0f guest instructions per read); dtrace /pid == $target/ counted %s hits in the kernel, "
      "%s in user space (%d dropped)" % (alone, alone / hits * 1e9, counts.get("on"), counts.get("off"), drops))
print("   resolution: dd alone spread %.0f guest instructions per hit over its runs" %
      ((max(runs["alone"]) - min(runs["alone"])) / hits * 1e9))
added = {}
tools = ("dtrace-kernel", "dtrace-user-kprobe", "dtrace-user-fentry", "bpftrace", "dtrace-names", "bpftrace-names")
for tool in tools:
    if runs.get(tool):
        added[tool] = statistics.median(runs[tool]) - alone
        print("   %-18s %.4f s, +%.0f guest instructions per hit" % (tool, statistics.median(runs[tool]), added[tool] / hits * 1e9))
for tool in ("dtrace-kernel", "dtrace-user-kprobe", "dtrace-user-fentry"):
    if tool in added and added.get("bpftrace", 0) > 0:
        print("   ratio of added time per hit, %s / bpftrace kprobe: %.2f" % (tool, added[tool] / added["bpftrace"]))
if "dtrace-names" in added and added.get("bpftrace-names", 0) > 0:
    print("   ratio of added time per hit counting by file name, dtrace (user space) / bpftrace: %.2f" %
          (added["dtrace-names"] / added["bpftrace-names"]))
PY
