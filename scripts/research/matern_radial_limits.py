#!/usr/bin/env python3
"""How far can radial designs take a map of orthogonal directions with the Matérn kernel at D = 4d?

An analysis in NumPy, independent of kfm's code (docs/results-kernels.md, "What the radii can still
give"). Every variant spends the same 2d frequencies (D = 4d cos/sin outputs) on directions from random
orthogonal blocks, a proxy for SSF's and ORF's directions, and differs only in the radii:

  rff           i.i.d. Gaussian directions, i.i.d. radii from the radial law (the baseline);
  stratified    one radius per direction, the 2d radii a Latin sample of the radial law (kfm's rule);
  block         the same, stratified within each orthogonal block: block b's d radii take one of d
                coarse strata each, and the blocks' radii in a coarse stratum are a Latin sample of it;
  midpoint      the 2d midpoint quantiles (k + 1/2)/(2d), randomly assigned to the directions;
  importance    Latin radii from a density q ∝ p·sqrt(v(r)), each feature weighted by p/(2d q), where v(r)
                is the directional variance of cos(r u·z) averaged over the data's pair distances (the
                variance-optimal importance density for independent directions);
  2-radii       d directions, each with two radii, one in each half of the law (Latin across directions);
  oracle        the same 2d orthogonal directions with each direction's radial integral done exactly
                (a 400-node quantile rule: not a finite map of 2d frequencies, the error the directions
                alone leave).

Relative Frobenius error of the Gram matrix of two samples of the training rows, length from the median
heuristic, mean over seeds; ratio of means to rff. Example:

  scripts/research/matern_radial_limits.py --dataset letter --nu 1.5 --seeds 10
"""
import argparse
import os

import numpy as np
from scipy import special, stats


def matern(z, nu, ell):
    t = np.sqrt(2 * nu) * z / ell
    closed = {0.5: lambda: np.exp(-t), 1.5: lambda: (1 + t) * np.exp(-t),
              2.5: lambda: (1 + t + t * t / 3) * np.exp(-t)}
    return closed[nu]()


def radius_quantile(u, d, nu, ell):
    """‖w‖ for the Matérn spectral law (a multivariate t with 2ν degrees of freedom): ‖w‖² ℓ² / d ~ F(d, 2ν)."""
    return np.sqrt(d * stats.f.ppf(u, d, 2 * nu)) / ell


def sphere_mean_cos(t, d):
    """E_u cos(t u·e) over the unit sphere of R^d: Γ(d/2) (2/t)^(d/2-1) J_(d/2-1)(t), in logs for large d."""
    a = d / 2 - 1
    t = np.maximum(t, 1e-9)
    j = special.jv(a, t)
    with np.errstate(divide="ignore"):
        log_mag = special.gammaln(d / 2) + a * np.log(2 / t) + np.log(np.abs(j))
    return np.sign(j) * np.exp(np.minimum(log_mag, 0.0))


def orthogonal_directions(rng, n, d):
    blocks = []
    while sum(len(b) for b in blocks) < n:
        q, r = np.linalg.qr(rng.standard_normal((d, d)))
        blocks.append((q * np.sign(np.diag(r))).T)
    return np.concatenate(blocks)[:n]


def latin(rng, n):
    return (rng.permutation(n) + rng.random(n)) / n


def importance_density(distances, d, nu, ell, grid=4000):
    """h(u) on a midpoint grid of the radial law's probability scale, normalised to mean 1."""
    u = (np.arange(grid) + 0.5) / grid
    r = radius_quantile(u, d, nu, ell)
    v = np.zeros(grid)
    for z in distances:
        v += (1 + sphere_mean_cos(2 * r * z, d)) / 2 - sphere_mean_cos(r * z, d) ** 2
    h = np.sqrt(np.maximum(v / len(distances), 1e-300))
    return u, h / h.mean()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", default="letter")
    ap.add_argument("--nu", type=float, default=1.5, choices=[0.5, 1.5, 2.5])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--rows", type=int, default=550, help="rows per sample (two samples)")
    ap.add_argument("--oracle-nodes", type=int, default=400)
    args = ap.parse_args()
    data_dir = os.environ.get("KFM_DATA_DIR",
                              os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "data"))
    X = np.load(os.path.join(data_dir, args.dataset, "X_train.npy")).astype(np.float64)
    d, nu = X.shape[1], args.nu
    freqs = 2 * d

    rng0 = np.random.default_rng(0)
    P = X[rng0.choice(len(X), 1000, replace=False)]
    pair_distances = np.sqrt(((P[:500, None] - P[None, 500:]) ** 2).sum(-1)).ravel()
    ell = np.median(pair_distances)
    grid_u, grid_h = importance_density(rng0.choice(pair_distances, 300), d, nu, ell)
    grid_cdf = np.concatenate([[0.0], np.cumsum(grid_h) / grid_h.sum()])
    grid_edges = np.concatenate([[0.0], grid_u + 0.5 / len(grid_u)])
    oracle_radii = radius_quantile((np.arange(args.oracle_nodes) + 0.5) / args.oracle_nodes, d, nu, ell)

    errors = {}
    for seed in range(1, args.seeds + 1):
        rng = np.random.default_rng(seed)
        A = X[rng.choice(len(X), args.rows, replace=False)]
        B = X[rng.choice(len(X), args.rows, replace=False)]
        K = matern(np.sqrt(((A[:, None] - B[None]) ** 2).sum(-1)), nu, ell)

        def relative_error(K_hat):
            return np.linalg.norm(K_hat - K) / np.linalg.norm(K)

        def map_error(W, weights=None):
            weights = np.full(len(W), 1.0 / len(W)) if weights is None else weights
            PA, PB = A @ W.T, B @ W.T
            return relative_error((np.cos(PA) * weights) @ np.cos(PB).T + (np.sin(PA) * weights) @ np.sin(PB).T)

        def record(name, value):
            errors.setdefault(name, []).append(value)

        g = rng.standard_normal((freqs, d))
        record("rff", map_error(g / np.linalg.norm(g, axis=1, keepdims=True)
                                * radius_quantile(rng.random(freqs), d, nu, ell)[:, None]))
        Q = orthogonal_directions(rng, freqs, d)
        record("stratified", map_error(Q * radius_quantile(latin(rng, freqs), d, nu, ell)[:, None]))
        blocks = freqs // d
        coarse = np.stack([(j + latin(rng, blocks)) / d for j in range(d)], axis=1)  # [block, stratum]
        block_u = np.concatenate([row[rng.permutation(d)] for row in coarse])
        record("block", map_error(Q * radius_quantile(block_u, d, nu, ell)[:, None]))
        midpoint_u = rng.permutation((np.arange(freqs) + 0.5) / freqs)
        record("midpoint", map_error(Q * radius_quantile(midpoint_u, d, nu, ell)[:, None]))
        u = np.interp(latin(rng, freqs), grid_cdf, grid_edges)
        record("importance", map_error(Q * radius_quantile(u, d, nu, ell)[:, None],
                                       1.0 / (freqs * np.interp(u, grid_u, grid_h))))
        half = orthogonal_directions(rng, freqs // 2, d)
        record("2-radii", map_error(np.concatenate(
            [half * radius_quantile((j + latin(rng, freqs // 2)) / 2, d, nu, ell)[:, None] for j in (0, 1)])))
        K_hat = np.zeros_like(K)
        for q in Q:
            t = ((A @ q)[:, None] - (B @ q)[None]).ravel()
            for r in oracle_radii:  # one radius at a time keeps the memory to one Gram matrix
                K_hat += np.cos(r * t).reshape(K.shape)
        record("oracle", relative_error(K_hat / (freqs * len(oracle_radii))))

    base = np.mean(errors["rff"])
    print(f"| {args.dataset} | Matérn {nu:g} | " + " | ".join(
        f"{np.mean(v):.4f} ({np.mean(v) / base:.2f})" for v in errors.values()) + " |")
    print("columns: " + ", ".join(errors))


if __name__ == "__main__":
    main()
