"""Rows whose features all vanish where the kernel's k(x, x) > 0: one rule in the library
(kfm/offline/vanishing_features.hpp), which `kfm inspect --json` reports as "features_can_vanish", `kfm map`,
`kfm predict` and `kfm score` warn by, and FeatureMap.transform, Model.predict and Model.score warn by."""
import json
import os
import subprocess
import warnings

import numpy as np
import pytest

import kfm

CLI = os.environ.get("KFM_CLI")
needs_cli = pytest.mark.skipif(CLI is None, reason="KFM_CLI (the kfm tool) is set by the ctest 'python'")

D_IN = 6
KERNEL_OPTIONS = {
    "gaussian": dict(sigma=1.0), "matern": dict(nu=1.5, sigma=1.0), "laplacian": dict(sigma=1.0),
    "rational-quadratic": dict(alpha=1.5, sigma=1.0), "arccos": dict(order=1),
    "polynomial-sphere": dict(degree=3, scale=3.0), "delta-gaussian": dict(weights=[1.0, -0.5], sigmas=[1.0, 2.0]),
}


def rows(n=120, seed=0):
    return np.random.default_rng(seed).normal(size=(n, D_IN)).astype(np.float32)


def can_vanish(method, kernel, plain):
    """The rule, from the maths: nystroem's kernel values against its landmarks (every kernel it builds)
    and maclaurin-opt's gaussian prefactor underflow far from their data; arc-cosine features without
    reflected pairs are all 0 on the negative side of every direction. Every other map keeps a feature."""
    return method == "nystroem" or (method == "maclaurin-opt" and kernel == "gaussian") or plain


def every_map():
    """Every (method, kernel) the registry builds, and the arc-cosine maps also with arccos_pairs="plain"."""
    for method, row in sorted(kfm.METHODS.items()):
        for kernel in row["kernels"]:
            yield method, kernel, False
            if kernel == "arccos" and "arccos_pairs" in row["options"]:
                yield method, kernel, True


def build(method, kernel, plain, x):
    options = dict(KERNEL_OPTIONS[kernel])
    if plain:
        options["arccos_pairs"] = "plain"
    data = x if kfm.METHODS[method]["landmarks_from_data"] or kfm.METHODS[method]["fitted_to_data"] else None
    features = 16 if method == "nystroem" else 24
    if plain:
        features = D_IN  # D <= d: the negative cone of the directions is never empty
    return kfm.FeatureMap(method, kernel, D_IN, features, seed=3, data=data, **options)


def probe_rows(x):
    """Training rows, a zero row, rows far from the data and, for the arc-cosine cones, many directions."""
    far = np.vstack([np.full(D_IN, 1e3), np.full(D_IN, -1e3), np.full(D_IN, 3e18)]).astype(np.float32)
    return np.vstack([x[:20], np.zeros((1, D_IN), np.float32), far, rows(400, seed=9)])


def transform_warnings(fm, x):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        phi = fm.transform(x)
    return phi, [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]


@needs_cli
@pytest.mark.parametrize("method, kernel, plain", list(every_map()))
def test_the_cli_and_python_agree_on_every_map_the_registry_builds(tmp_path, method, kernel, plain):
    x = rows()
    fm = build(method, kernel, plain, x)
    fm.save(tmp_path / "m.kfm")
    # inspect's field is the rule, in Python and in kfm inspect --json alike.
    assert fm.inspect()["features_can_vanish"] == can_vanish(method, kernel, plain)
    shown = subprocess.run([CLI, "inspect", "--json", str(tmp_path / "m.kfm")], capture_output=True, text=True,
                           check=True)
    assert json.loads(shown.stdout)["features_can_vanish"] == can_vanish(method, kernel, plain)
    # The same rows: kfm map and transform count the same all-zero rows, or both stay silent.
    probe = probe_rows(x)
    np.save(tmp_path / "x.npy", probe)
    mapped = subprocess.run([CLI, "map", str(tmp_path / "m.kfm"), "--in", str(tmp_path / "x.npy"), "--out",
                             str(tmp_path / "phi.npy")], capture_output=True, text=True, check=True)
    phi, caught = transform_warnings(fm, probe)
    assert np.array_equal(phi, np.load(tmp_path / "phi.npy"))
    cli_count = mapped.stderr.split(" of ")[0].split()[-1] if mapped.stderr else None
    py_count = caught[0].split(" of ")[0] if caught else None
    assert cli_count == py_count, (mapped.stderr, caught)
    if not can_vanish(method, kernel, plain):
        assert mapped.stderr == "" and caught == []
    if method == "nystroem" or (method == "maclaurin-opt" and kernel == "gaussian"):
        assert py_count is not None  # the far rows (the rational quadratic's only at 3e18)


def test_arccos_without_reflected_pairs_warns_on_its_negative_cone_but_not_on_a_zero_row():
    # A rule keyed on the method under a kernel with k(x, x) = 1 (nystroem, maclaurin-opt) misses these maps.
    fm = kfm.FeatureMap("orf", "arccos", D_IN, D_IN, seed=3, order=1, arccos_pairs="plain")
    x = rows(400, seed=9)
    phi, caught = transform_warnings(fm, x)
    zero_rows = int((~phi.any(axis=1)).sum())
    assert zero_rows > 0 and len(caught) == 1
    assert caught[0] == (f"{zero_rows} of 400 rows of X have all-zero features, so the map estimates k(x, x) = 0 for "
                         "them where the arccos kernel's is positive (rows on the negative side of every direction "
                         "of a map without reflected pairs; arccos_pairs='reflected' has none)")
    # x = 0: k(0, 0) = 0 under arc-cosine, as the features: nothing to warn about.
    phi, caught = transform_warnings(fm, np.zeros((3, D_IN)))
    assert not phi.any() and caught == []
    # The default, reflected pairs, cannot vanish.
    assert not kfm.FeatureMap("orf", "arccos", D_IN, D_IN, seed=3, order=1).inspect()["features_can_vanish"]


def fitted_model(method, x, **options):
    from sklearn.linear_model import Ridge
    from sklearn.pipeline import Pipeline
    import kfm.export
    import kfm.sklearn

    y = np.sin(x.sum(axis=1))
    features = kfm.sklearn.RandomFeatures(method=method, n_components=24, random_state=1, **options)
    pipe = Pipeline([("map", features), ("head", Ridge(alpha=1e-3))]).fit(x, y)
    return pipe, kfm.Model.from_bytes(kfm.export.export_bytes(pipe))


@pytest.mark.parametrize("method", ["maclaurin-opt", "nystroem"])
def test_model_predict_and_score_warn_about_far_rows_and_keep_their_outputs(method):
    x = rows(300).astype(np.float64)
    pipe, model = fitted_model(method, x, gamma=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        on_training = model.predict(x)  # the training rows: no warning
        model.score(x, pipe.predict(x))
        model.decision_function(x)
    np.testing.assert_allclose(on_training, pipe.predict(x), rtol=1e-4, atol=1e-4)
    far = np.vstack([x[:1], x[:2] + 200.0])
    message = (r"2 of 3 rows of X have all-zero features, so the map estimates k\(x, x\) = 0 for them where the "
               rf"gaussian kernel's is 1, and the model predicts its bias alone \(rows far from the data the {method} "
               r"map was built from\)")
    with pytest.warns(RuntimeWarning, match=message) as caught:
        predicted = model.predict(far)
    assert caught[0].filename == __file__  # attributed to the caller
    # The outputs are those of kfm::predict, warning or not: the far rows score the bias alone.
    np.testing.assert_array_equal(predicted[1:], np.full(2, pipe.named_steps["head"].intercept_, np.float32))
    np.testing.assert_allclose(predicted[0], on_training[0])
    with pytest.warns(RuntimeWarning, match=message):
        assert model.score(far, predicted) == 1.0


def test_model_on_a_map_that_cannot_vanish_does_not_look():
    x = rows(200).astype(np.float64)
    _, model = fitted_model("rff", x, gamma=0.5)
    assert not model.feature_map().inspect()["features_can_vanish"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.predict(np.vstack([x[:1], x[:2] + 200.0]))
