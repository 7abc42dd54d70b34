"""Designer reports: notebooks run with parameters and exported to HTML.

In a report notebook, show results with :func:`show` (plotly charts), :func:`table`
(DataFrames, exact fractions) and :func:`say` (conclusion sentences; a designer's text
in them goes through :func:`plain`). Run reports with :func:`run_report` /
:func:`run_batch` or ``toolkit report NAME`` on the command line.
The batch runner is split by concept: :mod:`.discovery` (finding reports),
:mod:`.parameters` (checking them), :mod:`.jobs` (parameter files), :mod:`.running`
and :mod:`.batch_index`; :mod:`.runner` gathers their public names.
"""

from toolkit.reports.discovery import REPORTS, discover_reports, find_report
from toolkit.reports.figures import plain, reset, say, show, table
from toolkit.reports.jobs import Job, load_parameter_file
from toolkit.reports.parameters import ParameterSpec, notebook_parameters, parse_cli_value, validate_parameters
from toolkit.reports.running import BatchResult, JobResult, ReportFailed, run_batch, run_report

__all__ = [
    "REPORTS",
    "BatchResult",
    "Job",
    "JobResult",
    "ParameterSpec",
    "ReportFailed",
    "discover_reports",
    "find_report",
    "load_parameter_file",
    "notebook_parameters",
    "parse_cli_value",
    "plain",
    "reset",
    "run_batch",
    "run_report",
    "say",
    "show",
    "table",
    "validate_parameters",
]
