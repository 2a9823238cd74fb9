"""Mapping a Dask array whose rows are spread over many workers or hosts.

The map travels as the bytes of its .kfm file (a few kB to a few MB, put into the task graph once) with
the ISA it was opened with; each block of rows is mapped by the same runtime as FeatureMap.transform, so
the result equals the single-process one.
"""
import re

import dask
import dask.array as da
import numpy as np

from . import FeatureMap

__all__ = ["transform"]


def transform(mapper, X, n_jobs=1):
    """phi of every row of the Dask array X (n, input_dim) as a Dask array (n, output_dim).

    `mapper` is a kfm.FeatureMap or a fitted transformer with `feature_map_` (kfm.sklearn.RandomFeatures).
    X may be chunked over rows in any way; its columns are gathered into one chunk. With row chunks of a
    multiple of 64 rows the result is bit for bit FeatureMap.transform's (the runtime maps 64-row blocks;
    rows of a shorter block take another kernel path and may differ in the last float bits). A map opened
    with a pinned isa (FeatureMap(..., isa="scalar")) runs with that ISA on every worker, and a worker
    without it refuses the block. float64 input gives float64 output, anything else float32 (as
    FeatureMap.transform). n_jobs: threads per block (1: Dask's workers provide the parallelism). An
    input the runtime refuses (a NaN, say) raises ValueError naming its rows of X, not of the block."""
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
    return da.map_blocks(_transform_block, X, map_bytes, feature_map.requested_isa, n_jobs, dtype=out_dtype,
                         chunks=(X.chunks[0], (feature_map.output_dim,)), meta=np.empty((0, 0), out_dtype))


def _transform_block(block, map_bytes, isa, n_jobs, block_info=None):
    try:
        return FeatureMap.from_bytes(map_bytes, isa).transform(block, n_jobs=n_jobs)
    except ValueError as e:
        first_row = block_info[0]["array-location"][0][0] if block_info else 0
        raise ValueError(_global_rows(str(e), first_row)) from None


def _global_rows(message, first_row):
    """The runtime's "rows a..b: reason" about a block -> the same rows numbered in the whole array."""
    return re.sub(r"^rows (\d+)\.\.(\d+):",
                  lambda m: f"rows {int(m.group(1)) + first_row}..{int(m.group(2)) + first_row} of X:", message)
