"""The batch runner: run report notebooks with papermill and export them to HTML.

Its parts are modules by concept, and this module gathers their public names (the names
``toolkit.reports`` and the command line use):

- :mod:`.discovery`: finding report notebooks and their names;
- :mod:`.parameters`: a notebook's parameters, checked before a run;
- :mod:`.literals`: what a parameter value may be, and the one writer of the parameters cell;
- :mod:`.jobs`: batch parameter files (``data/batch/*.yaml``);
- :mod:`.running`: running one report or a batch;
- :mod:`.parallel`: a batch's jobs in parallel on a local Dask cluster;
- :mod:`.batch_index`: the index page of a batch.

>>> parse_cli_value("8"), parse_cli_value("[4, 6]"), parse_cli_value("true"), parse_cli_value("melee")
(8, [4, 6], True, 'melee')
>>> parse_cli_value("8", "str")
'8'
>>> spec = ParameterSpec("max_dice", "int", "10", "largest pool")
>>> spec.describe()
'max_dice: int = 10  # largest pool'
"""

from toolkit.reports.batch_index import write_batch_index
from toolkit.reports.discovery import (
    REPORT_SUFFIX,
    REPORTS,
    STRATEGY_SUFFIX,
    ReportIndex,
    default_notebooks_dir,
    discover_reports,
    find_report,
    notebook_title,
    report_name,
    repository_root,
)
from toolkit.reports.jobs import Job, check_output_name, load_parameter_file
from toolkit.reports.parallel import default_workers
from toolkit.reports.parameters import (
    CHECKED_TYPES,
    ParameterSpec,
    format_value,
    notebook_parameters,
    parse_cli_value,
    validate_parameters,
)
from toolkit.reports.running import (
    DEFAULT_TIMEOUT,
    BatchBusy,
    BatchResult,
    JobResult,
    ReportFailed,
    check_kernel,
    check_output_dir,
    render_html,
    run_batch,
    run_report,
)

__all__ = [
    "DEFAULT_TIMEOUT",
    "BatchBusy",
    "check_output_dir",
    "CHECKED_TYPES",
    "REPORTS",
    "REPORT_SUFFIX",
    "STRATEGY_SUFFIX",
    "BatchResult",
    "Job",
    "JobResult",
    "ParameterSpec",
    "ReportFailed",
    "ReportIndex",
    "check_kernel",
    "check_output_name",
    "default_workers",
    "default_notebooks_dir",
    "discover_reports",
    "find_report",
    "format_value",
    "load_parameter_file",
    "notebook_parameters",
    "notebook_title",
    "parse_cli_value",
    "render_html",
    "report_name",
    "repository_root",
    "run_batch",
    "run_report",
    "validate_parameters",
    "write_batch_index",
]
