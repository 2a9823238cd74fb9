"""scikit-learn estimators: `RandomFeatures`, a drop-in for `RBFSampler` with every kfm method, and
`export`, which writes a fitted Pipeline (scaler, RandomFeatures, linear model) as a device model file."""
from __future__ import annotations

import inspect
import numbers
from typing import Any, Dict, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from . import BUILD_OPTIONS, METHODS, FeatureMap, median_sigma
from .export import export

__all__ = ["RandomFeatures", "export"]

# How RandomFeatures takes each option of the library's option table (kfm.BUILD_OPTIONS, `kfm help
# build`): under scikit-learn's name for it, from the data fit is given, not at all, or (every other
# option) as a parameter of the table's own name.
_SKLEARN_NAMES = {"features": "n_components", "landmarks": "n_components", "seed": "random_state",
                  "sigma": "gamma", "alpha": "rq_alpha", "scale": "poly_scale", "weights": "mixture_weights",
                  "sigmas": "mixture_sigmas"}
_FROM_FIT = {"input_dim": "X's number of columns", "data": "X itself (nystroem's landmarks, gamma='median')"}
_NOT_TAKEN = {"progress": "optimiser progress on stderr is for the command line"}

# The table's method options (and arccos_pairs), passed to the library only when set: None keeps the
# library's default, so a changed default reaches Python too.
_METHOD_OPTIONS = tuple(name for name, row in BUILD_OPTIONS.items()
                        if (row["group"] == "method" or name == "arccos_pairs")
                        and name not in _SKLEARN_NAMES and name not in _FROM_FIT and name not in _NOT_TAKEN)

_KERNEL_ALIASES = {"rbf": "gaussian"}

class RandomFeatures(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Structured random features approximating a kernel k.

    For most methods transform(X) . transform(Y).T ~ k(X, Y), as for RBFSampler. Maps with negative
    features (negative_dim_ > 0 after fit: quadrature, and gorf and grff on most kernels) estimate
    k(x, y) as phi(x) . J phi(y) with J = diag(1, ..., 1, -1, ..., -1) over their last negative_dim_
    features: for them the plain dot product is NOT the kernel estimate; use kernel_estimate(X, Y).
    A linear model on transform(X) (the usual pipeline) is unaffected: its weights take either sign.

    Parameters
    ----------
    method : str, default="ssf"
        A method of `kfm.METHODS` (the library's method registry: each entry lists the kernels it
        builds, as `kfm help build` does); nystroem takes matern with nu 0.5, 1.5 or 2.5 only and
        chooses its landmarks among the rows fit is given. ssf or quadrature are good first choices for
        the gaussian kernel; rff is the baseline.
    kernel : str, default="gaussian"
        gaussian (alias "rbf"), matern, rational-quadratic, laplacian, arccos, polynomial-sphere,
        delta-gaussian.
    n_components : int, default=100
        Requested number of features D; methods with a natural granularity round it
        (`n_components_` is the real number). For nystroem, the number of landmarks m (at most
        n_samples), as scikit-learn's Nystroem.
    gamma : float, "scale" or "median", default=1.0
        Gaussian kernel exp(-gamma ||x - y||^2), as RBFSampler. "scale": 1 / (n_features * X.var()), as
        scikit-learn; "median": sigma = the median distance between rows of X (gamma = 1 / (2 sigma^2)).
        Used by the gaussian kernel, by matern and rational-quadratic as their length
        l = sqrt(1 / (2 gamma)) (so that they tend to the gaussian of the same gamma as nu, rq_alpha grow),
        and by laplacian as exp(-gamma ||x - y||_1), as scikit-learn's laplacian_kernel.
    nu : float, default=1.5
        Matérn smoothness (0 < nu <= 100), as scikit-learn's Matern; used by kernel="matern" only.
    rq_alpha : float, default=1.0
        Rational-quadratic alpha > 0, as scikit-learn's RationalQuadratic; used by
        kernel="rational-quadratic" only.
    order : int, default=0
        Arc-cosine kernel order (0, 1 or 2).
    degree : int, default=1
        Polynomial-sphere degree p: (1 - ||x - y||^2 / a^2)^p on unit-norm inputs.
    poly_scale : float, default=2.0
        Polynomial-sphere a >= 2 (kfm build --scale).
    mixture_weights, mixture_sigmas : sequence of float, default=None
        Delta-gaussian kernel sum_i c_i exp(-||x - y||^2 / (2 s_i^2)) (weights of any sign).
    radial_points, radial_rule, sweeps, fft_size : default=None
        ssf's options (`kfm build --radial-points` etc.; None: the library's default): radial points per
        direction, the radial rule ("auto", "midpoint", "shifted", "antithetic", "stratified"; quadrature
        takes "auto", "shifted", "stratified"), the index-set optimiser's sweeps, the FFT length (a power
        of two or "smallest").
    resample_radii, haar_rotations, partial_rule : bool or None, default=None
        quadrature's options: the paper's biased radius resampling, dense Haar rotations instead of
        butterflies, exactly n_components outputs (the last rule truncated) instead of whole rules.
    permutation : {"uniform", "blocked"} or None, default=None
        quadrature's gather permutations: uniform (the library's default, the paper's) or blocked
        (n_features_in_ a multiple of 8: faster single rows on AVX2 / AVX-512, slightly higher error).
    gq_nodes : int or None, default=None
        gq's Gauss-Hermite nodes per coordinate, 2..64 (None: the library's default, 2).
    spectral : {"signed-mixture", "bessel-1d"} or None, default=None
        gorf and grff's spectral model of the polynomial-sphere kernel.
    directions : {"dense", "hadamard", "butterfly"} or None, default=None
        srf and gorf's directions.
    arccos_pairs : {"reflected", "plain"} or None, default=None
        Arc-cosine features of rff, orf, qmc, sorf: reflected pairs f(w.x), f(-w.x) (the library's
        default) or one feature per direction.
    landmark_init : {"uniform", "kmeans++"} or None, default=None
        How nystroem chooses its landmarks among the rows of X: uniformly without replacement, or by
        k-means++ (D^2) seeding (None: the library's default, uniform). Used by method="nystroem" only.
    random_state : int, RandomState or None, default=None
        An int is the map's seed (RandomFeatures(random_state=3) equals `kfm build --seed 3`).
    n_jobs : int or None, default=None
        Threads for transform (None or -1: every core).

    Attributes
    ----------
    feature_map_ : kfm.FeatureMap
        The map (its file bytes: `feature_map_.to_bytes()`; `feature_map_.save(path)` writes a .kfm).
    n_components_ : int
        The number of features transform outputs.
    negative_dim_ : int
        How many of the last features count negatively in the kernel estimate. 0: transform(X) .
        transform(Y).T estimates k(X, Y). Above 0: only kernel_estimate(X, Y) does.
    gamma_ : float or None
        The gamma used (None for the kernels that have none).
    n_features_in_ : int
        The number of inputs fit saw.
    """

    def __init__(self, method: str = "ssf", kernel: str = "gaussian", n_components: int = 100,
                 gamma: Union[float, str] = 1.0, nu: float = 1.5, rq_alpha: float = 1.0, order: int = 0,
                 degree: int = 1, poly_scale: float = 2.0, mixture_weights: Optional[Sequence[float]] = None,
                 mixture_sigmas: Optional[Sequence[float]] = None, radial_points: Optional[int] = None,
                 radial_rule: Optional[str] = None, sweeps: Optional[int] = None, fft_size: Optional[str] = None,
                 resample_radii: Optional[bool] = None, haar_rotations: Optional[bool] = None,
                 partial_rule: Optional[bool] = None, permutation: Optional[str] = None,
                 gq_nodes: Optional[int] = None,
                 spectral: Optional[str] = None, directions: Optional[str] = None, arccos_pairs: Optional[str] = None,
                 landmark_init: Optional[str] = None, random_state: Union[int, np.random.RandomState, None] = None,
                 n_jobs: Optional[int] = None) -> None:
        self.method = method
        self.kernel = kernel
        self.n_components = n_components
        self.gamma = gamma
        self.nu = nu
        self.rq_alpha = rq_alpha
        self.order = order
        self.degree = degree
        self.poly_scale = poly_scale
        self.mixture_weights = mixture_weights
        self.mixture_sigmas = mixture_sigmas
        self.radial_points = radial_points
        self.radial_rule = radial_rule
        self.sweeps = sweeps
        self.fft_size = fft_size
        self.resample_radii = resample_radii
        self.haar_rotations = haar_rotations
        self.partial_rule = partial_rule
        self.permutation = permutation
        self.gq_nodes = gq_nodes
        self.spectral = spectral
        self.directions = directions
        self.arccos_pairs = arccos_pairs
        self.landmark_init = landmark_init
        self.random_state = random_state
        self.n_jobs = n_jobs

    def _seed(self) -> int:
        if isinstance(self.random_state, numbers.Integral) and not isinstance(self.random_state, bool):
            if self.random_state < 0:
                raise ValueError(f"random_state must be non-negative, got {self.random_state}")
            return int(self.random_state)
        return int(check_random_state(self.random_state).randint(np.iinfo(np.int32).max))

    def _gamma(self, X: np.ndarray) -> float:
        if isinstance(self.gamma, str):
            if self.gamma == "scale":
                variance = X.var()
                return 1.0 / (X.shape[1] * variance) if variance != 0 else 1.0
            if self.gamma == "median":
                sigma = median_sigma(X)
                return 1.0 / (2.0 * sigma * sigma)
            raise ValueError(f"gamma must be a positive number, 'scale' or 'median', got {self.gamma!r}")
        if not isinstance(self.gamma, numbers.Real) or not np.isfinite(self.gamma) or self.gamma <= 0:
            raise ValueError(f"gamma must be a positive number, 'scale' or 'median', got {self.gamma!r}")
        return float(self.gamma)

    def _kernel_options(self, kernel: str, X: np.ndarray) -> Dict[str, Any]:
        if kernel in ("gaussian", "matern", "rational-quadratic"):
            self.gamma_ = self._gamma(X)
            options = {"sigma": float(np.sqrt(0.5 / self.gamma_))}
            if kernel == "matern":
                options["nu"] = self.nu
            if kernel == "rational-quadratic":
                options["alpha"] = self.rq_alpha
            return options
        if kernel == "laplacian":
            self.gamma_ = self._gamma(X)
            return {"sigma": 1.0 / self.gamma_}
        self.gamma_ = None
        if kernel == "arccos":
            return {"order": self.order}
        if kernel == "polynomial-sphere":
            return {"degree": self.degree, "scale": float(self.poly_scale)}
        if kernel == "delta-gaussian":
            if self.mixture_weights is None or self.mixture_sigmas is None:
                raise ValueError("kernel='delta-gaussian' needs mixture_weights and mixture_sigmas")
            return {"weights": list(self.mixture_weights), "sigmas": list(self.mixture_sigmas)}
        return {}  # an unknown kernel: the library names the valid ones

    def fit(self, X: npt.ArrayLike, y: Any = None) -> "RandomFeatures":
        """Builds the map for X's number of features.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            X's values are used only by gamma="scale" or "median", by method="nystroem", whose
            landmarks are rows of X, and by method="maclaurin-opt", fitted to X (centred on its mean
            for the gaussian).
        y : ignored

        Returns
        -------
        self

        Raises
        ------
        ValueError
            For invalid parameters, with the library's reason and X's shape.
        """
        X = self._validate_data(X, dtype=[np.float64, np.float32])
        if not isinstance(self.n_components, numbers.Integral) or self.n_components < 1:
            raise ValueError(f"n_components must be a positive integer, got {self.n_components!r}")
        kernel = _KERNEL_ALIASES.get(self.kernel, self.kernel)
        try:
            options = self._kernel_options(kernel, X)
            for name in _METHOD_OPTIONS:
                value = getattr(self, name)
                if value is not None:
                    options[name] = value
            row = METHODS.get(self.method, {})
            # nystroem's landmarks are rows of X; maclaurin-opt centres on X and fits its degrees to it
            data = X if row.get("landmarks_from_data", False) or row.get("fitted_to_data", False) else None
            self.feature_map_ = FeatureMap(self.method, kernel, X.shape[1], int(self.n_components),
                                           seed=self._seed(), data=data, **options)
        except ValueError as e:
            # The library's reason, with the data it was asked to fit.
            raise ValueError(f"{e} (fitting X with n_samples={X.shape[0]}, n_features={X.shape[1]})") from None
        self.n_components_ = self.feature_map_.output_dim
        self.negative_dim_ = self.feature_map_.negative_dim
        return self

    def transform(self, X: npt.ArrayLike) -> np.ndarray:
        """The features phi(X).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features_in_)

        Returns
        -------
        ndarray of shape (n_samples, n_components_)
            float32 for float32 X, float64 otherwise.
        """
        check_is_fitted(self)
        X = self._validate_data(X, reset=False, dtype=[np.float64, np.float32])
        return self.feature_map_.transform(X, n_jobs=self.n_jobs)

    def kernel_estimate(self, X: npt.ArrayLike, Y: Optional[npt.ArrayLike] = None) -> npt.NDArray[np.float64]:
        """The estimated kernel matrix transform(X) J transform(Y).T.

        J = diag(1, ..., 1, -1, ..., -1) with negative_dim_ entries -1, so this equals
        transform(X) . transform(Y).T when negative_dim_ == 0.

        Parameters
        ----------
        X : array-like of shape (n_x, n_features_in_)
        Y : array-like of shape (n_y, n_features_in_), optional
            X when None.

        Returns
        -------
        ndarray of shape (n_x, n_y), float64
        """
        check_is_fitted(self)
        X = self._validate_data(X, reset=False, dtype=[np.float64, np.float32])
        Y = None if Y is None else self._validate_data(Y, reset=False, dtype=[np.float64, np.float32])
        return self.feature_map_.kernel_matrix(X, Y, n_jobs=self.n_jobs)

    @property
    def _n_features_out(self) -> int:
        return self.n_components_

    def _more_tags(self) -> Dict[str, Any]:
        tags: Dict[str, Any] = {"preserves_dtype": [np.float64, np.float32]}
        if self.method == "maclaurin-opt":
            # These scikit-learn checks set n_components=1, which maclaurin-opt refuses by design.
            reason = ("maclaurin-opt needs n_components >= 2^ceil(log2 n_features) + 1 (the constant and the exact "
                      "linear terms); the check sets n_components=1")
            tags["_xfail_checks"] = {check: reason for check in _CHECKS_WITH_ONE_COMPONENT}
        return tags


# The scikit-learn (1.2) estimator checks that fit with n_components=1.
_CHECKS_WITH_ONE_COMPONENT = ("check_methods_sample_order_invariance", "check_methods_subset_invariance",
                              "check_dict_unchanged", "check_dont_overwrite_parameters", "check_fit2d_predict1d")


def _named_sampler(name: str, method: str, summary: str) -> type:
    """RandomFeatures with another default method: the same parameters (method included), so get_params,
    clone and scikit-learn's checks see an ordinary estimator."""
    signature = inspect.signature(RandomFeatures.__init__)
    parameters = [p.replace(default=method) if p.name == "method" else p for p in signature.parameters.values()]

    def __init__(self, *args, **params):
        bound = __init__.__signature__.bind(self, *args, **params)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        del arguments["self"]
        RandomFeatures.__init__(self, **arguments)

    __init__.__signature__ = signature.replace(parameters=parameters)
    doc = f"{summary}\n\n    RandomFeatures with method={method!r} by default; the parameters are RandomFeatures'.\n"
    return type(name, (RandomFeatures,), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


SSFSampler = _named_sampler("SSFSampler", "ssf", "Spherical structured features: one FFT per input.")
QuadratureSampler = _named_sampler("QuadratureSampler", "quadrature",
                                   "SR(3,3) quadrature features with butterfly rotations.")
SORFSampler = _named_sampler("SORFSampler", "sorf", "Structured orthogonal random features (HD1 HD2 HD3).")
ORFSampler = _named_sampler("ORFSampler", "orf", "Orthogonal random features.")
RFFSampler = _named_sampler("RFFSampler", "rff", "Random Fourier features (cos/sin pairs), as RBFSampler.")
__all__ += ["SSFSampler", "QuadratureSampler", "SORFSampler", "ORFSampler", "RFFSampler"]
