#!/usr/bin/env bash
# The `package` test: installs a kfm build into a temporary prefix, writes an rff map with a kfm tool, then
# builds the C and C++ consumers against the installed package twice — through find_package (CMake, with
# CMAKE_PREFIX_PATH only) and through pkg-config (the plain Makefile) — and runs all four on the map; with
# kfm::offline installed, also the offline consumer (find_package), which writes its files in a directory.
#   run_consumers.sh BUILD_DIR KFM_TOOL CC CXX [TOOLCHAIN_FILE [EMULATOR...]]
# With a toolchain file the consumers are cross-compiled with it and run under EMULATOR (e.g. qemu).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1 tool=$2 cc=$3 cxx=$4
toolchain=${5:-}
emulator=("${@:6}")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

echo "== install $build into a temporary prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || { cat "$work/install.log"; exit 1; }
"$tool" build --method rff --kernel gaussian --sigma 2 --input-dim 10 --features 64 --seed 11 -o "$work/rff.kfm"

echo "== find_package(kfm) consumers"
cmake_args=(-S "$here" -B "$work/cmake" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix")
[ -z "$toolchain" ] || cmake_args+=(-DCMAKE_TOOLCHAIN_FILE="$toolchain")
cmake "${cmake_args[@]}" >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/cmake"

echo "== pkg-config consumers (plain Makefile)"
mkdir -p "$work/make"
# PKG_CONFIG_LIBDIR (not _PATH): only the installed kfm.pc is visible, never a host one.
PKG_CONFIG_LIBDIR=$(dirname "$(find "$prefix" -name kfm.pc)") \
  make -C "$here" --no-print-directory OUT="$work/make" CC="$cc" CXX="$cxx"

for exe in "$work/cmake/consumer_c" "$work/cmake/consumer_cpp" "$work/make/consumer_c" "$work/make/consumer_cpp"; do
  echo "== ${exe#"$work"/}"
  ${emulator[@]+"${emulator[@]}"} "$exe" "$work/rff.kfm"
done
consumers=4
if [ -x "$work/cmake/consumer_offline" ]; then
  echo "== cmake/consumer_offline"
  mkdir "$work/offline"
  ${emulator[@]+"${emulator[@]}"} "$work/cmake/consumer_offline" "$work/offline"
  for file in x.npy map.kfm phi.npy model.kfm labels.npy model.h scores.npy; do
    [ -s "$work/offline/$file" ] || { echo "the offline consumer wrote no $file"; exit 1; }
  done
  "$tool" inspect "$work/offline/model.kfm" >/dev/null
  consumers=5
fi
echo "package: $consumers consumers built and passed"
