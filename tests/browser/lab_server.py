"""A JupyterLab server for the browser tests: the project's own ``jupyter lab`` on a free
port of 127.0.0.1, with a token, serving a temporary copy of ``notebooks/``.

Everything JupyterLab would keep between runs (settings, workspaces, runtime files) lives
in the temporary directory too, so a run never depends on, or changes, the user's setup.
The user settings written here make the notebook render every cell (no windowing, so a
widget far down the page is in the DOM) and stop the news and update checks (no network).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"

#: User settings (JUPYTERLAB_SETTINGS_DIR): plugin id -> settings.
LAB_SETTINGS: dict[str, dict[str, object]] = {
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    # the copies under test stay as they were copied: a notebook kept open past the autosave
    # interval (2 minutes, easily reached on a loaded machine) was saved with its outputs, and
    # its widget views then had no model when it was opened again ("widget model not found")
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
}


def free_port() -> int:
    """Return a TCP port of 127.0.0.1 that is free now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lab_environment(home: Path) -> dict[str, str]:
    """The environment of the server and its kernels: JupyterLab's state under ``home``,
    and the repository first on the kernels' import path (the tree under test)."""
    env = dict(os.environ)
    for name, sub in (
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("JUPYTERLAB_SETTINGS_DIR", "settings"),
        ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
        ("IPYTHONDIR", "ipython"),
    ):
        (home / sub).mkdir(parents=True, exist_ok=True)
        env[name] = str(home / sub)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    env.pop("JUPYTER_TOKEN", None)
    return env


def write_settings(settings_dir: Path) -> None:
    """Write :data:`LAB_SETTINGS` as JupyterLab user settings files."""
    for plugin, values in LAB_SETTINGS.items():
        path = settings_dir / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")


@dataclass
class LabServer:
    """A running ``jupyter lab``: its base URL, token, root directory and process."""

    url: str
    token: str
    root: Path
    process: subprocess.Popen
    log_path: Path

    def page_url(self, notebook: str) -> str:
        """The URL that opens ``notebook`` (a path under :attr:`root`) in JupyterLab, alone:
        ``reset`` starts from an empty workspace, where JupyterLab would otherwise restore every
        notebook an earlier page opened (each with a kernel of its own, and with its saved
        outputs): by the suite's end a page reopened a dozen notebooks."""
        return f"{self.url}/lab/tree/{notebook}?reset&token={self.token}"

    def log(self) -> str:
        """The server's output so far (stdout and stderr)."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        """Stop the server (and with it its kernels); kill it after 20 s."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def start_lab(home: Path, timeout: float = 90.0) -> LabServer:
    """Copy ``notebooks/`` under ``home`` and start JupyterLab on it; return when it
    answers ``/api/status``. Raises RuntimeError (with the server's log) if it does not."""
    root = home / "notebooks"
    shutil.copytree(NOTEBOOKS, root)
    env = lab_environment(home)
    write_settings(Path(env["JUPYTERLAB_SETTINGS_DIR"]))
    port, token = free_port(), "browser-tests-" + os.urandom(8).hex()
    log_path = home / "jupyterlab.log"
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.news_url=None",
        "--ServerApp.open_browser=False",
        "--ServerApp.terminals_enabled=False",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # CI containers run as root
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    server = LabServer(f"http://127.0.0.1:{port}", token, root, process, log_path)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with {process.returncode}:\n{server.log()}")
        try:
            with urllib.request.urlopen(f"{server.url}/api/status?token={token}", timeout=2) as answer:
                if answer.status == 200:
                    return server
        except OSError:
            time.sleep(0.3)
    server.stop()
    raise RuntimeError(f"jupyter lab did not answer within {timeout:.0f} s:\n{server.log()}")
