"""Labels and targets kept exactly: a pipeline exported with class labels above 2^24 (which float32 cannot
hold) scores in kfm.Model and `kfm score` exactly as in scikit-learn, from int64 and float64 label files;
and R^2 of a constant target follows scikit-learn's r2_score in Model.score and `kfm score` alike."""
import os
import subprocess

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import RidgeClassifier
from sklearn.metrics import r2_score
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

import kfm
from kfm.export import export
from kfm.sklearn import RandomFeatures


def kfm_tool():
    """The kfm command-line tool: $KFM_CLI (set by ctest) or the one beside the built package."""
    build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(kfm.__file__))))  # <build>/python/kfm
    tool = os.environ.get("KFM_CLI") or os.path.join(build, "kfm")
    assert os.access(tool, os.X_OK), f"no kfm tool at {tool} (set KFM_CLI or build the kfm target)"
    return tool


def kfm_score(model_path, X, y, tmp_path):
    """`kfm score MODEL --x X.npy --y y.npy --json`'s value; y is saved in its own dtype."""
    np.save(tmp_path / "x.npy", np.asarray(X, dtype=np.float32))
    np.save(tmp_path / "y.npy", y)
    out = subprocess.run([kfm_tool(), "score", str(model_path), "--x", str(tmp_path / "x.npy"), "--y",
                          str(tmp_path / "y.npy"), "--json"], check=True, capture_output=True, text=True).stdout
    return float(out.split('"value": ')[1].split(",")[0])


@pytest.mark.parametrize("labels", [[16777217, 16777219], [16777216, 16777217], [16777216, 16777217, 16777219]])
def test_labels_above_2_24_score_as_the_exported_pipeline(labels, tmp_path):
    X, classes = make_classification(n_samples=600, n_features=8, n_informative=5, n_classes=len(labels),
                                     n_clusters_per_class=1, random_state=0)
    y = np.asarray(labels, dtype=np.int64)[classes]
    X_train, y_train, X_test, y_test = X[:300], y[:300], X[300:], y[300:]
    pipe = Pipeline([("scale", StandardScaler()),
                     ("map", RandomFeatures(method="ssf", n_components=128, gamma=0.05, random_state=1)),
                     ("head", RidgeClassifier(alpha=0.5))]).fit(X_train, y_train)
    export(pipe, tmp_path / "model.kfm")
    expected = pipe.score(X_test, y_test)
    assert expected > 1.0 / len(labels) + 0.2  # a classifier that learnt something
    model = kfm.Model(tmp_path / "model.kfm")
    assert model.classes_.tolist() == labels
    assert model.score(X_test, y_test) == expected
    assert kfm_score(tmp_path / "model.kfm", X_test, y_test, tmp_path) == expected
    assert kfm_score(tmp_path / "model.kfm", X_test, y_test.astype(np.float64), tmp_path) == expected


def test_a_constant_target_scores_as_r2_score(tmp_path):
    """A model fitted on a constant predicts it exactly (zero head, the constant as bias): r2_score gives 1
    against that constant and 0 against another, where 1 - residual / total would divide by zero."""
    rng = np.random.default_rng(0)
    X = rng.uniform(-1.0, 1.0, size=(50, 4)).astype(np.float32)
    np.save(tmp_path / "x.npy", X)
    np.save(tmp_path / "c.npy", np.full(50, 2.5))
    tool = kfm_tool()
    subprocess.run([tool, "build", "--method", "rff", "--kernel", "gaussian", "--sigma", "1", "--input-dim", "4",
                    "--features", "16", "-o", str(tmp_path / "map.kfm")], check=True, capture_output=True)
    subprocess.run([tool, "fit", str(tmp_path / "map.kfm"), "--x", str(tmp_path / "x.npy"), "--y",
                    str(tmp_path / "c.npy"), "--task", "regression", "-o", str(tmp_path / "c.kfm")],
                   check=True, capture_output=True)
    model = kfm.Model(tmp_path / "c.kfm")
    for value in (2.5, 3.5):
        y = np.full(50, value)
        expected = r2_score(y, model.predict(X))
        assert expected == (1.0 if value == 2.5 else 0.0)
        assert model.score(X, y) == expected
        assert kfm_score(tmp_path / "c.kfm", X, y, tmp_path) == expected


def test_a_classifier_refuses_labels_it_cannot_hold_as_kfm_score_does(tmp_path):
    """0.5 or 2^40 can never be a model's label: Model.score and `kfm score` refuse them by row instead of
    scoring them as misses (accuracy 0 without a word)."""
    X, classes = make_classification(n_samples=200, n_features=6, n_informative=4, random_state=0)
    pipe = Pipeline([("map", RandomFeatures(method="rff", n_components=64, random_state=1)),
                     ("head", RidgeClassifier())]).fit(X, classes)
    export(pipe, tmp_path / "model.kfm")
    model = kfm.Model(tmp_path / "model.kfm")
    assert model.score(X, classes) == pipe.score(X, classes)
    for bad, text in [(classes + 0.5, r"^y: value 0\.5 at row 0 is not an integer class label"),
                      (classes.astype(np.int64) << 40, r"^y: value 1099511627776 at row \d+ is not an integer class label"),
                      (classes.astype(str), r"^y: class labels must be integers, got dtype <U")]:
        with pytest.raises(ValueError, match=text):
            model.score(X, bad)
    np.save(tmp_path / "x.npy", X.astype(np.float32))
    np.save(tmp_path / "half.npy", classes + 0.5)
    run = subprocess.run([kfm_tool(), "score", str(tmp_path / "model.kfm"), "--x", str(tmp_path / "x.npy"), "--y",
                          str(tmp_path / "half.npy")], capture_output=True, text=True)
    assert run.returncode == 1 and "half.npy: y: value 0.5 at row 0 is not an integer class label" in run.stderr
