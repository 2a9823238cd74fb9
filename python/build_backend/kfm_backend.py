"""The PEP 517 backend of pyproject.toml: setuptools' own (setup.py drives the CMake build), asking the
build front end for CMake, Ninja and pybind11 only when this machine lacks them.

An isolated online build (`pip install .`) then installs them from the package index; an offline build
(`pip install --no-build-isolation .`, `python3 -m build --no-isolation`) uses the system's, and a front
end that checks the requirements does not refuse a CMake that is not a Python package."""
import os
import re
import shutil
import subprocess

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403 (the hooks this module does not change)

CMAKE_MINIMUM = (3, 20)  # CMakeLists.txt's cmake_minimum_required
# Where Debian and other distributions put pybind11's CMake package (find_package(pybind11 CONFIG)).
PYBIND11_CMAKE_DIRS = ["/usr/lib/cmake/pybind11", "/usr/share/cmake/pybind11", "/usr/local/share/cmake/pybind11",
                       "/usr/local/lib/cmake/pybind11"]


def _cmake_version():
    cmake = shutil.which("cmake")
    if cmake is None:
        return None
    try:
        out = subprocess.run([cmake, "--version"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    found = re.search(r"version (\d+)\.(\d+)", out)
    return (int(found.group(1)), int(found.group(2))) if found else None


def _has_pybind11():
    try:
        import pybind11  # noqa: F401
        return True
    except ImportError:
        return any(os.path.exists(os.path.join(d, "pybind11Config.cmake")) for d in PYBIND11_CMAKE_DIRS)


def _build_tools():
    tools = []
    version = _cmake_version()
    if version is None or version < CMAKE_MINIMUM:
        tools.append("cmake>=%d.%d" % CMAKE_MINIMUM)
    if shutil.which("ninja") is None and shutil.which("make") is None:
        tools.append("ninja")
    if not _has_pybind11():
        tools.append("pybind11>=2.10")
    return tools


def get_requires_for_build_wheel(config_settings=None):
    return _setuptools.get_requires_for_build_wheel(config_settings) + _build_tools()


def get_requires_for_build_sdist(config_settings=None):
    return _setuptools.get_requires_for_build_sdist(config_settings)


if hasattr(_setuptools, "get_requires_for_build_editable"):
    def get_requires_for_build_editable(config_settings=None):
        return _setuptools.get_requires_for_build_editable(config_settings) + _build_tools()
