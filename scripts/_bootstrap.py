"""Create the project's virtual environment in .venv and install the toolkit into it.

Used by scripts/reports.py and scripts/test.py so that both README commands work on a
fresh clone with only Python 3.11+ and the package registry.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
#: JupyterLab's defaults for the toolkit (widget state saved with a notebook): a wheel
#: installs this file as data (pyproject.toml), an editable install leaves data files out.
LAB_SETTINGS = ROOT / "jupyterlab-settings" / "toolkit.json"


def venv_python() -> Path:
    """Return the venv's python, creating the venv and installing the toolkit if needed."""
    if sys.version_info < (3, 11):
        sys.exit(f"Python 3.11 or newer is needed, this is {sys.version.split()[0]}")
    python = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if not python.exists():
        print(f"creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    stamp = VENV / ".installed"
    pyproject = ROOT / "pyproject.toml"
    if not stamp.exists() or stamp.stat().st_mtime < pyproject.stat().st_mtime:
        if not has_pip(python):  # a venv left half made (its creation interrupted): made again
            print(f"creating {VENV} again (it has no pip: its creation was interrupted)", flush=True)
            venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
        print("installing the toolkit and its dependencies into .venv", flush=True)
        (VENV / COMPILED).unlink(missing_ok=True)
        install(python, f"{ROOT}[dev]")
        subprocess.run(
            [str(python), "-m", "ipykernel", "install", "--sys-prefix", "--name", "python3"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        stamp.touch()
    install_lab_settings()
    compile_bytecode(python)
    return python


def install_lab_settings() -> None:
    """Put :data:`LAB_SETTINGS` where the venv's JupyterLab reads its defaults (every run:
    a venv made before the file existed gets it too)."""
    target = VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.d"
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(LAB_SETTINGS, target / LAB_SETTINGS.name)


def has_pip(python: Path) -> bool:
    """Whether the venv of ``python`` has pip (a venv whose creation was stopped has not)."""
    found = subprocess.run([str(python), "-m", "pip", "--version"], capture_output=True, check=False)
    return found.returncode == 0


#: The stamp in .venv saying its installed packages are compiled to bytecode.
COMPILED = ".compiled"

#: Run by the venv's python: compile the given folders and, with ``--packages``, every
#: installed package, quietly, on every core.
_COMPILE = """
import compileall, sys, sysconfig
folders = [a for a in sys.argv[1:] if a != "--packages"]
if "--packages" in sys.argv:
    folders.append(sysconfig.get_paths()["purelib"])
for folder in folders:
    compileall.compile_dir(folder, quiet=1, workers=0)
"""


def compile_bytecode(python: Path) -> None:
    """Compile the toolkit's sources (each run: only what changed) and, once per install,
    every installed package to bytecode (``__pycache__``).

    Python writes that cache itself when it imports a module, unless
    ``PYTHONDONTWRITEBYTECODE`` is set, as it is on some machines (and CI's): then every
    process compiles what it imports again, and uv, unlike pip, installs without compiling.
    Every report kernel, Dask worker and test process then spent 4-5 s of CPU more
    (a report kernel 6.7-7.4 s against 1.8-2.2 s with the cache). Compiling writes the
    cache whatever that variable says; an out-of-date entry is never used (Python checks
    the source's time and size)."""
    args = [str(ROOT / "toolkit")]
    if not (VENV / COMPILED).exists():
        args.append("--packages")
    subprocess.run([str(python), "-c", _COMPILE, *args], check=False, stdout=subprocess.DEVNULL)
    (VENV / COMPILED).touch()


def pip_settings(python: Path) -> list[str]:
    """pip's own settings on this machine (``pip config list``: its configuration files and
    ``PIP_*`` variables) that decide what gets installed, as uv's options: the index and
    extra indexes, the folders of wheels and the constraints files."""
    listed = subprocess.run(
        [str(python), "-m", "pip", "config", "list"], capture_output=True, text=True, check=False
    ).stdout
    flags = {
        "index-url": "--index-url",
        "extra-index-url": "--extra-index-url",
        "find-links": "--find-links",
        "constraint": "--constraint",
    }
    pairs: list[tuple[str, str]] = []
    for line in listed.splitlines():  # e.g. global.find-links='/opt/wheels', :env:.find-links='/opt/wheels'
        name, _, value = line.partition("=")
        flag = flags.get(name.rpartition(".")[2])
        for item in value.strip().strip("'\"").split() if flag else ():
            if (flag, item) not in pairs:
                pairs.append((flag, item))
    options = [part for pair in pairs for part in pair]
    return options


def install(python: Path, requirement: str) -> None:
    """Install ``requirement`` (editable) into the venv of ``python``.

    With uv (fetched from the package registry into the venv first) when it can: it
    installs the same releases as pip (best match over every index, pip's settings
    passed on: :func:`pip_settings`) in well under a minute where pip takes two to five;
    with pip itself when uv cannot be fetched or fails."""
    quiet = ["--quiet", "--disable-pip-version-check"]
    try:
        subprocess.run([str(python), "-m", "pip", "install", *quiet, "uv"], check=True, stderr=subprocess.DEVNULL)
        subprocess.run(
            [str(python), "-m", "uv", "pip", "install", "--quiet", "--python", str(python)]
            + ["--index-strategy", "unsafe-best-match", *pip_settings(python), "-e", requirement],
            check=True,
        )
    except subprocess.CalledProcessError:
        print("uv could not install it: installing with pip instead", flush=True)
        subprocess.run([str(python), "-m", "pip", "install", *quiet, "-e", requirement], check=True)


def _venv_env(python: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{python.parent}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(VENV)
    return env


def run(args: list[str]) -> int:
    """Run a command with the venv's python first on PATH; return its exit code."""
    python = venv_python()
    return subprocess.run([str(python), *args], cwd=ROOT, env=_venv_env(python)).returncode


def start(args: list[str], output: IO[bytes]) -> subprocess.Popen[bytes]:
    """Start a command as :func:`run` runs it, its output (stdout and stderr) into the
    file ``output``; return the running process."""
    python = venv_python()
    return subprocess.Popen(
        [str(python), *args], cwd=ROOT, env=_venv_env(python), stdout=output, stderr=subprocess.STDOUT
    )
