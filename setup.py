"""Builds the Python package kfm (metadata: pyproject.toml): the extension kfm._kfm and the `kfm` tool
come from the project's CMake build (Release, without the tests and benchmarks), the modules from
python/kfm. CMAKE_BUILD_PARALLEL_LEVEL sets the build's jobs; CMAKE_CXX_COMPILER_LAUNCHER (ccache) is
honoured as CMake honours it."""
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def project_version():
    """The one project version: CMakeLists.txt's project(kfm VERSION x.y.z)."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        found = re.search(r"project\(kfm\s+VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)", f.read())
    if not found:
        raise RuntimeError("CMakeLists.txt has no project(kfm VERSION x.y.z)")
    return found.group(1)


class CMakeBuild(build_ext):
    """Configures the CMake build in build/python-wheel (reused by the next build) and builds the targets
    kfm_python (kfm/_kfm*.so) and kfm (the tool, installed as kfm/_bin/kfm behind the `kfm` script).
    That directory is as deep as build/native, so with ccache (CCACHE_BASEDIR=the checkout) the objects
    a CMake build compiled are reused: the paths in the compile commands are the same."""

    def build_extension(self, ext):
        build_dir = os.path.join(ROOT, "build", "python-wheel")
        configure = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release", "-DKFM_BUILD_TESTS=OFF",
                     "-DKFM_BUILD_BENCH=OFF", "-DKFM_BUILD_PYTHON=ON", "-DKFM_BUILD_CLI=ON",
                     f"-DPython_EXECUTABLE={sys.executable}"]
        try:
            import pybind11  # a pybind11 from the package index (isolated build), or the system's
            configure.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass  # CMake looks for the system's pybind11Config.cmake
        if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")) and shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        subprocess.check_call(configure)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "kfm_python", "kfm", "-j", jobs])

        package_dir = os.path.join(build_dir, "python", "kfm")
        built = [name for name in os.listdir(package_dir) if name.startswith("_kfm") and name.endswith(".so")]
        if len(built) != 1:
            raise RuntimeError(f"expected one _kfm*.so in {package_dir}, found {built}")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(package_dir, built[0]), target)
        tool_dir = os.path.join(os.path.dirname(target), "_bin")
        os.makedirs(tool_dir, exist_ok=True)
        shutil.copy2(os.path.join(build_dir, "kfm"), os.path.join(tool_dir, "kfm"))


setup(version=project_version(),
      ext_modules=[Extension("kfm._kfm", sources=[])],
      cmdclass={"build_ext": CMakeBuild})
