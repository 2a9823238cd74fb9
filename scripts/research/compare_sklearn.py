#!/usr/bin/python3
"""Compare `kfm build/eval` RFF errors with scikit-learn's RBFSampler at the same output dimension.

Data: ../shared/data/letter/X_train.npy (read in place, rescaled to [0, 1] by (x + 1)/2 as the
quadrature paper does); Gaussian kernel with sigma^2 = d/2 (sklearn gamma = 1/d). Per run r: a new
map (kfm --seed r; RBFSampler random_state=r) and two independent 550-row samples X, Y; the relative
Frobenius error ||K - K^||_F / ||K||_F of K^(X, Y). kfm uses its own sampling inside `kfm eval`
(--runs 1 --seed r), sklearn the same protocol in NumPy. Reports mean +- 95% half-width and the ratio.

usage: scripts/research/compare_sklearn.py [--kfm build/release/kfm] [--runs 20] [--features 64,256,1024]
Needs python3-numpy and python3-sklearn (scripts/ci/install-deps.sh --with-python).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.kernel_approximation import RBFSampler
from sklearn.metrics.pairwise import rbf_kernel

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # from scripts/research
DATA = os.path.join(ROOT, "..", "shared", "data", "letter", "X_train.npy")
SAMPLES = 550


def mean_half_width(values):
    v = np.asarray(values, dtype=float)
    if len(v) < 2:
        return float(v.mean()), 0.0
    # Student t 97.5% quantile; normal approximation is fine beyond 30 runs.
    t = {2: 12.71, 3: 4.303, 4: 3.182, 5: 2.776, 10: 2.262, 20: 2.093, 30: 2.045}.get(len(v), 1.96)
    return float(v.mean()), t * float(v.std(ddof=1)) / math.sqrt(len(v))


def kfm_errors(kfm, method, data_path, d, features, runs, work):
    errors = []
    for r in range(1, runs + 1):
        model = os.path.join(work, f"{method}-{features}-{r}.kfm")
        subprocess.run([kfm, "build", "--method", method, "--kernel", "gaussian", "--sigma", repr(math.sqrt(d / 2)),
                        "--input-dim", str(d), "--features", str(features), "--seed", str(r), "-o", model],
                       check=True, stdout=subprocess.DEVNULL)
        out = subprocess.run([kfm, "eval", model, "--data", data_path, "--samples", str(SAMPLES), "--runs", "1",
                              "--seed", str(r), "--json"], check=True, capture_output=True, text=True).stdout
        errors.append(json.loads(out)["rel_frobenius"]["mean"])
    return errors


def sklearn_errors(x, d, features, runs):
    errors = []
    for r in range(1, runs + 1):
        rng = np.random.default_rng(r)
        a = x[rng.choice(len(x), SAMPLES, replace=False)]
        b = x[rng.choice(len(x), SAMPLES, replace=False)]
        sampler = RBFSampler(gamma=1.0 / d, n_components=features, random_state=r).fit(x[:1])
        k_exact = rbf_kernel(a, b, gamma=1.0 / d)
        k_approx = sampler.transform(a) @ sampler.transform(b).T
        errors.append(np.linalg.norm(k_exact - k_approx) / np.linalg.norm(k_exact))
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kfm", default=os.path.join(ROOT, "build", "release", "kfm"))
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--features", default="64,256,1024")
    args = parser.parse_args()
    if not os.path.exists(DATA):
        sys.exit(f"compare_sklearn: {DATA} is absent")
    if not os.access(args.kfm, os.X_OK):
        sys.exit(f"compare_sklearn: {args.kfm} not found (run scripts/demo.sh or pass --kfm)")

    x = (np.load(DATA).astype(np.float64) + 1.0) / 2.0
    d = x.shape[1]
    print(f"letter X_train rescaled to [0, 1]: {x.shape[0]} rows, d = {d}; gaussian sigma^2 = d/2; "
          f"{args.runs} runs of {SAMPLES} x {SAMPLES}; relative Frobenius error, mean +- 95% half-width")
    print(f"{'D':>6} {'kfm rff (cos/sin)':>22} {'kfm rff-phase':>22} {'sklearn RBFSampler':>22} "
          f"{'phase/sklearn':>14} {'rff/sklearn':>12}")
    with tempfile.TemporaryDirectory() as work:
        scaled = os.path.join(work, "letter01.npy")  # rescaled copy in a temporary directory only
        np.save(scaled, x.astype(np.float32))
        for features in (int(f) for f in args.features.split(",")):
            paired = mean_half_width(kfm_errors(args.kfm, "rff", scaled, d, features, args.runs, work))
            phase = mean_half_width(kfm_errors(args.kfm, "rff-phase", scaled, d, features, args.runs, work))
            sk = mean_half_width(sklearn_errors(x, d, features, args.runs))
            cell = lambda m: f"{m[0]:.5f} +- {m[1]:.5f}"
            print(f"{features:>6} {cell(paired):>22} {cell(phase):>22} {cell(sk):>22} "
                  f"{phase[0] / sk[0]:>14.3f} {paired[0] / sk[0]:>12.3f}")


if __name__ == "__main__":
    main()
