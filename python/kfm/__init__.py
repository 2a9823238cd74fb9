"""kfm: structured random feature maps, phi(x) . phi(y) ~ k(x, y).

`FeatureMap` builds, loads, saves and applies a map (a `.kfm` file); `Model` runs a model file (a map
plus input scaling and a linear head, from `kfm fit` or `kfm.sklearn.export`). `kfm.sklearn` has the
scikit-learn estimators. Every array goes through the allocation-free C++ runtime that devices run.
"""
from __future__ import annotations

import json
import os
import warnings
from typing import Any, Dict, List, Optional, Union

import numpy as np
import numpy.typing as npt

from . import _kfm

__all__ = ["FeatureMap", "Model", "version", "isas", "median_sigma", "scale_sigma", "METHODS", "BUILD_OPTIONS"]
__version__ = _kfm.version()

#: A file name: a str or an os.PathLike such as pathlib.Path.
PathLike = Union[str, "os.PathLike[str]"]


def version() -> str:
    """The library's version string, e.g. "0.2.0" (the same as `kfm --version`)."""
    return _kfm.version()


def isas() -> List[str]:
    """The ISAs this build and CPU can run, best first.

    Returns
    -------
    list of str
        Names such as "avx512", "avx2", "scalar": the values the `isa` argument of FeatureMap and
        Model accepts besides "auto".
    """
    return _kfm.isa_names()


def median_sigma(X: npt.ArrayLike) -> float:
    """The median heuristic bandwidth, as `kfm build --sigma median --data X.npy` computes it.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Numeric rows (converted to float32).

    Returns
    -------
    float
        The (lower) median Euclidean distance between rows of X, over at most 1000 evenly spaced rows.
    """
    return float(_kfm.median_heuristic_sigma(_rows_float32(X)))


def scale_sigma(X: npt.ArrayLike) -> float:
    """scikit-learn's gamma="scale" as a Gaussian sigma, as `kfm build --sigma scale --data X.npy`.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Numeric rows (converted to float32).

    Returns
    -------
    float
        sigma = sqrt(1 / (2 gamma)) with gamma = 1 / (n_features * X.var()).
    """
    return float(_kfm.variance_scale_sigma(_rows_float32(X)))


#: The methods of this build, from the library's method registry: name -> {"summary", "kernels",
#: "options", "landmarks_from_data", "fitted_to_data"}.
METHODS: Dict[str, Dict[str, Any]] = {row["name"]: row for row in _kfm.method_table()}


def _reads_data(method: str) -> bool:
    """Whether `method` builds from the data rows: its landmarks (nystroem) or its fit (maclaurin-opt)."""
    row = METHODS.get(method, {})
    return bool(row.get("landmarks_from_data", False) or row.get("fitted_to_data", False))

#: The build options, from the library's option table: Python name -> {"command_line", "type", "choices",
#: "default", "group", "kernels", "help"} (`kfm help build` prints the same table).
BUILD_OPTIONS: Dict[str, Dict[str, Any]] = {row["name"]: row for row in _kfm.option_table()}


def _warn_vanished_rows(vanished: int, rows: int, kernel: str, method: str, stacklevel: int,
                        consequence: str = "") -> None:
    """The RuntimeWarning about rows whose features are all 0 where the kernel's k(x, x) > 0 (kfm map's;
    the library counts them: kfm/offline/vanishing_features.hpp states which maps can have them), attributed
    to the caller `stacklevel` frames above this function's caller."""
    if not vanished:
        return
    # Arc-cosine's k(x, x) = |x|^(2b) J_b(0) / pi is positive for x != 0; the other kernels that can vanish have 1.
    arccos = kernel == "arccos"
    where = ("rows on the negative side of every direction of a map without reflected pairs; arccos_pairs='reflected' "
             "has none") if arccos else f"rows far from the data the {method} map was built from"
    warnings.warn(f"{vanished} of {rows} rows of X have all-zero features, so the map estimates k(x, x) = 0 for "
                  f"them where the {kernel} kernel's is {'positive' if arccos else 1}{consequence} ({where})",
                  RuntimeWarning, stacklevel=stacklevel + 2)


def _require_dense(X: Any, name: str = "X") -> None:
    """TypeError for a SciPy sparse matrix or array, which np.asarray would turn into a 0-d object array."""
    if type(X).__module__.startswith("scipy.sparse"):
        raise TypeError(f"{name} is a sparse {type(X).__name__}: kfm maps dense rows only; convert it with "
                        f"{name}.toarray() (the features of a sparse row are dense anyway)")


def _rows_float32(X: npt.ArrayLike, name: str = "X") -> npt.NDArray[np.float32]:
    """X as a 2-D float32 C-contiguous array: the caller's own array when it already is one (no copy)."""
    _require_dense(X, name)
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_samples, n_features), got shape {X.shape}")
    if X.dtype.kind not in "fiu":
        raise ValueError(f"{name} must be numeric, got dtype {X.dtype}")
    if X.dtype.kind != "f" or X.dtype.itemsize <= 4:
        return np.ascontiguousarray(X, dtype=np.float32)
    # A finite float64 beyond float32's range would become an infinite input X does not hold: refused by
    # position, as `kfm map` refuses it in a .npy file.
    with np.errstate(over="raise"):
        try:
            return np.ascontiguousarray(X, dtype=np.float32)
        except FloatingPointError:
            pass
    with np.errstate(over="ignore"):
        row, column = np.argwhere(np.isinf(X.astype(np.float32)) & np.isfinite(X))[0]
    raise ValueError(f"{name}: row {row}, column {column} holds {X[row, column]:.9g}, beyond float32's range "
                     "(about +-3.4e38), in which kfm computes; rescale the data")


class FeatureMap:
    """A feature map phi: R^d -> R^D, held as the bytes of a verified `.kfm` file.

    ``FeatureMap(method, kernel, input_dim, features, ...)`` builds one, as `kfm build` does (the same
    seed and options give the same bytes); ``FeatureMap.load(path)`` and ``FeatureMap.from_bytes(data)``
    read one. phi(x) . phi(y) approximates k(x, y) (with the signature of the last `negative_dim`
    features, see `kernel_estimate`).

    Parameters
    ----------
    method : str
        A method of `kfm.METHODS` (the library's method registry: each entry lists the kernels it
        builds, as `kfm help build` does).
    kernel : str
        gaussian, matern, rational-quadratic, laplacian, arccos, polynomial-sphere or delta-gaussian.
    input_dim : int
        d, the number of inputs.
    features : int
        The requested number of features D; a method with a natural granularity rounds it
        (`output_dim` is the real number). For nystroem, the number of landmarks.
    seed : int, default=1
        The random seed (`kfm build --seed`).
    isa : str, default="auto"
        "auto" (the best ISA of this CPU) or one of `kfm.isas()`: pins the runtime's kernels. A pinned
        ISA is part of the map's identity: it survives pickling and kfm.dask (a host without that ISA
        refuses the map rather than computing other float bits), and maps are equal when their bytes
        and `requested_isa` are.
    data : array-like of shape (n_samples, input_dim), optional
        `kfm build --data`: the rows method="nystroem" chooses its landmarks from
        (landmark_init="uniform" or "kmeans++"), the rows method="maclaurin-opt" fits its degrees to
        (and, for the gaussian, centres on; the map depends on them), and the rows sigma="median" or
        "scale" is computed from; any other use is refused, as by kfm build.
    **options
        The other `kfm build` options with "_" for "-" (`kfm.BUILD_OPTIONS`, the library's option
        table): sigma (a number, "median" or "scale"), nu, alpha, order, degree, scale, weights,
        sigmas, radial_points, radial_rule, sweeps, fft_size, resample_radii=True, haar_rotations=True,
        partial_rule=True, permutation, gq_nodes, spectral, directions, arccos_pairs, landmark_init,
        progress=True. None leaves an option at its default, `kfm build`'s (`kfm help build`).

    Raises
    ------
    ValueError
        For an invalid option or combination, with the library's message (options named as here).
    """

    def __init__(self, method: str, kernel: str, input_dim: int, features: int, seed: int = 1, isa: str = "auto",
                 data: Optional[npt.ArrayLike] = None, **options: Any) -> None:
        if data is not None:
            data = _rows_float32(data, "data")
            if options.get("sigma") in ("median", "scale"):
                finite = bool(np.isfinite(data).all())
                if data.shape[1] != input_dim or not finite:
                    raise ValueError(f"data must be finite with input_dim = {input_dim} columns, got shape "
                                     f"{data.shape}{'' if finite else ' with non-finite values'}")
                options["sigma"] = (median_sigma if options["sigma"] == "median" else scale_sigma)(data)
                if not _reads_data(method):
                    data = None  # used up, as kfm build uses --data for the bandwidth alone
        # A method that chooses its landmarks from data (nystroem) has them as its features (kfm build
        # --landmarks m).
        if "landmarks" in options:
            raise ValueError("give the number of landmarks as features (landmarks is kfm build's name for it)")
        landmarks = METHODS.get(method, {}).get("landmarks_from_data", False)
        size = {"landmarks" if landmarks else "features": features}
        built = _kfm.build_map(dict(method=method, kernel=kernel, input_dim=input_dim, **size, seed=seed, **options), data)
        self._open(built, isa)

    @classmethod
    def from_bytes(cls, data: Union[bytes, bytearray, memoryview], isa: str = "auto") -> "FeatureMap":
        """A map from the bytes of a .kfm file, verified as kfm::open verifies them.

        Parameters
        ----------
        data : bytes, bytearray or memoryview
            The whole file.
        isa : str, default="auto"
            As for the constructor.

        Raises
        ------
        ValueError
            When the bytes are not a valid .kfm file (the verifier's reason).
        """
        self = cls.__new__(cls)
        self._open(bytes(data), isa)
        return self

    @classmethod
    def load(cls, path: PathLike, isa: str = "auto") -> "FeatureMap":
        """A map from a .kfm file.

        Parameters
        ----------
        path : str or os.PathLike
            The file.
        isa : str, default="auto"
            As for the constructor.

        Raises
        ------
        FileNotFoundError
            When the file does not exist.
        ValueError
            Naming the file, when it is not a readable regular file or does not verify.
        """
        data = _kfm.read_file(os.fspath(path))
        try:
            return cls.from_bytes(data, isa)
        except ValueError as e:
            raise ValueError(f"{os.fspath(path)}: {e}") from None

    def _open(self, data: bytes, isa: str) -> None:
        self._map = _kfm.Map(data, isa)
        self._requested_isa = isa
        # The library's rule (inspect's "features_can_vanish"): transform then counts the rows whose features
        # are all 0 where the kernel's k(x, x) > 0, and warns.
        self._rows_can_vanish = bool(json.loads(self._map.inspect_json(""))["features_can_vanish"])

    def to_bytes(self) -> bytes:
        """The .kfm file's bytes."""
        return self._map.data()

    def save(self, path: PathLike) -> None:
        """Writes the .kfm file atomically: on failure nothing is left behind and an existing file is kept.

        Parameters
        ----------
        path : str or os.PathLike
            The file to write (replaced when it exists).
        """
        _kfm.write_file(os.fspath(path), self._map.data())

    def __getstate__(self) -> Dict[str, Any]:
        return {"data": self._map.data(), "isa": self._requested_isa}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self._open(state["data"], state.get("isa", "auto"))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, FeatureMap) and self.to_bytes() == other.to_bytes()
                and self.requested_isa == other.requested_isa)

    def __hash__(self) -> int:
        return hash((self.to_bytes(), self.requested_isa))

    def __repr__(self) -> str:
        pinned = "" if self.requested_isa == "auto" else f", isa={self.requested_isa!r}"
        return (f"FeatureMap(method={self.method!r}, kernel={self.kernel!r}, input_dim={self.input_dim}, "
                f"output_dim={self.output_dim}{pinned})")

    @property
    def input_dim(self) -> int:
        """d, the input dimension."""
        return self._map.input_dim

    @property
    def output_dim(self) -> int:
        """D, the number of features."""
        return self._map.output_dim

    @property
    def negative_dim(self) -> int:
        """The last negative_dim features count negatively in kernel_estimate (0 for most maps)."""
        return self._map.negative_dim

    @property
    def method(self) -> str:
        """The method that built the map, e.g. "ssf"."""
        return self._map.method

    @property
    def kernel(self) -> str:
        """The kernel the map approximates, e.g. "gaussian"."""
        return self._map.kernel

    @property
    def isa(self) -> str:
        """The ISA the runtime runs this map with."""
        return self._map.isa

    @property
    def requested_isa(self) -> str:
        """The isa argument the map was opened with: "auto" or the pinned ISA."""
        return self._requested_isa

    def workspace_bytes(self, batch: int = 1) -> int:
        """Scratch bytes the runtime needs to map `batch` rows at once (what a device must reserve).

        Parameters
        ----------
        batch : int, default=1
            Rows per call (kfm::transform_batch).
        """
        return self._map.workspace_bytes(batch)

    def inspect(self) -> Dict[str, Any]:
        """What `kfm inspect --json` reports: kernel parameters, dims, projection, sections, sizes.

        Returns
        -------
        dict
            The JSON object as Python values.
        """
        info = json.loads(self._map.inspect_json(""))
        del info["file"]
        return info

    def transform(self, X: npt.ArrayLike, n_jobs: Optional[int] = None) -> np.ndarray:
        """phi of every row of X.

        Parameters
        ----------
        X : array-like of shape (n_samples, input_dim)
            Numeric rows, C or Fortran order; a float32 C-contiguous X is read in place.
        n_jobs : int, optional
            Threads the rows are split over, with the GIL released (None or -1: every core).

        Returns
        -------
        ndarray of shape (n_samples, output_dim)
            float64 for float64 X (computed in float32), float32 otherwise.

        Raises
        ------
        ValueError
            For a wrong number of columns, or rows the runtime refuses (NaN or infinity), naming them.

        Warns
        -----
        RuntimeWarning
            When rows get all-zero features where the kernel's k(x, x) > 0, so k(x, x) is estimated 0 there:
            far from the data a nystroem or gaussian maclaurin-opt map was built from, or (arc-cosine maps
            with arccos_pairs="plain") on the negative side of every direction of the map. Other maps
            cannot give such rows (inspect()'s "features_can_vanish" is False for them).
        """
        _require_dense(X)
        X = np.asarray(X)
        out_dtype = np.float64 if X.dtype == np.float64 else np.float32
        rows = _rows_float32(X)
        if rows.shape[1] != self.input_dim:
            raise ValueError(f"X has {rows.shape[1]} features, but the map expects {self.input_dim}")
        out = np.empty((rows.shape[0], self.output_dim), dtype=np.float32)
        self._map.transform(rows, out, _threads(n_jobs))
        if self._rows_can_vanish:
            _warn_vanished_rows(self._map.vanished_rows(rows, out), rows.shape[0], self.kernel, self.method, 1)
        return out if out_dtype == np.float32 else out.astype(np.float64)

    def kernel_estimate(self, phi_x: npt.ArrayLike, phi_y: npt.ArrayLike) -> float:
        """The kernel estimate k^(x, y) = phi_x . J phi_y, J = diag(1, ..., 1, -1, ..., -1) with
        negative_dim entries -1.

        Parameters
        ----------
        phi_x, phi_y : array-like of shape (output_dim,)
            Two rows of `transform`'s output.
        """
        return self._map.kernel_estimate(np.ascontiguousarray(phi_x, dtype=np.float32),
                                         np.ascontiguousarray(phi_y, dtype=np.float32))

    def kernel_matrix(self, X: npt.ArrayLike, Y: Optional[npt.ArrayLike] = None,
                      n_jobs: Optional[int] = None) -> npt.NDArray[np.float64]:
        """The estimated Gram matrix K^(X, Y) = phi(X) J phi(Y)^T (J: the features' signature).

        Parameters
        ----------
        X : array-like of shape (n_x, input_dim)
        Y : array-like of shape (n_y, input_dim), optional
            X when None.
        n_jobs : int, optional
            As for `transform`.

        Returns
        -------
        ndarray of shape (n_x, n_y), float64
        """
        phi_x = self.transform(_rows_float32(X), n_jobs).astype(np.float64)
        phi_y = phi_x if Y is None else self.transform(_rows_float32(Y), n_jobs).astype(np.float64)
        positive = self.output_dim - self.negative_dim
        phi_y = phi_y.copy()
        phi_y[:, positive:] *= -1.0
        return phi_x @ phi_y.T

    def exact_kernel(self, X: npt.ArrayLike, Y: Optional[npt.ArrayLike] = None) -> npt.NDArray[np.float64]:
        """The exact kernel the map approximates, K(X, Y), for comparison with `kernel_matrix`.

        Parameters
        ----------
        X : array-like of shape (n_x, input_dim)
        Y : array-like of shape (n_y, input_dim), optional
            X when None.

        Returns
        -------
        ndarray of shape (n_x, n_y), float64
            Computed on the inputs as given (a model file's input scaling is not applied).
        """
        X = _rows_float32(X)
        return self._map.exact_gram(X, X if Y is None else _rows_float32(Y, "Y"))


def _threads(n_jobs: Optional[int]) -> int:
    if n_jobs is None or n_jobs == -1:
        return 0
    if not isinstance(n_jobs, (int, np.integer)) or n_jobs < 1:
        raise ValueError(f"n_jobs must be a positive integer, -1 or None, got {n_jobs!r}")
    return int(n_jobs)


def _check_class_labels(y: np.ndarray) -> None:
    """ValueError for labels no model file holds (integers within int32, as kfm fit and kfm score require):
    they would be scored as misses without a word."""
    if y.dtype.kind not in "iuf":
        raise ValueError(f"y: class labels must be integers, got dtype {y.dtype}")
    values = y.astype(np.float64)
    bad = ~np.isfinite(values) | (values != np.floor(values)) | (values < -2.0**31) | (values > 2.0**31 - 1)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"y: value {y[row]!r} at row {row} is not an integer class label within int32")


class Model:
    """A model file: input scaling, feature map and linear head, from `kfm fit` or `kfm.sklearn.export`.

    predict(X) gives labels (classifiers, in the user's label values) or values (regression), computed by
    the same kfm::predict a device runs; decision_function(X) the scores; score(X, y) the accuracy or R^2.

    Parameters
    ----------
    path : str or os.PathLike
        The model file (``Model.from_bytes(data)`` reads one from memory).
    isa : str, default="auto"
        "auto" or one of `kfm.isas()`, as for FeatureMap.

    Raises
    ------
    FileNotFoundError
        When the file does not exist.
    ValueError
        When the file does not verify, or is a feature map without a model head.
    """

    def __init__(self, path: PathLike, isa: str = "auto") -> None:
        self._adopt(FeatureMap.load(path, isa), isa)
        self._require_head(os.fspath(path))

    @classmethod
    def from_bytes(cls, data: Union[bytes, bytearray, memoryview], isa: str = "auto") -> "Model":
        """A model from the bytes of a model file (verified as kfm::open verifies them).

        Parameters
        ----------
        data : bytes, bytearray or memoryview
            The whole file.
        isa : str, default="auto"
            As for the constructor.
        """
        self = cls.__new__(cls)
        self._adopt(FeatureMap.from_bytes(data, isa), isa)
        self._require_head("the data")
        return self

    def _adopt(self, feature_map: FeatureMap, isa: str) -> None:
        self._map = feature_map._map
        self._requested_isa = isa
        self._rows_can_vanish = feature_map._rows_can_vanish

    def _require_head(self, where: str) -> None:
        if self._map.task is None:
            raise ValueError(f"{where} is a feature map without a model head (fit one with kfm fit or "
                             "kfm.sklearn.export)")

    @property
    def task(self) -> str:
        """"regression", "binary" or "multiclass"."""
        return str(self._map.task)

    @property
    def classes_(self) -> np.ndarray:
        """The class labels (classifiers; empty for regression), in the integer dtype they were trained in
        (the model file records it when `kfm.sklearn.export` wrote it; int32 otherwise)."""
        return np.array(self._map.class_labels, dtype=self._map.label_type)

    @property
    def input_dim(self) -> int:
        """The number of inputs a row has."""
        return self._map.input_dim

    @property
    def n_outputs(self) -> int:
        """The head's outputs: 1 for regression and binary models, the number of classes for multiclass."""
        return self._map.head_outputs

    def feature_map(self) -> FeatureMap:
        """The model file as a FeatureMap (its transform applies the model's input scaling first)."""
        return FeatureMap.from_bytes(self._map.data(), self._requested_isa)

    def _run(self, X: npt.ArrayLike) -> "tuple[np.ndarray, np.ndarray]":
        rows = _rows_float32(X)
        if rows.shape[1] != self.input_dim:
            raise ValueError(f"X has {rows.shape[1]} features, but the model expects {self.input_dim}")
        scores = np.empty((rows.shape[0], self.n_outputs), dtype=np.float32)
        labels = np.zeros(rows.shape[0], dtype=np.int32)
        self._map.predict(rows, scores, labels)
        if self._rows_can_vanish:
            # A row whose features are all 0 scores the head's bias exactly: only those rows are mapped again.
            _warn_vanished_rows(self._map.vanished_predictions(rows, scores), rows.shape[0], self._map.kernel,
                                self._map.method, 2, ", and the model predicts its bias alone")
        return scores, labels

    def decision_function(self, X: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """The scores HEAD phi(x) + BIAS, computed by kfm::predict.

        Parameters
        ----------
        X : array-like of shape (n_samples, input_dim)

        Returns
        -------
        ndarray, float32
            Shape (n_samples,) for one output, (n_samples, n_outputs) otherwise.

        Warns
        -----
        RuntimeWarning
            As `FeatureMap.transform`, when rows get all-zero features where the kernel's k(x, x) > 0: the
            model predicts its bias alone for them (the rows scoring the bias exactly are mapped again to
            count them; the output is unchanged).
        """
        scores, _ = self._run(X)
        return scores[:, 0] if self.n_outputs == 1 else scores

    def predict(self, X: npt.ArrayLike) -> np.ndarray:
        """Class labels (classifiers) or predicted values (regression), computed by kfm::predict.

        Parameters
        ----------
        X : array-like of shape (n_samples, input_dim)

        Returns
        -------
        ndarray
            Labels (n_samples,) for classifiers, of `classes_`'s dtype (a pipeline's own label dtype
            when `kfm.sklearn.export` wrote the file); values (n_samples,) or (n_samples, n_outputs) for
            regression.

        Warns
        -----
        RuntimeWarning
            As `FeatureMap.transform`, when rows get all-zero features where the kernel's k(x, x) > 0: the
            model predicts its bias alone for them (the rows scoring the bias exactly are mapped again to
            count them; the output is unchanged).
        """
        return self._predicted(*self._run(X))

    def _predicted(self, scores: np.ndarray, labels: np.ndarray) -> np.ndarray:
        if self.task != "regression":
            return labels.astype(self._map.label_type)  # exact: the file's labels fit their type
        return scores[:, 0] if self.n_outputs == 1 else scores

    def score(self, X, y):
        """Accuracy (classifiers) or R^2 (regression, averaged uniformly over outputs), as scikit-learn.

        Parameters
        ----------
        X : array-like of shape (n_samples, input_dim)
        y : array-like of shape (n_samples,) or (n_samples, n_outputs)
            The true labels or values.

        Raises
        ------
        ValueError
            For a classifier, when y holds a value that is not an integer within int32 (as `kfm score`;
            it could only be scored as a miss).

        Warns
        -----
        RuntimeWarning
            As `FeatureMap.transform`, when rows get all-zero features where the kernel's k(x, x) > 0: the
            model predicts its bias alone for them (the rows scoring the bias exactly are mapped again to
            count them; the output is unchanged).
        """
        y = np.asarray(y)
        predicted = self._predicted(*self._run(X))
        if self.task != "regression":
            y = y.reshape(predicted.shape)
            _check_class_labels(y)
            return float(np.mean(predicted == y))
        y = y.reshape(predicted.shape).astype(np.float64)
        residual = ((y - predicted) ** 2).sum(axis=0)
        total = ((y - y.mean(axis=0)) ** 2).sum(axis=0)
        # A constant target (total 0) scores 1 when predicted exactly and 0 otherwise, as r2_score does.
        r2 = np.where(total > 0, 1.0 - residual / np.where(total > 0, total, 1.0), np.where(residual == 0, 1.0, 0.0))
        return float(np.mean(r2))
