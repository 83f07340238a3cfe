#!/usr/bin/env bash
# prepare-kernel.sh DIR: makes DIR a bootable test kernel for run-in-vm.sh:
# Debian's own kernel (the package linux-image-amd64 depends on, downloaded
# with apt-get download and unpacked, never installed), its uncompressed
# vmlinux (booted through its PVH entry: fast, no KASLR) and an initramfs of
# busybox-static with the virtio and 9p modules and our init (vm-init.sh).
# Modules the tests load in the guest (insmod: fbt probes of a module loaded
# while tracing) are unpacked into DIR/test-modules. Done once per DIR
# (DIR/ready); exits 77 naming what is missing when it
# cannot be done (no qemu, no busybox-static, no network for the package).
set -euo pipefail
dir=${1:?usage: prepare-kernel.sh DIR}
here=$(cd "$(dirname "$0")" && pwd)
test_modules=(dummy)
[ -f "$dir/ready" ] && [ -f "$dir/test-modules/dummy.ko" ] && exit 0

skip() { echo "vm: $*" >&2; exit 77; }
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed (scripts/setup.sh installs qemu-system-x86)"
[ -x /bin/busybox ] && /bin/busybox --list 2>/dev/null | grep -qx insmod ||
  skip "busybox-static is not installed (scripts/setup.sh installs it)"
command -v depmod >/dev/null || skip "depmod is not installed (package kmod)"
command -v cpio >/dev/null || skip "cpio is not installed"

mkdir -p "$dir"
package=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}')
[ -n "$package" ] || skip "apt-cache names no linux-image package for linux-image-amd64 (apt-get update?)"
version=${package#linux-image-}
if ! ls "$dir"/"$package"_*.deb >/dev/null 2>&1; then
  (cd "$dir" && apt-get download "$package" >/dev/null 2>&1) || skip "cannot download $package (apt-get download)"
fi
deb=$(ls "$dir"/"$package"_*.deb | head -1)

# Only the kernel image and the modules the initramfs needs are unpacked.
modules=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci 9pnet 9pnet_virtio netfs fscache 9p)
rm -rf "$dir/root" "$dir/initramfs"
mkdir -p "$dir/root"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir/root" --wildcards "./boot/vmlinuz-*" "./lib/modules/$version/kernel/drivers/virtio/*" \
  "./lib/modules/$version/kernel/net/9p/*" "./lib/modules/$version/kernel/fs/9p/*" "./lib/modules/$version/kernel/fs/netfs/*" \
  "./lib/modules/$version/kernel/fs/fscache/*" "./lib/modules/$version/kernel/drivers/net/dummy.ko" 2>/dev/null || true
[ -f "$dir/root/boot/vmlinuz-$version" ] || skip "$deb holds no boot/vmlinuz-$version"

# The bzImage carries the kernel as an xz stream: vmlinux is that stream, decompressed.
python3 - "$dir/root/boot/vmlinuz-$version" "$dir/vmlinux" <<'PY'
import lzma, sys
data = open(sys.argv[1], "rb").read()
start = data.find(b"\xfd7zXZ\x00")
if start < 0:
    sys.exit("vm: no xz stream in " + sys.argv[1])
out = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[start:])
open(sys.argv[2], "wb").write(out)
PY

mkdir -p "$dir/initramfs/bin" "$dir/initramfs/modules" "$dir/initramfs/dev" "$dir/initramfs/proc" "$dir/initramfs/sys" "$dir/initramfs/host"
cp /bin/busybox "$dir/initramfs/bin/busybox"
for m in "${modules[@]}"; do
  file=$(find "$dir/root/lib/modules/$version" -name "$m.ko" | head -1)
  [ -n "$file" ] || skip "$deb has no module $m.ko"
  cp "$file" "$dir/initramfs/modules/"
done
printf '%s\n' "${modules[@]}" > "$dir/initramfs/modules/order"
mkdir -p "$dir/test-modules"
for m in "${test_modules[@]}"; do
  file=$(find "$dir/root/lib/modules/$version" -name "$m.ko" | head -1)
  [ -n "$file" ] || skip "$deb has no module $m.ko"
  cp "$file" "$dir/test-modules/"
done
cp "$here/vm-init.sh" "$dir/initramfs/init"
chmod +x "$dir/initramfs/init"
(cd "$dir/initramfs" && find . | cpio -o -H newc --quiet | gzip -1) > "$dir/initramfs.cpio.gz"
echo "$version" > "$dir/ready"
