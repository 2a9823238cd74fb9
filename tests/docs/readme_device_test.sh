#!/usr/bin/env bash
# The `readme-device` test: README.md's "From data to device" block runs as written, in an empty
# directory, with `repo` and `build` set to this checkout and this build, and the device's labels are those
# of `kfm predict` (labels.npy) on the same rows.
#   readme_device_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
block=$(sed -n '/<!-- readme-device: begin -->/,/<!-- readme-device: end -->/p' "$src/README.md" | sed '1,2d;$d' | sed '$d')
[ -n "$block" ] || { echo "readme-device: no block between the markers in README.md" >&2; exit 1; }
grep -q '^repo=' <<<"$block" && grep -q '^build=' <<<"$block" ||
  { echo "readme-device: the block must set repo= and build= on lines of their own" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
script=$(sed -e "s|^repo=.*|repo='$src'|" -e "s|^build=.*|build='$build'|" <<<"$block")
(cd "$work" && bash -euo pipefail -c "$script") >"$work/log" 2>&1 || { cat "$work/log"; echo "readme-device: the block failed" >&2; exit 1; }
out=$work/kfm-device
[ -s "$out/device.txt" ] || { echo "readme-device: device/device_predict printed nothing" >&2; exit 1; }
# The host's int64 labels (kfm predict's labels.npy payload after its header) against the device's first column.
header=$(( $(od -A n -t u2 -j 8 -N 2 "$out/labels.npy") + 10 ))
host=$(tail -c +$((header + 1)) "$out/labels.npy" | od -A n -v -t d8 -w8 | tr -d ' ')
device=$(awk '{ print $1 }' "$out/device.txt")
rows=$(wc -l <<<"$device")
if [ "$host" != "$device" ]; then
  echo "readme-device: the device's labels differ from kfm predict's" >&2
  diff <(echo "$host") <(echo "$device") | head >&2
  exit 1
fi
echo "readme-device: the README's block ran in an empty directory; $rows device labels equal kfm predict's"
