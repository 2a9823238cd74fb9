"""A fitted scikit-learn Pipeline -> a kfm model file (input scaling, feature map, linear head).

Supported pipelines: an optional StandardScaler or MinMaxScaler (clip=False), a fitted kfm transformer
(anything with a `feature_map_` FeatureMap, e.g. kfm.sklearn.RandomFeatures) and one linear head:
Ridge, SGDRegressor (regression, Ridge also with several outputs), RidgeClassifier, LogisticRegression,
LinearSVC, SGDClassifier (binary or multiclass, integer labels). Every head's prediction is a linear
decision function of the features followed by the rule the model file stores (sign for binary, argmax
for multiclass), so kfm.Model(path).predict(X) equals pipeline.predict(X).
"""
import os

import numpy as np
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression, Ridge, RidgeClassifier, SGDClassifier, SGDRegressor
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler
from sklearn.svm import LinearSVC
from sklearn.utils.validation import check_is_fitted

from . import FeatureMap, _kfm

__all__ = ["export", "export_bytes"]

_SCALERS = (StandardScaler, MinMaxScaler)
_REGRESSORS = (Ridge, SGDRegressor)
_CLASSIFIERS = (RidgeClassifier, LogisticRegression, LinearSVC, SGDClassifier)
_SUPPORTED = ("a fitted sklearn.pipeline.Pipeline of: an optional StandardScaler or MinMaxScaler, a fitted kfm "
              "transformer (kfm.sklearn.RandomFeatures or anything with a feature_map_), and one of "
              "Ridge, SGDRegressor, RidgeClassifier, LogisticRegression, LinearSVC, SGDClassifier")
_INT32 = np.iinfo(np.int32)
# Model sections (docs/format.md); a transformer's map must carry none of them.
_MODEL_SECTIONS = {"PREP", "TASK", "HEAD", "BIAS", "LABL"}


def export(pipeline, path):
    """Writes the model file of a fitted `pipeline` to `path` (atomically) and returns its bytes.

    Raises TypeError for a pipeline with steps other than the supported ones (the message lists them)
    and ValueError for an unfitted pipeline or one the model file cannot represent (non-integer labels,
    MinMaxScaler(clip=True), a transformer whose map already carries a model)."""
    data = export_bytes(pipeline)
    _kfm.write_file(os.fspath(path), data)
    return data


def export_bytes(pipeline):
    """The bytes of the model file `export` would write (verified like kfm::open)."""
    if not isinstance(pipeline, Pipeline):
        raise TypeError(f"export takes {_SUPPORTED}; got {type(pipeline).__name__}")
    steps = [(name, step) for name, step in pipeline.steps if step is not None and step != "passthrough"]
    if len(steps) not in (2, 3):
        raise TypeError(f"export takes {_SUPPORTED}; got steps {[name for name, _ in steps]}")
    scaler = steps[0] if len(steps) == 3 else None
    (map_name, transformer), (head_name, head) = steps[-2], steps[-1]

    feature_map = _feature_map(map_name, transformer)
    shift, scale = _scaling(scaler, feature_map.input_dim) if scaler else (None, None)
    task, weights, bias, labels = _head(head_name, head, feature_map.output_dim)
    return _kfm.model_bytes(feature_map.to_bytes(), shift, scale, task, weights, bias, labels)


def _require_fitted(name, step):
    try:
        check_is_fitted(step)
    except NotFittedError:
        raise ValueError(f"step '{name}' ({type(step).__name__}) is not fitted: fit the pipeline before "
                         "exporting it") from None


def _feature_map(name, transformer):
    feature_map = getattr(transformer, "feature_map_", None)
    if feature_map is None:
        if type(transformer).__module__.startswith("kfm."):
            raise ValueError(f"step '{name}' ({type(transformer).__name__}) is not fitted (it has no feature_map_): "
                             "fit the pipeline before exporting it")
        raise TypeError(f"step '{name}' ({type(transformer).__name__}) is not a kfm transformer (it has no "
                        f"feature_map_); export takes {_SUPPORTED}")
    if not isinstance(feature_map, FeatureMap):
        raise TypeError(f"step '{name}': feature_map_ must be a kfm.FeatureMap, got {type(feature_map).__name__}")
    carried = _MODEL_SECTIONS.intersection(section["tag"] for section in feature_map.inspect()["sections"])
    if carried:
        raise ValueError(f"step '{name}': its feature map already carries model sections "
                         f"({', '.join(sorted(carried))}); export needs a plain map (the pipeline's scaler "
                         "and head become the model)")
    return feature_map


def _scaling(step, input_dim):
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


def _head(name, head, features):
    """(task, weights (k, D), bias (k,), labels) of the last step."""
    if type(head) not in _REGRESSORS + _CLASSIFIERS:
        raise TypeError(f"step '{name}' ({type(head).__name__}) is not a supported head; export takes {_SUPPORTED}")
    _require_fitted(name, head)
    weights = np.atleast_2d(np.asarray(head.coef_, dtype=np.float64))
    if weights.shape[1] != features:
        raise ValueError(f"step '{name}' was fitted on {weights.shape[1]} features, but the map gives {features}")
    bias = np.broadcast_to(np.asarray(head.intercept_, dtype=np.float64), (weights.shape[0],)).copy()
    if isinstance(head, _REGRESSORS):
        return "regression", weights, bias, []
    if isinstance(head, RidgeClassifier) and head._label_binarizer.y_type_.startswith("multilabel"):
        raise ValueError(f"step '{name}': a multilabel RidgeClassifier cannot be exported (a model file "
                         "predicts one label per row)")
    labels = _int32_labels(name, head.classes_)
    task = "binary" if weights.shape[0] == 1 else "multiclass"
    expected = 2 if task == "binary" else weights.shape[0]
    if len(labels) != expected:
        raise ValueError(f"step '{name}' has {weights.shape[0]} decision functions for {len(labels)} classes")
    return task, weights, bias, labels


def _int32_labels(name, classes):
    classes = np.asarray(classes)
    if classes.dtype.kind not in "iu":
        raise ValueError(f"step '{name}': class labels must be integers (kfm model files store int32 labels), "
                         f"got {classes.dtype} labels {classes[:5].tolist()}; encode them first, e.g. with "
                         "sklearn.preprocessing.LabelEncoder")
    if classes.min() < _INT32.min or classes.max() > _INT32.max:
        raise ValueError(f"step '{name}': class labels must fit in int32 (kfm model files store int32 labels), "
                         f"got labels from {classes.min()} to {classes.max()}")
    return [int(c) for c in classes]
