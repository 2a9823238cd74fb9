"""The type information installed with the package: the stubs of the compiled module (kfm/_kfm.pyi)
declare every name it exports with its parameters, and mypy checks the README's Python example against
the installed package (py.typed)."""
import ast
import os
import re
import subprocess
import sys

import pytest

import kfm
from kfm import _kfm

from test_readme import readme_blocks

STUB = os.path.join(os.path.dirname(os.path.abspath(kfm.__file__)), "_kfm.pyi")


def stub_tree():
    assert os.path.exists(STUB), f"the stubs of kfm._kfm are not installed beside the package ({STUB})"
    with open(STUB, encoding="utf-8") as f:
        return ast.parse(f.read())


def stub_parameters(function):
    """A stub function's parameter names, without self."""
    return [a.arg for a in function.args.args if a.arg != "self"]


def compiled_parameters(obj):
    """The parameter names pybind11 reports in the first line of the docstring: name(a: T, b: U = x) -> R."""
    signature = obj.__doc__.splitlines()[0]
    inside = signature[signature.index("(") + 1:signature.rindex(")")]
    names = re.findall(r"(?:^|, )(\w+):", inside)
    return [n for n in names if n != "self"]


def public(names):
    return sorted(n for n in names if not n.startswith("__"))


def test_the_stubs_declare_every_name_and_parameter_of_the_compiled_module():
    tree = stub_tree()
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    assert public(dir(_kfm)) == sorted([*functions, *classes])
    for name, function in functions.items():
        assert stub_parameters(function) == compiled_parameters(getattr(_kfm, name)), name
    for name, cls in classes.items():
        compiled = getattr(_kfm, name)
        members = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name != "__init__"}
        assert public(dir(compiled)) == sorted(members), name
        for member, function in members.items():
            attribute = getattr(compiled, member)
            if isinstance(attribute, property):
                assert any(isinstance(d, ast.Name) and d.id == "property" for d in function.decorator_list), member
            else:
                assert stub_parameters(function) == compiled_parameters(attribute), f"{name}.{member}"
        init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
        assert stub_parameters(init) == compiled_parameters(compiled.__init__), f"{name}.__init__"


def run_mypy(tmp_path, source):
    """mypy on `source` with this interpreter's packages (kfm typed by py.typed, scikit-learn untyped)."""
    pytest.importorskip("mypy", reason="mypy is installed by scripts/ci/install-deps.sh (Debian's mypy)")
    (tmp_path / "example.py").write_text(source)
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict_optional = True\n\n[mypy-sklearn.*]\nignore_missing_imports = True\n")
    env = dict(os.environ)
    # The build tree's package (ctest) is found through PYTHONPATH; an installed one through site-packages.
    if env.get("PYTHONPATH"):
        env["MYPYPATH"] = env["PYTHONPATH"]
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", str(tmp_path / "cache"),
                          "--python-executable", sys.executable, "example.py"],
                         cwd=tmp_path, capture_output=True, text=True, env=env)
    return run.returncode, run.stdout + run.stderr


def test_mypy_accepts_the_readme_python_example(tmp_path):
    python_block, _ = readme_blocks()
    code, output = run_mypy(tmp_path, python_block)
    assert code == 0, output


def test_mypy_sees_the_stubs(tmp_path):
    # A wrong use of the compiled module and of the package must be reported: kfm is typed, not Any.
    code, output = run_mypy(tmp_path, "import kfm\nfrom kfm import _kfm\n\nn: int = _kfm.version()\n"
                                      "m: str = kfm.FeatureMap.load('map.kfm').output_dim\n")
    assert code == 1, output
    assert 'example.py:4: error: Incompatible types in assignment (expression has type "str"' in output, output
    assert 'example.py:5: error: Incompatible types in assignment (expression has type "int"' in output, output
