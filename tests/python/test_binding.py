"""kfm.FeatureMap and kfm.Model: the same files, features and predictions as the kfm tool, every input
layout, threads, the GIL released, and errors as ValueError with the library's reason."""
import os
import pickle
import subprocess
import threading
import time

import numpy as np
import pytest

import kfm

CLI = os.environ.get("KFM_CLI")
needs_cli = pytest.mark.skipif(CLI is None, reason="KFM_CLI (the kfm tool) is set by the ctest 'python'")


def rows(n, d, seed=0):
    return np.random.default_rng(seed).normal(size=(n, d)).astype(np.float32)


@needs_cli
@pytest.mark.parametrize("options, words", [
    (dict(method="ssf", kernel="gaussian", sigma=2.5, radial_points=2),
     ["--method", "ssf", "--kernel", "gaussian", "--sigma", "2.5", "--radial-points", "2"]),
    (dict(method="quadrature", kernel="arccos", order=1, resample_radii=True),
     ["--method", "quadrature", "--kernel", "arccos", "--order", "1", "--resample-radii"]),
    (dict(method="gorf", kernel="delta-gaussian", weights=[1.0, -0.5], sigmas=[1.0, 2.0]),
     ["--method", "gorf", "--kernel", "delta-gaussian", "--weights", "1,-0.5", "--sigmas", "1,2"]),
    (dict(method="gq", kernel="gaussian", sigma=2.0, gq_nodes=3),
     ["--method", "gq", "--kernel", "gaussian", "--sigma", "2", "--gq-nodes", "3"]),
    (dict(method="quadrature", kernel="gaussian", partial_rule=True),
     ["--method", "quadrature", "--kernel", "gaussian", "--partial-rule"]),
])
def test_build_gives_the_bytes_of_kfm_build(tmp_path, options, words):
    m = kfm.FeatureMap(input_dim=12, features=96, seed=7, **options)
    out = tmp_path / "cli.kfm"
    subprocess.run([CLI, "build", *words, "--input-dim", "12", "--features", "96", "--seed", "7", "-o", str(out)],
                   check=True, capture_output=True)
    assert m.to_bytes() == out.read_bytes()


@needs_cli
def test_transform_equals_kfm_map(tmp_path):
    m = kfm.FeatureMap("sorf", "gaussian", 10, 128, seed=3, sigma=3.0)
    m.save(tmp_path / "m.kfm")
    x = rows(40, 10)
    np.save(tmp_path / "x.npy", x)
    subprocess.run([CLI, "map", str(tmp_path / "m.kfm"), "--in", str(tmp_path / "x.npy"), "--out",
                    str(tmp_path / "phi.npy")], check=True, capture_output=True)
    np.testing.assert_array_equal(m.transform(x), np.load(tmp_path / "phi.npy"))


def test_save_load_and_bytes_round_trip(tmp_path):
    m = kfm.FeatureMap("ssf", "gaussian", 6, 64, seed=2)
    m.save(tmp_path / "a.kfm")
    loaded = kfm.FeatureMap.load(tmp_path / "a.kfm")
    assert loaded == m and loaded.to_bytes() == (tmp_path / "a.kfm").read_bytes()
    assert kfm.FeatureMap.from_bytes(bytearray(m.to_bytes())) == m
    x = rows(5, 6)
    np.testing.assert_array_equal(loaded.transform(x), m.transform(x))


def test_every_input_layout_gives_the_same_features():
    m = kfm.FeatureMap("quadrature", "gaussian", 9, 200, seed=4, sigma=2.0)
    x = rows(33, 9)
    reference = m.transform(x)
    assert reference.dtype == np.float32 and reference.shape == (33, m.output_dim)
    from_f64 = m.transform(x.astype(np.float64))
    assert from_f64.dtype == np.float64
    np.testing.assert_array_equal(from_f64, reference.astype(np.float64))
    np.testing.assert_array_equal(m.transform(np.asfortranarray(x)), reference)
    # A negative-stride view: the rows change places, and a row's batch group can decide between the
    # batched and the single-row kernels, which agree to float rounding, not bit for bit.
    np.testing.assert_allclose(m.transform(x[::-1])[::-1], reference, rtol=1e-5, atol=1e-6)
    ints = np.arange(27, dtype=np.int64).reshape(3, 9)
    np.testing.assert_array_equal(m.transform(ints), m.transform(ints.astype(np.float32)))
    readonly = x.copy()
    readonly.setflags(write=False)
    np.testing.assert_array_equal(m.transform(readonly), reference)


def test_the_binding_reads_float32_rows_in_place_and_refuses_other_layouts():
    m = kfm.FeatureMap("rff", "gaussian", 4, 16, seed=1)
    out = np.empty((3, m.output_dim), dtype=np.float32)
    m._map.transform(rows(3, 4), out, 1)  # the native entry point accepts the caller's float32 C buffer
    for bad in (rows(3, 4).astype(np.float64), np.asfortranarray(rows(3, 4))):
        with pytest.raises(TypeError, match="float32 C-contiguous"):
            m._map.transform(bad, out, 1)


def test_threads_give_identical_features():
    m = kfm.FeatureMap("ssf", "gaussian", 20, 256, seed=5, sigma=4.0)
    x = rows(1000, 20)
    one = m.transform(x, n_jobs=1)
    np.testing.assert_array_equal(m.transform(x, n_jobs=2), one)
    np.testing.assert_array_equal(m.transform(x, n_jobs=7), one)
    np.testing.assert_array_equal(m.transform(x), one)
    with pytest.raises(ValueError, match="n_jobs"):
        m.transform(x, n_jobs=0)


def test_transform_releases_the_gil():
    m = kfm.FeatureMap("rff", "gaussian", 256, 4096, seed=1)
    x = rows(3000, 256)
    counter = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            counter[0] += 1

    worker = threading.Thread(target=count)
    worker.start()
    try:
        time.sleep(0.05)
        before = counter[0]
        start = time.perf_counter()
        m.transform(x, n_jobs=1)
        elapsed = time.perf_counter() - start
        during = counter[0] - before
    finally:
        stop.set()
        worker.join()
    # While the GIL is held the counting thread cannot run at all; released, it counts throughout.
    assert elapsed > 0.02, "the transform was too short to observe"
    assert during > 10000, f"the counting thread ran only {during} times during a {elapsed:.3f} s transform"


def test_errors_are_value_errors_with_the_reason(tmp_path):
    m = kfm.FeatureMap("rff", "gaussian", 4, 16, seed=1)
    with pytest.raises(ValueError, match="X has 5 features, but the map expects 4"):
        m.transform(rows(2, 5))
    bad = rows(3, 4)
    bad[1, 2] = np.nan
    with pytest.raises(ValueError, match="non-finite|NaN|finite"):
        m.transform(bad)
    with pytest.raises(ValueError, match="2-D"):
        m.transform(np.zeros(4))
    with pytest.raises(ValueError, match="radial_points >= 2"):
        kfm.FeatureMap("ssf", "gaussian", 4, 16, radial_rule="antithetic", radial_points=1)
    with pytest.raises(ValueError, match="unknown method"):
        kfm.FeatureMap("nope", "gaussian", 4, 16)
    data = bytearray(m.to_bytes())
    data[len(data) // 2] ^= 0x40
    with pytest.raises(ValueError, match="not a valid .kfm file"):
        kfm.FeatureMap.from_bytes(data)
    (tmp_path / "bad.kfm").write_bytes(bytes(data))
    with pytest.raises(ValueError, match="bad.kfm"):
        kfm.FeatureMap.load(tmp_path / "bad.kfm")
    with pytest.raises(FileNotFoundError, match="missing.kfm"):
        kfm.FeatureMap.load(tmp_path / "missing.kfm")
    with pytest.raises(ValueError):
        m.save(tmp_path)  # a directory: refused, nothing written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.kfm"]


def test_kernel_estimate_counts_the_negative_features_negatively():
    m = kfm.FeatureMap("gorf", "polynomial-sphere", 8, 64, seed=3, degree=2, scale=3.0)
    assert m.negative_dim > 0
    phi = m.transform(rows(2, 8))
    j = np.ones(m.output_dim)
    j[m.output_dim - m.negative_dim:] = -1.0
    expected = float(np.sum(phi[0].astype(np.float64) * phi[1] * j))
    assert m.kernel_estimate(phi[0], phi[1]) == pytest.approx(expected, rel=1e-12)
    np.testing.assert_allclose(m.kernel_matrix(rows(2, 8))[0, 1], expected, rtol=1e-6)


def test_gaussian_estimate_is_unbiased_over_map_seeds():
    # 200 independent maps; the mean estimate of each kernel value lies within 4.4 standard errors
    # (a false-failure rate about 1e-5 per entry, 6 entries).
    x = rows(4, 5, seed=11)
    exact = kfm.FeatureMap("rff", "gaussian", 5, 16, sigma=2.0).exact_kernel(x)
    estimates = np.array([kfm.FeatureMap("rff", "gaussian", 5, 16, seed=s, sigma=2.0).kernel_matrix(x)
                          for s in range(1, 201)])
    mean, stderr = estimates.mean(axis=0), estimates.std(axis=0, ddof=1) / np.sqrt(len(estimates))
    upper = np.triu_indices(4, 1)
    assert np.all(np.abs(mean - exact)[upper] <= 4.4 * stderr[upper])


def test_inspect_reports_what_kfm_inspect_does():
    m = kfm.FeatureMap("ssf", "gaussian", 12, 100, seed=9, sigma=1.5)
    info = m.inspect()
    assert info["method"] == "ssf" and info["kernel"] == "gaussian"
    assert info["kernel_params"] == {"sigma": 1.5}
    assert info["input_dim"] == 12 and info["output_dim"] == m.output_dim
    assert info["file_bytes"] == len(m.to_bytes())
    assert info["workspace_bytes"] == m.workspace_bytes() > 0
    assert info["head"] is None and info["seed"] == 9


@needs_cli
def test_model_predicts_like_kfm_predict_and_scores_like_kfm_score(tmp_path):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(200, 6)).astype(np.float32)
    y = (x[:, 0] + x[:, 1] > 0).astype(np.int32) * 5 - 2  # labels -2 and 3
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "y.npy", y)
    kfm.FeatureMap("ssf", "gaussian", 6, 128, seed=1, sigma=2.0).save(tmp_path / "map.kfm")
    subprocess.run([CLI, "fit", str(tmp_path / "map.kfm"), "--x", str(tmp_path / "x.npy"), "--y",
                    str(tmp_path / "y.npy"), "--task", "classification", "--standardize", "-o",
                    str(tmp_path / "model.kfm")], check=True, capture_output=True)
    subprocess.run([CLI, "predict", str(tmp_path / "model.kfm"), "--in", str(tmp_path / "x.npy"), "--out",
                    str(tmp_path / "labels.npy"), "--scores", str(tmp_path / "scores.npy")],
                   check=True, capture_output=True)
    model = kfm.Model(tmp_path / "model.kfm")
    assert model.task == "binary" and list(model.classes_) == [-2, 3]
    np.testing.assert_array_equal(model.predict(x), np.load(tmp_path / "labels.npy"))
    np.testing.assert_array_equal(model.decision_function(x), np.load(tmp_path / "scores.npy").reshape(-1))
    score = subprocess.run([CLI, "score", str(tmp_path / "model.kfm"), "--x", str(tmp_path / "x.npy"), "--y",
                            str(tmp_path / "y.npy")], check=True, capture_output=True, text=True).stdout
    assert score.split()[0] == "accuracy" and float(score.split()[1]) == pytest.approx(model.score(x, y), abs=1e-9)
    with pytest.raises(ValueError, match="without a model head"):
        kfm.Model(tmp_path / "map.kfm")
    with pytest.raises(ValueError, match="X has 5 features, but the model expects 6"):
        model.predict(x[:, :5])


def test_a_file_name_with_nul_is_refused_and_nothing_is_written(tmp_path):
    m = kfm.FeatureMap("rff", "gaussian", 4, 16, seed=1, sigma=1.0)
    for name in [str(tmp_path / "a\0b.kfm"), os.fsencode(tmp_path / "a\0b.kfm")]:
        with pytest.raises(ValueError, match="NUL"):
            m.save(name)
        with pytest.raises(ValueError, match="NUL"):
            kfm.FeatureMap.load(name)
    assert list(tmp_path.iterdir()) == []
    m.save(tmp_path / "a")
    with pytest.raises(ValueError, match="NUL"):
        kfm.Model(str(tmp_path / "a\0b"))  # 'a' exists: the NUL must not make it load


def test_a_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError) as error:
        kfm.Model(tmp_path / "none.kfm")
    assert error.value.filename == str(tmp_path / "none.kfm")
    with pytest.raises(ValueError, match="directory"):
        kfm.FeatureMap.load(tmp_path)  # there but unreadable as a file: still ValueError


def test_sparse_input_is_refused_by_name():
    sparse = pytest.importorskip("scipy.sparse")
    m = kfm.FeatureMap("rff", "gaussian", 4, 16, seed=1, sigma=1.0)
    X = sparse.random(5, 4, density=0.5, format="csr", random_state=0)
    for call in [lambda: m.transform(X), lambda: m.kernel_matrix(X), lambda: kfm.median_sigma(X)]:
        with pytest.raises(TypeError, match="sparse csr_matrix.*toarray"):
            call()


def test_a_float64_beyond_float32_is_refused_by_position_not_as_an_infinite_input():
    m = kfm.FeatureMap("rff", "gaussian", 4, 16, seed=1, sigma=1.0)
    X = rows(20, 4).astype(np.float64)
    X[6, 2] = -1e300
    message = r"X: row 6, column 2 holds -1e\+300, beyond float32's range"
    with np.errstate(all="raise"):  # and no numpy overflow warning on the way
        for call in [lambda: m.transform(X), lambda: m.kernel_matrix(X), lambda: kfm.median_sigma(X),
                     lambda: m.transform(X.astype(np.longdouble))]:
            with pytest.raises(ValueError, match=message):
                call()
        with pytest.raises(ValueError, match=r"data: row 6, column 2 holds -1e\+300"):
            kfm.FeatureMap("maclaurin-opt", "gaussian", 4, 16, data=X)
        # Within float32's range it maps as the nearest float32.
        X[6, 2] = -1e30
        assert np.array_equal(m.transform(X), m.transform(X.astype(np.float32)))


@pytest.mark.skipif("scalar" not in kfm.isas() or kfm.isas()[0] == "scalar", reason="needs an ISA other than scalar")
def test_a_pinned_isa_survives_pickling_and_is_part_of_equality():
    pinned = kfm.FeatureMap("quadrature", "gaussian", 8, 256, seed=2, sigma=0.7, isa="scalar")
    automatic = kfm.FeatureMap.from_bytes(pinned.to_bytes())
    again = pickle.loads(pickle.dumps(pinned))
    assert again.isa == "scalar" and again.requested_isa == "scalar" and "isa='scalar'" in repr(again)
    x = rows(40, 8, seed=3) * 30.0
    np.testing.assert_array_equal(again.transform(x), pinned.transform(x))
    assert again == pinned and hash(again) == hash(pinned)
    assert automatic != pinned  # the same bytes, computed with other kernels
    assert pickle.loads(pickle.dumps(automatic)).requested_isa == "auto"


def test_model_score_of_a_constant_target_is_that_of_r2_score():
    from sklearn.linear_model import Ridge
    from sklearn.metrics import r2_score
    from sklearn.pipeline import Pipeline
    import kfm.export
    import kfm.sklearn
    x = rows(50, 4).astype(np.float64)
    pipe = Pipeline([("map", kfm.sklearn.RandomFeatures(method="rff", n_components=32, random_state=0)),
                     ("head", Ridge())]).fit(x, x[:, 0])
    model = kfm.Model.from_bytes(kfm.export.export_bytes(pipe))
    constant = np.full(50, 2.0)
    assert model.score(x, constant) == r2_score(constant, model.predict(x)) == 0.0
    assert np.isfinite(model.score(x, constant))
