#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang, AddressSanitizer and UndefinedBehaviorSanitizer in
# build/fuzz, writes the seed corpus from the builders, and runs each target for FUZZ_SECONDS (default 60).
# Usage: scripts/ci/fuzz.sh [target...]   (targets: open map model npy; default all)
# A crash, leak or timeout (-timeout=FUZZ_TIMEOUT seconds for one input, default 10) fails the run; the
# reproducer is left in build/fuzz/artifacts/<target>/ and should be copied to tests/fuzz/regressions/<target>/
# once fixed, where ctest replays it in every build. Prints one line per target:
#   fuzz <target>: ok|FAILED, <executions> runs in <s> s (<rate>/s), corpus <n>
# and exits non-zero when any target failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
dir="$root/build/fuzz"
seconds=${FUZZ_SECONDS:-60}
timeout=${FUZZ_TIMEOUT:-10}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(open map model npy)

mkdir -p "$dir"
if ! { CC=clang CXX=clang++ cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
         -DKFM_SANITIZE=ON -DKFM_FUZZ=ON -DKFM_BUILD_BENCH=OFF -DKFM_BUILD_CLI=OFF \
         -DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link &&
       cmake --build "$dir" -j2 --target kfm_fuzz_seeds "${targets[@]/#/kfm_fuzz_}"; } >"$dir.build.log" 2>&1; then
  tail -30 "$dir.build.log" >&2
  echo "fuzz: build failed (full log: $dir.build.log)" >&2
  exit 1
fi
"$dir/tests/fuzz/kfm_fuzz_seeds" "$dir/seeds" >/dev/null || { echo "fuzz: writing the seeds failed" >&2; exit 1; }

failed=0
for t in "${targets[@]}"; do
  corpus="$dir/corpus/$t" artifacts="$dir/artifacts/$t/" log="$dir/$t.log"
  mkdir -p "$corpus" "$artifacts"
  # New corpus entries go to corpus/<t>; the seeds and the regressions are read only.
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$dir/tests/fuzz/kfm_fuzz_$t" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts" "$corpus" "$dir/seeds/$t" "$root/tests/fuzz/regressions/$t" \
    >"$log" 2>&1
  rc=$?
  runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
  took=$(grep -E '^stat::slowest_unit_time_sec|^Done [0-9]+ runs in' "$log" | grep -oE 'in [0-9]+ second' | grep -oE '[0-9]+')
  [ -n "$took" ] || took=$seconds
  rate=$(( ${runs:-0} / (took > 0 ? took : 1) ))
  size=$(find "$corpus" -type f | wc -l)
  if [ $rc -eq 0 ]; then
    echo "fuzz $t: ok, ${runs:-0} runs in ${took} s (${rate}/s), corpus $size"
  else
    failed=$((failed + 1))
    echo "fuzz $t: FAILED (exit $rc), ${runs:-?} runs; reproducer in $artifacts, log $log"
    grep -E 'ERROR|contract violated|SUMMARY|timeout|Test unit written' "$log" | head -6 | sed 's/^/  /'
    # The reproducer itself (at most -max_len = 4096 bytes), so a failure on a machine we cannot reach
    # can be replayed here: base64 -d > tests/fuzz/regressions/<target>/<name>.
    for a in "$artifacts"*; do
      [ -f "$a" ] && [ "$(stat -c %s "$a")" -le 8192 ] || continue
      echo "  reproducer $(basename "$a") (base64):"
      base64 -w 100 "$a" | sed 's/^/    /'
    done
  fi
done
[ $failed -eq 0 ]
