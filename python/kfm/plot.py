"""Kernel-approximation error and transform time against the number of features D, like the papers' figures.

    python3 -m kfm.plot --data letter/X_train.npy --methods rff,orf,sorf,qmc,ssf,quadrature \\
        --kernel gaussian --features-multiples 1,2,4,8,16 --seeds 10 --out-dir figures

For each method and each D = multiple x d, `--seeds` maps are built (seed s = 1..S: each seed is a new
map) and each estimates the Gram matrix of one fixed pair of data samples X, Y (`--samples` rows each,
drawn once). The error plot shows the relative Frobenius error ||K - K^||_F / ||K||_F, mean over the
seeds with a 95% Student-t interval of that mean as a band, on log-log axes. The time plot shows
nanoseconds per vector of FeatureMap.transform on the batch X on one thread (n_jobs=1; median of
`--repeats` runs, Python call overhead included), for the first seed's map.

The Gaussian bandwidth defaults to the median heuristic (`--sigma median`: the lower median of the
distances between rows of the whole data set, over at most 1000 evenly spaced rows; what
`kfm build --sigma median --data X.npy` computes); `--sigma scale` is scikit-learn's gamma='scale'.

sweep(), plot_error() and plot_time() are importable; main() is the command line.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, Callable, Dict, Optional, Sequence

import numpy as np
import numpy.typing as npt

from . import FeatureMap, median_sigma, scale_sigma

__all__ = ["Curve", "sweep", "plot_error", "plot_time", "markdown_table", "main"]

DEFAULT_METHODS = ("rff", "orf", "sorf", "qmc", "ssf", "quadrature")
KERNELS = ("gaussian", "arccos")


class Curve:
    """One method's sweep: per requested D, the real output_dim, the errors of every seed and the time.

    Parameters
    ----------
    method : str
    output_dims : array-like of shape (points,)
        The real output_dim of each point.
    errors : array-like of shape (points, seeds)
        The relative Frobenius error of each seed's map.
    ns_per_vector : array-like of shape (points,) or None
        Nanoseconds per vector, or None for a sweep without timing.
    """

    def __init__(self, method: str, output_dims: npt.ArrayLike, errors: npt.ArrayLike,
                 ns_per_vector: Optional[npt.ArrayLike]) -> None:
        self.method = method
        self.output_dims = np.asarray(output_dims, dtype=np.int64)  # (points,)
        self.errors = np.asarray(errors, dtype=np.float64)          # (points, seeds)
        self.ns_per_vector = None if ns_per_vector is None else np.asarray(ns_per_vector, dtype=np.float64)

    @property
    def mean(self) -> np.ndarray:
        """The mean error over the seeds, per point."""
        return self.errors.mean(axis=1)

    @property
    def half_width(self) -> np.ndarray:
        """Half-width of the 95% Student-t interval of the mean over the seeds."""
        from scipy.stats import t

        seeds = self.errors.shape[1]
        return t.ppf(0.975, seeds - 1) * self.errors.std(axis=1, ddof=1) / np.sqrt(seeds)

    @property
    def low(self) -> np.ndarray:
        """The lower end of the 95% interval, per point."""
        return self.mean - self.half_width

    @property
    def high(self) -> np.ndarray:
        """The upper end of the 95% interval, per point."""
        return self.mean + self.half_width


def synthetic_data(rows=2000, dim=16, seed=0):
    """A Gaussian mixture like `kfm synth`'s: 10 clusters, centres uniform in [-0.6, 0.6]^dim, standard
    deviations uniform in [0.1, 0.3]; float32 (rows, dim)."""
    rng = np.random.default_rng(seed)
    centres = rng.uniform(-0.6, 0.6, size=(10, dim))
    spreads = rng.uniform(0.1, 0.3, size=10)
    which = rng.integers(0, 10, size=rows)
    return (centres[which] + spreads[which, None] * rng.standard_normal((rows, dim))).astype(np.float32)


def load_data(path):
    """A .npy file as float32 C-contiguous rows; ValueError unless it is a finite 2-D numeric array."""
    try:
        X = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as e:
        raise ValueError(f"cannot read {path}: {e}") from None
    if X.ndim != 2 or X.shape[0] < 4 or X.shape[1] < 1 or X.dtype.kind not in "fiu":
        raise ValueError(f"{path} must be a numeric (rows, d) array with at least 4 rows, got {X.dtype} {X.shape}")
    X = np.ascontiguousarray(X, dtype=np.float32)
    if not np.isfinite(X).all():
        raise ValueError(f"{path} holds NaN or infinite values")
    return X


def gaussian_sigma(X, rule):
    """sigma for the Gaussian kernel: a number, or 'median' / 'scale' computed from X by the library."""
    if rule == "median":
        return median_sigma(X)
    if rule == "scale":
        return scale_sigma(X)
    try:
        sigma = float(rule)
    except ValueError:
        sigma = float("nan")
    if not (sigma > 0 and np.isfinite(sigma)):
        raise ValueError(f"sigma must be positive, 'median' or 'scale', got {rule!r}")
    return sigma


def samples_of(X, samples, seed=0):
    """Two disjoint samples X, Y of `samples` rows each (fewer when X is small), drawn once."""
    n = min(samples, X.shape[0] // 2)
    rows = np.random.default_rng(seed).permutation(X.shape[0])
    return X[np.sort(rows[:n])], X[np.sort(rows[n:2 * n])]


def relative_error(K, K_hat):
    return float(np.linalg.norm(K - K_hat) / np.linalg.norm(K))


def ns_per_vector(feature_map, batch, repeats):
    """Median over `repeats` of the time to transform the batch on one thread, per row, in ns."""
    feature_map.transform(batch, n_jobs=1)  # warm-up: first touch of the output and the map
    times = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        feature_map.transform(batch, n_jobs=1)
        times.append(time.perf_counter_ns() - start)
    return float(np.median(times)) / batch.shape[0]


def sweep(X: npt.ArrayLike, methods: Sequence[str] = DEFAULT_METHODS, kernel: str = "gaussian",
          features: Optional[Sequence[int]] = None, seeds: int = 10, samples: int = 550, sample_seed: int = 0,
          repeats: int = 5, timing: bool = True, progress: Optional[Callable[[str], Any]] = None,
          **kernel_options: Any) -> Dict[str, Curve]:
    """Error over map seeds 1..seeds (and, with timing, ns per vector) for each method and requested D.

    A D that the method rounds to an output_dim already swept is skipped.

    Parameters
    ----------
    X : array-like of shape (n_samples, d)
        The data; two disjoint samples of `samples` rows are drawn once (seed `sample_seed`).
    methods : sequence of str, default=("rff", "orf", "sorf", "qmc", "ssf", "quadrature")
    kernel : str, default="gaussian"
    features : sequence of int, optional
        The requested D values (default d x 1, 2, 4, 8, 16).
    seeds : int, default=10
        Maps per point (seeds 1..seeds), at least 2.
    samples : int, default=550
    sample_seed : int, default=0
    repeats : int, default=5
        Timing repeats (the median is taken).
    timing : bool, default=True
    progress : callable, optional
        Called with one line of text per point.
    **kernel_options
        The kernel's FeatureMap options (sigma=... for gaussian, order=... for arccos).

    Returns
    -------
    dict of str to Curve
        One Curve per method.
    """
    X = np.ascontiguousarray(X, dtype=np.float32)
    d = X.shape[1]
    features = [d * m for m in (1, 2, 4, 8, 16)] if features is None else [int(D) for D in features]
    if seeds < 2:
        raise ValueError("seeds must be at least 2 (the band is an interval over seeds)")
    Xs, Ys = samples_of(X, samples, sample_seed)
    K = None
    curves = {}
    for method in methods:
        dims, errors, times = [], [], []
        for D in features:
            row, dim = [], None
            for seed in range(1, seeds + 1):
                fm = FeatureMap(method, kernel, d, D, seed=seed, **kernel_options)
                if fm.output_dim in dims:  # a method with a coarse granularity rounded D to a point already done
                    break
                if K is None:
                    K = fm.exact_kernel(Xs, Ys)
                row.append(relative_error(K, fm.kernel_matrix(Xs, Ys, n_jobs=1)))
                dim = fm.output_dim
                if timing and seed == 1:
                    times.append(ns_per_vector(fm, Xs, repeats))
            if not row:
                continue
            dims.append(dim)
            errors.append(row)
            if progress is not None:
                progress(f"{method} D={dim}: error {np.mean(row):.4g}")
        curves[method] = Curve(method, dims, errors, times if timing else None)
    return curves


def _axes(title, ylabel):
    import matplotlib
    import matplotlib.ticker

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.4), dpi=100)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("number of features D")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    # Label the 2s and 5s between powers of ten too: a curve often spans less than one decade.
    nice = matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}" if f"{v:.0e}"[0] in "125" else "")
    ax.yaxis.set_major_formatter(nice)
    ax.yaxis.set_minor_formatter(nice)
    return plt, fig, ax


def _save(plt, fig, ax, path):
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_error(curves: Dict[str, Curve], path: str, title: str = "relative kernel error") -> None:
    """Log-log error vs D: each method's mean over seeds, its 95% band, and a D^(-1/2) guide line.

    Parameters
    ----------
    curves : dict of str to Curve
        `sweep`'s result.
    path : str
        The PNG file to write.
    title : str, default="relative kernel error"
    """
    plt, fig, ax = _axes(title, "||K - K^||_F / ||K||_F")
    for curve in curves.values():
        line, = ax.plot(curve.output_dims, curve.mean, marker="o", markersize=3, label=curve.method)
        ax.fill_between(curve.output_dims, np.maximum(curve.low, curve.mean * 1e-3), curve.high,
                        color=line.get_color(), alpha=0.2)
    first = next(iter(curves.values()))
    guide = first.mean[0] * np.sqrt(first.output_dims[0] / first.output_dims)
    ax.plot(first.output_dims, guide, linestyle="--", color="grey", linewidth=1, label="∝ D^(-1/2)")
    _save(plt, fig, ax, path)


def plot_time(curves: Dict[str, Curve], path: str, title: str = "transform time") -> None:
    """Log-log nanoseconds per vector vs D (one thread).

    Parameters
    ----------
    curves : dict of str to Curve
        `sweep`'s result, run with timing.
    path : str
        The PNG file to write.
    title : str, default="transform time"
    """
    plt, fig, ax = _axes(title, "ns per vector (1 thread)")
    for curve in curves.values():
        if curve.ns_per_vector is None:
            raise ValueError(f"the sweep of {curve.method} was run without timing")
        ax.plot(curve.output_dims, curve.ns_per_vector, marker="o", markersize=3, label=curve.method)
    _save(plt, fig, ax, path)


def markdown_table(curves: Dict[str, Curve]) -> str:
    """The sweep as a Markdown table: D, mean error +- 95% half-width, ns per vector.

    Parameters
    ----------
    curves : dict of str to Curve
        `sweep`'s result.
    """
    lines = ["| method | D | error (mean ± 95%) | ns / vector |", "|---|---|---|---|"]
    for curve in curves.values():
        for i, D in enumerate(curve.output_dims):
            ns = "" if curve.ns_per_vector is None else f"{curve.ns_per_vector[i]:.0f}"
            lines.append(f"| {curve.method} | {D} | {curve.mean[i]:.4g} ± {curve.half_width[i]:.2g} | {ns} |")
    return "\n".join(lines)


def _positive_ints(text):
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of positive integers, got {text!r}")
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of positive integers, got {text!r}")
    return values


def _parser():
    p = argparse.ArgumentParser(prog="python3 -m kfm.plot", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", help="a (rows, d) .npy file (default: a synthetic Gaussian mixture)")
    p.add_argument("--synthetic-rows", type=int, default=2000, help="rows of the synthetic set (default 2000)")
    p.add_argument("--synthetic-dim", type=int, default=16, help="d of the synthetic set (default 16)")
    p.add_argument("--name", help="file name prefix (default: the data file's directory name, or 'synthetic')")
    p.add_argument("--methods", default=",".join(DEFAULT_METHODS), help="comma-separated (default %(default)s)")
    p.add_argument("--kernel", choices=KERNELS, default="gaussian")
    p.add_argument("--sigma", default=None, help="gaussian: a number, median (default) or scale")
    p.add_argument("--order", type=int, choices=(0, 1, 2), default=None, help="arccos order (default 0)")
    p.add_argument("--features-multiples", type=_positive_ints, default=[1, 2, 4, 8, 16],
                   help="D as multiples of d (default 1,2,4,8,16)")
    p.add_argument("--seeds", type=int, default=10, help="map seeds per point (default 10, at least 2)")
    p.add_argument("--samples", type=int, default=550, help="rows per data sample X and Y (default 550)")
    p.add_argument("--repeats", type=int, default=5, help="timing repeats, median taken (default 5)")
    p.add_argument("--out-dir", default=".", help="where the PNGs go (default: the current directory)")
    p.add_argument("--what", choices=("error", "time", "both"), default="both")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line `python3 -m kfm.plot` (see `python3 -m kfm.plot --help`).

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: sys.argv[1:]).
    """
    parser = _parser()
    args = parser.parse_args(argv)
    if args.seeds < 2:
        parser.error("--seeds must be at least 2 (the band is an interval over seeds)")
    if args.samples < 2 or args.repeats < 1 or args.synthetic_rows < 4 or args.synthetic_dim < 1:
        parser.error("--samples must be >= 2, --repeats >= 1, --synthetic-rows >= 4 and --synthetic-dim >= 1")
    if args.kernel == "gaussian" and args.order is not None:
        parser.error("--order is for --kernel arccos")
    if args.kernel == "arccos" and args.sigma is not None:
        parser.error("--sigma is for --kernel gaussian")
    if not os.path.isdir(args.out_dir):
        parser.error(f"--out-dir {args.out_dir} is not a directory")
    methods = [m for m in args.methods.split(",") if m]
    try:
        X = load_data(args.data) if args.data else synthetic_data(args.synthetic_rows, args.synthetic_dim)
        if args.kernel == "gaussian":
            rule = args.sigma or "median"
            options = {"sigma": gaussian_sigma(X, rule)}
            tag, label = "gaussian", f"Gaussian, sigma {options['sigma']:.4g} ({rule})"
        else:
            options = {"order": args.order or 0}
            tag, label = f"arccos{options['order']}", f"arc-cosine order {options['order']}"
        features = [m * X.shape[1] for m in args.features_multiples]
        # One map per method first, so that a wrong method or option fails before the long sweep.
        for method in methods:
            FeatureMap(method, args.kernel, X.shape[1], features[0], **options)
    except ValueError as e:
        parser.error(str(e))
    name = args.name or (os.path.basename(os.path.dirname(os.path.abspath(args.data))) if args.data else "synthetic")
    curves = sweep(X, methods, args.kernel, features, args.seeds, args.samples, repeats=args.repeats,
                   timing=args.what != "error", progress=lambda m: print(m, file=sys.stderr), **options)
    title = f"{name} (d={X.shape[1]}), {label}"
    rows = len(samples_of(X, args.samples)[0])
    written = []
    if args.what != "time":
        written.append(os.path.join(args.out_dir, f"{name}-{tag}-error.png"))
        plot_error(curves, written[-1], f"{title}\nmean and 95% band over {args.seeds} map seeds, {rows} x {rows} Gram")
    if args.what != "error":
        written.append(os.path.join(args.out_dir, f"{name}-{tag}-time.png"))
        plot_time(curves, written[-1], f"{title}\nFeatureMap.transform of {rows} rows, 1 thread")
    print(markdown_table(curves))
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
