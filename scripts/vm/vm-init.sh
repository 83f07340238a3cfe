#!/bin/busybox sh
# vm-init.sh: the test VM's init (in the initramfs prepare-kernel.sh makes).
# Loads the virtio and 9p modules, mounts the host's / read-only at /host
# and the results folder (dtrace_vm_out= on the kernel command line)
# writable at the same path inside it, mounts the kernel's file systems
# inside /host, and runs the results folder's guest.sh chrooted there, so
# the host's binaries and libraries run unchanged. Its output and exit
# status land in the results folder; then the VM powers off.
/bin/busybox mkdir -p /bin /dev
/bin/busybox --install -s /bin
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
for m in $(cat /modules/order); do
  insmod /modules/$m.ko || echo "vm-init: insmod $m failed"
done
out=$(sed -n 's/.*dtrace_vm_out=\([^ ]*\).*/\1/p' /proc/cmdline)
opts=trans=virtio,version=9p2000.L,msize=512000
mount -t 9p -o $opts,ro,cache=loose hostroot /host || echo "vm-init: cannot mount the host's /"
mount -t 9p -o $opts results /host$out || echo "vm-init: cannot mount the results folder $out"
mount -t proc proc /host/proc
mount -t sysfs sysfs /host/sys
mount -t tracefs nodev /host/sys/kernel/tracing
mount -t debugfs nodev /host/sys/kernel/debug
mount -t bpf bpf /host/sys/fs/bpf
mount -t devtmpfs devtmpfs /host/dev
mount -t tmpfs tmpfs /host/tmp
mount -t tmpfs tmpfs /host/run
chroot /host /bin/sh "$out/guest.sh" >"/host$out/stdout" 2>"/host$out/stderr"
echo $? >"/host$out/status"
sync
poweroff -f
