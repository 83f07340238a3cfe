#!/usr/bin/env bash
# out_of_tree.sh BUILD_DIR SOURCE_DIR
#
# The SDK as a third party uses it: installs the build into a temporary
# prefix, checks that pkg-config finds dtrace-sdk.pc (and that its flags are
# enough to compile a plugin), builds sdk/examples/tickprov out of tree with
# find_package(DTraceSDK) against that prefix, installs the plugin into the
# prefix's plugin directory, and runs the installed dtrace on it: by path
# (-x plugin=), then found in its default directory (-x plugins=).
# Exits 77 (skip) while the dtrace binary has not been built.
set -uo pipefail

readonly SKIP=77
build=$(realpath "$1")
source=$(realpath "$2")
here=$(dirname "$(realpath "$0")")
example=$source/sdk/examples/tickprov

if [[ ! -x $build/dtrace ]]; then
    echo "SKIP: $build/dtrace does not exist yet (the dtrace CLI target has not been built)"
    exit $SKIP
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/dtrace-out-of-tree.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

# shellcheck source=../steps.sh
source "$here/../steps.sh" # step DESCRIPTION COMMAND...

step "cmake --install into $prefix" cmake --install "$build" --prefix "$prefix"
[[ -x $prefix/bin/dtrace ]] || { echo "FAIL: the install has no bin/dtrace"; exit 1; }

pc_file=$(find "$prefix" -name dtrace-sdk.pc -print -quit)
[[ -n $pc_file ]] || { echo "FAIL: no dtrace-sdk.pc installed"; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc_file")
export PKG_CONFIG_PATH
step "pkg-config finds dtrace-sdk" pkg-config --exists dtrace-sdk
plugindir=$(realpath -m "$(pkg-config --variable=plugindir dtrace-sdk)")
[[ $plugindir == "$prefix"/*/dtrace/plugins ]] || { echo "FAIL: plugindir $plugindir is not in $prefix"; exit 1; }
read -ra cflags <<<"$(pkg-config --cflags dtrace-sdk)"
step "compile the example with pkg-config's flags" \
    cc -std=c11 "${cflags[@]}" -shared -fPIC -pthread -o "$work/tickprov_pc.so" "$example/tickprov.c"

step "configure the example against the installed SDK" \
    cmake -S "$example" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix"
step "build the example" cmake --build "$work/build"
"$here/check_tickprov.sh" "$prefix/bin/dtrace" "$work/build/tickprov.so" basic || exit 1

step "install the example into the plugin directory" cmake --install "$work/build"
[[ -f $plugindir/tickprov.so ]] || { echo "FAIL: tickprov.so was not installed into $plugindir"; exit 1; }
listing=$("$prefix/bin/dtrace" -x plugins=tickprov -l -n 'tick_example:::' 2>&1)
grep -Eq 'tick_example +timer +fast +tick$' <<<"$listing" || {
    echo "FAIL: the installed dtrace did not discover tickprov in $plugindir"
    echo "$listing"
    exit 1
}
listing=$("$prefix/bin/dtrace" -x noplugins -x plugin="$work/tickprov_pc.so" -l -n 'tick_example:::' 2>&1)
grep -Eq 'tick_example +timer +slow +tick$' <<<"$listing" || {
    echo "FAIL: the plugin built with pkg-config's flags does not load"
    echo "$listing"
    exit 1
}
echo "out-of-tree SDK checks passed"
