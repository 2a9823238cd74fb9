#!/usr/bin/env bash
# The test command: installs the build dependencies, then
#   1. native Release build of everything (libraries, kfm, every test suite, kfm_bench) and ctest, all labels
#      (the `package` test installs this build and builds C/C++ consumers against it); the kernels suite
#      must report scalar and AVX2 as tested (AArch64 / ARMv7 stages: NEON), see require_isas_tested;
#   1b. the Python package as users install it: a wheel from the checkout in a fresh virtual environment,
#      tests/python run against it (scripts/ci/test-python-package.sh);
#   2. AddressSanitizer + UndefinedBehaviorSanitizer build of the tests, running the kernels, format and
#      runtime suites (the fuzz regression replays included); then scripts/ci/fuzz.sh runs each libFuzzer
#      target (clang) for FUZZ_SECONDS (default 45 s, four targets, about 3 minutes in all);
#   3. AArch64 and ARMv7 cross builds (kfm_bench included) running the kernels, format and runtime suites,
#      the builders' bytes (determinism) and a short kfm_bench run (bench-smoke) under qemu, and on AArch64
#      the `package` test (cross consumers, maps written by the native kfm);
#   4. a runtime-only ARMv7 build (KFM_RUNTIME_ONLY, no -fPIC, user CMAKE_CXX_FLAGS=-O2) that sees no
#      header-only library but xsimd: proves the runtime needs nothing else and the toolchain keeps NEON;
#   5. code size (scripts/firmware/code-size.sh check): two SSF-only AArch64 runtime-only builds (every
#      nonlinearity; cos_sin only); the code an open + transform program adds must stay within
#      scripts/firmware/code-size.limit, and under qemu that program transforms an SSF map, refuses a dense one (a
#      projection the build leaves out) and, in the cos_sin-only build, an SSF arc-cosine map;
#   6. scripts/demo.sh, the README's main job (with D = 64), which must finish without a failed row and
#      with host/device agreement natively and under qemu-aarch64;
#   7. Cortex-M (examples/cortex-m/run_cortex_m_test.sh): bare-metal Cortex-M4F, M7 and M55 builds run
#      under qemu-system-arm, predictions against the native kfm's, every kernel against its reference,
#      NEON refused at configure time; each of its checks counts as one; then scripts/firmware/cortex-m-size.sh
#      (flash, RAM and instructions per core and configuration: docs/embedding.md, "Microcontrollers")
#      prints its table and must keep every figure within 2% of scripts/firmware/cortex-m-size.limit.
# Prints a final line "N passed, N failed" summing the ctest runs (a build that fails counts as one
# failure), with ", N skipped" added when ctest skipped suites (the repro suite without its data sets, see
# KFM_DATA_DIR in README.md): a skipped suite counts neither as passed nor as failed. Exits non-zero on any
# failure. Build directories: build/{native,python-package,sanitize,aarch64,armv7,armv7-runtime,code-size,release,demo-aarch64,
# cortex-m,cortex-m-size}.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
jobs=2
fast_labels='kernels|format|runtime'

scripts/ci/install-deps.sh || { echo "test-all: installing dependencies failed" >&2; exit 1; }

# ccache (installed by install-deps.sh) shares compiled objects between the stages' builds and with
# earlier runs on the same machine; paths are taken relative to the checkout, so another clone hits too.
if command -v ccache >/dev/null; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR="$root"
  ccache --max-size=8G >/dev/null
fi

passed=0
failed=0
skipped=0
failed_stages=()
start=$(date +%s)

note() { printf '\n==== %s (%ds)\n' "$*" $(($(date +%s) - start)); }

# configure_and_build NAME TARGETS... -- CMAKE_ARGS...: returns non-zero (and records a failure) when the
# configure or build step fails. An empty target list builds everything.
configure_and_build() {
  local name=$1; shift
  local targets=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do targets+=("$1"); shift; done
  shift
  local dir="$root/build/$name"
  note "$name: configure"
  if ! cmake -S "$root" -B "$dir" -G Ninja "$@" >"$dir.configure.log" 2>&1; then
    mkdir -p "$dir"; cat "$dir.configure.log" >&2
    echo "test-all: $name: configure failed" >&2
    failed=$((failed + 1)); failed_stages+=("$name (configure)")
    return 1
  fi
  note "$name: build"
  local target_args=()
  for t in "${targets[@]}"; do target_args+=(--target "$t"); done
  if ! cmake --build "$dir" -j"$jobs" "${target_args[@]}"; then
    echo "test-all: $name: build failed" >&2
    failed=$((failed + 1)); failed_stages+=("$name (build)")
    return 1
  fi
}

# run_ctest NAME CTEST_ARGS...: adds the run's counts to the totals.
run_ctest() {
  local name=$1; shift
  local dir="$root/build/$name" log="$root/build/$name.ctest.log"
  note "$name: ctest $*"
  ctest --test-dir "$dir" --output-on-failure --timeout 3000 -j"$jobs" "$@" 2>&1 | tee "$log"
  local summary total bad
  summary=$(grep -E '[0-9]+ tests failed out of [0-9]+' "$log" | tail -1)
  if [ -z "$summary" ]; then
    echo "test-all: $name: ctest ran no tests" >&2
    failed=$((failed + 1)); failed_stages+=("$name (no tests)")
    return
  fi
  bad=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$summary")
  total=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\2/' <<<"$summary")
  # ctest counts a skipped test (SKIP_RETURN_CODE) in "out of M" but not as failed, and lists it as
  # "<n> - <name> (Skipped)" under "The following tests did not run:".
  local skip
  skip=$(grep -cE '^[[:space:]]*[0-9]+ - .* \(Skipped\)$' "$log" || true)
  passed=$((passed + total - bad - skip))
  failed=$((failed + bad))
  skipped=$((skipped + skip))
  [ "$bad" -eq 0 ] || failed_stages+=("$name ($bad of $total suites)")
}

# require_isas_tested NAME ISA...: build NAME's kernels suite must print the line
#   [kernels] ISAs tested: <names>; skipped: ...      (tests/common/isa_coverage.hpp)
# listing every ISA given; an ISA loop that silently skipped one (host or build without it) fails here.
require_isas_tested() {
  local name=$1; shift
  local line isa
  line=$(ctest --test-dir "$root/build/$name" -R '^kernels$' -V 2>&1 | grep -o '\[kernels\] ISAs tested: [^;]*' | tail -1)
  echo "$name: ${line:-no '[kernels] ISAs tested:' line from the kernels suite}"
  for isa in "$@"; do
    if [[ " ${line#*ISAs tested:} " != *" $isa "* ]]; then
      echo "test-all: $name: the kernels suite did not test the $isa ISA" >&2
      failed=$((failed + 1)); failed_stages+=("$name (ISA $isa not tested)")
    fi
  done
}

mkdir -p "$root/build"

# 1. Native: everything, every label.
if configure_and_build native -- -DCMAKE_BUILD_TYPE=Release; then
  run_ctest native
  require_isas_tested native scalar avx2
fi

# 1b. The Python package as users install it (scripts/ci/test-python-package.sh): a wheel built from the
#     checkout, installed into a fresh virtual environment (no network), tests/python run there from
#     outside the source tree (check_estimator, the README's Python block, mypy against the stubs).
if [ -x "$root/build/native/kfm" ]; then
  note "python-package: wheel, virtual environment, tests/python"
  if scripts/ci/test-python-package.sh "$root/build/native" "$root/build/python-package" 2>&1 |
       tee "$root/build/python-package.log" | grep -E '^python-package:|passed|failed|error'; then
    passed=$((passed + 1))
  else
    echo "test-all: the installed Python package failed its tests (log: build/python-package.log)" >&2
    failed=$((failed + 1)); failed_stages+=("python-package")
  fi
fi

# 2. Sanitizers: only the test executables of the fast suites (no kfm, no benchmark).
if configure_and_build sanitize kfm_test_kernels kfm_test_format kfm_test_runtime kfm_fuzz_seeds \
     kfm_fuzz_replay_open kfm_fuzz_replay_map kfm_fuzz_replay_model kfm_fuzz_replay_npy -- \
     -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKFM_SANITIZE=ON -DKFM_BUILD_BENCH=OFF -DKFM_BUILD_CLI=OFF; then
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
    run_ctest sanitize -L "$fast_labels"
fi

# 2b. Fuzzing: the libFuzzer targets (clang, ASan + UBSan) for a bounded time each, about 3 minutes in all
#     (FUZZ_SECONDS per target). A crash, leak or timeout counts one failure per target; fuzz.sh prints
#     one line per target with its executions and the reproducer's path.
note "fuzz: ${FUZZ_SECONDS:=45} s per target"
if FUZZ_SECONDS=$FUZZ_SECONDS scripts/ci/fuzz.sh | tee "$root/build/fuzz.summary.log"; then
  passed=$((passed + $(grep -c ': ok,' "$root/build/fuzz.summary.log")))
else
  bad=$(grep -c ': FAILED' "$root/build/fuzz.summary.log")
  [ "$bad" -gt 0 ] || bad=1  # the build itself failed
  failed=$((failed + bad)); failed_stages+=("fuzz ($bad targets)")
  passed=$((passed + $(grep -c ': ok,' "$root/build/fuzz.summary.log")))
fi

# 3. ARM cross builds; the toolchain files set CMAKE_CROSSCOMPILING_EMULATOR to qemu. AArch64 also runs
#    the package test, whose map is written by the native kfm (KFM_HOST_KFM); both run the device
#    example test (fit and export by the native kfm, the example under qemu).
for arch in aarch64:aarch64-linux-gnu armv7:arm-linux-gnueabihf; do
  name=${arch%%:*}
  labels="$fast_labels|bench-smoke" extra=()  # bench-smoke: kfm_bench runs under qemu
  # The builders' bytes under qemu against the native list (docs/reliability.md, "Determinism").
  labels="$labels|determinism"
  if [ -x "$root/build/native/kfm" ]; then
    # The device example's host/device agreement (examples/device), models written by the native kfm.
    labels="$labels|example" extra=(-DKFM_HOST_KFM="$root/build/native/kfm")
    [ "$name" != aarch64 ] || labels="$labels|package"
  fi
  if configure_and_build "$name" -- -DCMAKE_BUILD_TYPE=Release -DKFM_BUILD_CLI=OFF \
       -DCMAKE_TOOLCHAIN_FILE="$root/toolchains/${arch#*:}.cmake" "${extra[@]}"; then
    [ -x "$root/build/$name/bench/kfm_bench" ] ||
      echo "test-all: $name: kfm_bench was left out (the target's Google Benchmark / FFTW are not installed): no bench-smoke"
    run_ctest "$name" -L "$labels"
    if [ "$name" = aarch64 ]; then require_isas_tested "$name" neon64; else require_isas_tested "$name" neon32; fi
  fi
done

# 4. Runtime only, ARMv7, with the user's own CMAKE_CXX_FLAGS and no -fPIC. A cross build sees only the
#    header trees it is given (cmake/dependencies.cmake), here xsimd alone.
xsimd_only="$root/build/xsimd-only"
mkdir -p "$xsimd_only" && ln -sfn /usr/include/xsimd "$xsimd_only/xsimd"
if configure_and_build armv7-runtime -- -DCMAKE_BUILD_TYPE=Release -DKFM_RUNTIME_ONLY=ON \
     -DCMAKE_CXX_FLAGS=-O2 -DKFM_HOST_INCLUDE="$xsimd_only" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
     -DCMAKE_TOOLCHAIN_FILE="$root/toolchains/arm-linux-gnueabihf.cmake"; then
  commands="$root/build/armv7-runtime/compile_commands.json"
  if grep -q -- '-fPIC' "$commands" || grep '"command"' "$commands" | grep -qv -- '-mfpu=neon'; then
    echo "test-all: armv7-runtime: a compile has -fPIC or lacks -mfpu=neon" >&2
    failed=$((failed + 1)); failed_stages+=("armv7-runtime (flags)")
  else
    echo "armv7-runtime: runtime built with NEON, without -fPIC, from xsimd alone"
    passed=$((passed + 1))
  fi
fi

# 5. Code size of an SSF-only AArch64 runtime (about 20 files, its own build directory).
note "code-size"
kfm_tool=()
[ ! -x "$root/build/native/kfm" ] || kfm_tool=("$root/build/native/kfm")
if scripts/firmware/code-size.sh check "${kfm_tool[@]}"; then
  passed=$((passed + 1))
else
  echo "test-all: code-size check failed" >&2
  failed=$((failed + 1)); failed_stages+=("code-size")
fi

# 6. The README's main job, end to end (its own Release build): every method x kernel row, then data to
#    device natively and under qemu-aarch64. D = 64 keeps the evaluations short; the log's table is kept.
note "demo: scripts/demo.sh (KFM_DEMO_FEATURES=64)"
if KFM_DEMO_FEATURES=64 scripts/demo.sh >"$root/build/demo.log" 2>&1; then
  grep -E '^example:|map\(s\) failed' "$root/build/demo.log"
  passed=$((passed + 1))
else
  tail -30 "$root/build/demo.log"
  echo "test-all: scripts/demo.sh failed (full log: build/demo.log)" >&2
  failed=$((failed + 1)); failed_stages+=("demo")
fi

# 7. Cortex-M: the runtime bare-metal on three cores under qemu-system-arm, against the native kfm.
note "cortex-m: examples/cortex-m/run_cortex_m_test.sh"
cortex_m_start=$(date +%s)
examples/cortex-m/run_cortex_m_test.sh "$root/build/native/kfm" "$root/build/cortex-m" >"$root/build/cortex-m.log" 2>&1
cortex_m_status=$?
grep '^cortex-m: ' "$root/build/cortex-m.log"
cortex_m_ok=$(grep -c '^cortex-m: .*: ok$' "$root/build/cortex-m.log")
cortex_m_bad=$(grep -c '^cortex-m: .*: FAILED$' "$root/build/cortex-m.log")
[ "$cortex_m_status" -eq 0 ] || [ "$cortex_m_bad" -gt 0 ] || cortex_m_bad=1  # failed before any check
passed=$((passed + cortex_m_ok))
failed=$((failed + cortex_m_bad))
[ "$cortex_m_bad" -eq 0 ] || failed_stages+=("cortex-m ($cortex_m_bad checks; log: build/cortex-m.log)")
# The size and cost table of docs/embedding.md ("Microcontrollers"), checked against the committed limits.
if scripts/firmware/cortex-m-size.sh "$root/build/native/kfm" "$root/build/cortex-m-size"; then
  passed=$((passed + 1))
else
  echo "test-all: scripts/firmware/cortex-m-size.sh failed (a figure above scripts/firmware/cortex-m-size.limit, or the build)" >&2
  failed=$((failed + 1)); failed_stages+=("cortex-m-size")
fi
echo "cortex-m: stage took $(( $(date +%s) - cortex_m_start )) s"

note "done"
if [ ${#failed_stages[@]} -gt 0 ]; then
  echo "failures: ${failed_stages[*]}"
  # Repeat what the fuzzer found here, at the end of the log, where a truncated CI log still shows it.
  if grep -q ': FAILED' "$root/build/fuzz.summary.log" 2>/dev/null; then
    sed -n '/: FAILED/,/^fuzz [a-z]*: ok/p' "$root/build/fuzz.summary.log" | grep -v ': ok,'
  fi
fi
if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
