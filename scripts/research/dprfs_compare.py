#!/usr/bin/env python3
"""kfm's maclaurin-opt beside dp-rfs's optimised Maclaurin features, gaussian kernel, on the same rows.

For each data set, each D = multiple x d and each seed s = 1..N:
  kfm:    `kfm build --method maclaurin-opt --kernel gaussian --sigma S --data X_train.npy --features D
          --seed s`, then `kfm map` of the evaluation rows;
  dp-rfs: GaussianApproximator(d, D, approx_degree=10, lengthscale=S, method='maclaurin',
          projection_type='srht') (Wacker et al.'s code, imported from --dp-rfs), inputs centred on the
          training mean, its degree allocation optimised on the fitting rows
          (initialize_sampling_distribution, min_sampling_degree=2, as its gaussian experiments), then
          torch.manual_seed(s) and resample(); with --complex-weights, complex_weights=True and D/2
          complex features (the same D real numbers per row);
and prints the relative Frobenius error of each side's Gram matrix of the evaluation rows against the
exact gaussian kernel: mean +- 95% Student-t half-width over the seeds, and the paired ratio of the
means kfm / dp-rfs with a 95% bootstrap interval, as a Markdown table.

S is kfm's median heuristic on the training rows (`--sigma median --data X_train.npy`), the same for both.
The evaluation rows are 550 test rows drawn without replacement by numpy's RandomState(s); the fitting
rows of dp-rfs's allocation are at most 400 evenly spaced training rows, as kfm's builder uses. Data
loading and the digits split are accuracy_sweep.py's (imported from this folder).

dp-rfs's SRHT runs its own C++ Walsh-Hadamard extension, which its util/hadamard_cuda compiles on first
import with torch.utils.cpp_extension (g++ and PyTorch's headers; about 20 s, cached in
~/.cache/torch_extensions). It also imports pandas (Debian: python3-pandas).

Example (docs/results-maclaurin.md, "Against dp-rfs, side by side"):
  /usr/bin/python3 scripts/research/dprfs_compare.py --dp-rfs /tmp/dp-rfs --kfm build/native/kfm \
      --datasets letter,usps,digits --multiples 2,4,8 --seeds 10
"""
import argparse
import contextlib
import importlib
import io
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from accuracy_sweep import data_dir, mean_ci, ratio_ci, write_digits  # noqa: E402

EVAL_ROWS = 550
FIT_ROWS = 400
MAX_DEGREE = 10  # dp-rfs's config/rf_parameters/gaussian.json: max_sampling_degree
MIN_DEGREE = 2   # ... min_sampling_degree


def fail(message):
    sys.exit(f"dprfs_compare: {message}")


def import_dprfs(folder):
    try:
        importlib.import_module("torch")
    except ImportError:
        fail("PyTorch is not importable (Debian: apt-get install python3-torch; run with /usr/bin/python3)")
    if not os.path.isfile(os.path.join(folder, "random_features", "gaussian_approximator.py")):
        fail(f"--dp-rfs {folder!r} is not a dp-rfs checkout (no random_features/gaussian_approximator.py)")
    sys.path.insert(0, folder)
    try:
        from random_features.gaussian_approximator import GaussianApproximator
    except Exception as e:  # a missing module or the C++ extension failing to compile
        fail(f"importing dp-rfs from {folder!r} failed: {type(e).__name__}: {str(e).splitlines()[0]}")
    return GaussianApproximator


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"{' '.join(cmd[:2])} failed: {out.stderr.strip()}")
    return out.stdout


def median_sigma(kfm, train, d, work):
    path = os.path.join(work, "sigma.kfm")
    run([kfm, "build", "--method", "rff", "--kernel", "gaussian", "--sigma", "median", "--data", train,
         "--input-dim", str(d), "--features", "2", "-o", path])
    return json.loads(run([kfm, "inspect", path, "--json"]))["kernel_params"]["sigma"]


def rel_frobenius(features, rows, sigma):
    import numpy as np
    sq = (rows * rows).sum(axis=1)
    exact = np.exp(-np.maximum(sq[:, None] + sq[None, :] - 2.0 * rows @ rows.T, 0.0) / (2.0 * sigma * sigma))
    approx = features @ features.T
    return float(np.linalg.norm(approx - exact) / np.linalg.norm(exact))


def kfm_error(kfm, train, eval_path, rows, d, features, sigma, seed, work):
    import numpy as np
    path, out = os.path.join(work, "m.kfm"), os.path.join(work, "phi.npy")
    run([kfm, "build", "--method", "maclaurin-opt", "--kernel", "gaussian", "--sigma", repr(sigma),
         "--data", train, "--input-dim", str(d), "--features", str(features), "--seed", str(seed), "-o", path])
    run([kfm, "map", path, "--in", eval_path, "--out", out])
    phi = np.load(out).astype(np.float64)
    if phi.shape != (len(rows), features):
        fail(f"kfm map wrote {phi.shape}, expected ({len(rows)}, {features})")
    return rel_frobenius(phi, rows, sigma)


def dprfs_error(approximator, fit_rows, rows, mean, features, sigma, seed, complex_weights):
    import torch
    torch.manual_seed(seed)
    width = features // 2 if complex_weights else features  # complex features hold two real numbers
    model = approximator(rows.shape[1], width, approx_degree=MAX_DEGREE, lengthscale=sigma,
                         method="maclaurin", projection_type="srht", complex_weights=complex_weights)
    centred_fit = torch.tensor(fit_rows - mean, dtype=torch.float32)
    with contextlib.redirect_stdout(io.StringIO()):  # it prints the distribution it found
        model.initialize_sampling_distribution(centred_fit, min_sampling_degree=MIN_DEGREE)
    model.resample()
    with torch.no_grad():
        phi = model.forward(torch.tensor(rows - mean, dtype=torch.float32))
    if phi.is_complex():  # Re(phi phi^H) = the Gram of the real and imaginary parts side by side
        phi = torch.cat([phi.real, phi.imag], dim=1)
    phi = phi.double().numpy()
    if phi.shape != (len(rows), 2 * width if complex_weights else width):
        fail(f"dp-rfs gave features of shape {phi.shape}, expected ({len(rows)}, {features})")
    allocation = [int(v) for v in model.feature_encoder.measure.distribution]
    return rel_frobenius(phi, rows, sigma), allocation


def allocation_text(allocation):
    """dp-rfs's distribution lists degrees 1.. (h01 off); the constant is one more feature."""
    kept = ["0: 1"] + [f"{k}: {n}" for k, n in enumerate(allocation, start=1) if n]
    return ", ".join(kept)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dp-rfs", required=True, help="a dp-rfs source tree (joneswack/dp-rfs)")
    p.add_argument("--kfm", default="build/native/kfm")
    p.add_argument("--datasets", default="letter,usps,digits")
    p.add_argument("--multiples", default="2,4,8", help="D as multiples of d")
    p.add_argument("--seeds", type=int, default=10)
    p.add_argument("--complex-weights", action="store_true", help="dp-rfs with complex Rademacher weights "
                   "(complex_weights=True) and D/2 complex features: D real numbers per row, as kfm's D")
    o = p.parse_args()

    if not os.access(o.kfm, os.X_OK):
        fail(f"--kfm {o.kfm!r} is not an executable")
    approximator = import_dprfs(o.dp_rfs)
    import numpy as np

    sketch = "complex SRHT, D/2 complex features" if o.complex_weights else "SRHT"
    print(f"gaussian kernel, sigma = kfm's median heuristic; {o.seeds} seeds; {EVAL_ROWS} test rows per seed\n")
    print(f"| data (d) | sigma | D | kfm maclaurin-opt | dp-rfs maclaurin ({sketch}) | kfm / dp-rfs (95% bootstrap) "
          "| dp-rfs degrees: features |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for name in o.datasets.split(","):
            folder = write_digits(work) if name == "digits" else data_dir()
            train = os.path.join(folder, name, "X_train.npy")
            test = os.path.join(folder, name, "X_test.npy")
            for path in (train, test):
                if not os.path.exists(path):
                    fail(f"data set {name!r}: {path} not found")
            x_train = np.load(train).astype(np.float64)
            x_test = np.load(test).astype(np.float64)
            d = x_train.shape[1]
            if d & (d - 1):
                fail(f"data set {name!r}: d = {d} is not a power of two, which dp-rfs's SRHT requires")
            mean = x_train.mean(axis=0)
            fit_rows = x_train[np.linspace(0, len(x_train) - 1, min(FIT_ROWS, len(x_train))).astype(int)]
            sigma = median_sigma(o.kfm, train, d, work)
            for mult in (int(m) for m in o.multiples.split(",")):
                features = mult * d
                ours, theirs, allocations = [], [], set()
                for seed in range(1, o.seeds + 1):
                    pick = np.random.RandomState(seed).choice(len(x_test), min(EVAL_ROWS, len(x_test)),
                                                              replace=False)
                    rows = x_test[pick]
                    eval_path = os.path.join(work, "rows.npy")
                    np.save(eval_path, rows)
                    ours.append(kfm_error(o.kfm, train, eval_path, rows, d, features, sigma, seed, work))
                    err, allocation = dprfs_error(approximator, fit_rows, rows, mean, features, sigma, seed,
                                                  o.complex_weights)
                    theirs.append(err)
                    allocations.add(allocation_text(allocation))
                (ma, ca), (mb, cb) = mean_ci(ours), mean_ci(theirs)
                r, lo, hi = ratio_ci(ours, theirs)
                print(f"| {name} ({d}) | {sigma:.3g} | {features} ({mult}d) | {ma:.4g} ± {ca:.2g} | {mb:.4g} ± {cb:.2g} "
                      f"| {r:.3f} ({lo:.3f}–{hi:.3f}) | {' / '.join(sorted(allocations))} |", flush=True)


if __name__ == "__main__":
    main()
