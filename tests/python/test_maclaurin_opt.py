"""maclaurin-opt from Python: FeatureMap(data=...) and kfm.sklearn.RandomFeatures fit on the rows of X (the
map centres on them and fits its degree allocation), as kfm build --data does."""
import numpy as np
import pytest

import kfm
import kfm.sklearn


def rows(n, d, offset=3.0, seed=0):
    r = np.random.default_rng(seed)
    return (offset + 0.5 * r.standard_normal((n, d))).astype(np.float32)


def test_the_registry_marks_it_fitted_to_data():
    assert kfm.METHODS["maclaurin-opt"]["fitted_to_data"]
    assert not kfm.METHODS["maclaurin-opt"]["landmarks_from_data"]
    assert not kfm.METHODS["sorf"]["fitted_to_data"]


def test_feature_map_needs_the_rows_and_depends_on_them():
    x = rows(200, 6)
    with pytest.raises(ValueError, match="maclaurin-opt needs data"):
        kfm.FeatureMap("maclaurin-opt", "gaussian", 6, 40, sigma=1.0)
    a = kfm.FeatureMap("maclaurin-opt", "gaussian", 6, 40, sigma=1.0, data=x)
    assert a.output_dim == 40
    assert a == kfm.FeatureMap("maclaurin-opt", "gaussian", 6, 40, sigma=1.0, data=x)
    assert a != kfm.FeatureMap("maclaurin-opt", "gaussian", 6, 40, sigma=1.0, data=x + 1.0)


def test_sklearn_random_features_fits_on_x_and_beats_sorf():
    x = rows(400, 6)
    errors = {}
    for method in ("maclaurin-opt", "sorf"):
        total = 0.0
        for seed in range(1, 5):
            rf = kfm.sklearn.RandomFeatures(method=method, kernel="rbf", gamma=0.5, n_components=48, random_state=seed)
            phi = rf.fit(x).transform(x[:150])
            exact = np.exp(-0.5 * ((x[:150, None, :] - x[None, :150, :]) ** 2).sum(-1))
            total += np.linalg.norm(phi @ phi.T - exact) / np.linalg.norm(exact)
        errors[method] = total / 4
    assert errors["maclaurin-opt"] < 0.6 * errors["sorf"], errors


def test_sklearn_random_features_passes_the_polynomial_sphere_kernel_and_beats_gorf():
    x = np.random.default_rng(1).standard_normal((400, 6)).astype(np.float32)
    errors = {}
    for method in ("maclaurin-opt", "gorf"):
        total = 0.0
        for seed in range(1, 5):
            rf = kfm.sklearn.RandomFeatures(method=method, kernel="polynomial-sphere", degree=3, poly_scale=4.0,
                                            n_components=48, random_state=seed).fit(x)
            assert rf.feature_map_.kernel == "polynomial-sphere"
            exact = rf.feature_map_.exact_kernel(x[:150])
            total += np.linalg.norm(rf.kernel_estimate(x[:150]) - exact) / np.linalg.norm(exact)
        errors[method] = total / 4
    assert errors["maclaurin-opt"] < 0.5 * errors["gorf"], errors
    # Fitted to the rows (they set the degree allocation), and no preprocessing of its own: a dot-product
    # kernel is not centred.
    info = kfm.FeatureMap("maclaurin-opt", "polynomial-sphere", 6, 48, degree=3, scale=4.0, data=x).inspect()
    assert info["preprocessing"] is None and info["normalize_input"]
    assert info["degree_features"]["1"] == 8 and info["kernel_params"] == {"degree": 3, "scale": 4}
    with pytest.raises(ValueError, match="scale a must be finite and at least 2"):
        kfm.FeatureMap("maclaurin-opt", "polynomial-sphere", 6, 48, degree=3, scale=1.5, data=x)


def test_a_gaussian_pipeline_exports_with_the_maps_centring_and_a_scaler_before_it_is_refused(tmp_path):
    from sklearn.linear_model import Ridge
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    x = rows(300, 6)
    y = np.sin(x.sum(axis=1))
    features = kfm.sklearn.RandomFeatures(method="maclaurin-opt", gamma=0.5, n_components=48, random_state=1)
    pipe = Pipeline([("map", features), ("head", Ridge(alpha=1e-3))]).fit(x, y)
    assert pipe.named_steps["map"].feature_map_.inspect()["gaussian_prefactor"]
    kfm.sklearn.export(pipe, tmp_path / "model.kfm", X=x[:100])
    model = kfm.Model(tmp_path / "model.kfm")
    np.testing.assert_allclose(model.predict(x[:100]), pipe.predict(x[:100]), rtol=1e-4, atol=1e-4)

    scaled = Pipeline([("scale", StandardScaler()), ("map", features), ("head", Ridge(alpha=1e-3))]).fit(x, y)
    with pytest.raises(ValueError, match="step 'scale': the map of step 'map' .* centres and scales its inputs itself"):
        kfm.sklearn.export(scaled, tmp_path / "scaled.kfm")
    assert not (tmp_path / "scaled.kfm").exists()
    # The other maps carry no prefactor, so the flag does not let a map with a model's PREP through.
    assert not kfm.FeatureMap("sorf", "gaussian", 6, 48).inspect()["gaussian_prefactor"]


def test_transform_warns_about_rows_whose_features_all_vanish_far_from_the_training_mean():
    import warnings

    x = rows(200, 6)
    fm = kfm.FeatureMap("maclaurin-opt", "gaussian", 6, 40, sigma=1.0, data=x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert fm.transform(x).any(axis=1).all()  # the training rows: no warning
    far = np.vstack([x[:1], x[:2] + 200.0])
    with pytest.warns(RuntimeWarning, match=r"2 of 3 rows of X have all-zero features, so the map estimates "
                                            r"k\(x, x\) = 0 for them where the gaussian kernel's is 1"):
        phi = fm.transform(far)
    assert phi[0].any() and not phi[1:].any()
    # A map whose features cannot all vanish does not look.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kfm.FeatureMap("sorf", "gaussian", 6, 40).transform(far)
