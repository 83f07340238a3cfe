#!/usr/bin/env bash
# Sets everything up and builds; runs the compiler fuzzer for a bounded time
# (a crash fails it) and the engine's concurrency tests under
# ThreadSanitizer; then every test (ctest prints the summary last).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests --fuzzers
ctest --test-dir build-fuzz -R '^fuzz[.]' -j "$(nproc)" --output-on-failure --timeout 300

# Probes registered late, from plugin threads, while others fire: the engine's
# tests of it and the lateprov plugin through dtrace, in a ThreadSanitizer build.
build_type=${BUILD_TYPE:-RelWithDebInfo}
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE="$build_type" -DDTRACE_SANITIZE=thread \
  -DDTRACE_BUILD_TESTS=ON -DDTRACE_BUILD_BENCH=OFF >/dev/null
cmake --build build-tsan -j "$(nproc)" --target engine_tests dtrace lateprov
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  ctest --test-dir build-tsan -R '^(LateProbes|ProbeTable)[.]|^golden/plugins/late_probes$' \
  --output-on-failure --timeout 300

ctest --test-dir build -j "$(nproc)" --output-on-failure --timeout 300
