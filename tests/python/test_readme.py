"""The README's "From Python" example, run as written: its Python block (fit, score, export) and its shell
block (C header, installed runtime, the device example built and run) from a directory laid out like the
repository's root (`build` = the CMake build: $KFM_BUILD_DIR, which ctest and the installed-package
stage of scripts/test-all.sh set, else the build tree the package was imported from; `examples` = the
repository's), so the README cannot rot."""
import os
import re
import subprocess
import sys

import numpy as np

import kfm

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("KFM_BUILD_DIR") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(kfm.__file__))))  # <build>/python/kfm


def readme_blocks():
    """The ```python and ```sh blocks between the README's readme-test markers."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    marked = re.search(r"<!-- readme-test: begin -->(.*?)<!-- readme-test: end -->", text, re.S)
    assert marked, "README.md has no readme-test markers"
    blocks = dict(re.findall(r"```(python|sh)\n(.*?)```", marked.group(1), re.S))
    assert set(blocks) == {"python", "sh"}, f"expected one python and one sh block, got {sorted(blocks)}"
    return blocks["python"], blocks["sh"]


def test_readme_python_example_runs_on_the_device_example(tmp_path, monkeypatch, capsys):
    python_block, shell_block = readme_blocks()
    assert os.path.exists(os.path.join(BUILD, "kfm")), f"the README's build/kfm is missing in {BUILD}"
    os.symlink(BUILD, tmp_path / "build")
    os.symlink(os.path.join(ROOT, "examples"), tmp_path / "examples")
    monkeypatch.chdir(tmp_path)

    scope = {"__name__": "readme"}
    exec(compile(python_block, "README.md (python block)", "exec"), scope)
    printed = capsys.readouterr().out
    assert "labels identical: True" in printed
    pipe, X_test, y_test = scope["pipe"], scope["X_test"], scope["y_test"]
    assert pipe.score(X_test, y_test) > 0.8

    run = subprocess.run(["bash", "-euo", "pipefail", "-c", shell_block], capture_output=True, text=True)
    assert run.returncode == 0, f"the README's shell block failed:\n{run.stdout}\n{run.stderr}"
    # cmake --install put the package where the README says (lib/python3.X/dist-packages/kfm).
    site = tmp_path / "prefix" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "dist-packages"
    assert sorted(p.name for p in (site / "kfm").glob("*.py")) == sorted(
        name for name in os.listdir(os.path.dirname(kfm.__file__)) if name.endswith(".py"))
    assert list((site / "kfm").glob("_kfm*.so")), "cmake --install did not install the extension module"

    rows = np.loadtxt(tmp_path / "device.txt", ndmin=2)
    assert rows.shape == (len(X_test), 4)
    assert rows[:, 0].astype(np.int64).tolist() == pipe.predict(X_test).tolist()
    expected = pipe.decision_function(X_test)
    worst = np.max(np.abs(rows[:, 1:] - expected) / np.maximum(np.abs(expected), 1.0))
    assert worst <= 1e-4, f"device scores differ from the pipeline's by {worst:.3g} (relative)"
