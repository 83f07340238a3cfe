#!/usr/bin/env bash
# Installs what building and testing dtrace needs (Debian packages), then
# configures and builds it in build/. Safe to run again: it skips what is done.
# With --tests it also builds the tests and benchmarks (a plain cmake builds
# only dtrace, its plugins and the SDK); with --fuzzers it also installs clang
# and builds the compiler's libFuzzer target in build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build ccache pkg-config python3
          libboost-dev libelf-dev libdwarf-dev zlib1g-dev libtinyxml2-dev
          libgtest-dev libgmock-dev libbenchmark-dev util-linux
          libdw-dev linux-perf  # pmc: CFI unwinding; bench: perf record alongside
          libbpf-dev clang llvm bc  # the live plugins: libbpf, BPF C compiled by clang, llvm-strip; bc for bench/
          qemu-system-x86 busybox-static cpio kmod  # tests/vm: Debian's kernel under qemu (scripts/vm/)
          libzydis-dev  # fpid: the x86-64 decoder and encoder that relocates hooked prologues
          bpftrace)  # the USDT tests: bpftrace's usdt: reads the probes our dtrace -h makes
fuzzers=false
tests=() # without --tests, a build configured with them keeps them (demo.sh after test.sh)
for arg in "$@"; do
  case $arg in
    --tests) tests=(-DDTRACE_BUILD_TESTS=ON -DDTRACE_BUILD_BENCH=ON) ;;
    --fuzzers) fuzzers=true; packages+=(clang) ;;
    *) echo "setup: unknown argument $arg (expected --tests, --fuzzers)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The live plugins list and attach tracepoints through tracefs, which is not
# mounted on a fresh machine (they also mount it themselves when run as root).
tracefs=/sys/kernel/tracing
if [ -d "$tracefs" ] && ! mountpoint -q "$tracefs"; then
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
  $sudo mount -t tracefs nodev "$tracefs" ||
    echo "setup: could not mount tracefs at $tracefs: the live plugins need it (mount -t tracefs nodev $tracefs)" >&2
fi

build_type=${BUILD_TYPE:-RelWithDebInfo}
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$build_type" "${tests[@]}" >/dev/null
cmake --build build -j "$(nproc)"

if $fuzzers; then
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE="$build_type" -DDTRACE_BUILD_FUZZERS=ON -DDTRACE_BUILD_TESTS=ON \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
  cmake --build build-fuzz -j "$(nproc)" --target fuzzers
fi
