"""The library's option table and method registry reach Python unchanged: every build option is a parameter
of kfm.sklearn.RandomFeatures (under its own or scikit-learn's name) documented in its docstring, and is in
README.md's `kfm build` usage block, and the reverse; FeatureMap's errors name options as Python spells them."""
import inspect
import os
import re

import numpy as np
import pytest

import kfm
import kfm.sklearn as ks

README = os.path.join(os.path.dirname(__file__), "..", "..", "README.md")

# RandomFeatures' own parameters that no build option stands behind.
SKLEARN_ONLY = {"n_jobs"}


def random_features_parameters():
    return [p for p in inspect.signature(ks.RandomFeatures.__init__).parameters if p != "self"]


def documented_parameters():
    """The names the Parameters section of RandomFeatures' docstring documents ("a, b : type" lines)."""
    doc = inspect.getdoc(ks.RandomFeatures)
    section = doc.split("Parameters\n----------\n", 1)[1].split("\n\n", 1)[0]
    names = set()
    for line in section.splitlines():
        if line and not line.startswith(" "):
            names.update(n.strip() for n in line.split(":", 1)[0].split(","))
    return names


def sklearn_name(option):
    return ks._SKLEARN_NAMES.get(option, option)


def test_every_table_option_is_a_random_features_parameter_and_documented():
    parameters = set(random_features_parameters())
    documented = documented_parameters()
    for option in kfm.BUILD_OPTIONS:
        if option in ks._FROM_FIT or option in ks._NOT_TAKEN:
            continue
        assert sklearn_name(option) in parameters, f"build option {option} is not a RandomFeatures parameter"
        assert sklearn_name(option) in documented, f"RandomFeatures' docstring does not document {option}"


def test_every_random_features_parameter_is_a_table_option():
    taken = {sklearn_name(o) for o in kfm.BUILD_OPTIONS}
    for parameter in random_features_parameters():
        assert parameter in taken or parameter in SKLEARN_ONLY, f"{parameter} is not an option of the table"
    for name in documented_parameters():
        assert name in random_features_parameters(), f"the docstring documents {name}, which is no parameter"
    for option in list(ks._SKLEARN_NAMES) + list(ks._FROM_FIT) + list(ks._NOT_TAKEN):
        assert option in kfm.BUILD_OPTIONS, f"kfm.sklearn names {option}, which the table lacks"


def test_method_options_pass_through_from_the_table():
    assert set(ks._METHOD_OPTIONS) >= {"gq_nodes", "partial_rule", "radial_rule", "landmark_init", "arccos_pairs"}
    x = np.random.default_rng(0).standard_normal((30, 4))
    gq = ks.RandomFeatures(method="gq", n_components=16, gq_nodes=3, random_state=1).fit(x)
    assert gq.feature_map_.inspect()["gq_nodes"] == 3
    assert gq.feature_map_ == kfm.FeatureMap("gq", "gaussian", 4, 16, seed=1, gq_nodes=3, sigma=np.sqrt(0.5))
    whole = ks.RandomFeatures(method="quadrature", n_components=12, random_state=1).fit(x)
    partial = ks.RandomFeatures(method="quadrature", n_components=12, partial_rule=True, random_state=1).fit(x)
    # d = 4: whole rules of 10 outputs (12 rounds to one) or exactly 12, each plus quadrature's constant feature
    assert (whole.n_components_, partial.n_components_) == (11, 13)


def readme_build_options():
    """The --options of README.md's `kfm build` usage block (from "kfm build" to the next "kfm" command)."""
    text = open(README, encoding="utf-8").read()
    block = re.search(r"^kfm build .*?(?=^kfm )", text, re.S | re.M)
    assert block, "README.md has no kfm build usage block"
    return set(re.findall(r"(--[a-z][a-z-]*)", block.group(0)))


def test_readme_lists_every_table_option_and_no_other():
    listed = readme_build_options()
    table = {row["command_line"] for row in kfm.BUILD_OPTIONS.values()}
    assert table - listed == set(), f"README.md's kfm build block lacks {sorted(table - listed)}"
    assert listed - table == set(), f"README.md's kfm build block names {sorted(listed - table)}, not options"


def test_methods_come_from_the_registry():
    assert set(kfm.METHODS) == {"rff", "rff-phase", "orf", "ssf", "quadrature", "sorf", "qmc", "srf", "gorf", "grff",
                                "maclaurin", "tensorsketch", "fastfood", "gq", "nystroem", "maclaurin-opt",
                                "tensor-srht", "ctr-srht"}
    assert kfm.METHODS["gq"]["kernels"] == ["gaussian"]
    assert kfm.METHODS["nystroem"]["landmarks_from_data"] and not kfm.METHODS["rff"]["landmarks_from_data"]
    assert "gq_nodes" in kfm.METHODS["gq"]["options"]
    for row in kfm.METHODS.values():
        for option in row["options"]:
            assert option in kfm.BUILD_OPTIONS


def test_errors_name_options_as_python_spells_them():
    with pytest.raises(ValueError, match=r"^ssf: the antithetic radial rule needs radial_points >= 2$"):
        kfm.FeatureMap("ssf", "gaussian", 8, 64, radial_rule="antithetic", radial_points=1)
    with pytest.raises(ValueError, match=r"^unknown radial_rule 'latin' \(auto, midpoint, shifted, antithetic or "
                                         r"stratified\)$"):
        kfm.FeatureMap("ssf", "gaussian", 8, 64, radial_rule="latin")
    with pytest.raises(ValueError, match=r"^unknown option 'colour'$"):
        kfm.FeatureMap("rff", "gaussian", 8, 64, colour="red")
    with pytest.raises(ValueError, match=r"^gq_nodes expects a non-negative integer, got '2.5'$"):
        kfm.FeatureMap("gq", "gaussian", 4, 16, gq_nodes=2.5)
    with pytest.raises(ValueError, match=r"^partial_rule takes True or False, got 'yes'$"):
        kfm.FeatureMap("quadrature", "gaussian", 4, 16, partial_rule="yes")
    with pytest.raises(ValueError, match=r"^features 99999999 is above the limit"):
        kfm.FeatureMap("rff", "gaussian", 4, 99999999)
    with pytest.raises(ValueError, match=r"^unknown directions 'circulant' \(dense, butterfly or hadamard\)$"):
        kfm.FeatureMap("srf", "polynomial-sphere", 4, 16, directions="circulant")
    with pytest.raises(ValueError, match=r"^option gq_nodes does not apply to method rff \(it belongs to gq\)$"):
        kfm.FeatureMap("rff", "gaussian", 4, 16, gq_nodes=3)
    kfm.FeatureMap("rff", "gaussian", 4, 16, partial_rule=False)  # False is left out, as not given


def test_feature_map_documents_every_table_option():
    doc = inspect.getdoc(kfm.FeatureMap)
    for option in kfm.BUILD_OPTIONS:
        assert re.search(rf"\b{option}\b", doc), f"FeatureMap's docstring does not mention {option}"
