#!/usr/bin/env python3
"""The `docs-plot` test: figures that docs/choosing.md quotes from `python3 -m kfm.plot` recomputed.

Each entry of CHECKS names a page, the exact text that starts a table row and the sweep that gives the row's
figures (kfm.plot.sweep: raw X_train, median-heuristic sigma, map seeds 1..10, one fixed pair of 550-row
samples). A figure must be the computed value rounded to its printed digits (with a small slack for the
features' cross-ISA differences), as in tests/docs/documented_figures_test.cpp. Exits 77 (skipped) when the
data set or the kfm package is absent.
  plot_figures_test.py SOURCE_DIR DEFAULT_DATA_DIR      (KFM_DATA_DIR overrides; PYTHONPATH: <build>/python)
"""
import os
import re
import sys

SKIP = 77
METHODS = ("rff", "orf", "sorf", "qmc", "ssf", "quadrature")

# (page, row text, data set, D): the row's figures are the six methods' mean errors in METHODS order, with
# quadrature's rounded D in brackets after its error.
CHECKS = [
    ("docs/choosing.md", "| LETTER, 64 (4d) | ", "letter", 64),
    ("docs/choosing.md", "| LETTER, 256 (16d) | ", "letter", 256),
]

NUMBER = re.compile(r"[0-9]*\.?[0-9]+")


def documented(source, page, text):
    lines = [line for line in open(os.path.join(source, page), encoding="utf-8") if line.startswith(text)]
    if len(lines) != 1:
        sys.exit(f"docs-plot: {page}: {len(lines)} lines start with {text!r} (expected one)")
    return NUMBER.findall(lines[0][len(text):])


def prints_as(text, value):
    decimals = len(text.split(".")[1]) if "." in text else 0
    return abs(float(text) - value) <= 10.0 ** -decimals / 2 + 1e-6 + 2e-5 * abs(value)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    source, data_dir = sys.argv[1], os.environ.get("KFM_DATA_DIR") or sys.argv[2]
    try:
        import numpy as np
        from kfm.plot import gaussian_sigma, load_data, sweep
    except ImportError as e:
        print(f"docs-plot: skipped, the kfm Python package is not importable ({e})")
        return SKIP
    diffs, checked = [], 0
    for page, text, name, features in CHECKS:
        path = os.path.join(data_dir, name, "X_train.npy")
        if not os.path.exists(path):
            print(f"docs-plot: skipped {page} {text!r}: {path} is absent")
            continue
        X = load_data(path)
        curves = sweep(X, METHODS, "gaussian", [features], seeds=10, timing=False, sigma=gaussian_sigma(X, "median"))
        computed = []
        for method in METHODS:
            computed.append(float(np.mean(curves[method].errors[0])))
            if method == "quadrature":
                computed.append(float(curves[method].output_dims[0]))
        numbers = documented(source, page, text)
        for i, value in enumerate(computed):
            if i >= len(numbers) or not prints_as(numbers[i], value):
                shown = numbers[i] if i < len(numbers) else "(missing)"
                diffs.append(f"{page} {text!r} figure {i + 1}: - {shown} (documented)  + {value:.4g} (computed)")
        checked += 1
    if diffs:
        print("docs-plot: documented figures differ from this build's (regenerate with python3 -m kfm.plot, "
              "docs/results-accuracy.md, and fix the pages):", *diffs, sep="\n  ", file=sys.stderr)
        return 1
    if checked == 0:
        return SKIP
    print(f"docs-plot: {checked} row(s) of figures match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
