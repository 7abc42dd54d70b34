"""Create the project's virtual environment in .venv and install the toolkit into it.

Used by scripts/reports.py and scripts/test.py so that both README commands work on a
fresh clone with only Python 3.11+ and the package registry.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"


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
        print("installing the toolkit and its dependencies into .venv", flush=True)
        subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "-e",
                f"{ROOT}[dev]",
            ],
            check=True,
        )
        subprocess.run(
            [str(python), "-m", "ipykernel", "install", "--sys-prefix", "--name", "python3"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        stamp.touch()
    return python


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
