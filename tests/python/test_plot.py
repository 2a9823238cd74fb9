"""kfm.plot: the error sweep over map seeds, its band, the PNGs of `python3 -m kfm.plot`, bad arguments."""
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from kfm import FeatureMap, plot


@pytest.fixture(scope="module")
def data():
    return plot.synthetic_data(rows=600, dim=8, seed=3)


def test_rff_error_falls_like_inverse_square_root_of_D(data):
    # For RFF, E ||K - K^||_F^2 = C / D exactly (independent features, fixed samples), so the mean error
    # falls as D^(-1/2). The tolerance is 4 standard errors of the fitted log-log slope, each point's
    # standard error being the seeds' spread / (mean sqrt(seeds)) (delta method for log of a mean).
    seeds = 12
    sigma = plot.gaussian_sigma(data, "median")
    curve = plot.sweep(data, ["rff"], "gaussian", features=[8, 16, 32, 64, 128, 256], seeds=seeds, samples=150,
                       timing=False, sigma=sigma)["rff"]
    assert curve.errors.shape == (6, seeds)
    assert list(curve.output_dims) == [8, 16, 32, 64, 128, 256]
    x = np.log(curve.output_dims)
    weights = (x - x.mean()) / ((x - x.mean()) ** 2).sum()
    slope = float(weights @ np.log(curve.mean))
    point_se = curve.errors.std(axis=1, ddof=1) / (curve.mean * math.sqrt(seeds))
    slope_se = float(math.sqrt((weights ** 2 * point_se ** 2).sum()))
    assert slope_se < 0.05, "too few seeds for the slope test to tell -1/2 from its neighbours"
    assert abs(slope + 0.5) < 4 * slope_se, f"slope {slope:.3f} +- {slope_se:.3f}"
    assert np.all(np.diff(curve.mean) < 0)


def test_band_is_the_student_t_interval_of_the_mean_over_seeds():
    curve = plot.Curve("rff", [8, 16], [[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]], None)
    assert curve.mean == pytest.approx([2.0, 0.5])
    # t(0.975, 2 degrees of freedom) = 4.3027; standard deviation 1 over 3 seeds.
    assert curve.half_width[0] == pytest.approx(4.302653 / math.sqrt(3), rel=1e-6)
    assert curve.half_width[1] == 0.0


def test_sweep_varies_the_map_and_reports_real_dims_and_times(data):
    sigma = plot.gaussian_sigma(data, "median")
    curves = plot.sweep(data, ["rff", "ssf", "quadrature"], "gaussian", features=[8, 32], seeds=3, samples=100,
                        repeats=2, sigma=sigma)
    for method, curve in curves.items():
        assert np.all(curve.low <= curve.mean) and np.all(curve.mean <= curve.high)
        assert np.all(curve.high > curve.low), "every seed gave the same error: the seeds did not change the map"
        assert np.all(curve.errors > 0) and np.all(curve.errors < 1)
        for i, D in enumerate([8, 32]):
            assert curve.output_dims[i] == FeatureMap(method, "gaussian", 8, D, sigma=sigma).output_dim
        assert curve.ns_per_vector.shape == (2,) and np.all(curve.ns_per_vector > 0)
    # Quadrature's granularity 2(d + 1) + 1 = 19 rounds both 8 and 16 up to 19: swept once.
    rounded = plot.sweep(data, ["quadrature"], features=[8, 16, 32], seeds=2, samples=50, timing=False, sigma=sigma)
    assert list(rounded["quadrature"].output_dims) == [19, 37]
    # Seed 1's error is the error of the map built with seed 1 on the same fixed samples.
    X, Y = plot.samples_of(data, 100)
    fm = FeatureMap("ssf", "gaussian", 8, 32, seed=1, sigma=sigma)
    assert curves["ssf"].errors[1, 0] == pytest.approx(plot.relative_error(fm.exact_kernel(X, Y),
                                                                           fm.kernel_matrix(X, Y)), rel=1e-9)


def test_sigma_rules_are_the_library_bandwidths(data):
    pairwise = np.sqrt(((data[:, None, :].astype(np.float64) - data[None, :, :]) ** 2).sum(axis=2))
    distances = np.sort(pairwise[np.triu_indices(len(data), 1)])
    assert plot.gaussian_sigma(data, "median") == pytest.approx(distances[(len(distances) - 1) // 2], rel=1e-6)
    assert plot.gaussian_sigma(data, "scale") == pytest.approx(math.sqrt(data.shape[1] * data.var() / 2), rel=1e-5)
    assert plot.gaussian_sigma(data, "2.5") == 2.5
    with pytest.raises(ValueError):
        plot.gaussian_sigma(data, "-1")


def test_sweep_needs_two_seeds_and_plot_time_needs_timing(data, tmp_path):
    with pytest.raises(ValueError, match="at least 2"):
        plot.sweep(data, ["rff"], features=[8], seeds=1, sigma=1.0)
    curves = plot.sweep(data, ["rff"], features=[8, 16], seeds=2, samples=50, timing=False, sigma=1.0)
    with pytest.raises(ValueError, match="without timing"):
        plot.plot_time(curves, str(tmp_path / "t.png"))


def _is_png(path):
    with open(path, "rb") as f:
        return os.path.getsize(path) > 5000 and f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_command_line_writes_the_pngs(tmp_path):
    run = subprocess.run([sys.executable, "-m", "kfm.plot", "--methods", "rff,ssf", "--features-multiples", "1,2,4",
                          "--seeds", "2", "--samples", "60", "--synthetic-rows", "200", "--synthetic-dim", "4",
                          "--out-dir", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    for name in ("synthetic-gaussian-error.png", "synthetic-gaussian-time.png"):
        assert _is_png(tmp_path / name)
    assert "| ssf | 16 |" in run.stdout


def test_command_line_data_file_names_the_figures(tmp_path):
    folder = tmp_path / "mydata"
    folder.mkdir()
    np.save(folder / "X_train.npy", plot.synthetic_data(rows=120, dim=6, seed=1).astype(np.float64))
    assert plot.main(["--data", str(folder / "X_train.npy"), "--methods", "orf", "--kernel", "arccos", "--order", "1",
                      "--features-multiples", "1,2", "--seeds", "2", "--samples", "40", "--what", "error",
                      "--out-dir", str(tmp_path)]) == 0
    assert _is_png(tmp_path / "mydata-arccos1-error.png")
    assert not (tmp_path / "mydata-arccos1-time.png").exists()


@pytest.mark.parametrize("args, message", [
    (["--methods", "nosuch"], "nosuch"),
    (["--features-multiples", "0"], "positive integers"),
    (["--features-multiples", "1,x"], "positive integers"),
    (["--seeds", "1"], "--seeds"),
    (["--data", "missing.npy"], "missing.npy"),
    (["--data", "nan.npy"], "NaN"),
    (["--data", "flat.npy"], "(rows, d)"),
    (["--kernel", "arccos", "--sigma", "2"], "--sigma is for --kernel gaussian"),
    (["--order", "1"], "--order is for --kernel arccos"),
    (["--sigma", "-1"], "sigma must be positive"),
    (["--sigma", "wide"], "sigma"),
    (["--what", "all"], "--what"),
    (["--out-dir", "no/such/dir"], "not a directory"),
])
def test_bad_arguments_exit_with_an_error_and_write_nothing(tmp_path, capsys, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    bad = plot.synthetic_data(rows=20, dim=3)
    bad[4, 1] = np.nan
    np.save("nan.npy", bad)
    np.save("flat.npy", np.arange(10.0))
    out = ["--out-dir", "."] if "--out-dir" not in args else []
    with pytest.raises(SystemExit) as exit_info:
        plot.main(["--seeds", "2", "--features-multiples", "1", "--synthetic-rows", "40", "--synthetic-dim", "3"]
                  + out + args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and message in err
    assert not [p for p in os.listdir(".") if p.endswith(".png")]
