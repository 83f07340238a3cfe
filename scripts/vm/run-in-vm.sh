#!/usr/bin/env bash
# run-in-vm.sh KERNEL_DIR OUT_DIR: boots the test kernel prepare-kernel.sh
# made in KERNEL_DIR under qemu's TCG emulation (the KVM of our machines
# cannot boot a stock kernel) and runs OUT_DIR/guest.sh in it, chrooted into
# the host's / (shared read-only over 9p, so the build tree is the same path
# inside). guest.sh's stdout, stderr and exit status come back as
# OUT_DIR/stdout, stderr and status; the console as OUT_DIR/console.log.
# Exits with guest.sh's status, or 77 naming what is missing.
# VM_ICOUNT=1: the guest's clock counts its instructions (qemu -icount, one
# nanosecond each), so that times measured inside the guest do not depend on
# how busy the host is (benchmarks); a single-threaded TCG, slower.
set -euo pipefail
kernel_dir=${1:?usage: run-in-vm.sh KERNEL_DIR OUT_DIR}
out=$(cd "${2:?usage: run-in-vm.sh KERNEL_DIR OUT_DIR}" && pwd)
timeout_seconds=${VM_TIMEOUT:-900}
accel=(-accel tcg,thread=multi)
[ -n "${VM_ICOUNT:-}" ] && accel=(-accel tcg,thread=single -icount shift=0,sleep=off)
[ -f "$kernel_dir/ready" ] || { echo "vm: no test kernel in $kernel_dir (run scripts/vm/prepare-kernel.sh)" >&2; exit 77; }
[ -f "$out/guest.sh" ] || { echo "vm: $out/guest.sh is missing" >&2; exit 2; }
rm -f "$out/stdout" "$out/stderr" "$out/status"
timeout "$timeout_seconds" qemu-system-x86_64 "${accel[@]}" -cpu max -M q35 -m 1024 -smp 1 \
  -nographic -no-reboot -monitor none -serial stdio -nic none \
  -kernel "$kernel_dir/vmlinux" -initrd "$kernel_dir/initramfs.cpio.gz" \
  -append "console=ttyS0 panic=-1 quiet cryptomgr.notests mitigations=off init_on_alloc=0 audit=0 dtrace_vm_out=$out" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
  -virtfs "local,path=$out,mount_tag=results,security_model=none,multidevs=remap" \
  </dev/null >"$out/console.log" 2>&1 || true
if [ ! -f "$out/status" ]; then
  echo "vm: the guest did not finish (timeout ${timeout_seconds}s or a crash); its console:" >&2
  tail -20 "$out/console.log" >&2
  exit 1
fi
exit "$(cat "$out/status")"
