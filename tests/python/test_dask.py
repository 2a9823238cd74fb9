"""Mapping a Dask array on a LocalCluster of two worker processes (kfm.dask.transform and a plain
map_blocks through the fitted transformer): equal to the single-process transform."""
import numpy as np
import pytest

da = pytest.importorskip("dask.array", reason="Dask is not installed (Debian python3-dask)")
distributed = pytest.importorskip("distributed",
                                  reason="dask.distributed is not installed (Debian python3-distributed)")

import kfm  # noqa: E402
import kfm.dask  # noqa: E402
from kfm.sklearn import RandomFeatures  # noqa: E402

# distributed 2022.12 with Debian's tornado 6.2 warns on every cluster start; nothing kfm can change.
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                                  worker_dashboard_address=None) as cluster, distributed.Client(cluster) as c:
        yield c


def data(n=2000, d=12, dtype=np.float64):
    return np.random.default_rng(4).normal(size=(n, d)).astype(dtype)


def workers_used(client, run):
    """The addresses of the workers that ran a task while `run()` computed."""
    with distributed.get_task_stream(client) as stream:
        result = run()
    return result, {task["worker"] for task in stream.data}


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_kfm_dask_transform_equals_the_single_process_result(client, dtype):
    X = data(dtype=dtype)
    transformer = RandomFeatures(method="ssf", n_components=256, gamma=0.1, random_state=3).fit(X)
    expected = transformer.transform(X)
    # Row chunks of a multiple of 64 rows (any chunking gives the same bits: the test below). Columns split
    # too: transform gathers them.
    lazy = kfm.dask.transform(transformer, da.from_array(X, chunks=(256, 6)))
    assert lazy.shape == expected.shape and lazy.dtype == expected.dtype
    mapped, workers = workers_used(client, lambda: lazy.compute())
    assert len(workers) == 2, f"the blocks ran on {workers}, not on both worker processes"
    assert mapped.dtype == expected.dtype
    np.testing.assert_array_equal(mapped, expected)


@pytest.mark.parametrize("method", ["ssf", "quadrature"])
def test_any_row_chunking_equals_the_single_process_result_bit_for_bit(client, method):
    # A row's features do not depend on its batch (docs/reliability.md, "Batch invariance"): chunks that
    # cut the runtime's 64-row blocks and its 8-row kernel groups give the same bits.
    X = data()
    transformer = RandomFeatures(method=method, n_components=256, gamma=0.1, random_state=3).fit(X)
    expected = transformer.transform(X)
    for chunks in ((250, 12), (37, 12), (1, 12)):
        mapped = kfm.dask.transform(transformer, da.from_array(X[:300], chunks=chunks)).compute()
        np.testing.assert_array_equal(mapped, expected[:300])


def test_a_feature_map_itself_maps_a_dask_array(client):
    X = data(n=700, d=5)
    feature_map = kfm.FeatureMap(method="gorf", kernel="polynomial-sphere", input_dim=5, features=64, degree=2,
                                 scale=3.0, seed=7)
    mapped = kfm.dask.transform(feature_map, da.from_array(X, chunks=(128, 5))).compute()
    np.testing.assert_array_equal(mapped, feature_map.transform(X))


def test_map_blocks_through_the_fitted_transformer(client):
    # The transformer pickles to its map's file bytes, so a plain map_blocks ships it to the workers too.
    X = data()
    transformer = RandomFeatures(method="orf", n_components=128, gamma=0.2, random_state=5).fit(X)
    lazy = da.from_array(X, chunks=(256, X.shape[1])).map_blocks(
        transformer.transform, dtype=np.float64, chunks=(256, transformer.n_components_))
    np.testing.assert_array_equal(lazy.compute(), transformer.transform(X))


def test_bad_arguments_are_refused():
    X = da.from_array(data(n=10, d=4), chunks=(5, 4))
    with pytest.raises(TypeError, match="FeatureMap or a fitted kfm transformer"):
        kfm.dask.transform(RandomFeatures(), X)
    feature_map = kfm.FeatureMap(method="rff", kernel="gaussian", input_dim=3, features=8, sigma=1.0)
    with pytest.raises(ValueError, match=r"shape \(n, 3\)"):
        kfm.dask.transform(feature_map, X)
    with pytest.raises(TypeError, match="dask.array.Array"):
        kfm.dask.transform(feature_map, data(n=10, d=3))


@pytest.mark.skipif("scalar" not in kfm.isas() or kfm.isas()[0] == "scalar", reason="needs an ISA other than scalar")
def test_a_pinned_isa_is_kept_on_the_workers(client):
    # Quadrature's scalar and SIMD kernels round differently, so the comparison tells which ran.
    X = data(n=512, d=8) * 30.0
    pinned = kfm.FeatureMap("quadrature", "gaussian", 8, 256, seed=2, sigma=0.7, isa="scalar")
    automatic = kfm.FeatureMap.from_bytes(pinned.to_bytes())
    assert not np.array_equal(pinned.transform(X), automatic.transform(X))
    mapped = kfm.dask.transform(pinned, da.from_array(X, chunks=(128, 8))).compute()
    np.testing.assert_array_equal(mapped, pinned.transform(X))


def test_a_refused_row_is_named_by_its_row_in_x(client):
    X = data(n=700, d=5)
    X[450, 2] = np.nan
    feature_map = kfm.FeatureMap("rff", "gaussian", 5, 32, seed=1, sigma=1.0)
    with pytest.raises(ValueError, match=r"rows 400\.\.463 of X: .*(NaN|finite)"):
        kfm.dask.transform(feature_map, da.from_array(X, chunks=(200, 5))).compute()
