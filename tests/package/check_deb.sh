#!/usr/bin/env bash
# check_deb.sh BUILD_DIR SOURCE_DIR
#
# The Debian packages as a user gets them: builds them with CPack from the
# build tree, unpacks both (dpkg-deb -x) into a clean directory tree, and runs
# the unpacked dtrace from there: --version, its plugins found beside it
# (-x plugins=help), the demo's replay (same bytes as the build tree's
# dtrace), dtrace(1) rendering with man, and the skeleton provider compiled
# with the unpacked SDK's pkg-config file and loaded.
# Exits 77 (skip) when dpkg-deb or the dtrace binary is missing.
set -uo pipefail

readonly SKIP=77
build=$(realpath "$1")
source=$(realpath "$2")

[[ -x $build/dtrace ]] || { echo "SKIP: $build/dtrace has not been built"; exit $SKIP; }
command -v dpkg-deb >/dev/null || { echo "SKIP: dpkg-deb is not installed"; exit $SKIP; }

unset DTRACE_PLUGIN_PATH
work=$(mktemp -d "${TMPDIR:-/tmp}/dtrace-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root

# shellcheck source=../steps.sh
source "$(dirname "$(realpath "$0")")/../steps.sh" # step DESCRIPTION COMMAND...
fail() {
    echo "FAIL: $*"
    exit 1
}

step "cpack -G DEB" cpack -G DEB -B "$work/out" --config "$build/CPackConfig.cmake"
debs=("$work"/out/*.deb)
[[ ${#debs[@]} -eq 2 ]] || fail "expected the dtrace and dtrace-dev packages, got: ${debs[*]}"
for deb in "${debs[@]}"; do
    step "dpkg-deb -x $(basename "$deb")" dpkg-deb -x "$deb" "$root"
done
step "the dtrace package's control file" dpkg-deb -f "$work"/out/dtrace_*.deb Package Version Depends
dtrace=$root/usr/bin/dtrace
[[ -x $dtrace ]] || fail "no usr/bin/dtrace in the package"

version=$("$dtrace" --version) || fail "dtrace --version failed"
[[ $version == "dtrace "[0-9]*"Sun D 1.13"* ]] || fail "unexpected --version: $version"

plugins=$("$dtrace" -x plugins=help 2>&1)
grep -q "^etw .*($root/usr/lib/dtrace/plugins/etw.so): loaded$" <<<"$plugins" ||
    fail "the unpacked dtrace did not load its etw plugin from $root/usr/lib/dtrace/plugins:"$'\n'"$plugins"

demo=(-qE "$source/examples/traces/demo.etl" -n 'diag:::events { @[stringof(copyinstr(arg0))] = count(); }')
expected=$("$build/dtrace" "${demo[@]}" 2>&1)
actual=$("$dtrace" "${demo[@]}" 2>&1)
[[ -n $actual && $actual == "$expected" ]] ||
    fail "the demo's replay differs from the build tree's:"$'\n'"$actual"$'\n'"expected:"$'\n'"$expected"

for page in man1/dtrace.1 man3/dtrace-provider.3; do
    [[ -f $root/usr/share/man/$page ]] || fail "no usr/share/man/$page"
    rendered=$(MANWIDTH=80 man -l "$root/usr/share/man/$page" 2>&1) || fail "man -l $page failed"
    grep -q "^NAME" <<<"$rendered" || fail "$page renders without a NAME section"
done

pc_file=$(find "$root" -name dtrace-sdk.pc -print -quit)
[[ -n $pc_file ]] || fail "the dtrace-dev package has no dtrace-sdk.pc"
read -ra cflags <<<"$(PKG_CONFIG_PATH=$(dirname "$pc_file") pkg-config --cflags dtrace-sdk)"
skeleton=$root/usr/share/doc/dtrace-dev/examples/skeleton/skeleton.c
[[ -f $skeleton ]] || fail "the dtrace-dev package has no examples/skeleton"
step "compile the skeleton with the package's SDK" \
    cc -std=c11 "${cflags[@]}" -shared -fPIC -pthread -o "$work/skeleton.so" "$skeleton"
beat=$("$dtrace" -x plugin="$work/skeleton.so" -x skeleton_text=packaged -qn 'skeleton:::beat { printf("%s\n", args[0]); exit(0); }' 2>&1)
[[ $beat == packaged* ]] || fail "the skeleton built against the package did not fire: $beat"
echo "Debian package checks passed"
