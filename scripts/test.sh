#!/usr/bin/env bash
# Sets everything up, builds, and runs every test (ctest prints the summary),
# then the compiler fuzzer for a bounded time (a crash fails it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests --fuzzers
ctest --test-dir build -j "$(nproc)" --output-on-failure --timeout 300
ctest --test-dir build-fuzz -R '^fuzz[.]' --output-on-failure --timeout 300
