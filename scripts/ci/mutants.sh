#!/usr/bin/env bash
# Mutation check (docs/testing.md): applies each one-line mutant of the list below, one at a time, builds
# the suite that should catch it, runs the named test cases and expects them to FAIL, then reverts. Prints
# "caught" or "MISSED" per mutant and exits non-zero when any mutant is missed or no longer applies.
# Slow (a full build plus one suite rebuild per mutant); not part of CI.
#
#   scripts/ci/mutants.sh              a scratch git worktree of HEAD under ${TMPDIR:-/tmp}, removed after
#   scripts/ci/mutants.sh --here DIR   this checkout with its existing build directory DIR (the mutated files
#                                   must be unmodified; each is restored with git checkout after its run)
#   scripts/ci/mutants.sh --applies    only checks that every mutant still changes its file (no build; seconds;
#                                      the tests' "mutants-apply" entry), so a renamed line is noticed in CI
#   add NAME to either form to run only the mutants whose name contains NAME.
set -uo pipefail
cd "$(dirname "$0")/../.."

# name | file | sed expression (changes one line; no '|' inside) | suite | doctest test-case filter
mutants=(
  "bits-sections-unchecked|src/runtime/verify_container.cpp|s/if (crc32c(bytes + e.offset/if (e.dtype != std::uint32_t(fmt::dtype::bits) \&\& crc32c(bytes + e.offset/|format|every single-byte change*"
  "quadrature-resampling|src/offline/methods/quadrature/build_quadrature.cpp|s/mean_w2 += m2 \/ (rho/mean_w2 += (m2 + 1.0) \/ (rho/|offline|quadrature: radius resampling redraws*"
  "stratified-radii-unstratified|src/offline/sampling/random.cpp|s/u\[k\] = (double(stratum\[k\]) + r.uniform_open()) \/ double(n);/u[k] = r.uniform_open() + 0.0 * double(stratum[k]);/|offline|stratified quadrature radii*"
  "optimiser-last-sweep|src/offline/methods/ssf/ssf_energy.cpp|s/sweep <= options.max_sweeps/sweep < options.max_sweeps/|offline|ssf optimiser: runs exactly max_sweeps*"
  "gorf-radii-streams|src/offline/methods/gorf/build_gorf.cpp|s/law.negative.sample(negative,/law.negative.sample(positive,/|offline|gorf: positive and negative radii*"
  "srf-target|src/offline/methods/srf/srf_fit.cpp|s#portable::pow(1.0 - z \* z / (a \* a), p)#portable::pow(1.0 - z * z / (4.0 * a), p)#|offline|srf fit: the surrogate follows*"
  "srf-phases-stream|src/offline/methods/srf/build_srf.cpp|s/rng r(derive(o.seed, stream_phases));/rng r(derive(o.seed, stream_radii));/|offline|srf: phases are independent*"
  "ssf-single-block|src/offline/methods/ssf/build_ssf.cpp|s/for (std::size_t b = 0; b < z.blocks; ++b)/for (std::size_t b = 0; b + 1 < z.blocks; ++b)/|offline|ssf: every block*"
  "stats-ssf-duplicated-last-block|src/offline/methods/ssf/build_ssf.cpp|s/bits\[b \* block_bits + frequency\] = signs.rademacher() < 0;/bits[b * block_bits + frequency] = b > 0 \&\& b + 1 == z.blocks ? bits[(b - 1) * block_bits + frequency] : signs.rademacher() < 0;/|stats|ssf Gram spread*"
  "stats-sorf-repeated-blocks|src/offline/methods/sorf/build_sorf.cpp|s/signs\[s \* stride + j\] = r.rademacher() < 0;/signs[s * stride + j] = s >= 3 ? bool(signs[(s - 3) * stride + j]) : r.rademacher() < 0;/|stats|quadrature beats RFF*"
  "stats-gorf-radius-scale|src/offline/methods/gorf/build_gorf.cpp|s/return r.chi(d) \/ sigmas\[i\];/return 1.05 * r.chi(d) \/ sigmas[i];/|stats|gorf and grff: delta-gaussian*"
  "stats-tensorsketch-repeated-hashes|src/offline/methods/tensorsketch/build_tensorsketch.cpp|s/c.buckets\[k \* work + i\] = h < constant ? h : h + 1;/c.buckets[k * work + i] = k > 0 ? c.buckets[i] : h < constant ? h : h + 1;/|stats|tensorsketch and maclaurin*"
  "stats-quadrature-radius-law|src/offline/sampling/radial_laws.cpp|s/const double chi = r.chi(double(dim) + 2.0);/const double chi = r.chi(double(dim));/|stats|quadrature estimators with butterfly*"
  "prep-last-scale-unchecked|src/runtime/verify_model.cpp|s/for (std::uint32_t i = 0; i < d; ++i)/for (std::uint32_t i = 0; i + 1 < d; ++i)/|format|model sections: each per-element rule*"
  "labels-first-pair-unchecked|src/runtime/verify_model.cpp|s/for (std::uint64_t i = 1; i < labels.count; ++i)/for (std::uint64_t i = 2; i < labels.count; ++i)/|format|model sections: each per-element rule*"
  "ssf-leftover-rows-single-fft|src/runtime/projection_ssf.cpp|s/if (r < rows) project_group<L>(map, x + r \* w, rows - r, t + r \* p, scratch);/for (; r < rows; ++r) project_group<1>(map, x + r * w, 1, t + r * p, scratch);/|runtime|batch invariance*"
  "butterfly-rotation-rounding|src/kernels/butterfly.hpp|s/y = mul_sub<V>(c, y, s \* x);/y = neg_mul_add<V>(s, x, c * y);/|kernels|butterfly_simplex_batch gives each vector exactly*"
  "stats-quadrature-no-a0|src/offline/methods/quadrature/build_quadrature.cpp|s/if (scale_mixture_kernel(o.kernel.kind)) return a0;/if (scale_mixture_kernel(o.kernel.kind)) return 0.0;/|stats|quadrature estimators with butterfly*"
  "targets-int64-through-float|src/offline/io/npy.cpp|s/default: return static_cast<Value>(load<std::int64_t>(p, t.swap));/default: return static_cast<Value>(static_cast<float>(load<std::int64_t>(p, t.swap)));/|offline|npy: targets read in double*"
  "targets-int32-max-refused|src/offline/fit/ridge.cpp|s/v > std::numeric_limits<std::int32_t>::max())/v >= std::numeric_limits<std::int32_t>::max())/|cli|targets: labels at the int32 limits*"
  "targets-fit-reports-double-score|src/cli/cmd_fit.cpp|s/const double train = model_score(contents, x, y, x_path, y_path);/const double train = fit.fit_score;/|cli|targets: float64 regression targets*"
  "targets-empty-score-unchecked|src/cli/cmd_score.cpp|s/if (x.rows == 0) throw cli_error(x_path/if (false) throw cli_error(x_path/|cli|targets: kfm score names an empty*"
  "fit-sample-std|src/offline/fit/fit_head.cpp|s/spread = std::sqrt(ss \/ double(rows));/spread = std::sqrt(ss \/ double(rows - 1));/|cli|fit: --standardize and --minmax*"
  "fit-cv-fold-sizes|src/offline/fit/ridge.cpp|s/(Eigen::Index(f) < extra ? 1 : 0)/(Eigen::Index(f) <= extra ? 1 : 0)/|cli|fit: --cv scores contiguous*"
  "fit-cv-last-tie-wins|src/offline/fit/ridge.cpp|s/if (r.mean_scores\[a\] > r.mean_scores\[r.best\]) r.best = a;/if (r.mean_scores[a] >= r.mean_scores[r.best]) r.best = a;/|cli|fit: --cv scores contiguous*"
  "stats-maclaurin-opt-polynomial-weights|src/offline/methods/maclaurin_opt/build_maclaurin_opt.cpp|s#const float weight = float(std::sqrt(coefficients\[i\] / double(features\[i\])));#const float weight = float(1.02 * std::sqrt(coefficients[i] / double(features[i])));#|stats|maclaurin-opt polynomial-sphere: unbiased*"
)

here=""
filter=""
applies_only=0
while [ $# -gt 0 ]; do
  case $1 in
    --here) here=$2; shift 2 ;;
    --applies) applies_only=1; shift ;;
    *) filter=$1; shift ;;
  esac
done

if [ "$applies_only" -eq 1 ]; then
  stale=0
  for row in "${mutants[@]}"; do
    IFS='|' read -r name file expr suite cases <<<"$row"
    [ -n "$filter" ] && [[ $name != *"$filter"* ]] && continue
    if [ ! -f "$file" ]; then
      echo "STALE   $name: $file does not exist"; stale=$((stale + 1))
    elif sed -e "$expr" "$file" | cmp -s - "$file"; then
      echo "STALE   $name: the mutant no longer changes $file"; stale=$((stale + 1))
    fi
  done
  echo "mutants: ${#mutants[@]} listed, $stale no longer apply"
  [ "$stale" -eq 0 ]
  exit
fi

if [ -n "$here" ]; then
  src=$(pwd)
  build=$(cd "$here" && pwd)
else
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/kfm-mutants.XXXXXX")
  src=$scratch/src
  build=$scratch/build
  git worktree add --detach "$src" HEAD >/dev/null || exit 1
  trap 'git worktree remove --force "$src"; rm -rf "$scratch"' EXIT
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKFM_BUILD_BENCH=OFF >/dev/null || exit 1
fi

missed=0
suites=()
for row in "${mutants[@]}"; do
  IFS='|' read -r name file expr suite cases <<<"$row"
  [ -n "$filter" ] && [[ $name != *"$filter"* ]] && continue
  if ! git -C "$src" diff --quiet -- "$file"; then
    echo "mutants: $file has local changes; not mutating it" >&2
    missed=$((missed + 1)); continue
  fi
  suites+=("kfm_test_$suite")
  sed -i "$expr" "$src/$file"
  if git -C "$src" diff --quiet -- "$file"; then
    echo "MISSED  $name: the mutant no longer applies to $file (update scripts/ci/mutants.sh)"
    missed=$((missed + 1)); continue
  fi
  if ! cmake --build "$build" -j2 --target "kfm_test_$suite" >"$build/mutant-$name.log" 2>&1; then
    echo "caught  $name (does not compile)"
  elif (cd "$build/tests" && "./kfm_test_$suite" -tc="$cases" >>"$build/mutant-$name.log" 2>&1); then
    echo "MISSED  $name: '$cases' in the $suite suite passes with the mutant (log: $build/mutant-$name.log)"
    missed=$((missed + 1))
  else
    echo "caught  $name by '$cases' ($suite)"
  fi
  git -C "$src" checkout -- "$file"
done
# Leave the suites built from the restored sources.
[ -n "$here" ] && [ ${#suites[@]} -gt 0 ] && cmake --build "$build" -j2 --target "${suites[@]}" >/dev/null 2>&1
echo "mutants: $missed missed"
[ "$missed" -eq 0 ]
