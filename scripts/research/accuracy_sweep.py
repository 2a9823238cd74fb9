#!/usr/bin/env python3
"""Kernel-approximation error of two build variants against each other, over map seeds.

For each data set and each D in the list, builds one map per seed with `kfm build` (variant A and
variant B: the same method, kernel and seed, different extra options), evaluates each with
`kfm eval --runs 1 --seed <seed>` (relative Frobenius error on two fresh samples of 550 rows), and prints
a Markdown table: mean +- 95% interval (Student t over the seeds) of A and B, and the ratio of the means
A / B with a bootstrap 95% interval over the seeds (paired: same seed, same samples).

Example (the reflected arc-cosine RFF table of docs/results.md):
  scripts/research/accuracy_sweep.py --kfm build/kfm --method rff --kernel "arccos --order 0" \
      --a "--arccos-pairs plain" --b "--arccos-pairs reflected" --datasets letter,usps --seeds 10

Comparing two methods (e.g. SSF against RFF for the Matérn kernel, docs/results-kernels.md):
  scripts/research/accuracy_sweep.py --method ssf --b-method rff --kernel "matern --nu 1.5" --sigma-median \
      --datasets letter,usps,housing --multiples 4 --seeds 10

Nyström against RFF (variant A built with `--data <the training rows> --landmarks D` instead of
`--features D`, both evaluated on the test rows, which hold no landmark):
  scripts/research/accuracy_sweep.py --method nystroem --a-landmarks --b-method rff --kernel gaussian --sigma-median \
      --eval-split test --datasets letter,usps --multiples 1,4 --seeds 5

maclaurin-opt for the polynomial-sphere kernel against GORF (variant A fitted to `--data <the training
rows>`, which the gaussian runs pass through --sigma-median):
  scripts/research/accuracy_sweep.py --method maclaurin-opt --a-data --b-method gorf \
      --kernel "polynomial-sphere --degree 3 --scale 4" --eval-split test --datasets letter,usps,digits \
      --multiples 2,4,8 --seeds 10

Data sets are <KFM_DATA_DIR or the shared/data directory beside the repository>/<name>/X_train.npy (or
X.npy for a data set without a train split), and `digits`: scikit-learn's load_digits (1797 x 64), pixels
/ 16 in [0, 1], split 70/30 by a permutation with seed 0 into the sweep's temporary directory.
"""
import argparse
import json
import math
import os
import random
import shlex
import statistics
import subprocess
import tempfile

T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
        11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
        20: 2.086, 24: 2.064, 29: 2.045, 39: 2.023}


def t975(df):
    keys = sorted(k for k in T975 if k <= df)
    return T975[keys[-1]] if keys else 12.706


def data_dir():
    env = os.environ.get("KFM_DATA_DIR", "")
    if env:
        return env
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # from scripts/research
    return os.path.join(os.path.dirname(repo), "shared", "data")


def npy_dim(path):
    with open(path, "rb") as f:
        head = f.read(512).decode("latin1")
    shape = head[head.index("'shape':") :]
    inside = shape[shape.index("(") + 1 : shape.index(")")]
    return int(inside.split(",")[1])


def write_digits(work):
    """scikit-learn's digits as <work>/digits/X_train.npy and X_test.npy: pixels / 16, a 70/30 split."""
    import numpy as np
    from sklearn.datasets import load_digits
    x = load_digits().data.astype(np.float32) / 16.0
    order = np.random.RandomState(0).permutation(len(x))
    cut = int(0.7 * len(x))
    folder = os.path.join(work, "digits")
    os.makedirs(folder, exist_ok=True)
    np.save(os.path.join(folder, "X_train.npy"), x[order[:cut]])
    np.save(os.path.join(folder, "X_test.npy"), x[order[cut:]])
    return work


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return out.stdout


def error(kfm, args, size, eval_data, d, seed, workdir):
    """size: ["--features", D], or ["--landmarks", m, "--data", rows] for a Nystroem map."""
    path = os.path.join(workdir, "m.kfm")
    run([kfm, "build", *args, "--input-dim", str(d), *size, "--seed", str(seed), "-o", path])
    info = json.loads(run([kfm, "inspect", path, "--json"]))
    ev = json.loads(run([kfm, "eval", path, "--data", eval_data, "--runs", "1", "--seed", str(seed), "--json"]))
    return ev["rel_frobenius"]["mean"], info["output_dim"]


def mean_ci(v):
    m = statistics.fmean(v)
    if len(v) < 2:
        return m, 0.0
    return m, t975(len(v) - 1) * statistics.stdev(v) / math.sqrt(len(v))


def ratio_ci(a, b, rounds=2000):
    rnd = random.Random(1)
    n = len(a)
    rs = []
    for _ in range(rounds):
        idx = [rnd.randrange(n) for _ in range(n)]
        rs.append(sum(a[i] for i in idx) / sum(b[i] for i in idx))
    rs.sort()
    return statistics.fmean(a) / statistics.fmean(b), rs[int(0.025 * rounds)], rs[int(0.975 * rounds) - 1]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kfm", default="build/kfm")
    p.add_argument("--method", required=True)
    p.add_argument("--b-method", default="", help="method of variant B (default: --method)")
    p.add_argument("--kernel", required=True, help='e.g. "arccos --order 0" or "gaussian --sigma 4"')
    p.add_argument("--a", default="", help="extra build options of variant A")
    p.add_argument("--b", default="", help="extra build options of variant B")
    p.add_argument("--a-per-d", default="", help="options of A with {D} replaced by the requested D and {D4} by "
                   "D/4 rounded up to a power of two, at least the smallest one above d/2 (an SSF FFT length)")
    p.add_argument("--b-per-d", default="", help="options of B, the same replacements")
    p.add_argument("--a-landmarks", action="store_true", help="A is a Nystroem map: --landmarks D with its "
                   "landmarks from the data set's training rows (--data) instead of --features D")
    p.add_argument("--a-data", action="store_true", help="A is fitted to data (maclaurin-opt): --data with the "
                   "data set's training rows, unless --sigma-median already passes them")
    p.add_argument("--eval-split", choices=("train", "test"), default="train",
                   help="the rows kfm eval samples: X_train.npy (or X.npy) or X_test.npy")
    p.add_argument("--datasets", default="letter,usps")
    p.add_argument("--multiples", default="2,4,8,16", help="D as multiples of d")
    p.add_argument("--seeds", type=int, default=10)
    p.add_argument("--sigma", default="", help="per data set gaussian sigma, e.g. letter=0.5,usps=10")
    p.add_argument("--sigma-median", action="store_true",
                   help="every kernel's length from the data: --sigma median --data <the data set>")
    o = p.parse_args()

    sigmas = dict(kv.split("=") for kv in o.sigma.split(",") if kv)
    print(f"method {o.method} (B: {o.b_method or o.method}), kernel {o.kernel}; A: `{o.a} {o.a_per_d}`, "
          f"B: `{o.b} {o.b_per_d}`, "
          f"{o.seeds} map seeds\n")
    print("| data | d | D | A: rel. Frobenius | B: rel. Frobenius | A / B (95% bootstrap) |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for name in o.datasets.split(","):
            folder = write_digits(work) if name == "digits" else data_dir()
            data = os.path.join(folder, name, "X_train.npy")
            if not os.path.exists(data):
                data = os.path.join(folder, name, "X.npy")
            eval_data = data if o.eval_split == "train" else os.path.join(folder, name, "X_test.npy")
            d = npy_dim(data)
            kernel = shlex.split(o.kernel)
            if name in sigmas and kernel[0] == "gaussian":
                kernel += ["--sigma", sigmas[name]]
            if o.sigma_median:
                kernel += ["--sigma", "median", "--data", data]
            for mult in (int(m) for m in o.multiples.split(",")):
                features = mult * d
                smallest_fft = 1 << ((d + d % 2) // 2).bit_length()
                quarter = max(smallest_fft, 1 << max(1, (features // 4 - 1).bit_length()))
                va, vb, dims = [], [], set()
                for seed in range(1, o.seeds + 1):
                    for method, extra, per_d, landmarks, out in (
                            (o.method, o.a, o.a_per_d, o.a_landmarks, va),
                            (o.b_method or o.method, o.b, o.b_per_d, False, vb)):
                        args = ["--method", method, "--kernel", *kernel, *shlex.split(extra),
                                *shlex.split(per_d.replace("{D}", str(features)).replace("{D4}", str(quarter)))]
                        size = ["--features", str(features)]
                        if landmarks:  # --sigma median may already pass --data: the same rows
                            size = ["--landmarks", str(features)] + ([] if "--data" in args else ["--data", data])
                        elif o.a_data and out is va and "--data" not in args:
                            size += ["--data", data]
                        e, dim = error(o.kfm, args, size, eval_data, d, seed, work)
                        out.append(e)
                        dims.add(dim)
                (ma, ca), (mb, cb) = mean_ci(va), mean_ci(vb)
                r, lo, hi = ratio_ci(va, vb)
                dim_text = "/".join(str(x) for x in sorted(dims))
                print(f"| {name} | {d} | {dim_text} ({mult}d) | {ma:.4g} ± {ca:.2g} | {mb:.4g} ± {cb:.2g} | "
                      f"{r:.3f} ({lo:.3f}–{hi:.3f}) |", flush=True)


if __name__ == "__main__":
    main()
