"""kfm: structured random feature maps, phi(x) . phi(y) ~ k(x, y).

`FeatureMap` builds, loads, saves and applies a map (a `.kfm` file); `Model` runs a model file (a map
plus input scaling and a linear head, from `kfm fit` or `kfm.sklearn.export`). `kfm.sklearn` has the
scikit-learn estimators. Every array goes through the allocation-free C++ runtime that devices run.
"""
import json
import os
import re

import numpy as np

from . import _kfm

__all__ = ["FeatureMap", "Model", "version", "isas", "median_sigma", "scale_sigma"]
__version__ = _kfm.version()


def version():
    """The library's version string."""
    return _kfm.version()


def isas():
    """The ISAs this build and CPU can run, best first (the `isa` argument of FeatureMap and Model)."""
    return _kfm.isa_names()


def median_sigma(X):
    """The median heuristic: the (lower) median distance between rows of X, over at most 1000 evenly
    spaced rows; what `kfm build --sigma median --data X.npy` uses."""
    return float(_kfm.median_heuristic_sigma(_rows_float32(X)))


def scale_sigma(X):
    """scikit-learn's gamma='scale' (1 / (n_features X.var())) as a Gaussian sigma = sqrt(1 / (2 gamma));
    what `kfm build --sigma scale --data X.npy` uses."""
    return float(_kfm.variance_scale_sigma(_rows_float32(X)))


def _option_words(options):
    """Keyword options -> `kfm build` words: radial_points=2 -> --radial-points 2, True -> a flag."""
    words = []
    for name, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + name.replace("_", "-")
        if value is True:
            words.append(flag)
        elif isinstance(value, (list, tuple, np.ndarray)):
            words += [flag, ",".join(repr(float(v)) for v in value)]
        elif isinstance(value, (float, np.floating)):
            words += [flag, repr(float(value))]
        else:
            words += [flag, str(value)]
    return words


def _python_names(message):
    """The C++ side names options as on the command line (--radial-points); Python calls them radial_points."""
    return re.sub(r"--([a-z][a-z-]*)", lambda m: m.group(1).replace("-", "_"), message)


def _rows_float32(X, name="X"):
    """X as a 2-D float32 C-contiguous array: the caller's own array when it already is one (no copy)."""
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_features), got shape {X.shape}")
    if X.dtype.kind not in "fiu":
        raise ValueError(f"{name} must be numeric, got dtype {X.dtype}")
    return np.ascontiguousarray(X, dtype=np.float32)


class FeatureMap:
    """A feature map phi: R^d -> R^D, held as the bytes of a verified `.kfm` file.

    FeatureMap(method="ssf", kernel="gaussian", input_dim=8, features=256, seed=1, sigma=2.0, ...) builds
    one; the keyword names are `kfm build`'s options with '_' for '-' (radial_points, fft_size,
    arccos_pairs, resample_radii=True, ...). FeatureMap.load(path) and FeatureMap.from_bytes(data) read
    one. Invalid options or files raise ValueError with the library's message.

    data (a 2-D array, rows x input_dim) is `kfm build --data`: the rows method="nystroem" chooses its
    `features` landmarks from (landmark_init="uniform" or "kmeans++"), and the rows sigma="median" or
    "scale" is computed from; any other use is refused, as by kfm build.
    """

    def __init__(self, method, kernel, input_dim, features, seed=1, isa="auto", data=None, **options):
        if data is not None:
            data = _rows_float32(data, "data")
            if options.get("sigma") in ("median", "scale"):
                finite = bool(np.isfinite(data).all())
                if data.shape[1] != input_dim or not finite:
                    raise ValueError(f"data must be finite with input_dim = {input_dim} columns, got shape "
                                     f"{data.shape}{'' if finite else ' with non-finite values'}")
                options["sigma"] = (median_sigma if options["sigma"] == "median" else scale_sigma)(data)
                if method != "nystroem":
                    data = None  # used up, as kfm build uses --data for the bandwidth alone
        # Nyström's features are its landmarks (kfm build --landmarks m).
        if "landmarks" in options:
            raise ValueError("give the number of landmarks as features (landmarks is kfm build's name for it)")
        size = {"landmarks" if method == "nystroem" else "features": features}
        words = _option_words(dict(method=method, kernel=kernel, input_dim=input_dim, **size, seed=seed, **options))
        try:
            built = _kfm.build_map(words, data)
        except ValueError as e:
            raise ValueError(_python_names(str(e))) from None
        self._open(built, isa)

    @classmethod
    def from_bytes(cls, data, isa="auto"):
        """A map from the bytes of a .kfm file (bytes, bytearray or memoryview), verified like kfm::open."""
        self = cls.__new__(cls)
        self._open(bytes(data), isa)
        return self

    @classmethod
    def load(cls, path, isa="auto"):
        """A map from a .kfm file (ValueError naming the file when it is unreadable or does not verify)."""
        data = _kfm.read_file(os.fspath(path))
        try:
            return cls.from_bytes(data, isa)
        except ValueError as e:
            raise ValueError(f"{os.fspath(path)}: {e}") from None

    def _open(self, data, isa):
        self._map = _kfm.Map(data, isa)

    def to_bytes(self):
        """The .kfm file's bytes."""
        return self._map.data()

    def save(self, path):
        """Writes the .kfm file atomically (nothing is left behind on failure)."""
        _kfm.write_file(os.fspath(path), self._map.data())

    def __getstate__(self):
        return {"data": self._map.data()}

    def __setstate__(self, state):
        self._open(state["data"], "auto")

    def __eq__(self, other):
        return isinstance(other, FeatureMap) and self.to_bytes() == other.to_bytes()

    def __hash__(self):
        return hash(self.to_bytes())

    def __repr__(self):
        return (f"FeatureMap(method={self.method!r}, kernel={self.kernel!r}, input_dim={self.input_dim}, "
                f"output_dim={self.output_dim})")

    input_dim = property(lambda self: self._map.input_dim, doc="d, the input dimension")
    output_dim = property(lambda self: self._map.output_dim, doc="D, the number of features")
    negative_dim = property(lambda self: self._map.negative_dim,
                            doc="the last negative_dim features count negatively in kernel_estimate")
    method = property(lambda self: self._map.method)
    kernel = property(lambda self: self._map.kernel)
    isa = property(lambda self: self._map.isa, doc="the ISA the runtime runs this map with")

    def workspace_bytes(self, batch=1):
        """Scratch bytes the runtime needs to map `batch` rows at once (what a device must reserve)."""
        return self._map.workspace_bytes(batch)

    def inspect(self):
        """What `kfm inspect --json` reports: kernel parameters, dims, projection, sections, sizes."""
        info = json.loads(self._map.inspect_json(""))
        del info["file"]
        return info

    def transform(self, X, n_jobs=None):
        """phi of every row of X (n, input_dim): float32 (n, output_dim) for float32 input, float64 for
        float64 input (computed in float32). C or Fortran order; a float32 C-contiguous X is read in
        place. Rows are split over n_jobs threads (None or -1: every core) with the GIL released."""
        X = np.asarray(X)
        out_dtype = np.float64 if X.dtype == np.float64 else np.float32
        rows = _rows_float32(X)
        if rows.shape[1] != self.input_dim:
            raise ValueError(f"X has {rows.shape[1]} features, but the map expects {self.input_dim}")
        out = np.empty((rows.shape[0], self.output_dim), dtype=np.float32)
        self._map.transform(rows, out, _threads(n_jobs))
        return out if out_dtype == np.float32 else out.astype(np.float64)

    def kernel_estimate(self, phi_x, phi_y):
        """phi_x . phi_y with the signature of the negative features: the kernel estimate k^(x, y)."""
        return self._map.kernel_estimate(np.ascontiguousarray(phi_x, dtype=np.float32),
                                         np.ascontiguousarray(phi_y, dtype=np.float32))

    def kernel_matrix(self, X, Y=None, n_jobs=None):
        """The estimated Gram matrix K^(X, Y) = phi(X) J phi(Y)^T (J: the features' signature), float64."""
        phi_x = self.transform(_rows_float32(X), n_jobs).astype(np.float64)
        phi_y = phi_x if Y is None else self.transform(_rows_float32(Y), n_jobs).astype(np.float64)
        positive = self.output_dim - self.negative_dim
        phi_y = phi_y.copy()
        phi_y[:, positive:] *= -1.0
        return phi_x @ phi_y.T

    def exact_kernel(self, X, Y=None):
        """The exact kernel the map approximates, K(X, Y) in float64 (a model's scaling is not applied)."""
        X = _rows_float32(X)
        return self._map.exact_gram(X, X if Y is None else _rows_float32(Y, "Y"))


def _threads(n_jobs):
    if n_jobs is None or n_jobs == -1:
        return 0
    if not isinstance(n_jobs, (int, np.integer)) or n_jobs < 1:
        raise ValueError(f"n_jobs must be a positive integer, -1 or None, got {n_jobs!r}")
    return int(n_jobs)


class Model:
    """A model file (map + input scaling + linear head): Model(path) or Model.from_bytes(data).

    predict(X) gives labels (classifiers, in the user's label values) or values (regression), computed by
    the same kfm::predict a device runs; decision_function(X) the scores; score(X, y) the accuracy or R^2.
    """

    def __init__(self, path, isa="auto"):
        self._map = FeatureMap.load(path, isa)._map
        self._require_head(os.fspath(path))

    @classmethod
    def from_bytes(cls, data, isa="auto"):
        self = cls.__new__(cls)
        self._map = FeatureMap.from_bytes(data, isa)._map
        self._require_head("the data")
        return self

    def _require_head(self, where):
        if self._map.task is None:
            raise ValueError(f"{where} is a feature map without a model head (fit one with kfm fit or "
                             "kfm.sklearn.export)")

    task = property(lambda self: self._map.task, doc="'regression', 'binary' or 'multiclass'")
    classes_ = property(lambda self: np.array(self._map.class_labels, dtype=np.int32),
                        doc="the class labels (classifiers)")
    input_dim = property(lambda self: self._map.input_dim)
    n_outputs = property(lambda self: self._map.head_outputs)

    def feature_map(self):
        """The model file as a FeatureMap (its transform applies the model's input scaling first)."""
        return FeatureMap.from_bytes(self._map.data())

    def _run(self, X):
        rows = _rows_float32(X)
        if rows.shape[1] != self.input_dim:
            raise ValueError(f"X has {rows.shape[1]} features, but the model expects {self.input_dim}")
        scores = np.empty((rows.shape[0], self.n_outputs), dtype=np.float32)
        labels = np.zeros(rows.shape[0], dtype=np.int32)
        self._map.predict(rows, scores, labels)
        return scores, labels

    def decision_function(self, X):
        """The scores HEAD phi(x) + BIAS: shape (n,) for one output, (n, k) otherwise."""
        scores, _ = self._run(X)
        return scores[:, 0] if self.n_outputs == 1 else scores

    def predict(self, X):
        """Class labels (classifiers) or predicted values (regression, (n,) or (n, k))."""
        scores, labels = self._run(X)
        if self.task != "regression":
            return labels
        return scores[:, 0] if self.n_outputs == 1 else scores

    def score(self, X, y):
        """Accuracy (classifiers) or R^2 (regression, averaged uniformly over outputs), as scikit-learn."""
        y = np.asarray(y)
        predicted = self.predict(X)
        if self.task != "regression":
            return float(np.mean(predicted == y.reshape(predicted.shape)))
        y = y.reshape(predicted.shape).astype(np.float64)
        residual = ((y - predicted) ** 2).sum(axis=0)
        total = ((y - y.mean(axis=0)) ** 2).sum(axis=0)
        # A constant column scores 1 when predicted exactly, else 0 (r2_score's convention, as `kfm score`).
        constant = total == 0
        per_output = np.where(constant, np.where(residual == 0, 1.0, 0.0),
                              1.0 - residual / np.where(constant, 1.0, total))
        return float(np.mean(per_output))
