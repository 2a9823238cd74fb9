"""kfm.sklearn.export: a fitted Pipeline (optional scaler, RandomFeatures, linear head) -> a model file whose
kfm.Model and `kfm predict` give the pipeline's predictions (labels identical, values and scores within
1e-4 relative to max(|value|, 1)), for every supported head, scaler and label set; and the refusals."""
import os
import subprocess
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.decomposition import PCA
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression, Ridge, RidgeClassifier, SGDClassifier, SGDRegressor
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler
from sklearn.svm import SVC, LinearSVC

import kfm
import kfm.sklearn
from kfm.export import export, export_bytes
from kfm.sklearn import RandomFeatures

SCALERS = {
    "none": lambda: None,
    "standard": StandardScaler,
    "standard-no-mean": lambda: StandardScaler(with_mean=False),
    "standard-no-std": lambda: StandardScaler(with_std=False),
    "minmax": lambda: MinMaxScaler(feature_range=(-1.0, 2.0)),
}
CLASSIFIERS = {
    "ridge": lambda: RidgeClassifier(alpha=0.5),
    "logistic": lambda: LogisticRegression(C=10.0, max_iter=500),
    "logistic-ovr": lambda: LogisticRegression(multi_class="ovr", max_iter=500),
    "linear-svc": lambda: LinearSVC(C=0.5, max_iter=2000, random_state=0),
    "linear-svc-crammer-singer": lambda: LinearSVC(multi_class="crammer_singer", max_iter=2000, random_state=0),
    "sgd-hinge": lambda: SGDClassifier(random_state=0),
    "sgd-log": lambda: SGDClassifier(loss="log_loss", alpha=1e-3, random_state=0),
}
REGRESSORS = {
    "ridge": lambda: Ridge(alpha=0.5),
    "ridge-no-intercept": lambda: Ridge(alpha=0.5, fit_intercept=False),
    "sgd": lambda: SGDRegressor(alpha=1e-3, random_state=0),
}
LABEL_SETS = {"binary": [-1, 1], "multiclass": [3, 7, 9]}
D = 8


def features(**options):
    return RandomFeatures(**{"method": "ssf", "n_components": 128, "gamma": 0.05, "random_state": 1, **options})


def pipeline(scaler, transformer, head):
    steps = [] if scaler is None else [("scale", scaler)]
    return Pipeline(steps + [("map", transformer), ("head", head)])


def classification(labels, n=300):
    """(X, y) of n training rows then n test rows."""
    X, y = make_classification(n_samples=2 * n, n_features=D, n_informative=5, n_redundant=1,
                               n_classes=len(labels), n_clusters_per_class=1, random_state=0)
    # Raw inputs off-centre and on different scales, so that the scalers matter.
    X = X * np.linspace(0.5, 4.0, D) + np.linspace(-3.0, 5.0, D)
    return X, np.asarray(labels)[y]


def regression(targets, n=300):
    """(X, y) of n training rows then n test rows."""
    X, y = make_regression(n_samples=2 * n, n_features=D, n_informative=6, n_targets=targets, noise=1.0,
                           random_state=0)
    return X * np.linspace(0.5, 4.0, D) + 2.0, y


def split(X, y):
    n = len(X) // 2
    return X[:n], y[:n], X[n:], y[n:]


def fit(pipe, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # the equality holds for any fitted weights
        return pipe.fit(X, y)


def assert_close(actual, expected):
    actual, expected = np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    assert actual.shape == expected.shape
    scale = np.maximum(np.abs(expected), 1.0)
    worst = np.max(np.abs(actual - expected) / scale)
    assert worst <= 1e-4, f"largest relative difference {worst:.3g}"


def kfm_tool():
    """The kfm command-line tool: $KFM_CLI (set by ctest) or the one beside the built package."""
    build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(kfm.__file__))))  # <build>/python/kfm
    tool = os.environ.get("KFM_CLI") or os.path.join(build, "kfm")
    assert os.access(tool, os.X_OK), f"no kfm tool at {tool} (set KFM_CLI or build the kfm target)"
    return tool


def cli_predict(model_path, X, tmp_path):
    """`kfm predict MODEL --in X.npy --out P.npy --scores S.npy`: (predictions, scores)."""
    np.save(tmp_path / "x.npy", np.asarray(X, dtype=np.float32))
    subprocess.run([kfm_tool(), "predict", str(model_path), "--in", str(tmp_path / "x.npy"), "--out",
                    str(tmp_path / "p.npy"), "--scores", str(tmp_path / "s.npy")], check=True)
    return np.load(tmp_path / "p.npy"), np.load(tmp_path / "s.npy")


def check_model(pipe, X, path):
    """Model(path) gives the pipeline's predictions and decision function on X."""
    model = kfm.Model(path)
    expected = pipe.predict(X)
    if model.task == "regression":
        assert_close(model.predict(X), expected.reshape(model.predict(X).shape))
    else:
        assert model.predict(X).tolist() == expected.tolist()
        assert model.predict(X).dtype == expected.dtype
        assert_close(model.decision_function(X), pipe.decision_function(X))
        assert model.classes_.tolist() == pipe.classes_.tolist()
        assert model.classes_.dtype == pipe.classes_.dtype
    return model


@pytest.mark.parametrize("scaler", SCALERS)
@pytest.mark.parametrize("labels", LABEL_SETS)
@pytest.mark.parametrize("head", CLASSIFIERS)
def test_classifier_pipelines_export_to_equal_models(head, labels, scaler, tmp_path):
    X, y, X_test, y_test = split(*classification(LABEL_SETS[labels]))
    pipe = fit(pipeline(SCALERS[scaler](), features(), CLASSIFIERS[head]()), X, y)
    data = export(pipe, tmp_path / "model.kfm")
    assert data == (tmp_path / "model.kfm").read_bytes()
    model = check_model(pipe, X_test, tmp_path / "model.kfm")
    assert model.task == labels
    assert model.n_outputs == (1 if labels == "binary" else 3)
    # A classifier that learnt something, so the comparison above saw every class.
    assert set(pipe.predict(X_test)) == set(LABEL_SETS[labels])
    assert pipe.score(X_test, y_test) > 1.0 / len(LABEL_SETS[labels]) + 0.2


@pytest.mark.parametrize("scaler", SCALERS)
@pytest.mark.parametrize("head, targets", [(head, 1) for head in REGRESSORS] +
                         [(head, 3) for head in REGRESSORS if head != "sgd"])  # SGDRegressor: one target
def test_regressor_pipelines_export_to_equal_models(head, targets, scaler, tmp_path):
    X, y, X_test, y_test = split(*regression(targets))
    pipe = fit(pipeline(SCALERS[scaler](), features(), REGRESSORS[head]()), X, y)
    export(pipe, tmp_path / "model.kfm")
    model = check_model(pipe, X_test, tmp_path / "model.kfm")
    assert model.task == "regression" and model.n_outputs == targets
    assert pipe.score(X_test, y_test) > 0.2  # a fit that predicts something, so the comparison means something


@pytest.mark.parametrize("head, labels", [("ridge", "multiclass"), ("logistic", "binary"),
                                          ("linear-svc", "multiclass"), ("sgd-hinge", "binary")])
def test_kfm_predict_on_the_exported_file_equals_the_pipeline(head, labels, tmp_path):
    X, y = classification(LABEL_SETS[labels])
    pipe = fit(pipeline(StandardScaler(), features(), CLASSIFIERS[head]()), X, y)
    export(pipe, tmp_path / "model.kfm")
    predicted, scores = cli_predict(tmp_path / "model.kfm", X, tmp_path)
    assert predicted.tolist() == pipe.predict(X).tolist()
    assert_close(scores.reshape(-1) if labels == "binary" else scores, pipe.decision_function(X))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"])
def test_predicted_labels_keep_the_pipelines_dtype(dtype, tmp_path):
    labels = [0, 2, 5] if dtype.startswith("u") else [-3, 0, 5]
    X, y, X_test, _ = split(*classification(labels))
    pipe = fit(pipeline(None, features(), RidgeClassifier(alpha=0.5)), X, y.astype(dtype))
    export(pipe, tmp_path / "model.kfm")
    model = check_model(pipe, X_test, tmp_path / "model.kfm")
    assert model.predict(X_test).dtype == np.dtype(dtype)
    assert model.feature_map().inspect()["head"]["label_type"] == dtype
    # The device and `kfm predict` see the same int32 labels whatever the type.
    assert cli_predict(tmp_path / "model.kfm", X_test, tmp_path)[0].tolist() == pipe.predict(X_test).tolist()


def test_a_model_without_a_label_type_predicts_int32(tmp_path):
    X, y, X_test, _ = split(*classification([1, 4]))
    pipe = fit(pipeline(None, features(), RidgeClassifier(alpha=0.5)), X, y.astype(np.int32))
    model = kfm.Model.from_bytes(export_bytes(pipe))
    assert model.predict(X_test).dtype == np.int32 and model.classes_.dtype == np.int32
    assert model.feature_map().inspect()["head"]["label_type"] == "int32"


def test_kfm_predict_on_an_exported_regressor_equals_the_pipeline(tmp_path):
    X, y = regression(3)
    pipe = fit(pipeline(MinMaxScaler(), features(), Ridge()), X, y)
    export(pipe, tmp_path / "model.kfm")
    predicted, _ = cli_predict(tmp_path / "model.kfm", X, tmp_path)
    assert_close(predicted, pipe.predict(X))


@pytest.mark.parametrize("method", ["gorf", "grff"])
def test_a_signed_map_exports_to_an_equal_model(method, tmp_path):
    # polynomial-sphere through gorf/grff has negative features; the head multiplies phi as transform
    # outputs it, so coef_ is the HEAD as it is.
    X, y = classification(LABEL_SETS["multiclass"])
    transformer = RandomFeatures(method=method, kernel="polynomial-sphere", degree=3, poly_scale=2.0,
                                 n_components=128, random_state=2)
    pipe = fit(pipeline(StandardScaler(), transformer, RidgeClassifier(alpha=0.1)), X, y)
    assert pipe.named_steps["map"].feature_map_.negative_dim > 0
    export(pipe, tmp_path / "model.kfm")
    check_model(pipe, X, tmp_path / "model.kfm")
    predicted, _ = cli_predict(tmp_path / "model.kfm", X, tmp_path)
    assert predicted.tolist() == pipe.predict(X).tolist()


def test_other_map_methods_export_to_equal_models(tmp_path):
    X, y = regression(1)
    for i, transformer in enumerate([features(method="rff"), features(method="quadrature"),
                                     RandomFeatures(method="sorf", kernel="arccos", order=1, n_components=64,
                                                    random_state=0)]):
        pipe = fit(pipeline(StandardScaler(), transformer, Ridge()), X, y)
        export(pipe, tmp_path / f"model{i}.kfm")
        check_model(pipe, X, tmp_path / f"model{i}.kfm")


def test_export_bytes_and_the_sklearn_name():
    X, y = classification(LABEL_SETS["binary"])
    pipe = fit(pipeline(None, features(), RidgeClassifier()), X, y)
    data = export_bytes(pipe)
    assert kfm.Model.from_bytes(data).predict(X).tolist() == pipe.predict(X).tolist()
    assert kfm.sklearn.export is export


def test_float32_inputs_and_passthrough_steps(tmp_path):
    X, y = classification(LABEL_SETS["multiclass"])
    X = X.astype(np.float32)
    pipe = fit(Pipeline([("scale", "passthrough"), ("map", features()), ("head", LogisticRegression(max_iter=500))]),
               X, y)
    export(pipe, tmp_path / "model.kfm")
    check_model(pipe, X, tmp_path / "model.kfm")


# ---- refusals: a clear error naming what is supported, and no file written

def fitted(scaler=None, head=None, labels=LABEL_SETS["binary"]):
    X, y = classification(labels)
    return fit(pipeline(scaler, features(), head or RidgeClassifier()), X, y)


def refused(pipe, error, match, tmp_path):
    with pytest.raises(error, match=match):
        export(pipe, tmp_path / "model.kfm")
    assert not os.path.exists(tmp_path / "model.kfm")


SUPPORTED = "Ridge, SGDRegressor, RidgeClassifier, LogisticRegression, LinearSVC, SGDClassifier"


def test_a_bare_estimator_is_refused(tmp_path):
    X, y = classification(LABEL_SETS["binary"])
    refused(RidgeClassifier().fit(X, y), TypeError, "Pipeline", tmp_path)
    refused(features().fit(X), TypeError, SUPPORTED, tmp_path)


def test_an_unfitted_pipeline_is_refused(tmp_path):
    refused(pipeline(StandardScaler(), features(), RidgeClassifier()), ValueError, "not fitted", tmp_path)
    refused(pipeline(None, features(), RidgeClassifier()), ValueError, "'map' \\(RandomFeatures\\) is not fitted",
            tmp_path)
    pipe = fitted()
    pipe.steps[-1] = ("head", RidgeClassifier())
    refused(pipe, ValueError, "'head' .*not fitted", tmp_path)


def test_a_kernel_svc_head_is_refused(tmp_path):
    refused(fitted(head=SVC(kernel="rbf")), TypeError, "'head' \\(SVC\\) is not a supported head.*" + SUPPORTED,
            tmp_path)


def test_other_steps_are_refused(tmp_path):
    X, y = classification(LABEL_SETS["binary"])
    pca = fit(Pipeline([("pca", PCA(4)), ("map", features()), ("head", RidgeClassifier())]), X, y)
    refused(pca, TypeError, "'pca' \\(PCA\\) is not supported", tmp_path)
    extra = fit(Pipeline([("scale", StandardScaler()), ("pca", PCA(D)), ("map", features()),
                          ("head", RidgeClassifier())]), X, y)
    refused(extra, TypeError, "got steps", tmp_path)
    no_map = fit(Pipeline([("scale", StandardScaler()), ("head", RidgeClassifier())]), X, y)
    refused(no_map, TypeError, "'scale' \\(StandardScaler\\) is not a kfm transformer", tmp_path)
    scaler_after_map = fit(Pipeline([("map", features()), ("scale", StandardScaler()), ("head", RidgeClassifier())]),
                           X, y)
    refused(scaler_after_map, TypeError, "'scale' \\(StandardScaler\\) is not a kfm transformer", tmp_path)


def test_a_clipping_minmax_scaler_is_refused(tmp_path):
    refused(fitted(scaler=MinMaxScaler(clip=True)), ValueError, "clip=True", tmp_path)


def test_non_integer_labels_are_refused(tmp_path):
    X, y = classification(LABEL_SETS["binary"])
    words = fit(pipeline(None, features(), RidgeClassifier()), X, np.where(y > 0, "yes", "no"))
    refused(words, ValueError, "integers", tmp_path)
    floats = fit(pipeline(None, features(), LogisticRegression()), X, y.astype(np.float64))
    refused(floats, ValueError, "integers", tmp_path)
    large = fit(pipeline(None, features(), LinearSVC()), X, np.where(y > 0, 2**40, 0))
    refused(large, ValueError, "int32", tmp_path)


def test_a_multilabel_ridge_classifier_is_refused(tmp_path):
    X, y = classification(LABEL_SETS["binary"])
    pipe = fit(pipeline(None, features(), RidgeClassifier()), X, np.stack([y > 0, X[:, 0] > 0], axis=1).astype(int))
    refused(pipe, ValueError, "multilabel", tmp_path)


def test_a_map_that_already_carries_a_model_is_refused(tmp_path):
    pipe = fitted(scaler=StandardScaler())
    model = kfm.Model.from_bytes(export_bytes(pipe))
    pipe.named_steps["map"].feature_map_ = model.feature_map()
    refused(pipe, ValueError, "already carries model sections \\(BIAS, HEAD, LABL, PREP, TASK\\)", tmp_path)


# ---- export checks its model against the pipeline: float32 inputs cannot hold every scaler's arithmetic

def offset_regression(offset, spread, n=400):
    """Rows whose column 2 is offset by `offset` with a spread of `spread`, and a target that depends on it."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(n, 4))
    y = np.sin(X[:, 2]) + 0.5 * X[:, 0]
    X[:, 2] = offset + spread * X[:, 2]
    return X, y


@pytest.mark.parametrize("offset, spread", [(1e8, 1.0), (1.7e9, 86400.0 / 3.5)],  # values off by 1e8; timestamps
                         ids=["offset-1e8", "unix-timestamps-over-a-day"])
@pytest.mark.parametrize("given_rows", [True, False], ids=["on-given-rows", "on-the-scaler-statistics"])
def test_a_scaling_float32_cannot_hold_is_refused_naming_the_column(offset, spread, given_rows, tmp_path):
    X, y = offset_regression(offset, spread)
    pipe = fit(pipeline(StandardScaler(), features(method="rff", gamma=0.3), Ridge(alpha=0.1)), X, y)
    # What the refusal prevents: a model file that answers differently from its pipeline.
    model = kfm.Model.from_bytes(_kfm_model_bytes_unchecked(pipe))
    assert np.max(np.abs(model.predict(X) - pipe.predict(X))) > 1e-3
    with pytest.raises(ValueError, match="column 2 is the cause"):
        export(pipe, tmp_path / "model.kfm", X if given_rows else None)
    assert not os.path.exists(tmp_path / "model.kfm")


def _kfm_model_bytes_unchecked(pipe):
    """The model file export would make, without its check (to show what the check refuses)."""
    from kfm import _kfm
    from kfm.export import _feature_map, _head, _scaling
    feature_map = _feature_map("map", pipe.named_steps["map"])
    shift, scale = _scaling(("scale", pipe.named_steps["scale"]), feature_map.input_dim)
    task, weights, bias, labels, label_type = _head("head", pipe.named_steps["head"], feature_map.output_dim)
    return _kfm.model_bytes(feature_map.to_bytes(), shift, scale, task, weights, bias, labels, "f32", label_type)


def test_an_offset_float32_holds_exports_and_is_checked_on_the_given_rows(tmp_path):
    # Offsets float32 resolves at the data's scale pass, with or without check rows.
    X, y = offset_regression(1e3, 1.0)
    pipe = fit(pipeline(StandardScaler(), features(method="rff", gamma=0.3), Ridge(alpha=0.1)), X, y)
    export(pipe, tmp_path / "a.kfm", X)
    export(pipe, tmp_path / "b.kfm")
    assert_close(kfm.Model(tmp_path / "a.kfm").predict(X), pipe.predict(X))


def test_the_check_rows_are_validated(tmp_path):
    X, y = offset_regression(0.0, 1.0)
    pipe = fit(pipeline(MinMaxScaler(), features(), Ridge()), X, y)
    with pytest.raises(ValueError, match=r"must have shape \(n >= 1, 4\)"):
        export(pipe, tmp_path / "model.kfm", X[:, :3])
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="must be finite"):
        export(pipe, tmp_path / "model.kfm", bad)
    assert not os.path.exists(tmp_path / "model.kfm")


def test_a_classifier_whose_labels_would_change_is_refused(tmp_path):
    X, _ = offset_regression(1e8, 1.0)
    y = (np.sin(X[:, 2] - 1e8) > 0).astype(int)
    pipe = fit(pipeline(StandardScaler(), features(method="rff", gamma=0.3), LogisticRegression(C=100.0)), X, y)
    with pytest.raises(ValueError, match="would not equal the pipeline.*column 2 is the cause"):
        export(pipe, tmp_path / "model.kfm", X)


def test_near_ties_are_the_only_label_differences_the_check_allows():
    from kfm.export import SCORE_TOLERANCE, _near_tie
    assert _near_tie(np.array([0.0, SCORE_TOLERANCE, 3 * SCORE_TOLERANCE])).tolist() == [True, True, False]
    scores = np.array([[1.0, 1.0 + SCORE_TOLERANCE, -5.0], [1.0, 1.1, 0.0], [1e4, 1e4 + 1.0, 0.0]])
    assert _near_tie(scores).tolist() == [True, False, True]


def test_the_refusal_names_a_named_column(tmp_path):
    X, y = offset_regression(1e8, 1.0)
    pipe = fit(pipeline(StandardScaler(), features(method="rff", gamma=0.3), Ridge(alpha=0.1)), X, y)
    pipe.named_steps["scale"].feature_names_in_ = np.array(["a", "b", "offset", "d"], dtype=object)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the check's own rows have no names: no warning about them either
        with pytest.raises(ValueError, match="column 2 \\('offset'\\) is the cause"):
            export(pipe, tmp_path / "model.kfm")


def test_a_head_float32_cannot_hold_is_refused_naming_the_head(tmp_path):
    # Weights of 1e6 in directions the rows' features do not reach: the pipeline's scores are unchanged on
    # X, but float32 weights turn the cancelling terms into errors of about 0.1.
    X, y = regression(1, n=50)
    X, y = X[:50], y[:50]
    pipe = fit(pipeline(None, features(), Ridge(alpha=0.5)), X, y)
    phi = pipe.named_steps["map"].transform(X)
    null_space = np.linalg.svd(phi)[2][len(X):]  # rows orthogonal to every feature vector of X
    pipe.named_steps["head"].coef_ = pipe.named_steps["head"].coef_ + 1e6 * null_space.sum(axis=0)
    with pytest.raises(ValueError, match="no input column loses precision in float32, so the head does"):
        export(pipe, tmp_path / "model.kfm", X)
    assert not os.path.exists(tmp_path / "model.kfm")


def test_the_c_header_is_kfm_exports_header_of_the_model_file(tmp_path):
    X, y, _, _ = split(*classification(LABEL_SETS["multiclass"]))
    pipe = fit(pipeline(StandardScaler(), features(), RidgeClassifier()), X, y)
    data = export(pipe, tmp_path / "model.kfm", c_header=tmp_path / "model.h", name="my_model")
    assert data == (tmp_path / "model.kfm").read_bytes()
    subprocess.run([kfm_tool(), "export", str(tmp_path / "model.kfm"), "--c-header", str(tmp_path / "cli.h"),
                    "--name", "my_model"], check=True)
    assert (tmp_path / "model.h").read_bytes() == (tmp_path / "cli.h").read_bytes()
    assert b"#define MY_MODEL_INPUT_DIM 8u" in (tmp_path / "model.h").read_bytes()


@pytest.mark.parametrize("name, reason", [("MyModel", "must be lower case"), ("int", "keyword"),
                                          ("kfm_open", "kfm.h declares it")])
def test_a_header_name_c_cannot_use_is_refused_and_nothing_is_written(name, reason, tmp_path):
    pipe = fitted(StandardScaler())
    (tmp_path / "old.kfm").write_bytes(b"old")
    with pytest.raises(ValueError, match=rf"^name '{name}' cannot name the header's array: .*{reason}"):
        export(pipe, tmp_path / "old.kfm", c_header=tmp_path / "model.h", name=name)
    assert sorted(os.listdir(tmp_path)) == ["old.kfm"] and (tmp_path / "old.kfm").read_bytes() == b"old"
    with pytest.raises(ValueError, match="is the model file's own path"):
        export(pipe, tmp_path / "old.kfm", c_header=tmp_path / "old.kfm")
    assert sorted(os.listdir(tmp_path)) == ["old.kfm"] and (tmp_path / "old.kfm").read_bytes() == b"old"


@pytest.mark.parametrize("labels", LABEL_SETS)
def test_an_int8_head_exports_the_quantised_weights_and_predicts_with_them(labels, tmp_path):
    X, y, X_test, _ = split(*classification(LABEL_SETS[labels]))
    pipe = fit(pipeline(StandardScaler(), features(), RidgeClassifier(alpha=0.5)), X, y)
    f32 = export_bytes(pipe, X_test)
    data = kfm.sklearn.export(pipe, tmp_path / "model.kfm", X_test, head_dtype="int8")
    assert data == (tmp_path / "model.kfm").read_bytes()
    info = kfm.FeatureMap.from_bytes(data).inspect()
    tags = {section["tag"] for section in info["sections"]}
    assert {"HDI8", "HSCL"} <= tags and "HEAD" not in tags
    k, features_out = (1 if labels == "binary" else 3), pipe.named_steps["map"].feature_map_.output_dim
    assert len(f32) - len(data) >= 3 * k * features_out - 128  # a quarter of the head's bytes, up to padding
    # The scores are the pipeline's with the weights rounded to their output's int8 grid, in double.
    coef = np.atleast_2d(pipe.named_steps["head"].coef_)
    scales = np.abs(coef.astype(np.float32)).max(axis=1, keepdims=True).astype(np.float64) / 127.0
    scales = scales.astype(np.float32).astype(np.float64)
    dequantised = np.clip(np.round(coef.astype(np.float32) / scales), -127, 127) * scales
    phi = pipe[:-1].transform(X_test).astype(np.float64)
    expected = phi @ dequantised.T + pipe.named_steps["head"].intercept_
    model = kfm.Model(tmp_path / "model.kfm")
    assert_close(model.decision_function(X_test), expected.reshape(model.decision_function(X_test).shape))
    assert (model.predict(X_test) == pipe.predict(X_test)).mean() >= 0.97


def test_an_unknown_head_dtype_is_refused(tmp_path):
    X, y, _, _ = split(*classification(LABEL_SETS["binary"]))
    pipe = fit(pipeline(None, features(), RidgeClassifier()), X, y)
    with pytest.raises(ValueError, match="head_dtype must be 'f32' or 'int8'"):
        export(pipe, tmp_path / "model.kfm", head_dtype="f16")
    assert not (tmp_path / "model.kfm").exists()
