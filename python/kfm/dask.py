"""Mapping a Dask array whose rows are spread over many workers or hosts.

The map travels as the bytes of its .kfm file (a few kB to a few MB, put into the task graph once);
each block of rows is mapped by the same runtime as FeatureMap.transform, so the result equals the
single-process one.
"""
import dask
import dask.array as da
import numpy as np

from . import FeatureMap

__all__ = ["transform"]


def transform(mapper, X, n_jobs=1):
    """phi of every row of the Dask array X (n, input_dim) as a Dask array (n, output_dim).

    `mapper` is a kfm.FeatureMap or a fitted transformer with `feature_map_` (kfm.sklearn.RandomFeatures).
    X may be chunked over rows in any way; its columns are gathered into one chunk. The result is bit for
    bit FeatureMap.transform's in any chunking (a row's features do not depend on its batch). float64
    input gives float64 output, anything else float32 (as FeatureMap.transform). n_jobs: threads per
    block (1: Dask's workers provide the parallelism)."""
    feature_map = mapper if isinstance(mapper, FeatureMap) else getattr(mapper, "feature_map_", None)
    if not isinstance(feature_map, FeatureMap):
        raise TypeError("kfm.dask.transform takes a kfm.FeatureMap or a fitted kfm transformer (with feature_map_), "
                        f"got {type(mapper).__name__}")
    if not isinstance(X, da.Array):
        raise TypeError(f"X must be a dask.array.Array, got {type(X).__name__} (use FeatureMap.transform for NumPy)")
    if X.ndim != 2 or X.shape[1] != feature_map.input_dim:
        raise ValueError(f"X must have shape (n, {feature_map.input_dim}), got {X.shape}")
    if X.dtype.kind not in "fiu":
        raise ValueError(f"X must be numeric, got dtype {X.dtype}")
    if X.numblocks[1] != 1:
        X = X.rechunk({1: -1})
    out_dtype = np.float64 if X.dtype == np.float64 else np.float32
    map_bytes = dask.delayed(feature_map.to_bytes(), pure=True)
    return da.map_blocks(_transform_block, X, map_bytes, n_jobs, dtype=out_dtype,
                         chunks=(X.chunks[0], (feature_map.output_dim,)), meta=np.empty((0, 0), out_dtype))


def _transform_block(block, map_bytes, n_jobs):
    return FeatureMap.from_bytes(map_bytes).transform(block, n_jobs=n_jobs)
