"""Mapping a Dask array whose rows are spread over many workers or hosts.

The map travels as the bytes of its .kfm file (a few kB to a few MB, put into the task graph once) with
the ISA it was opened with; each block of rows is mapped by the same runtime as FeatureMap.transform, so
the result equals the single-process one.
"""
from __future__ import annotations

import re
from typing import Any, Optional, Union

import dask
import dask.array as da
import numpy as np

from . import FeatureMap

__all__ = ["transform"]


def transform(mapper: Union[FeatureMap, Any], X: da.Array, n_jobs: Optional[int] = 1) -> da.Array:
    """phi of every row of a Dask array, as a Dask array.

    The result is bit for bit FeatureMap.transform's in any chunking (a row's features do not depend on
    its batch). A map opened with a pinned isa (FeatureMap(..., isa="scalar")) runs with that ISA
    on every worker, and a worker without it refuses the block.

    Parameters
    ----------
    mapper : kfm.FeatureMap or fitted transformer
        A FeatureMap, or a fitted transformer with `feature_map_` (kfm.sklearn.RandomFeatures).
    X : dask.array.Array of shape (n_samples, input_dim)
        Numeric rows, chunked over rows in any way; its columns are gathered into one chunk.
    n_jobs : int, default=1
        Threads per block (1: Dask's workers provide the parallelism; None or -1: every core).

    Returns
    -------
    dask.array.Array of shape (n_samples, output_dim)
        float64 for float64 X, float32 otherwise (as FeatureMap.transform).

    Raises
    ------
    TypeError
        When mapper is not a FeatureMap or fitted kfm transformer, or X not a Dask array.
    ValueError
        For a wrong shape or dtype; when computed, for an input the runtime refuses (a NaN, say),
        naming its rows of X, not of the block.
    """
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


def _transform_block(block: np.ndarray, map_bytes: bytes, isa: str, n_jobs: Optional[int],
                     block_info: Optional[dict] = None) -> np.ndarray:
    try:
        return FeatureMap.from_bytes(map_bytes, isa).transform(block, n_jobs=n_jobs)
    except ValueError as e:
        first_row = block_info[0]["array-location"][0][0] if block_info else 0
        raise ValueError(_global_rows(str(e), first_row)) from None


def _global_rows(message: str, first_row: int) -> str:
    """The runtime's "rows a..b: reason" about a block -> the same rows numbered in the whole array."""
    return re.sub(r"^rows (\d+)\.\.(\d+):",
                  lambda m: f"rows {int(m.group(1)) + first_row}..{int(m.group(2)) + first_row} of X:", message)
