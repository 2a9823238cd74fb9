#!/usr/bin/env python3
"""SRF's run-to-run tail at p = 10 (docs/results-poly.md, "SRF's tail"): per-map kernel MSE on USPS split
into the offset (the error's mean over the pairs) and the rest, against the random-phase term, and the
same maps' directions used as cos/sin pairs (no phase) for comparison.

Each run draws 1000 unit-normalised USPS rows; at D = 2048 one map and at D = 4096 two maps (seeds as
below) are built with the kfm package (a = 4, p = 10); kernel MSE over the pairs i < j.

  PYTHONPATH=build/python KFM_DATA_DIR=... /usr/bin/python3 scripts/research/srf_tail.py --runs 30
"""
import argparse
import os

import numpy as np

import kfm


def section(fm, data, tag, shape):
    s = next(s for s in fm.inspect()["sections"] if s["tag"] == tag)
    return np.frombuffer(data, dtype=np.float32, count=s["count"], offset=s["offset"]).reshape(shape).astype(np.float64)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=int, default=30)
    o = p.parse_args()
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # from scripts/research
    data_dir = os.environ.get("KFM_DATA_DIR") or os.path.join(os.path.dirname(repo), "shared", "data")
    X = np.load(os.path.join(data_dir, "usps", "X_train.npy")).astype(np.float64)
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    d = X.shape[1]
    upper = np.triu_indices(1000, 1)
    rows = []  # (D, mse, offset, phase term, cos/sin mse or nan)
    for run in range(o.runs):
        P = X[np.random.default_rng(1000 + run).choice(X.shape[0], 1000, replace=False)]
        K = np.clip(1 - (2 - 2 * P @ P.T) / 16.0, 0, None) ** 10
        for D, alt in ((2048, 0), (4096, 0), (4096, 1)):
            fm = kfm.FeatureMap(method="srf", kernel="polynomial-sphere", input_dim=d, features=D,
                                seed=7919 * run + D + 100003 * alt, degree=10, scale=4)
            bytes_ = fm.to_bytes()
            W = section(fm, bytes_, "DENS", (D, d))
            b = section(fm, bytes_, "PHAS", (D,))
            error = (fm.kernel_matrix(P.astype(np.float32)).astype(np.float64) - K)[upper]
            phase_term = np.mean(np.cos(2 * b + 2 * W @ P.mean(axis=0)))
            pairs_mse = np.nan
            if D == 4096:
                phi = fm.transform(P[:1].astype(np.float32)).astype(np.float64)[0]
                k0 = np.median(phi / np.cos(W @ P[0] + b)) ** 2 * D / 2  # phi = sqrt(2 K0 / D) cos(w.x + b)
                T = P @ W[: D // 2].T
                pairs = k0 / (D // 2) * (np.cos(T) @ np.cos(T).T + np.sin(T) @ np.sin(T).T)
                pairs_mse = np.mean((pairs - K)[upper] ** 2)
            rows.append((D, np.mean(error ** 2), np.mean(error), phase_term, pairs_mse))
    rows = np.array(rows)
    mean_2048 = rows[rows[:, 0] == 2048, 1].mean()
    for D in (2048, 4096):
        r = rows[rows[:, 0] == D]
        mse, offset = r[:, 1], r[:, 2]
        print(f"D = {D}: {len(r)} maps, MSE mean {mse.mean():.3g} max {mse.max():.3g} (max / mean {mse.max() / mse.mean():.2f}); "
              f"offset^2 mean {np.mean(offset ** 2):.3g}, rest mean {np.mean(mse - offset ** 2):.3g} "
              f"(max / mean {np.max(mse - offset ** 2) / np.mean(mse - offset ** 2):.2f}); corr(|offset|, MSE) "
              f"{np.corrcoef(np.abs(offset), mse)[0, 1]:.2f}, corr(offset, phase term) {np.corrcoef(offset, r[:, 3])[0, 1]:.2f}; "
              f"maps above the D = 2048 mean {np.sum(mse > mean_2048)}")
    r = rows[rows[:, 0] == 4096]
    phase, pairs = r[:, 1], r[:, 4]
    boot = np.random.default_rng(1).integers(0, len(r), (2000, len(r)))
    ratios = np.sort(phase[boot].sum(axis=1) / pairs[boot].sum(axis=1))
    print(f"D = 4096 cos/sin pairs on D/2 of the same directions: MSE mean {pairs.mean():.3g} max {pairs.max():.3g} "
          f"(max / mean {pairs.max() / pairs.mean():.2f}); random phase / pairs {phase.sum() / pairs.sum():.3f} "
          f"({ratios[50]:.3f}-{ratios[1949]:.3f}); pairs above the D = 2048 mean {np.sum(pairs > mean_2048)}")


if __name__ == "__main__":
    main()
