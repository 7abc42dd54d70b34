"""A toolkit installed from its wheel, outside the repository, finds its shipped files.

The wheel is built from a copy of the sources (so the worktree gets no ``build/``), installed
with ``--no-deps`` into a fresh venv that borrows this interpreter's site-packages for the
dependencies (a ``.pth`` line: their own ``.pth`` files, the editable install among them, are
not read), and run from a folder outside the repository: ``toolkit replay --list`` lists the
shipped examples and ``load_rules`` loads the shipped ``tens_hit`` house rules
(toolkit/shipped.py, importlib.resources). Every subprocess has a deadline.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The deadline of each step (seconds); the whole test takes about 20-40 s on a loaded machine.
DEADLINE = 150


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=DEADLINE)
    assert result.returncode == 0, f"{args[:4]} failed:\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}"
    return result


def test_wheel_outside_the_repository_lists_and_loads_shipped_files(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "toolkit", src / "toolkit", symlinks=True, ignore=skip)
    shutil.copytree(ROOT / "data", src / "data", ignore=skip)
    shutil.copytree(ROOT / "jupyterlab-settings", src / "jupyterlab-settings")  # the wheel's data files
    wheels = tmp_path / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(src)], tmp_path)
    (wheel,) = wheels.glob("toolkit-*.whl")

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path)
    python = venv / "bin" / "python"
    purelib = Path(
        _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], tmp_path).stdout.strip()
    )
    (purelib / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(wheel)],
        tmp_path,
    )

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    listed = _run([str(venv / "bin" / "toolkit"), "replay", "--list"], elsewhere).stdout
    shipped_examples = sorted(p.stem for p in (ROOT / "data" / "examples").glob("*.yaml"))
    assert shipped_examples, "the repository ships examples"
    for stem in shipped_examples:
        assert stem in listed, f"{stem} missing from `toolkit replay --list`:\n{listed}"

    check = (
        "import toolkit, toolkit.house_rules as h\n"
        "print(toolkit.__file__)\n"
        "print([p.name for p in h.rules_files('angry-miniatures')])\n"
        "print(sorted(h.load_rules('angry-miniatures', 'tens_hit').hit_faces))\n"
    )
    out = _run([str(python), "-c", check], elsewhere).stdout.splitlines()
    assert Path(out[0]).resolve().is_relative_to(venv.resolve()), f"toolkit imported from {out[0]}, not the wheel"
    assert "tens_hit.yaml" in out[1]
    # data/rules/angry-miniatures/tens_hit.yaml: 10s hit too (AM-1), five faces of six
    assert out[2] == str(sorted(["10", "J", "Q", "K", "A"]))
