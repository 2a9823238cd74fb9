"""A fitted scikit-learn Pipeline -> a kfm model file (input scaling, feature map, linear head).

Supported pipelines: an optional StandardScaler or MinMaxScaler (clip=False), a fitted kfm transformer
(anything with a `feature_map_` FeatureMap, e.g. kfm.sklearn.RandomFeatures) and one linear head:
Ridge, SGDRegressor (regression, Ridge also with several outputs), RidgeClassifier, LogisticRegression,
LinearSVC, SGDClassifier (binary or multiclass, integer labels). Every head's prediction is a linear
decision function of the features followed by the rule the model file stores (sign for binary, argmax
for multiclass), so kfm.Model(path).predict(X) equals pipeline.predict(X).

The model runs in float32 (a device's inputs are float32 and PREP computes (x - shift) * scale in
float32), where the pipeline scales in float64. That is equal to float rounding for ordinary data, but a
column whose values float32 cannot resolve at the scaler's scale (Unix timestamps, values offset by
1e8) would give another answer. So export checks the model it made against the pipeline before it
returns anything: on the rows X it is given, or else on rows drawn from the scaler's own statistics, the
model's labels must equal the pipeline's and its scores (values for regression) must be within
SCORE_TOLERANCE relative to max(|score|, 1); otherwise it raises ValueError naming the column whose
scaling float32 cannot hold, and writes nothing.
"""
from __future__ import annotations

import os
import re
import warnings
from typing import Any, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression, Ridge, RidgeClassifier, SGDClassifier, SGDRegressor
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler
from sklearn.svm import LinearSVC
from sklearn.utils.validation import check_is_fitted

from . import FeatureMap, Model, _kfm


def _python_names(message: str) -> str:
    """The C header's checks name options as `kfm export` does (--name); Python calls them name."""
    return re.sub(r"--([a-z][a-z-]*)", lambda m: m.group(1).replace("-", "_"), message)

__all__ = ["export", "export_bytes", "SCORE_TOLERANCE"]

# The documented agreement between a model and its pipeline: scores within this much relative to
# max(|score|, 1), labels identical except where the pipeline's own top two scores tie within it.
SCORE_TOLERANCE = 1e-4
# Rows drawn from the scaler's statistics when export is given no rows to check on.
_STATISTICS_ROWS = 256

_SCALERS = (StandardScaler, MinMaxScaler)
_REGRESSORS = (Ridge, SGDRegressor)
_CLASSIFIERS = (RidgeClassifier, LogisticRegression, LinearSVC, SGDClassifier)
_SUPPORTED = ("a fitted sklearn.pipeline.Pipeline of: an optional StandardScaler or MinMaxScaler, a fitted kfm "
              "transformer (kfm.sklearn.RandomFeatures or anything with a feature_map_), and one of "
              "Ridge, SGDRegressor, RidgeClassifier, LogisticRegression, LinearSVC, SGDClassifier")
_INT32 = np.iinfo(np.int32)
# Model sections (docs/format.md); a transformer's map must carry none of them.
_MODEL_SECTIONS = {"PREP", "TASK", "HEAD", "HDI8", "HSCL", "BIAS", "LABL"}


def export(pipeline: Pipeline, path: Union[str, "os.PathLike[str]"], X: Optional[npt.ArrayLike] = None,
           c_header: Union[str, "os.PathLike[str]", None] = None, name: str = "kfm_model",
           head_dtype: str = "f32") -> bytes:
    """Writes the model file of a fitted pipeline (atomically) and returns its bytes.

    Parameters
    ----------
    pipeline : sklearn.pipeline.Pipeline
        Fitted: an optional StandardScaler or MinMaxScaler, a kfm transformer (RandomFeatures) and
        one of Ridge, SGDRegressor, RidgeClassifier, LogisticRegression, LinearSVC, SGDClassifier.
    path : str or os.PathLike
        The model file to write (kfm.Model, `kfm predict` and kfm::predict on a device read it).
    X : array-like of shape (n_samples, n_features), optional
        Rows (e.g. the test rows) on which the model is checked against the pipeline. Without them
        the check uses 256 rows drawn from the scaler's statistics (StandardScaler: mean_ + scale_ z
        with z standard normal, a spread of 1 without scale_; MinMaxScaler: uniform between
        data_min_ and data_max_), and a pipeline without a scaler, whose model computes what the
        pipeline does, is not checked.
    c_header : str or os.PathLike, optional
        Also writes the model as a C99 header for firmware, as `kfm export FILE --c-header OUT.h`
        does: an 8-byte aligned array `name`, NAME_SIZE, NAME_INPUT_DIM, NAME_OUTPUT_COUNT,
        NAME_WORKSPACE_BYTES and NAME_FIRMWARE_WORKSPACE_BYTES (NAME: `name` in upper case; the two
        workspace figures are equal, the second kept for headers that use it). Both files are written,
        or neither.
    name : str, default="kfm_model"
        The header's array: a lower-case C identifier that is not a keyword, reserved or a name kfm.h
        declares.
    head_dtype : {"f32", "int8"}, default="f32"
        "int8" stores the head's weights as int8 with one float32 scale per output (a quarter of the
        head's bytes, format 1.3): the check above is made on the float32 model, and the int8 model's
        scores then differ from the pipeline's by the rounding of the weights (each within half its
        output's scale, max |w| / 127).

    Returns
    -------
    bytes
        The model file's bytes.

    Raises
    ------
    TypeError
        For a pipeline with steps other than the supported ones (the message lists them).
    ValueError
        For an unfitted pipeline, one the model file cannot represent (non-integer labels,
        MinMaxScaler(clip=True), a transformer whose map already carries a model, a scaler before a
        maclaurin-opt gaussian map, which centres its inputs itself), one whose model
        would disagree with it beyond SCORE_TOLERANCE (the message names the column), or a `name` the
        header cannot use, or an unknown head_dtype. Nothing is written then.
    """
    data = export_bytes(pipeline, X, head_dtype)
    if c_header is None:
        _kfm.write_file(os.fspath(path), data)
    else:
        try:
            _kfm.write_with_c_header(os.fspath(path), data, os.fspath(c_header), name)
        except ValueError as e:
            raise ValueError(_python_names(str(e))) from None
    return data


def export_bytes(pipeline: Pipeline, X: Optional[npt.ArrayLike] = None, head_dtype: str = "f32") -> bytes:
    """The bytes of the model file `export` would write, without writing them.

    Parameters
    ----------
    pipeline : sklearn.pipeline.Pipeline
        As for `export`.
    X : array-like of shape (n_samples, n_features), optional
        As for `export`: the rows the model is checked against the pipeline on.
    head_dtype : {"f32", "int8"}, default="f32"
        As for `export`.

    Returns
    -------
    bytes
        The model file, verified as kfm::open verifies it. Raises as `export` does.
    """
    if head_dtype not in ("f32", "int8"):
        raise ValueError(f"head_dtype must be 'f32' or 'int8', got {head_dtype!r}")
    if not isinstance(pipeline, Pipeline):
        raise TypeError(f"export takes {_SUPPORTED}; got {type(pipeline).__name__}")
    steps = [(name, step) for name, step in pipeline.steps if step is not None and step != "passthrough"]
    if len(steps) not in (2, 3):
        raise TypeError(f"export takes {_SUPPORTED}; got steps {[name for name, _ in steps]}")
    scaler = steps[0] if len(steps) == 3 else None
    (map_name, transformer), (head_name, head) = steps[-2], steps[-1]

    feature_map = _feature_map(map_name, transformer)
    if scaler and feature_map.inspect()["gaussian_prefactor"]:
        raise ValueError(f"step '{scaler[0]}': the map of step '{map_name}' ({feature_map.method}, "
                         f"{feature_map.kernel}) centres and scales its inputs itself (PREP, fitted to the rows at "
                         "build), so a model file cannot hold a scaler before it; fit the pipeline without the "
                         "scaler (the map's own centring replaces it)")
    shift, scale = _scaling(scaler, feature_map.input_dim) if scaler else (None, None)
    task, weights, bias, labels, label_type = _head(head_name, head, feature_map.output_dim)
    data = _kfm.model_bytes(feature_map.to_bytes(), shift, scale, task, weights, bias, labels, "f32", label_type)
    rows = _check_rows(X, scaler, feature_map.input_dim)
    if rows is not None:
        _check_model(pipeline, Model.from_bytes(data), rows, scaler, shift, scale)
    if head_dtype != "f32":
        data = _kfm.model_bytes(feature_map.to_bytes(), shift, scale, task, weights, bias, labels, head_dtype,
                                label_type)
    return data


def _require_fitted(name: str, step: Any) -> None:
    try:
        check_is_fitted(step)
    except NotFittedError:
        raise ValueError(f"step '{name}' ({type(step).__name__}) is not fitted: fit the pipeline before "
                         "exporting it") from None


def _feature_map(name: str, transformer: Any) -> FeatureMap:
    feature_map = getattr(transformer, "feature_map_", None)
    if feature_map is None:
        if type(transformer).__module__.startswith("kfm."):
            raise ValueError(f"step '{name}' ({type(transformer).__name__}) is not fitted (it has no feature_map_): "
                             "fit the pipeline before exporting it")
        raise TypeError(f"step '{name}' ({type(transformer).__name__}) is not a kfm transformer (it has no "
                        f"feature_map_); export takes {_SUPPORTED}")
    if not isinstance(feature_map, FeatureMap):
        raise TypeError(f"step '{name}': feature_map_ must be a kfm.FeatureMap, got {type(feature_map).__name__}")
    info = feature_map.inspect()
    carried = _MODEL_SECTIONS.intersection(section["tag"] for section in info["sections"])
    if info["gaussian_prefactor"]:
        carried.discard("PREP")  # maclaurin-opt's centring on its training mean: part of the map
    if carried:
        raise ValueError(f"step '{name}': its feature map already carries model sections "
                         f"({', '.join(sorted(carried))}); export needs a plain map (the pipeline's scaler "
                         "and head become the model)")
    return feature_map


def _scaling(step: Tuple[str, Any], input_dim: int) -> Tuple[np.ndarray, np.ndarray]:
    """(shift, scale) with x' = (x - shift) * scale, as float64 arrays of input_dim values."""
    name, scaler = step
    if type(scaler) not in _SCALERS:
        raise TypeError(f"step '{name}' ({type(scaler).__name__}) is not supported; export takes {_SUPPORTED}")
    _require_fitted(name, scaler)
    if scaler.n_features_in_ != input_dim:
        raise ValueError(f"step '{name}' scales {scaler.n_features_in_} inputs, but the map takes {input_dim}")
    if isinstance(scaler, StandardScaler):
        # (x - mean_) / scale_; mean_ / scale_ are None when with_mean / with_std is False.
        shift = scaler.mean_ if scaler.with_mean else np.zeros(input_dim)
        scale = 1.0 / scaler.scale_ if scaler.with_std else np.ones(input_dim)
        return np.asarray(shift, dtype=np.float64), np.asarray(scale, dtype=np.float64)
    if scaler.clip:
        raise ValueError(f"step '{name}': MinMaxScaler(clip=True) cannot be exported (a model file scales "
                         "inputs linearly and does not clip); refit with clip=False")
    # MinMaxScaler computes x * scale_ + min_ = (x - (-min_ / scale_)) * scale_ (scale_ is never zero).
    return -scaler.min_ / scaler.scale_, np.asarray(scaler.scale_, dtype=np.float64)


def _head(name: str, head: Any, features: int) -> Tuple[str, np.ndarray, np.ndarray, List[int], str]:
    """(task, weights (k, D), bias (k,), labels, the labels' NumPy type name) of the last step."""
    if type(head) not in _REGRESSORS + _CLASSIFIERS:
        raise TypeError(f"step '{name}' ({type(head).__name__}) is not a supported head; export takes {_SUPPORTED}")
    _require_fitted(name, head)
    weights = np.atleast_2d(np.asarray(head.coef_, dtype=np.float64))
    if weights.shape[1] != features:
        raise ValueError(f"step '{name}' was fitted on {weights.shape[1]} features, but the map gives {features}")
    bias = np.broadcast_to(np.asarray(head.intercept_, dtype=np.float64), (weights.shape[0],)).copy()
    if isinstance(head, _REGRESSORS):
        return "regression", weights, bias, [], "int32"
    if isinstance(head, RidgeClassifier) and head._label_binarizer.y_type_.startswith("multilabel"):
        raise ValueError(f"step '{name}': a multilabel RidgeClassifier cannot be exported (a model file "
                         "predicts one label per row)")
    labels = _int32_labels(name, head.classes_)
    task = "binary" if weights.shape[0] == 1 else "multiclass"
    expected = 2 if task == "binary" else weights.shape[0]
    if len(labels) != expected:
        raise ValueError(f"step '{name}' has {weights.shape[0]} decision functions for {len(labels)} classes")
    # The file keeps the labels' type, so that kfm.Model predicts labels of the pipeline's own dtype.
    return task, weights, bias, labels, np.asarray(head.classes_).dtype.name


def _int32_labels(name: str, classes: Any) -> List[int]:
    classes = np.asarray(classes)
    if classes.dtype.kind not in "iu":
        raise ValueError(f"step '{name}': class labels must be integers (kfm model files store int32 labels), "
                         f"got {classes.dtype} labels {classes[:5].tolist()}; encode them first, e.g. with "
                         "sklearn.preprocessing.LabelEncoder")
    if classes.min() < _INT32.min or classes.max() > _INT32.max:
        raise ValueError(f"step '{name}': class labels must fit in int32 (kfm model files store int32 labels), "
                         f"got labels from {classes.min()} to {classes.max()}")
    return [int(c) for c in classes]


def _check_rows(X: Optional[npt.ArrayLike], scaler: Optional[Tuple[str, Any]], input_dim: int) -> Optional[np.ndarray]:
    """The float64 rows export checks the model on (None: no check)."""
    if X is not None:
        rows = np.asarray(X, dtype=np.float64)
        if rows.ndim != 2 or rows.shape[1] != input_dim or rows.shape[0] == 0:
            raise ValueError(f"X (the rows export checks the model on) must have shape (n >= 1, {input_dim}), "
                             f"got {rows.shape}")
        if not np.isfinite(rows).all():
            raise ValueError("X (the rows export checks the model on) must be finite")
        return rows
    if scaler is None:
        return None
    scaler = scaler[1]
    draws = np.random.default_rng(0)
    if isinstance(scaler, StandardScaler):
        center = scaler.mean_ if scaler.mean_ is not None else np.zeros(input_dim)
        spread = scaler.scale_ if scaler.scale_ is not None else np.ones(input_dim)
        return center + spread * draws.standard_normal((_STATISTICS_ROWS, input_dim))
    return scaler.data_min_ + scaler.data_range_ * draws.random((_STATISTICS_ROWS, input_dim))


def _check_model(pipeline: Pipeline, model: Model, rows: np.ndarray, scaler: Optional[Tuple[str, Any]],
                 shift: Optional[np.ndarray], scale: Optional[np.ndarray]) -> None:
    """ValueError unless `model` gives the pipeline's labels and scores on `rows` (SCORE_TOLERANCE)."""
    classifier = model.task != "regression"
    with warnings.catch_warnings():
        # The check rows are an array: a pipeline fitted on named columns warns that they have no names.
        warnings.filterwarnings("ignore", message="X does not have valid feature names")
        expected = pipeline.decision_function(rows) if classifier else pipeline.predict(rows)
        pipeline_labels = pipeline.predict(rows) if classifier else None
        in_pipeline = scaler[1].transform(rows) if scaler is not None else None
    expected = np.asarray(expected, np.float64)
    actual = np.asarray(model.decision_function(rows) if classifier else model.predict(rows), np.float64)
    expected = expected.reshape(actual.shape)
    relative = np.abs(actual - expected) / np.maximum(np.abs(expected), 1.0)
    worst = np.unravel_index(np.argmax(relative), relative.shape)
    problem = None
    if relative[worst] > SCORE_TOLERANCE:
        problem = (f"its scores differ from the pipeline's by {relative[worst]:.3g} relative at row {worst[0]} "
                   f"(the tolerance is {SCORE_TOLERANCE:g})")
    elif classifier:
        differ = (model.predict(rows) != pipeline_labels) & ~_near_tie(expected)
        if differ.any():
            problem = f"its label differs from the pipeline's at row {int(np.flatnonzero(differ)[0])}"
    if problem is not None:
        raise ValueError(f"the exported model would not equal the pipeline: {problem}; "
                         f"{_likely_cause(rows, in_pipeline, scaler, shift, scale)}")


def _near_tie(scores: np.ndarray) -> np.ndarray:
    """Rows whose top two decision values (binary: the score and 0) are within the tolerance of a tie,
    where float32 and float64 arithmetic may rightly choose different labels."""
    if scores.ndim == 1:
        top, second = np.abs(scores), np.zeros_like(scores)
    else:
        ordered = np.sort(scores, axis=1)
        top, second = ordered[:, -1], ordered[:, -2]
    size = np.maximum(np.maximum(np.abs(top), np.abs(second)), 1.0)
    return np.abs(top - second) <= 2.0 * SCORE_TOLERANCE * size


def _likely_cause(rows: np.ndarray, in_pipeline: Optional[np.ndarray], scaler: Optional[Tuple[str, Any]],
                  shift: Optional[np.ndarray], scale: Optional[np.ndarray]) -> str:
    """The column whose float32 scaling (PREP) departs most from the pipeline's float64 one (in_pipeline:
    the scaler's output), or the head."""
    if scaler is not None:
        name, step = scaler
        in_pipeline = in_pipeline.astype(np.float32).astype(np.float64)  # what the pipeline's map sees
        in_model = (rows.astype(np.float32) - shift.astype(np.float32)) * scale.astype(np.float32)  # PREP, float32
        error = np.abs(in_model.astype(np.float64) - in_pipeline).max(axis=0)
        column = int(np.argmax(error))
        if error[column] > 1e-5:  # well above float32 rounding of values of order 1 (6e-8)
            names = getattr(step, "feature_names_in_", None)
            label = f"column {column}" + (f" ({names[column]!r})" if names is not None else "")
            return (f"{label} is the cause: its values (around {np.median(rows[:, column]):.9g}) are scaled by "
                    f"'{name}' as (x - {shift[column]:.9g}) * {scale[column]:.3g}, which float32 inputs and "
                    f"arithmetic hold only to {error[column]:.3g} after scaling (about 7 significant digits); "
                    "subtract the column's offset in float64 before the pipeline (or drop the column) and refit")
    return ("no input column loses precision in float32, so the head does: its weights, stored in float32, are "
            "so large that their rounding shows in scores made of cancelling terms")
