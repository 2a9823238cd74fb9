"""kfm.sklearn.RandomFeatures: scikit-learn's own estimator checks for every method and kernel, gamma as
RBFSampler means it, dtype, feature names, pickling and clone, and a Pipeline."""
import os
import pickle
import subprocess

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.kernel_approximation import RBFSampler
from sklearn.linear_model import RidgeClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

import kfm
from kfm.sklearn import QuadratureSampler, RandomFeatures, SSFSampler

# Every check of sklearn.utils.estimator_checks (scikit-learn 1.2) applies and passes for every
# configuration below, check_methods_subset_invariance included: a row's features are the same bits alone
# and in any batch (docs/reliability.md, "Batch invariance"). Nystroem's m = n_components landmarks are rows of the X fit is given, so it
# refuses X with fewer rows (scikit-learn's Nystroem shrinks m instead); its configuration takes m = 10, the
# fewest rows the checks fit (but check_fit2d_1sample, which wants that refusal), and passes every check.
CONFIGURATIONS = (
    [RandomFeatures(method=m, random_state=0) for m in ("rff", "rff-phase", "orf", "qmc", "sorf", "ssf", "quadrature")]
    + [RandomFeatures(method=m, kernel="arccos", order=1, random_state=0) for m in ("rff", "sorf", "ssf", "quadrature")]
    + [RandomFeatures(method=m, kernel="polynomial-sphere", degree=2, poly_scale=3.0, random_state=0)
       for m in ("srf", "gorf", "grff", "maclaurin", "tensorsketch", "tensor-srht", "ctr-srht")]
    + [RandomFeatures(method="gorf", kernel="delta-gaussian", mixture_weights=[1.0, -0.5],
                      mixture_sigmas=[1.0, 2.0], random_state=0),
       RandomFeatures(gamma="scale", random_state=0), RandomFeatures(gamma="median", random_state=0),
       SSFSampler(random_state=0), QuadratureSampler(n_components=64, random_state=0),
       RandomFeatures(method="orf", kernel="matern", nu=2.5, random_state=0),
       RandomFeatures(method="qmc", kernel="laplacian", gamma=0.5, random_state=0),
       RandomFeatures(method="nystroem", n_components=10, random_state=0)]
    # maclaurin-opt needs n_components >= d2 + 1 and refuses the n_components=1 of five checks, which its
    # _xfail_checks tag names; every other check passes.
    + [RandomFeatures(method="maclaurin-opt", random_state=0),
       RandomFeatures(method="maclaurin-opt", kernel="polynomial-sphere", degree=2, poly_scale=3.0, random_state=0)]
)


@parametrize_with_checks(CONFIGURATIONS)
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


def data(n=60, d=7, seed=0):
    return np.random.default_rng(seed).normal(size=(n, d))


def test_gamma_means_what_it_means_in_rbf_sampler():
    # The mean of 200 maps' estimates is within 4.4 standard errors of exp(-gamma |x - y|^2).
    x = data(4, 5, seed=3)
    gamma = 0.3
    exact = np.exp(-gamma * ((x[:, None, :] - x[None, :, :]) ** 2).sum(-1))
    estimates = np.array([RandomFeatures(method="orf", n_components=32, gamma=gamma, random_state=s)
                          .fit(x).kernel_estimate(x) for s in range(200)])
    mean, stderr = estimates.mean(0), estimates.std(0, ddof=1) / np.sqrt(len(estimates))
    upper = np.triu_indices(4, 1)
    assert np.all(np.abs(mean - exact)[upper] <= 4.4 * stderr[upper])


def test_gamma_scale_is_scikit_learns():
    x = data() * 3.0
    rf = RandomFeatures(gamma="scale", random_state=1).fit(x)
    assert rf.gamma_ == pytest.approx(1.0 / (x.shape[1] * x.var()), rel=1e-12)
    assert rf.feature_map_.inspect()["kernel_params"]["sigma"] == pytest.approx(np.sqrt(0.5 / rf.gamma_))


@pytest.mark.skipif(os.environ.get("KFM_CLI") is None, reason="KFM_CLI is set by the ctest 'python'")
@pytest.mark.parametrize("rule", ["median", "scale"])
def test_data_driven_gamma_matches_kfm_build(tmp_path, rule):
    x = data(300, 6).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    subprocess.run([os.environ["KFM_CLI"], "build", "--method", "ssf", "--kernel", "gaussian", "--input-dim", "6",
                    "--features", "64", "--seed", "4", "--sigma", rule, "--data", str(tmp_path / "x.npy"), "-o",
                    str(tmp_path / "m.kfm")], check=True, capture_output=True)
    rf = RandomFeatures(method="ssf", n_components=64, gamma=rule, random_state=4).fit(x)
    cli = kfm.FeatureMap.load(tmp_path / "m.kfm").inspect()["kernel_params"]["sigma"]
    assert rf.feature_map_.inspect()["kernel_params"]["sigma"] == pytest.approx(cli, rel=1e-6)


def test_random_state_is_the_seed_of_kfm_build():
    rf = RandomFeatures(method="sorf", n_components=64, gamma=0.5, random_state=11).fit(data())
    direct = kfm.FeatureMap("sorf", "gaussian", 7, 64, seed=11, sigma=1.0)
    assert rf.feature_map_ == direct


def test_dtype_feature_names_and_rounded_width():
    x = data()
    rf = RandomFeatures(method="ssf", n_components=100, random_state=0).fit(x)
    assert rf.transform(x.astype(np.float32)).dtype == np.float32
    assert rf.transform(x).dtype == np.float64
    names = rf.get_feature_names_out()
    assert len(names) == rf.n_components_ == rf.transform(x).shape[1]
    assert names[0] == "randomfeatures0"


def test_pickle_and_clone_give_identical_transforms():
    x = data()
    rf = RandomFeatures(method="quadrature", n_components=128, random_state=5).fit(x)
    again = pickle.loads(pickle.dumps(rf))
    np.testing.assert_array_equal(again.transform(x), rf.transform(x))
    np.testing.assert_array_equal(clone(rf).fit(x).transform(x), rf.transform(x))
    unseeded = RandomFeatures(method="quadrature", n_components=128).fit(x)
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(unseeded)).transform(x), unseeded.transform(x))


def test_bad_parameters_are_value_errors():
    x = data()
    for bad in (dict(gamma=-1.0), dict(gamma="wide"), dict(n_components=0), dict(method="nope"),
                dict(kernel="nope"), dict(kernel="delta-gaussian"), dict(random_state=-3),
                dict(radial_rule="nonsense")):
        with pytest.raises(ValueError):
            RandomFeatures(**bad).fit(x)


def test_in_a_pipeline_like_rbf_sampler():
    x, y = make_classification(n_samples=600, n_features=10, n_informative=6, random_state=0)
    train, test = slice(0, 400), slice(400, None)
    ours = Pipeline([("scale", StandardScaler()),
                     ("map", RandomFeatures(method="ssf", n_components=512, gamma="scale", random_state=0)),
                     ("clf", RidgeClassifier(alpha=1.0))]).fit(x[train], y[train])
    theirs = Pipeline([("scale", StandardScaler()),
                       ("map", RBFSampler(n_components=512, gamma="scale", random_state=0)),
                       ("clf", RidgeClassifier(alpha=1.0))]).fit(x[train], y[train])
    # Same kernel, same D: the held-out accuracies differ by at most a few test points' worth of noise.
    assert ours.score(x[test], y[test]) >= theirs.score(x[test], y[test]) - 0.05
    assert ours.score(x[test], y[test]) > 0.8


def test_named_samplers_are_random_features_with_another_default_method():
    x = data()
    named = SSFSampler(n_components=64, gamma=0.2, random_state=3)
    assert named.get_params()["method"] == "ssf" and QuadratureSampler().method == "quadrature"
    general = RandomFeatures(method="ssf", n_components=64, gamma=0.2, random_state=3)
    np.testing.assert_array_equal(named.fit(x).transform(x), general.fit(x).transform(x))
    assert clone(named).get_params() == named.get_params() and type(clone(named)) is SSFSampler
    assert SSFSampler(method="rff").fit(x).feature_map_.method == "rff"
    with pytest.raises(TypeError):
        SSFSampler(no_such_parameter=1)


def test_rows_do_not_depend_on_their_batch():
    x = data(50, 9, seed=4)
    for sampler in (QuadratureSampler(n_components=180, random_state=2), SSFSampler(n_components=180, random_state=2)):
        rf = sampler.fit(x)
        whole = rf.transform(x)
        for rows in (slice(0, 1), slice(3, 11), slice(7, 50), slice(0, 50, 3)):
            np.testing.assert_array_equal(rf.transform(x[rows]), whole[rows])
        assert not rf._get_tags().get("_xfail_checks")


@pytest.mark.parametrize("method, kernel, options", [
    ("quadrature", "gaussian", {"gamma": 0.1}),
    ("gorf", "polynomial-sphere", {"degree": 3}),
    ("grff", "polynomial-sphere", {"degree": 3}),
    ("rff", "gaussian", {"gamma": 0.1}),
    ("ssf", "gaussian", {"gamma": 0.1}),
])
def test_the_plain_dot_product_is_the_kernel_estimate_exactly_when_negative_dim_is_0(method, kernel, options):
    X = np.random.default_rng(0).normal(size=(300, 8))
    if kernel == "polynomial-sphere":
        X /= np.linalg.norm(X, axis=1, keepdims=True)
    rf = RandomFeatures(method=method, kernel=kernel, n_components=512, random_state=1, **options).fit(X)
    assert rf.negative_dim_ == rf.feature_map_.negative_dim
    F = rf.transform(X)
    estimate = rf.kernel_estimate(X)
    exact = rf.feature_map_.exact_kernel(X)
    error = lambda K: np.linalg.norm(K - exact) / np.linalg.norm(exact)  # noqa: E731
    if method in ("rff", "ssf"):
        assert rf.negative_dim_ == 0
        np.testing.assert_allclose(F @ F.T, estimate, rtol=1e-9, atol=1e-9)
    else:
        # What the docstring warns about: phi . phi is another, worse estimate; kernel_estimate is the one.
        assert rf.negative_dim_ > 0
        assert np.abs(F @ F.T - estimate).max() > 0.01
        assert error(estimate) < error(F @ F.T)
