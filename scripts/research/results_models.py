#!/usr/bin/python3
"""Accuracy of kfm models (feature map + ridge head, `kfm fit`) against scikit-learn's exact kernel models.

Writes the tables of docs/results-models.md on stdout (Markdown). Data: the `usps` and `housing` folders of
$KFM_DATA_DIR (default: the `shared/data` directory beside the repository).

- USPS (binary, labels -1/+1; 7291 train / 2007 test rows as stored, d = 256, values in [0, 2]):
  kfm ssf / quadrature / rff (or nystroem) features + ridge classification vs scikit-learn's exact kernel ridge
  classifier (KernelRidge on -1/+1 targets centred on their training mean, sign of the score), kernel
  SVC, and RBFSampler + RidgeClassifier at the same D.
- housing (regression, 506 rows, d = 13): one fixed 80/20 split (permutation with seed 0); features
  standardised with the training rows' mean and std for every model; R^2. kfm features + ridge vs
  KernelRidge (targets centred) and RBFSampler + Ridge.

Exact models: one Gaussian kernel per data set, gamma = g0 * f, g0 = 1 / (d * Var(X_train)) (scikit-learn's
'scale'), f from {0.25, 0.5, 1, 2} jointly with alpha from ALPHAS by exact kernel ridge on a validation split
(the last 20% of the training rows; for USPS fitted on 3000 of the other rows). SVC's C from {1, 10} on the
validation split; for USPS it is trained on all 7291 rows.
Feature models (kfm ssf / quadrature / rff, RBFSampler), the same selection for each, on the training rows
only: exact leave-one-out of ridge on the model's features (closed form from one eigendecomposition,
`loo_scores`; accuracy, ties by squared error, for classification; squared error for regression). The gamma
factor f from the same grid per model, jointly with alpha, on its D = 1024, seed-1 features; then alpha per
D and seed. kfm's sigma = 1/sqrt(2 gamma); the kfm model is `kfm fit --alpha` (the chosen alpha) and
`kfm score`.

usage: scripts/research/results_models.py [--kfm build/release/kfm] [--seeds 3] [--features 512,1024,4096]
                                  [--models ssf,quadrature,rff,sklearn] [--data housing,usps]
`--models nystroem` adds kfm's Nyström map with D landmarks drawn (uniformly, by the seed) from the
training rows: a data-dependent map of the same D, the yardstick for what D features can give at all.
Needs python3-numpy, python3-sklearn and OpenBLAS (scripts/ci/install-deps.sh --with-python); run with
OPENBLAS_CORETYPE=Haswell on CPUs OpenBLAS does not recognise.
"""
import argparse
import math
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
from sklearn.kernel_approximation import RBFSampler
from sklearn.kernel_ridge import KernelRidge
from sklearn.linear_model import Ridge, RidgeClassifier
from sklearn.metrics import r2_score
from sklearn.svm import SVC

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # from scripts/research
ALPHAS = [1e-3, 1e-2, 1e-1, 1.0, 10.0]
GAMMA_FACTORS = [0.25, 0.5, 1.0, 2.0]
METHODS = ["ssf", "quadrature", "rff", "nystroem"]
DEFAULT_MODELS = ["ssf", "quadrature", "rff", "sklearn"]


def data_dir():
    return os.environ.get("KFM_DATA_DIR") or os.path.join(ROOT, "..", "shared", "data")


def save(work, name, array):
    path = os.path.join(work, name)
    np.save(path, np.ascontiguousarray(array))
    return path


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


class Task:
    """One data set: train/test arrays (already scaled), the task and how to score it."""

    def __init__(self, name, x_train, y_train, x_test, y_test, classify, work):
        self.name, self.classify = name, classify
        self.x_train, self.y_train, self.x_test, self.y_test = x_train, y_train, x_test, y_test
        self.paths = {k: save(work, f"{name}-{k}.npy", v) for k, v in
                      [("x_train", x_train.astype(np.float32)), ("y_train", y_train),
                       ("x_test", x_test.astype(np.float32)), ("y_test", y_test)]}
        self.work = work

    def score(self, predicted):
        if self.classify:
            return float(np.mean(predicted == self.y_test))
        return float(r2_score(self.y_test, predicted))


def exact_ridge_predict(x_fit, y_fit, x_eval, gamma, alpha, classify):
    """KernelRidge on centred targets (it has no intercept); sign for classification."""
    mean = float(np.mean(y_fit))
    model = KernelRidge(alpha=alpha, kernel="rbf", gamma=gamma).fit(x_fit, y_fit - mean)
    scores = model.predict(x_eval) + mean
    return np.where(scores >= 0, 1, -1) if classify else scores


def choose_gamma_alpha(task, fit_rows):
    """(gamma, alpha) of the best exact kernel ridge on the validation split (last 20% of training rows)."""
    n = len(task.x_train)
    cut = n - n // 5
    fit_x, fit_y = task.x_train[:cut][:fit_rows], task.y_train[:cut][:fit_rows]
    val_x, val_y = task.x_train[cut:], task.y_train[cut:]
    g0 = 1.0 / (task.x_train.shape[1] * task.x_train.var())
    best = None
    for f in GAMMA_FACTORS:
        for alpha in ALPHAS:
            p = exact_ridge_predict(fit_x, fit_y, val_x, g0 * f, alpha, task.classify)
            s = np.mean(p == val_y) if task.classify else r2_score(val_y, p)
            if best is None or s > best[0]:
                best = (s, g0 * f, alpha)
    return best[1], best[2], (fit_x, fit_y, val_x, val_y)


def ridge_targets(y, classify):
    """What ridge fits: the values (regression) or +-1, +1 for the larger of two labels (like `kfm fit`)."""
    y = np.asarray(y, dtype=np.float64)
    return np.where(y == y.max(), 1.0, -1.0) if classify else y


def loo_scores(phi, y, alphas, classify):
    """Exact leave-one-out score of ridge with an unpenalised intercept on features phi, for every alpha.

    One eigendecomposition of the centred Gram matrix (Phi^T Phi, D x D, or Phi Phi^T, N x N, whichever is
    smaller) gives the hat matrix H(alpha) = 11^T/N + U diag(l / (l + alpha)) U^T for every alpha, and the
    leave-one-out prediction of row i is (yhat_i - H_ii y_i) / (1 - H_ii). Score: (accuracy, -mean squared
    error) for classification (ties broken by the error), (-mean squared error,) for regression."""
    phi = np.asarray(phi, dtype=np.float64)
    t = ridge_targets(y, classify)
    n, features = phi.shape
    centred, tc = phi - phi.mean(axis=0), t - t.mean()
    if features <= n:
        lam, v = np.linalg.eigh(centred.T @ centred)
        keep = lam > lam[-1] * 1e-12
        lam, u = lam[keep], (centred @ v[:, keep]) / np.sqrt(lam[keep])
    else:
        lam, u = np.linalg.eigh(centred @ centred.T)
        keep = lam > lam[-1] * 1e-12
        lam, u = lam[keep], u[:, keep]
    z, u2 = u.T @ tc, u * u
    scores = []
    for alpha in alphas:
        shrink = lam / (lam + alpha)
        fitted = u @ (shrink * z) + t.mean()
        h = u2 @ shrink + 1.0 / n
        loo = (fitted - h * t) / (1.0 - h)
        mse = float(np.mean((t - loo) ** 2))
        scores.append((float(np.mean(np.sign(loo) == t)), -mse) if classify else (-mse,))
    return scores


def check_loo_scores():
    """loo_scores against refitting scikit-learn's Ridge without each row, primal and dual, both tasks."""
    rng = np.random.default_rng(0)
    for features in [10, 100]:
        for classify in [False, True]:
            phi = rng.normal(size=(60, features))
            y = phi[:, 0] + 0.3 * rng.normal(size=60)
            y = np.where(y > 0, 1, -1) if classify else y
            t = ridge_targets(y, classify)
            for alpha, got in zip([0.01, 10.0], loo_scores(phi, y, [0.01, 10.0], classify)):
                loo = np.array([Ridge(alpha=alpha).fit(np.delete(phi, i, 0), np.delete(t, i)).predict(phi[i:i + 1])[0]
                                for i in range(len(t))])
                want = (np.mean(np.sign(loo) == t), -np.mean((t - loo) ** 2)) if classify else (-np.mean((t - loo) ** 2),)
                if not np.allclose(got, want, rtol=1e-7, atol=1e-10):
                    sys.exit(f"results_models: leave-one-out check failed (D {features}, alpha {alpha}): {got} != {want}")


def sigma_of(gamma):
    return 1.0 / math.sqrt(2.0 * gamma)


def kfm_build(task, kfm, method, features, seed, gamma):
    """Builds the map; returns (its path, phi(x_train) from `kfm map`)."""
    map_path = os.path.join(task.work, f"{task.name}-{method}-{features}-{seed}.kfm")
    phi_path = map_path.replace(".kfm", "-phi.npy")
    size = (["--data", task.paths["x_train"], "--landmarks", str(features)] if method == "nystroem"
            else ["--features", str(features)])
    run([kfm, "build", "--method", method, "--kernel", "gaussian", "--sigma", repr(sigma_of(gamma)),
         "--input-dim", str(task.x_train.shape[1]), *size, "--seed", str(seed), "-o", map_path])
    run([kfm, "map", map_path, "--in", task.paths["x_train"], "--out", phi_path])
    phi = np.load(phi_path)
    os.remove(phi_path)
    return map_path, phi


def kfm_fit_score(task, kfm, map_path, alpha):
    """`kfm fit` with alpha on the map, `kfm score` on the test rows; returns (test score, real output_dim)."""
    model_path = map_path.replace(".kfm", "-model.kfm")
    run([kfm, "fit", map_path, "--x", task.paths["x_train"], "--y", task.paths["y_train"], "--task",
         "classification" if task.classify else "regression", "--alpha", repr(alpha), "--quiet", "-o", model_path])
    score = float(re.search(r'"value": ([^,}]+)', run([kfm, "score", model_path, "--x", task.paths["x_test"], "--y",
                                                       task.paths["y_test"], "--json"])).group(1))
    output_dim = int(re.search(r'"output_dim": (\d+)', run([kfm, "inspect", model_path, "--json"])).group(1))
    os.remove(map_path)
    os.remove(model_path)
    return score, output_dim


def rbf_sampler(task, features, seed, gamma):
    return RBFSampler(gamma=gamma, n_components=features, random_state=seed).fit(task.x_train)


def rbf_sampler_score(task, sampler, alpha):
    head = RidgeClassifier(alpha=alpha) if task.classify else Ridge(alpha=alpha)
    head.fit(sampler.transform(task.x_train), task.y_train)
    return task.score(head.predict(sampler.transform(task.x_test)))


class FeatureModel:
    """One random-feature model (a kfm method or RBFSampler) at one (D, seed, gamma): its training-row
    features for the leave-one-out selection and its test score for a chosen alpha."""

    def __init__(self, task, kfm, method, features, seed, gamma):
        self.task, self.kfm, self.method = task, kfm, method
        if method == "sklearn":
            self.sampler = rbf_sampler(task, features, seed, gamma)
            self.phi = self.sampler.transform(task.x_train)
        else:
            self.map_path, self.phi = kfm_build(task, kfm, method, features, seed, gamma)

    def best_alpha(self):
        """(leave-one-out score, alpha) of the best alpha in ALPHAS (the first of equal best)."""
        scores = loo_scores(self.phi, self.task.y_train, ALPHAS, self.task.classify)
        best = max(range(len(ALPHAS)), key=lambda i: (scores[i], -i))
        return scores[best], ALPHAS[best]

    def test(self, alpha):
        """(test score, real output_dim); releases the model's files."""
        self.phi = None
        if self.method == "sklearn":
            return rbf_sampler_score(self.task, self.sampler, alpha), self.sampler.n_components
        return kfm_fit_score(self.task, self.kfm, self.map_path, alpha)

    def discard(self):
        if self.method != "sklearn":
            os.remove(self.map_path)


MODELS = METHODS + ["sklearn"]


def name(method):
    return "RBFSampler" if method == "sklearn" else f"kfm {method}"


def percent(values, classify):
    v = np.asarray(values) * (100.0 if classify else 1.0)
    fmt = "{:.2f}" if classify else "{:.4f}"
    return (fmt + " ± " + fmt).format(v.mean(), v.std(ddof=1) if len(v) > 1 else 0.0)


def evaluate(task, kfm, models, features_list, seeds, fit_rows, svc):
    metric = "test accuracy (%)" if task.classify else "test R²"
    t0 = time.time()
    gamma, krr_alpha, (fit_x, fit_y, val_x, val_y) = choose_gamma_alpha(task, fit_rows)
    exact = task.score(exact_ridge_predict(task.x_train, task.y_train, task.x_test, gamma, krr_alpha, task.classify))
    lines = [f"### {task.name}: {metric}", "",
             f"{len(task.x_train)} training / {len(task.x_test)} test rows, d = {task.x_train.shape[1]}; "
             f"gamma = {gamma:.4g} (kfm --sigma {1.0 / math.sqrt(2.0 * gamma):.4g}); exact kernel ridge alpha "
             f"{krr_alpha:g} (validation).", ""]
    exact_rows = [("exact kernel ridge (KernelRidge)", exact)]
    if svc:
        best_c = max([1.0, 10.0], key=lambda c: np.mean(SVC(C=c, gamma=gamma).fit(fit_x, fit_y).predict(val_x) == val_y))
        svc_score = task.score(SVC(C=best_c, gamma=gamma).fit(task.x_train, task.y_train).predict(task.x_test))
        exact_rows.append((f"exact kernel SVC (C = {best_c:g})", svc_score))
    for label, s in exact_rows:
        lines.append(f"- {label}: **{s * 100:.2f}**" if task.classify else f"- {label}: **{s:.4f}**")
    lines.append("")

    g0 = 1.0 / (task.x_train.shape[1] * task.x_train.var())
    factors = {}
    for m in models:
        best = None
        for f in GAMMA_FACTORS:
            model = FeatureModel(task, kfm, m, 1024, 1, g0 * f)
            score, _ = model.best_alpha()
            model.discard()
            if best is None or score > best[0]:
                best = (score, f)
        factors[m] = best[1]
    lines.append("Feature models' gamma factor f (leave-one-out on the training rows, D = 1024, seed 1): " +
                 ", ".join(f"{name(m)} {factors[m]:g}" for m in models) +
                 f" (exact models: {gamma / g0:g}). Alpha per D and seed by leave-one-out.")
    lines.append("")
    head = "RidgeClassifier" if task.classify else "Ridge"
    lines.append("| D | " + " | ".join(name(m) + (f" + {head}" if m == "sklearn" else "") for m in models) + " |")
    lines.append("|---" * (len(models) + 1) + "|")
    results = {}
    for features in features_list:
        cells = []
        for m in models:
            runs = []
            for s in range(1, seeds + 1):
                model = FeatureModel(task, kfm, m, features, s, g0 * factors[m])
                _, alpha = model.best_alpha()
                runs.append(model.test(alpha) + (alpha,))
            results[(m, features)] = [r[0] for r in runs]
            print(f"{task.name} {name(m)} D = {features}: {results[(m, features)]} {time.time() - t0:.0f} s",
                  file=sys.stderr, flush=True)
            dims = sorted({r[1] for r in runs})
            note = "" if dims == [features] else f" (D = {','.join(map(str, dims))})"
            chosen = "/".join(f"{r[2]:g}" for r in runs)
            cells.append(percent(results[(m, features)], task.classify) + note + f" [α {chosen}]")
        lines.append(f"| {features} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"mean ± sd over map seeds 1..{seeds} [the alpha leave-one-out chose for each seed]; "
                 f"{time.time() - t0:.0f} s for this data set.")
    lines.append("")
    return lines, results, dict(exact_rows)


def load_usps(work):
    base = os.path.join(data_dir(), "usps")
    arrays = [np.load(os.path.join(base, f"{n}.npy")) for n in ["X_train", "y_train", "X_test", "y_test"]]
    x_train, y_train, x_test, y_test = (a.astype(np.float64) if a.dtype.kind == "f" else a.astype(np.int64)
                                        for a in arrays)
    return Task("USPS", x_train, y_train, x_test, y_test, True, work)


def load_housing(work):
    base = os.path.join(data_dir(), "housing")
    x = np.load(os.path.join(base, "X.npy")).astype(np.float64)
    y = np.load(os.path.join(base, "y.npy")).astype(np.float64)
    order = np.random.default_rng(0).permutation(len(x))
    cut = len(x) - len(x) // 5
    train, test = order[:cut], order[cut:]
    mean, std = x[train].mean(axis=0), x[train].std(axis=0)
    std[std == 0] = 1.0
    return Task("housing", (x[train] - mean) / std, y[train].astype(np.float32), (x[test] - mean) / std,
                y[test].astype(np.float32), False, work)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kfm", default=os.path.join(ROOT, "build", "release", "kfm"))
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--features", default="512,1024,4096")
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS), help="subset of " + ",".join(MODELS))
    parser.add_argument("--data", default="housing,usps", help="data sets to run (comma-separated)")
    args = parser.parse_args()
    features = [int(f) for f in args.features.split(",")]
    if not os.access(args.kfm, os.X_OK):
        sys.exit(f"results_models: {args.kfm} not found (run scripts/demo.sh or pass --kfm)")
    models = args.models.split(",")
    if not models or set(models) - set(MODELS):
        sys.exit(f"results_models: --models takes a subset of {','.join(MODELS)}, not {args.models}")
    names = args.data.split(",")
    if not names or set(names) - {"usps", "housing"}:
        sys.exit(f"results_models: --data takes usps and/or housing, not {args.data}")
    for name in names:
        if not os.path.isdir(os.path.join(data_dir(), name)):
            sys.exit(f"results_models: {os.path.join(data_dir(), name)} is absent (set KFM_DATA_DIR)")

    check_loo_scores()
    start = time.time()
    with tempfile.TemporaryDirectory() as work:
        housing_lines, usps_lines, usps = [], [], {}
        if "housing" in names:
            housing_lines, _, _ = evaluate(load_housing(work), args.kfm, models, features, args.seeds, None, svc=False)
            print("\n".join(housing_lines), file=sys.stderr)
        if "usps" in names:
            usps_lines, usps, usps_exact = evaluate(load_usps(work), args.kfm, models, features, args.seeds, 3000, svc=True)
        out = usps_lines + housing_lines
    top = max(features)
    if ("ssf", top) in usps and ("sklearn", top) in usps:
        ssf = np.mean(usps[("ssf", top)]) * 100
        verdict = []
        for label, s in usps_exact.items():
            gap = s * 100 - ssf
            verdict.append(f"{label}: gap {gap:+.2f} pp → {'holds' if gap <= 0.5 else 'does not hold'}")
        worse = [f for f in features if np.mean(usps[("ssf", f)]) < np.mean(usps[("sklearn", f)])]
        out.append(f"Goal on USPS: kfm ssf at D = {top} (mean {ssf:.2f}%) within 0.5 pp of the exact model — " +
                   "; ".join(verdict) + ". SSF below RBFSampler (mean over seeds) at D = " +
                   (", ".join(map(str, worse)) if worse else "none") + ".")
        out.append("")
    out.append(f"Total runtime {time.time() - start:.0f} s.")
    print("\n".join(out))


if __name__ == "__main__":
    main()
