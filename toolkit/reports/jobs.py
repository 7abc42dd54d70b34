"""Batch parameter files (``data/batch/*.yaml``): the jobs of a batch run.

A job is a report name, its parameters and an optional output name; a parameter file
lists jobs under ``reports:``. The main job (``toolkit report all``) is
:func:`main_jobs`: every report with its defaults, except those ``data/batch/main.yaml``
lists, which run as listed there (the rule-change report once per system).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit.errors import InvalidSetupError, NotationError
from toolkit.files import designer_file
from toolkit.notation import excerpt, load_yaml
from toolkit.reports.discovery import discover_reports
from toolkit.shipped import shipped_path

__all__ = ["MAIN_FILE", "Job", "check_output_name", "load_parameter_file", "main_jobs"]

#: The parameter file of the main job's reports that do not run once with their defaults.
MAIN_FILE = "main.yaml"

_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


@dataclass(frozen=True)
class Job:
    """One report run: the report name, its parameters and an optional output name."""

    report: str
    parameters: Mapping[str, Any] = field(default_factory=dict)
    name: str | None = None

    @property
    def output_name(self) -> str:
        """The output file stem: ``name`` if given, else the report name."""
        return self.name or self.report


def check_output_name(name: str, where: str = "output name") -> str:
    """Return ``name`` if it is usable as an output file stem (letters, digits, ``.``,
    ``_``, ``-``; not ``index``), else raise :class:`InvalidSetupError`."""
    if not isinstance(name, str) or not _SAFE_NAME.fullmatch(name) or name == "index":
        raise InvalidSetupError(
            f"{where} {excerpt(name)} is not usable as a file name: use letters, digits, '.', '_' "
            "and '-' (starting with a letter or digit), and not 'index' (the batch index)"
        )
    return name


def _batch_dir() -> Path:
    return shipped_path("batch")


def load_parameter_file(path: Path | str) -> list[Job]:
    """Return the jobs of a YAML parameter file (read by the safe reader,
    :func:`toolkit.notation.load_yaml`) of the form::

        reports:
          - report: angry-miniatures
            name: am-small          # optional output name
            parameters: {max_dice: 6}

    A bare file name not found is also looked for in ``data/batch/``. A bad structure
    raises :class:`InvalidSetupError` naming the file and the problem. Report names and
    parameters are checked against the notebooks only when the jobs run.
    """
    path = Path(path)
    if not path.is_file() and not path.is_absolute() and (_batch_dir() / path).is_file():
        path = _batch_dir() / path
    path = designer_file(path, "parameter file")  # a regular file only: never a pipe that blocks
    where = str(path)
    try:
        data = load_yaml(path).data
    except NotationError as exc:
        raise InvalidSetupError(
            "parameter file " + str(exc).replace(": not valid YAML:", " is not valid YAML:", 1)
        ) from None

    def bad(problem: str) -> InvalidSetupError:
        return InvalidSetupError(f"parameter file {where!r}: {problem}")

    example = "reports: [{report: NAME, name: OUTPUT, parameters: {NAME: VALUE}}]"
    if not isinstance(data, dict) or "reports" not in data:
        raise bad(f"expected a mapping with a 'reports' list ({example}), got {excerpt(data)}")
    unknown = [k for k in data if k != "reports"]
    if unknown:
        raise bad(f"unknown top-level keys {excerpt(unknown)}; accepted: 'reports'")
    entries = data["reports"]
    if not isinstance(entries, list) or not entries:
        raise bad(f"'reports' must be a non-empty list of jobs ({example}), got {excerpt(entries)}")
    jobs: list[Job] = []
    names: set[str] = set()
    for i, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise bad(
                f"job {i} must be a mapping with 'report' and optional 'name', 'parameters'; got {excerpt(entry)}"
            )
        extra = [k for k in entry if k not in ("report", "name", "parameters")]
        if extra:
            raise bad(f"job {i} has unknown keys {extra!r}; accepted: 'report', 'name', 'parameters'")
        report = entry.get("report")
        if not isinstance(report, str) or not report:
            raise bad(f"job {i} needs 'report: NAME' (a report name), got {excerpt(report)}")
        name = entry.get("name")
        if name is not None:
            if not isinstance(name, str):
                raise bad(f"job {i}: 'name' must be a string, got {excerpt(name)}")
            try:
                check_output_name(name, where=f"job {i} name")
            except InvalidSetupError as exc:
                raise bad(str(exc)) from None
            if name in names:
                raise bad(f"job {i}: output name {excerpt(name)} is used twice")
            names.add(name)
        parameters = entry.get("parameters")
        if parameters is None:
            parameters = {}
        if not isinstance(parameters, dict) or not all(isinstance(k, str) for k in parameters):
            raise bad(
                f"job {i}: 'parameters' must be a mapping of parameter names to values, got {excerpt(parameters)}"
            )
        jobs.append(Job(report, parameters, name))
    return jobs


def main_jobs(notebooks_dir: Path | str | None = None, main_file: Path | str | None = None) -> list[Job]:
    """Return the jobs of the main job (``toolkit report all``): every report of the
    notebooks directory once with its defaults, in name order, except the reports the
    main file (default ``data/batch/main.yaml``) lists, which run as listed there,
    after the others. Jobs of reports not in the directory are left out.

    Raises:
        InvalidSetupError: a main file that is not a valid parameter file.
    """
    reports = discover_reports(notebooks_dir)
    path = Path(main_file) if main_file is not None else _batch_dir() / MAIN_FILE
    listed = [job for job in load_parameter_file(path) if job.report in reports] if path.is_file() else []
    named = {job.report for job in listed}
    return [Job(report) for report in reports if report not in named] + listed
