#!/usr/bin/env bash
# The main job: build kfm (Release), make a synthetic data set with `kfm synth`, and for every method x
# kernel this build provides: build a map, map the data, evaluate the kernel approximation against the
# exact kernel, and time transforms. Prints one table row per map. Then from data to device: fit a model,
# score it, export it as a C header, build examples/device natively and (when the AArch64 cross compiler
# and qemu-aarch64 are installed) for AArch64 under qemu, and print host vs device agreement
# (examples/device/run_example_test.sh). Needs no data of the user's own.
# It builds only what it runs (the kfm tool and the libraries it installs for the device example; no
# tests, benchmarks or Python package), reuses build/release when it is already there (a second run
# rebuilds nothing), compiles through ccache when installed, and prints each step with the seconds elapsed.
# Environment: KFM_DEMO_DIM (default 16), KFM_DEMO_FEATURES (default 256), KFM_DEMO_ROWS (default 2000).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
step() { printf '\n[demo %4ds] %s\n' $(($(date +%s) - start)) "$*"; }

d=${KFM_DEMO_DIM:-16}
features=${KFM_DEMO_FEATURES:-256}
rows=${KFM_DEMO_ROWS:-2000}

step "packages (scripts/ci/install-deps.sh)"
scripts/ci/install-deps.sh
if command -v ccache >/dev/null && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR="$PWD"
fi
build=build/release
jobs=$(nproc 2>/dev/null || echo 2)
# The tool, which pulls in the runtime and the offline library: everything this configuration installs
# (the device step below installs it). Not the tests, the benchmarks or the Python package.
if [ -x "$build/kfm" ]; then
  step "kfm: reusing $build (only what changed is rebuilt)"
else
  step "kfm: building the runtime, the offline library and the tool in $build ($jobs jobs; the first time takes a few minutes)"
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKFM_BUILD_TESTS=OFF -DKFM_BUILD_BENCH=OFF \
  -DKFM_BUILD_PYTHON=OFF >/dev/null
cmake --build "$build" -j"$jobs" --target kfm   # ninja prints [done/total] per step
kfm="$build/kfm"

work=build/demo
rm -rf "$work"
mkdir -p "$work"
"$kfm" synth --rows "$rows" --dim "$d" --seed 1 -o "$work/X.npy"
# Nyström picks its landmarks from data: a second sample, so the evaluation rows are not landmarks.
"$kfm" synth --rows "$rows" --dim "$d" --seed 2 -o "$work/landmark_rows.npy"

# Kernels and their parameters: gaussian with sigma^2 = d/2 (the quadrature paper's choice), arccos of
# each order, the polynomial kernel on the sphere, GORF's indefinite delta-gaussian c = (1, -1),
# sigma = (1, 10), and the Matérn (nu = 3/2, 5/2), rational-quadratic (alpha = 1.5) and L1 Laplacian
# kernels with the gaussian's length (docs/kernels.md; a method refuses a kernel it does not cover).
sigma=$(awk -v d="$d" 'BEGIN { printf "%.6g", sqrt(d / 2) }')
kernels=(
  "gaussian|--kernel gaussian --sigma $sigma"
  "arccos-0|--kernel arccos --order 0"
  "arccos-1|--kernel arccos --order 1"
  "arccos-2|--kernel arccos --order 2"
  "poly-sphere p3 a4|--kernel polynomial-sphere --degree 3 --scale 4"
  "delta-gaussian|--kernel delta-gaussian --weights 1,-1 --sigmas 1,10"
  "matern 1.5|--kernel matern --nu 1.5 --sigma $sigma"
  "matern 2.5|--kernel matern --nu 2.5 --sigma $sigma"
  "rq a1.5|--kernel rational-quadratic --alpha 1.5 --sigma $sigma"
  "laplacian|--kernel laplacian --sigma $sigma"
)
methods=(rff rff-phase orf sorf qmc ssf quadrature srf gorf grff maclaurin tensorsketch fastfood gq nystroem)

json_get() {  # json_get JSON KEY: the first value of KEY in a flat JSON text
  grep -o "\"$2\": [^,}]*" <<<"$1" | head -1 | sed 's/^[^:]*: //; s/"//g'
}

step "every method x kernel: build, map, eval, bench"
printf '\nsynthetic data: %s rows, d = %s (kfm synth --seed 1); requested D = %s; errors: mean +- 95%% half-width over 10 runs of 550 x 550\n\n' \
  "$rows" "$d" "$features"
header=$(printf '%-12s %-18s %4s %6s  %-20s %-20s %10s %10s' method kernel d D "rel. Frobenius" "rel. max" "ns single" "ns batch")
echo "$header"
echo "${header//?/-}"
not_built=()
refused=()
failures=0
for method in "${methods[@]}"; do
  for entry in "${kernels[@]}"; do
    label=${entry%%|*}
    read -r -a kernel_args <<<"${entry#*|}"
    map="$work/$method-${label// /_}.kfm"
    size_args=(--features "$features")
    [ "$method" != nystroem ] || size_args=(--data "$work/landmark_rows.npy" --landmarks "$features")
    if ! err=$("$kfm" build --method "$method" "${kernel_args[@]}" --input-dim "$d" "${size_args[@]}" \
                 --seed 1 -o "$map" 2>&1 >/dev/null); then
      # A method not built into this tree, or a kernel the method does not cover: not a row.
      case "$err" in
        *"not available"*) [[ " ${not_built[*]} " == *" $method "* ]] || not_built+=("$method") ;;
        *"is not supported"*) ;;
        *) refused+=("$method / $label: ${err#kfm: error: }") ;;
      esac
      continue
    fi
    if ! { info=$("$kfm" inspect "$map" --json) &&
           "$kfm" map "$map" --in "$work/X.npy" --out "$work/F.npy" &&
           eval_json=$("$kfm" eval "$map" --data "$work/X.npy" --json) &&
           bench_json=$("$kfm" bench "$map" --json); }; then
      echo "FAILED: $method $label (see the error above)" >&2
      failures=$((failures + 1))
      continue
    fi
    errors=$(awk -v f="$(json_get "$eval_json" mean)" -v fl="$(json_get "$eval_json" low)" \
                 -v fh="$(json_get "$eval_json" high)" 'BEGIN { printf "%.4f +- %.4f", f, (fh - fl) / 2 }')
    max_part=${eval_json#*\"rel_max\": }
    max_err=$(awk -v m="$(json_get "$max_part" mean)" -v ml="$(json_get "$max_part" low)" \
                  -v mh="$(json_get "$max_part" high)" 'BEGIN { printf "%.4f +- %.4f", m, (mh - ml) / 2 }')
    printf '%-12s %-18s %4s %6s  %-20s %-20s %10.0f %10.0f\n' "$method" "$label" "$d" \
      "$(json_get "$info" output_dim)" "$errors" "$max_err" \
      "$(json_get "$bench_json" single_ns)" "$(json_get "$bench_json" batch_ns_per_vector)"
  done
done
echo
echo "ISA: $(json_get "${bench_json:-}" isa); ns per vector: medians of 101 interleaved runs (transform of one vector; transform_batch of 64)."
[ ${#not_built[@]} -eq 0 ] || echo "methods not built into this tree: ${not_built[*]}"
if [ ${#refused[@]} -gt 0 ]; then
  echo "combinations the builders refuse:"
  printf '  %s\n' "${refused[@]}"
fi

step "from data to device: kfm synth -> labels -> build (ssf) -> fit -> score -> export -> examples/device"
echo "native ($(uname -m)) device vs host 'kfm predict':"
examples/device/run_example_test.sh "$build" "$kfm"
if command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null; then
  arm=build/demo-aarch64
  step "AArch64: the runtime cross-built in $arm, the device example under qemu-aarch64"
  cmake -S . -B "$arm" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKFM_RUNTIME_ONLY=ON \
    -DCMAKE_TOOLCHAIN_FILE=toolchains/aarch64-linux-gnu.cmake >/dev/null
  cmake --build "$arm" --target kfm_runtime -j"$jobs" >/dev/null
  echo "AArch64 under qemu-aarch64 device vs host (x86) 'kfm predict':"
  examples/device/run_example_test.sh "$arm" "$kfm" "$PWD/toolchains/aarch64-linux-gnu.cmake" \
    qemu-aarch64 -L /usr/aarch64-linux-gnu
else
  echo "AArch64 cross compiler or qemu-aarch64 missing: the on-device run under qemu is skipped"
fi

step "done"
if [ "$failures" -gt 0 ]; then
  echo "demo: $failures map(s) failed" >&2
  exit 1
fi
