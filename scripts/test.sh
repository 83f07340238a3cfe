#!/usr/bin/env bash
# Sets everything up, builds, and runs every test (ctest prints the summary).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cd build
ctest -j "$(nproc)" --output-on-failure --timeout 300
