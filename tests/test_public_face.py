"""The systems' public faces (what a designer types), loaded lazily.

``import toolkit.<system>.rules`` must not pull in the calculators, solvers or widgets
(nor numpy, scipy, pandas or ipywidgets, which they import): a fresh interpreter imports
it and reports what it loaded, under a deadline. Every face name resolves to the object
its submodule defines, and names that left the face stay importable from the submodules.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ("toolkit.fairy_meat", "toolkit.durak_battle", "toolkit.angry_miniatures")
HEAVY = ("numpy", "scipy", "pandas", "ipywidgets", "matplotlib", "dask")
#: What a designer types fits in a few dozen names (it was 142 for Fairy Meat).
MOST_NAMES = 45


def _loaded_by(statement: str) -> list[str]:
    """The modules a fresh interpreter has loaded after ``statement`` (read with a deadline)."""
    code = f"{statement}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    return json.loads(done.stdout)


@pytest.mark.parametrize("package", SYSTEMS)
def test_importing_the_rules_loads_no_calculator_and_no_numpy(package):
    loaded = _loaded_by(f"import {package}.rules")
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY)
    assert heavy == []
    ours = [m for m in loaded if m.startswith("toolkit")]
    # the rules layer and the core it stands on: no engine, odds, strategy or widget module
    assert not [m for m in ours if m.startswith(f"{package}.") and m != f"{package}.rules"]
    assert len(ours) <= 16, ours  # the core: cards, dice, engine, errors, notation, house rules, whole numbers...


def test_a_face_name_imports_only_its_submodule():
    loaded = _loaded_by("from toolkit.fairy_meat import Rules")
    assert "toolkit.fairy_meat.rules" in loaded
    assert "toolkit.fairy_meat.odds" not in loaded and "numpy" not in loaded


@pytest.mark.parametrize("package", SYSTEMS)
def test_every_face_name_is_the_object_its_submodule_defines(package):
    module = importlib.import_module(package)
    assert sorted(module.__all__) == sorted(module.FACE)
    assert len(module.__all__) <= MOST_NAMES
    for name, where in module.FACE.items():
        assert getattr(module, name) is getattr(importlib.import_module(f"{package}.{where}"), name), name
    assert set(module.__all__) <= set(dir(module))


@pytest.mark.parametrize("package", SYSTEMS)
def test_an_unknown_name_is_an_attribute_error(package):
    module = importlib.import_module(package)
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        _ = module.no_such_name
    assert not hasattr(module, "no_such_name")
    with pytest.raises(ImportError):
        exec(f"from {package} import no_such_name")


def test_the_names_other_tools_rely_on_stay_on_the_faces():
    from toolkit.durak_battle import BattleEnd, Rules, battle_outcome, clash_losses  # noqa: F401
    from toolkit.fairy_meat import Rules as FairyRules  # noqa: F401
    from toolkit.fairy_meat import attack_odds, deal_averaged_odds, solve_attack  # noqa: F401


def test_names_that_left_the_face_stay_in_their_submodules():
    import toolkit.fairy_meat as fm
    from toolkit.durak_battle.initiative_rule import initiative_holder  # noqa: F401
    from toolkit.fairy_meat.deck import TYPE_NAMES  # noqa: F401
    from toolkit.fairy_meat.rulings import RULINGS  # noqa: F401

    assert "TYPE_NAMES" not in fm.__all__ and "initiative_holder" not in importlib.import_module(SYSTEMS[1]).__all__
