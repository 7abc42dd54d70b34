"""Designer reports: notebooks run with parameters and exported to HTML.

In a report notebook, show results with :func:`show` (plotly charts), :func:`table`
(DataFrames, exact fractions) and :func:`say` (conclusion sentences). Run reports with
:func:`run_report` / :func:`run_batch` or ``toolkit report NAME`` on the command line.
"""

from toolkit.reports.figures import reset, say, show, table
from toolkit.reports.runner import (
    REPORTS,
    BatchResult,
    Job,
    JobResult,
    ParameterSpec,
    ReportFailed,
    discover_reports,
    find_report,
    load_parameter_file,
    notebook_parameters,
    parse_cli_value,
    run_batch,
    run_report,
    validate_parameters,
)

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
    "reset",
    "run_batch",
    "run_report",
    "say",
    "show",
    "table",
    "validate_parameters",
]
