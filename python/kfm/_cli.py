"""The `kfm` command installed with the package: runs the kfm tool built with it (kfm/_bin/kfm)."""
import os
import sys

__all__ = ["tool_path", "main"]


def tool_path() -> str:
    """The path of the kfm tool installed with the package."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "kfm")


def main() -> None:
    """Replaces this process with the kfm tool, passing on the arguments."""
    tool = tool_path()
    if not os.access(tool, os.X_OK):
        sys.exit(f"kfm: error: the kfm tool is not installed beside this package ({tool}); "
                 "install the package with pip, or run the kfm of a CMake build")
    os.execv(tool, [tool, *sys.argv[1:]])
