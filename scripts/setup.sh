#!/usr/bin/env bash
# Installs what building and testing dtrace needs (Debian packages), then
# configures and builds it in build/. Safe to run again: it skips what is done.
# With --fuzzers (the tests use it) it also installs clang and builds the
# compiler's libFuzzer target in build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build ccache pkg-config python3
          libboost-dev libelf-dev libdwarf-dev zlib1g-dev libtinyxml2-dev
          libgtest-dev libgmock-dev libbenchmark-dev util-linux
          libdw-dev linux-perf)  # pmc: CFI unwinding; bench: perf record alongside
fuzzers=false
if [ "${1:-}" = "--fuzzers" ]; then
  fuzzers=true
  packages+=(clang)
fi
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

build_type=${BUILD_TYPE:-RelWithDebInfo}
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE="$build_type" >/dev/null
cmake --build build -j "$(nproc)"

if $fuzzers; then
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE="$build_type" -DDTRACE_BUILD_FUZZERS=ON \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
  cmake --build build-fuzz -j "$(nproc)" --target compiler_fuzzer
fi
