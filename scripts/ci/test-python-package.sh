#!/usr/bin/env bash
# The Python package as users install it: builds a wheel from this checkout with the system's build tools
# (python3 -m build --no-isolation: setuptools, wheel, CMake and pybind11 from Debian, no network),
# installs it into a fresh virtual environment that sees Debian's NumPy, scikit-learn and Dask
# (--system-site-packages; pip --no-index), and runs tests/python there from a directory outside the
# source tree with no PYTHONPATH, so only the installed files can be imported.
# usage: scripts/ci/test-python-package.sh CMAKE_BUILD_DIR [WORK_DIR]
#   CMAKE_BUILD_DIR: a native CMake build whose runtime the README's device example installs (build/native)
#   WORK_DIR: wheel, virtual environment and scratch (default build/python-package; emptied first)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 1 ] || { echo "usage: $0 CMAKE_BUILD_DIR [WORK_DIR]" >&2; exit 2; }
cmake_build=$(cd "$1" && pwd)
work=${2:-$root/build/python-package}
python=/usr/bin/python3   # Debian's, with its numpy, scikit-learn, dask, pytest, mypy

rm -rf "$work"
mkdir -p "$work/run"
# setuptools' staging directories of an earlier build would carry files removed since into the wheel.
rm -rf "$root"/build/lib.* "$root"/build/bdist.*
echo "python-package: wheel from $root"
(cd "$root" && "$python" -m build --no-isolation --wheel --outdir "$work/dist" .) >"$work/build.log" 2>&1 ||
  { tail -40 "$work/build.log"; echo "python-package: building the wheel failed (log: $work/build.log)" >&2; exit 1; }
wheels=("$work"/dist/kfm-*.whl)
[ ${#wheels[@]} -eq 1 ] && [ -f "${wheels[0]}" ] || { echo "python-package: expected one wheel in $work/dist" >&2; exit 1; }
echo "python-package: $(basename "${wheels[0]}") into a fresh virtual environment"
"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --no-index --quiet "${wheels[0]}"

cd "$work/run"   # outside the source tree: python/kfm cannot be imported by accident
unset PYTHONPATH
venv=$work/venv
"$venv/bin/python" - "$venv" "$root" <<'PY'
import importlib.metadata, os, re, sys
import kfm, kfm.sklearn
venv = os.path.realpath(sys.argv[1])
where = os.path.realpath(kfm.__file__)
assert where.startswith(venv + os.sep), f"kfm was imported from {where}, not from the virtual environment {venv}"
with open(os.path.join(sys.argv[2], "CMakeLists.txt")) as f:
    project = re.search(r"project\(kfm\s+VERSION\s+([0-9.]+)", f.read()).group(1)
assert importlib.metadata.version("kfm") == kfm.version() == project, (importlib.metadata.version("kfm"), kfm.version(), project)
package = os.path.dirname(where)
for name in ("py.typed", "_kfm.pyi", "_bin/kfm"):
    assert os.path.exists(os.path.join(package, name)), f"{name} is not installed"
# The `kfm` console script runs the tool installed with the package.
import subprocess
tool = subprocess.run([os.path.join(venv, "bin", "kfm"), "--version"], capture_output=True, text=True, check=True)
assert tool.stdout == f"kfm {project}\n", tool.stdout
print(f"python-package: kfm {project} imported from {package}; {tool.stdout.strip()} from the kfm script")
PY
# KFM_CLI: the installed `kfm` script; KFM_BUILD_DIR: the README's `build` for the device example.
status=0
KFM_CLI="$venv/bin/kfm" KFM_BUILD_DIR="$cmake_build" PYTHONDONTWRITEBYTECODE=1 \
  "$venv/bin/python" -m pytest -q -p no:cacheprovider -rs "$root/tests/python" || status=$?
if [ "$status" -eq 5 ]; then
  echo "python-package: pytest collected no tests" >&2
fi
exit "$status"
