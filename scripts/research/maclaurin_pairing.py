#!/usr/bin/env python3
"""Variants of maclaurin-opt's degree-2 sketch (pairing of rows, blocks, basis): a NumPy model of the gaussian map.

maclaurin-opt (docs/methods.md) maps x' = (x - mean) / sigma to
  exp(-|x'|^2/2) [B_0 x' (d2 exact linear terms), degree-2 features, 1],   B_b = H D_b,
and at D = 2d its sketch is one pass of d2 - 1 degree-2 features
  f_j(x) = d2 sqrt(1 / (2 D_2)) (B_0 x')_{r0(j)} (B_1 x')_{r1(j)}.
kfm writes the rotated rows r0(j) = j, r1(j) = j + 1 mod d2. This script models that map in float64 and
variants of it: of the pairing (which row of block 1 meets row j of block 0), of the blocks after block 0
(their input rolled, permuted, or given a second sign-flipped Hadamard stage), and of the basis of x' (the
training rows' principal axes, all of them or the top k moved onto coordinates by k Householder
reflections: orthogonal, so the linear terms stay exact). It measures each one's relative Frobenius error
of the cross Gram matrix against the exact kernel, with the protocol of scripts/research/accuracy_sweep.py:
sigma by kfm's median heuristic (read from `kfm build --sigma median`), the training rows' mean, and for
seed s two samples of 550 test rows drawn by numpy.random.RandomState(s) (not kfm eval's samples: compare
the variants through their ratios to the rotated rows, paired by seed, the same samples and the same sign
diagonals D_0, D_1, ...). docs/results-maclaurin.md ("What was tried at D = 2d") gives the figures.

Larger D (--multiples 4, 8) chains the passes as kfm does: pass p multiplies blocks p and p + 1, block 0
being the linear terms', every pass with the variant's pairing (fresh random choices per pass); only the
degree-2 allocation (D - d2 - 1 features) is modelled, which is kfm's on LETTER, USPS and digits up to 8d
(except USPS at 8d, which keeps degree 3: not modelled).

  /usr/bin/python3 scripts/research/maclaurin_pairing.py --kfm build/native/kfm --datasets letter,digits,usps \
      --multiples 2,4 --seeds 30 [--variants "rotated rows (kfm);random matching"]

The first variant listed is the reference of the ratio column. Besides the variants, each data set's first
row is the error with the degree-2 term exact: the dropped degrees' bias alone, the floor of every variant.
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import tempfile

import numpy as np
from scipy.stats import t as student_t


def hadamard(n):
    """The normalised n x n Walsh-Hadamard matrix (Sylvester order, as kfm's transform)."""
    h = np.ones((1, 1))
    while h.shape[0] < n:
        h = np.block([[h, h], [h, -h]])
    return h / math.sqrt(n)


def data_dir():
    env = os.environ.get("KFM_DATA_DIR", "")
    if env:
        return env
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.join(os.path.dirname(repo), "shared", "data")


def load(name, work):
    """Training and test rows; digits as accuracy_sweep.py writes it (pixels / 16, a 70/30 split, seed 0)."""
    if name == "digits":
        from sklearn.datasets import load_digits
        x = load_digits().data.astype(np.float32) / 16.0
        order = np.random.RandomState(0).permutation(len(x))
        cut = int(0.7 * len(x))
        train, test = x[order[:cut]], x[order[cut:]]
        path = os.path.join(work, "digits_train.npy")
        np.save(path, train)
        return train, test, path
    folder = os.path.join(data_dir(), name)
    path = os.path.join(folder, "X_train.npy")
    return np.load(path), np.load(os.path.join(folder, "X_test.npy")), path


def median_sigma(kfm, train_path, d, work):
    """kfm's --sigma median on the training rows (the value every kfm map of the sweep is built with)."""
    out = os.path.join(work, "sigma.kfm")
    subprocess.run([kfm, "build", "--method", "sorf", "--kernel", "gaussian", "--sigma", "median", "--data",
                    train_path, "--input-dim", str(d), "--features", str(2 * d), "-o", out],
                   check=True, capture_output=True)
    info = json.loads(subprocess.run([kfm, "inspect", out, "--json"], check=True, capture_output=True,
                                     text=True).stdout)
    return info["kernel_params"]["sigma"]


def bit_reversed(n):
    bits = n.bit_length() - 1
    return np.array([int(format(j, f"0{bits}b")[::-1], 2) for j in range(n)])


# A variant is (input, rows, basis). input(x, d2, rng, b): how block b >= 1 transforms x' before its own H D_b.
# rows(d2, rng): the rows factor 0 and factor 1 of a pass read for its features j. basis: None, or k (the top
# k principal axes of the training rows moved onto coordinates 0..k-1 by k Householder reflections, every
# block's input, block 0 included: an orthogonal map, so the linear terms stay exact), or "all" (every
# principal axis: a dense d2 x d2 product). rng draws the variant's own random choices, after the signs, so
# every variant of a seed shares D_0, D_1, ... and the test samples.
def rows_rotated(d2, rng):
    return np.arange(d2), (np.arange(d2) + 1) % d2


def rows_same(d2, rng):
    return np.arange(d2), np.arange(d2)


def rows_offset(d2, rng):
    return np.arange(d2), (np.arange(d2) + rng.randint(1, d2)) % d2


def least_xor_preserving_offset(d2):
    """The offset r whose rotation j -> j + r mod d2 keeps j XOR j' for the fewest pairs (j, j'): the same-row
    layout's defect is that the pairing commutes with XOR (docs/results-maclaurin.md); r = 1 keeps it for a
    third of the pairs, the best r (about d2 / 6: 3 at d2 = 16, 11 at 64, 43 at 256) for 22 %, 9 %, 4 %."""
    j = np.arange(d2)
    xor = j[:, None] ^ j[None, :]
    kept = [(((j + r) % d2)[:, None] ^ ((j + r) % d2)[None, :]) == xor for r in range(1, d2)]
    return 1 + int(np.argmin([k.mean() for k in kept]))


def rows_fixed_offset(d2, rng):
    return np.arange(d2), (np.arange(d2) + least_xor_preserving_offset(d2)) % d2


def rows_affine(d2, rng):
    a, b = 2 * rng.randint(0, d2 // 2) + 1, rng.randint(0, d2)
    return np.arange(d2), (a * np.arange(d2) + b) % d2


def rows_bit_reversed(d2, rng):
    return np.arange(d2), bit_reversed(d2)


def rows_random_matching(d2, rng):
    return np.arange(d2), rng.permutation(d2)


def rows_two_permutations(d2, rng):  # dp-rfs: each factor's rows an independent random subset, in random order
    return rng.permutation(d2), rng.permutation(d2)


def input_plain(x, d2, rng, block):
    return x


def input_rolled(x, d2, rng, block):  # x' read from a random offset, wrapping round (contiguous)
    return np.roll(x, rng.randint(1, d2), axis=1)


def input_permuted(x, d2, rng, block):
    return x[:, rng.permutation(d2)]


def input_second_stage(x, d2, rng, block):  # H D' x' first: the block is H D_b H D'
    return (x * rng.choice([-1.0, 1.0], d2)) @ hadamard(d2).T


def input_bit_reversed_odd(x, d2, rng, block):
    """Odd blocks read x' in bit-reversed coordinate order, so every pass of the chain pairs a block in the
    natural order with one in bit-reversed order. With the same row of both factors this is, in
    distribution, the odd block's rows bit-reversed (the Sylvester matrix commutes with the bit reversal,
    P H = H P, and P D P is another sign diagonal): contiguous products, the permutation moved to the copy
    of x' into the block."""
    return x[:, bit_reversed(d2)] if block % 2 else x


def basis_matrix(axes, basis):
    """The orthogonal map of a variant's basis: columns 0..k-1 the top k principal axes (up to sign), the rest
    the Householder reflections' image of the other coordinates (close to them for small k)."""
    if basis == "all":
        return axes
    return np.linalg.qr(axes[:, :basis], mode="complete")[0]


VARIANTS = {
    "rotated rows (kfm)": (input_plain, rows_rotated, None),
    "rotated rows, all d2 rows (D + 1 outputs)": (input_plain, rows_rotated, None),
    "same row": (input_plain, rows_same, None),
    "random offset r": (input_plain, rows_offset, None),
    "offset r of fewest XOR-kept pairs": (input_plain, rows_fixed_offset, None),
    "affine a j + b (a odd)": (input_plain, rows_affine, None),
    "bit-reversed rows": (input_plain, rows_bit_reversed, None),
    "random matching": (input_plain, rows_random_matching, None),
    "two random permutations (dp-rfs)": (input_plain, rows_two_permutations, None),
    "input rolled, rotated rows": (input_rolled, rows_rotated, None),
    "input rolled, same row": (input_rolled, rows_same, None),
    "input permuted, same row": (input_permuted, rows_same, None),
    "input permuted, rotated rows": (input_permuted, rows_rotated, None),
    "H D' H D block, rotated rows": (input_second_stage, rows_rotated, None),
    "H D' H D block, same row": (input_second_stage, rows_same, None),
    "principal axes, rotated rows": (input_plain, rows_rotated, "all"),
    "principal axes, random matching": (input_plain, rows_random_matching, "all"),
    "principal axes, bit-reversed rows": (input_plain, rows_bit_reversed, "all"),
}
for _k in (1, 2, 4):
    for _name, _input, _rows in (("rotated rows", input_plain, rows_rotated),
                                 ("offset r of fewest XOR-kept pairs", input_plain, rows_fixed_offset),
                                 ("random matching", input_plain, rows_random_matching),
                                 ("bit-reversed rows", input_plain, rows_bit_reversed),
                                 ("odd blocks' input bit-reversed, same row", input_bit_reversed_odd, rows_same)):
        VARIANTS[f"top {_k} principal axes, {_name}"] = (_input, _rows, _k)
ALL_ROWS = {"rotated rows, all d2 rows (D + 1 outputs)"}


def features(x, d2, signs, passes, weight, input_of_block, rows_of_pass):
    """The map's outputs for the rows x' (n x d2, padded, in the variant's basis), without the prefactor."""
    h = hadamard(d2)
    blocks = [(x * signs[0]) @ h.T]
    for b in range(1, passes + 1):
        blocks.append((input_of_block[b](x) * signs[b]) @ h.T)
    out = [blocks[0]]
    for p, (r0, r1, n) in enumerate(rows_of_pass):
        out.append(weight * d2 * blocks[p][:, r0[:n]] * blocks[p + 1][:, r1[:n]])
    out.append(np.ones((x.shape[0], 1)))
    return np.hstack(out)


def gram_errors(train, test, sigma, multiple, seeds, variants):
    """Every variant's relative Frobenius errors over the seeds, and the dropped degrees' bias alone (the
    error with the degree-2 term exact)."""
    d = train.shape[1]
    d2 = 1 << (d - 1).bit_length()
    mean = train.mean(axis=0)
    centred = np.pad((train - mean) / sigma, ((0, 0), (0, d2 - d)))
    axes = np.linalg.eigh(centred.T @ centred)[1][:, ::-1]
    budget = multiple * d - d2 - 1
    counts = [min(d2, budget - done) for done in range(0, budget, d2)]
    errors = {v: [] for v in variants}
    bias = []
    for seed in range(1, seeds + 1):
        sample = np.random.RandomState(seed)
        xs = test[sample.choice(len(test), min(550, len(test)), replace=False)]
        ys = test[sample.choice(len(test), min(550, len(test)), replace=False)]
        prime = [np.pad((rows - mean) / sigma, ((0, 0), (0, d2 - d))) for rows in (xs, ys)]
        exact = np.exp(-0.5 * ((prime[0][:, None, :] - prime[1][None, :, :]) ** 2).sum(-1))
        prefactor = [np.exp(-0.5 * (p ** 2).sum(1)) for p in prime]
        dot = prime[0] @ prime[1].T
        truncated = prefactor[0][:, None] * prefactor[1][None, :] * (1 + dot + dot ** 2 / 2)
        bias.append(np.linalg.norm(truncated - exact) / np.linalg.norm(exact))
        signs = np.random.RandomState(1000 + seed).choice([-1.0, 1.0], (len(counts) + 1, d2))
        for v in variants:
            make_input, make_rows, basis = VARIANTS[v]
            rng = np.random.RandomState(2000 + seed)
            # Block b's input transform: the same for x and y, drawn from its own seed.
            block_seeds = rng.randint(0, 2 ** 31, len(counts) + 1)
            inputs = {b: (lambda z, b=b, s=int(block_seeds[b]): make_input(z, d2, np.random.RandomState(s), b))
                      for b in range(1, len(counts) + 1)}
            rotated = prime if basis is None else [p @ basis_matrix(axes, basis) for p in prime]
            rows = []
            for n in (counts[:-1] + [d2] if v in ALL_ROWS else counts):
                r0, r1 = make_rows(d2, rng)
                rows.append((r0, r1, n))
            weight = math.sqrt(1.0 / (2.0 * sum(n for _, _, n in rows)))
            phi = [features(p, d2, signs, len(counts), weight, inputs, rows) * f[:, None]
                   for p, f in zip(rotated, prefactor)]
            estimate = phi[0] @ phi[1].T
            errors[v].append(np.linalg.norm(estimate - exact) / np.linalg.norm(exact))
    return errors, bias


def mean_ci(v):
    """The mean and its 95% Student-t half-width."""
    return statistics.fmean(v), student_t.ppf(0.975, len(v) - 1) * statistics.stdev(v) / math.sqrt(len(v))


def ratio_ci(a, b, rounds=2000):
    """The ratio of the means and its 95% bootstrap interval over the seeds (paired)."""
    rnd = np.random.RandomState(1)
    a, b = np.array(a), np.array(b)
    idx = rnd.randint(0, len(a), (rounds, len(a)))
    rs = np.sort(a[idx].sum(1) / b[idx].sum(1))
    return a.mean() / b.mean(), rs[int(0.025 * rounds)], rs[int(0.975 * rounds) - 1]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kfm", default="build/native/kfm", help="for the median-heuristic sigma")
    p.add_argument("--datasets", default="letter,digits,usps")
    p.add_argument("--multiples", default="2", help="D as multiples of d")
    p.add_argument("--seeds", type=int, default=20)
    p.add_argument("--variants", default=";".join(VARIANTS), help="names separated by ; (default: all)")
    o = p.parse_args()
    variants = o.variants.split(";")
    print("| data | D | variant | rel. Frobenius | / rotated rows (95% bootstrap) |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for name in o.datasets.split(","):
            train, test, train_path = load(name, work)
            sigma = median_sigma(o.kfm, train_path, train.shape[1], work)
            for multiple in (int(m) for m in o.multiples.split(",")):
                errors, bias = gram_errors(train.astype(np.float64), test.astype(np.float64), sigma, multiple,
                                           o.seeds, variants)
                m, h = mean_ci(bias)
                print(f"| {name} | {multiple}d | degree 2 exact: the dropped degrees' bias alone | "
                      f"{m:.4g} ± {h:.2g} | |")
                base = errors[variants[0]]
                for v in variants:
                    m, h = mean_ci(errors[v])
                    r, lo, hi = ratio_ci(errors[v], base)
                    print(f"| {name} | {multiple}d | {v} | {m:.4g} ± {h:.2g} | {r:.3f} ({lo:.3f}–{hi:.3f}) |",
                          flush=True)


if __name__ == "__main__":
    main()
