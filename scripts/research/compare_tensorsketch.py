#!/usr/bin/python3
"""Compare kfm's TensorSketch with scikit-learn's PolynomialCountSketch on the same kernel, data and D.

kfm's polynomial-sphere kernel on unit-norm rows is (1 - |x-y|^2/a^2)^p = alpha (x.y + q)^p with
q = a^2/2 - 1 and alpha = (2/a^2)^p; PolynomialCountSketch(degree=p, gamma=1, coef0=q) approximates
(x.y + q)^p, so both are compared, relative Frobenius error being scale-free, against alpha (x.y + q)^p.
Data: scikit-learn's load_digits (1797 x 64), rows scaled to unit norm. Per run r: a map of each (kfm
--seed r, random_state=r), two disjoint random samples X, Y of 550 rows (the same for both), the error
||K - K^||_F / ||K||_F of K^(X, Y). Prints mean +- 95% half-width for each and the ratio kfm / sklearn of
the means with a paired bootstrap 95% interval.

usage: scripts/research/compare_tensorsketch.py [--kfm build/kfm] [--runs 40] [--degrees 1,2,3] [--scale 3]
       [--features 64,256,1024]
Needs python3-numpy and python3-sklearn.
"""
import argparse
import math
import os
import subprocess
import tempfile

import numpy as np
from sklearn.datasets import load_digits
from sklearn.kernel_approximation import PolynomialCountSketch

SAMPLES = 550


def mean_half_width(v):
    v = np.asarray(v, dtype=float)
    t = 2.023 if len(v) >= 40 else 2.093 if len(v) >= 20 else 2.262
    return float(v.mean()), t * float(v.std(ddof=1)) / math.sqrt(len(v))


def rel_frobenius(k, k_hat):
    return float(np.linalg.norm(k - k_hat) / np.linalg.norm(k))


def kfm_features(kfm, model, rows, work):
    src, dst = os.path.join(work, "in.npy"), os.path.join(work, "out.npy")
    np.save(src, rows.astype(np.float64))
    subprocess.run([kfm, "map", model, "--in", src, "--out", dst], check=True, stdout=subprocess.DEVNULL)
    return np.load(dst).astype(np.float64)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kfm", default="build/kfm")
    p.add_argument("--runs", type=int, default=40)
    p.add_argument("--degrees", default="1,2,3")
    p.add_argument("--scale", type=float, default=3.0)
    p.add_argument("--features", default="64,256,1024")
    o = p.parse_args()

    x_all = load_digits().data.astype(np.float64)
    x_all /= np.linalg.norm(x_all, axis=1, keepdims=True)
    n, d = x_all.shape
    a = o.scale
    q = a * a / 2 - 1
    print(f"digits ({n} x {d}, unit rows), a = {a:g} (q = {q:g}), {o.runs} runs, {SAMPLES} + {SAMPLES} rows per run\n")
    print("| p | D | kfm tensorsketch | sklearn PolynomialCountSketch | kfm / sklearn (95% bootstrap) |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for degree in (int(v) for v in o.degrees.split(",")):
            alpha = (2 / (a * a)) ** degree
            for features in (int(v) for v in o.features.split(",")):
                ours, theirs = [], []
                for r in range(1, o.runs + 1):
                    rng = np.random.default_rng(r)
                    perm = rng.permutation(n)
                    x, y = x_all[perm[:SAMPLES]], x_all[perm[SAMPLES : 2 * SAMPLES]]
                    k = alpha * (x @ y.T + q) ** degree
                    model = os.path.join(work, "ts.kfm")
                    subprocess.run([o.kfm, "build", "--method", "tensorsketch", "--kernel", "polynomial-sphere",
                                    "--degree", str(degree), "--scale", repr(a), "--input-dim", str(d),
                                    "--features", str(features), "--seed", str(r), "-o", model],
                                   check=True, stdout=subprocess.DEVNULL)
                    ours.append(rel_frobenius(k, kfm_features(o.kfm, model, x, work) @ kfm_features(o.kfm, model, y, work).T))
                    sk = PolynomialCountSketch(degree=degree, gamma=1.0, coef0=q, n_components=features, random_state=r)
                    sk.fit(x)
                    theirs.append(rel_frobenius(k, alpha * (sk.transform(x) @ sk.transform(y).T)))
                (mo, ho), (mt, ht) = mean_half_width(ours), mean_half_width(theirs)
                boot = np.random.default_rng(0)
                a_, b_ = np.asarray(ours), np.asarray(theirs)
                ratios = []
                for _ in range(2000):
                    idx = boot.integers(0, len(a_), len(a_))
                    ratios.append(a_[idx].mean() / b_[idx].mean())
                lo, hi = np.percentile(ratios, [2.5, 97.5])
                print(f"| {degree} | {features} | {mo:.4f} ± {ho:.4f} | {mt:.4f} ± {ht:.4f} | {mo / mt:.3f} ({lo:.3f}–{hi:.3f}) |",
                      flush=True)


if __name__ == "__main__":
    main()
