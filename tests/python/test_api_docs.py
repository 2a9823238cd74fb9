"""What help() shows: every module of the package lists its public names in __all__, and every public
class, function, method and property there has a docstring; those taking parameters document them in a
numpydoc "Parameters" section; no docstring points into the repository's docs/ (not installed)."""
import importlib
import inspect

import pytest

MODULES = ["kfm", "kfm.sklearn", "kfm.export", "kfm.dask", "kfm.plot"]


def documented_parameters(obj):
    doc = inspect.getdoc(obj) or ""
    return "Parameters\n----------" in doc


def takes_parameters(obj):
    try:
        parameters = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        return False
    return any(name not in ("self", "cls") for name in parameters)


def public_members(module_name):
    module = importlib.import_module(module_name)
    assert hasattr(module, "__all__"), f"{module_name} has no __all__"
    for name in module.__all__:
        assert hasattr(module, name), f"{module_name}.__all__ names {name}, which it does not define"
        obj = getattr(module, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            yield f"{module_name}.{name}", obj
        if inspect.isclass(obj):
            for member, value in vars(obj).items():
                if member.startswith("_"):
                    continue
                if isinstance(value, (classmethod, staticmethod)):
                    value = value.__func__
                if inspect.isfunction(value) or isinstance(value, property):
                    yield f"{module_name}.{name}.{member}", value


@pytest.mark.parametrize("module_name", MODULES)
def test_public_names_have_numpydoc_docstrings(module_name):
    for qualified, obj in public_members(module_name):
        doc = inspect.getdoc(obj)
        assert doc, f"{qualified} has no docstring"
        assert "docs/" not in doc, f"{qualified}'s docstring points into the repository's docs/"
        if isinstance(obj, property):
            continue
        if inspect.isclass(obj):
            # A class documents its constructor's parameters, or inherits them from a kfm class that does.
            if takes_parameters(obj):
                bases = [b for b in obj.__mro__ if b.__module__.startswith("kfm")]
                assert any(documented_parameters(b) for b in bases), f"{qualified} does not document its parameters"
        elif takes_parameters(obj):
            assert documented_parameters(obj), f"{qualified} has parameters but no numpydoc Parameters section"
