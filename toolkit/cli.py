"""The ``toolkit`` command line (also ``python -m toolkit``).

``toolkit report NAME [-p NAME VALUE]... [-f FILE.yaml] [-o DIR] [--workers N] [--show-code]``
runs report notebooks into HTML (a batch in parallel on a local Dask cluster, one worker
process per core by default); ``toolkit report --list`` lists them.
``toolkit replay FILE`` replays a rule-book example of any registered system
(:mod:`toolkit.systems`); ``toolkit replay --list`` lists the systems and their examples.

Exit codes: 0 every report succeeded, 1 a report failed, 2 bad arguments, 130
interrupted (Ctrl-C: one line, no traceback).

Each subcommand is one ``_add_<command>_command(subparsers)`` function that builds its
parser and sets ``handler``; list it in :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolkit.errors import ToolkitError
from toolkit.notation import excerpt

__all__ = ["main", "build_parser", "COMMANDS"]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def _error(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return EXIT_USAGE


# -- toolkit report ----------------------------------------------------------------------
def _add_report_command(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "report",
        help="run report notebooks and export them to HTML",
        description=(
            "Run a report notebook with papermill and write <DIR>/<NAME>.html "
            "(and the executed .ipynb). NAME 'all' runs every report with its defaults."
        ),
    )
    parser.add_argument("name", nargs="?", metavar="NAME", help="a report name, or 'all'")
    parser.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "VALUE"),
        help="set a parameter; VALUE is read as YAML: 8, 0.5, true, [4, 6], melee",
    )
    parser.add_argument(
        "-f", "--file", type=Path, metavar="FILE.yaml", help="run the jobs of a parameter file (data/batch/)"
    )
    parser.add_argument(
        "-o", "--output", type=Path, default=Path("reports"), metavar="DIR", help="output directory (reports)"
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="stop a report whose cell runs longer than this (default 600; 0: no limit); the batch goes on",
    )
    parser.add_argument(
        "--workers",
        type=_workers,
        default=None,
        metavar="N",
        help="run the reports of a batch on N worker processes of a local Dask cluster "
        "(default: one per core, at most one per report; 1: one after another, no cluster)",
    )
    parser.add_argument("--show-code", action="store_true", help="keep the code cells in the HTML")
    parser.add_argument("--list", action="store_true", help="list the reports and their parameters")
    parser.add_argument("--kernel", default="python3", help="Jupyter kernel to run with (python3)")
    parser.add_argument(
        "--notebooks", type=Path, default=None, metavar="DIR", help="where the *_report.ipynb notebooks are"
    )
    parser.set_defaults(handler=_report_command)


def _seconds(text: str) -> float:
    """A ``--timeout``: seconds, 0 for no limit."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of seconds, got {text[:40]!r}") from None
    if not 0 <= value <= 7 * 24 * 3600:
        raise argparse.ArgumentTypeError(f"seconds from 0 (no limit) to a week, got {text[:40]!r}")
    return value


def _workers(text: str) -> int:
    """A ``--workers``: a whole number of worker processes from 1 to 256."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of worker processes, got {text[:40]!r}") from None
    if not 1 <= value <= 256:
        raise argparse.ArgumentTypeError(f"from 1 (one report after another) to 256 workers, got {text[:40]!r}")
    return value


def _list_reports(name: str | None, notebooks_dir: Path | None) -> int:
    from toolkit.reports.runner import default_notebooks_dir, discover_reports, notebook_parameters

    reports = discover_reports(notebooks_dir)
    if name is not None and name != "all":
        from toolkit.reports.runner import find_report

        reports = {name: find_report(name, notebooks_dir)}
    if not reports:
        print(f"no reports in {notebooks_dir or default_notebooks_dir()}")
        return EXIT_OK
    for report, path in reports.items():
        print(f"{report}  ({path})")
        specs = notebook_parameters(path)
        if not specs:
            print("    (no parameters)")
        for spec in specs.values():
            print(f"    {spec.describe()}")
    return EXIT_OK


def _report_command(args: argparse.Namespace) -> int:
    from toolkit.reports.runner import (
        DEFAULT_TIMEOUT,
        Job,
        check_kernel,
        check_output_dir,
        default_workers,
        discover_reports,
        find_report,
        load_parameter_file,
        notebook_parameters,
        parse_cli_value,
        run_batch,
        validate_parameters,
    )

    if args.list:
        return _list_reports(args.name, args.notebooks)
    if args.name is None and args.file is None:
        return _error("give a report NAME, 'all', -f FILE.yaml or --list")
    if args.parameter and args.name in (None, "all"):
        return _error("-p sets a parameter of one report: give its NAME (not 'all'; use -f for several)")

    jobs: list[Job] = []
    if args.name == "all":
        reports = discover_reports(args.notebooks)
        if not reports:
            find_report("all", args.notebooks)  # raises: there are no reports
        jobs += [Job(report) for report in reports]
    elif args.name is not None:
        specs = notebook_parameters(find_report(args.name, args.notebooks))
        params = {}
        for pname, text in args.parameter:
            spec = specs.get(pname)
            params[pname] = parse_cli_value(text, spec.type_name if spec else None)
        jobs.append(Job(args.name, params))
    if args.file is not None:
        jobs += load_parameter_file(args.file)

    # Check every job before running any, so a typo costs nothing.
    for job in jobs:
        validate_parameters(find_report(job.report, args.notebooks), job.parameters)
    check_kernel(args.kernel)
    check_output_dir(args.output)
    timeout = DEFAULT_TIMEOUT if args.timeout is None else (args.timeout or None)
    workers = default_workers(len(jobs)) if args.workers is None else args.workers

    result = run_batch(
        jobs,
        args.output,
        kernel_name=args.kernel,
        notebooks_dir=args.notebooks,
        show_code=args.show_code,
        write_index=len(jobs) > 1 or args.file is not None or args.name == "all",
        timeout=timeout,
        workers=workers,
    )
    if result.index_path is not None:
        print(f"index: {result.index_path}")
    for failed in result.failed:
        print(f"failed: {failed.error}", file=sys.stderr)
    return EXIT_OK if result.ok else EXIT_FAILED


# -- toolkit replay ---------------------------------------------------------------------
def _add_replay_command(subparsers: Any) -> None:
    from toolkit.systems import systems

    known = ", ".join(f"{s.name} ({s.title})" for s in systems())
    parser = subparsers.add_parser(
        "replay",
        help="replay a rule-book example file and print it as narrated prose",
        description="Replay an example from data/examples/ and print its title, notes, the narrated log "
        f"and a summary. Exits 1 if the file's expectations are not met. Systems: {known}.",
    )
    parser.add_argument("file", nargs="?", type=Path, metavar="FILE", help="an example file (YAML)")
    parser.add_argument("--list", action="store_true", help="list the systems and the examples of data/examples/")
    parser.set_defaults(handler=_replay)


def _list_examples() -> int:
    from toolkit.examples import example_files
    from toolkit.systems import systems

    for entry in systems():
        print(f"{entry.name}  ({entry.title})")
        for path in example_files(entry.name):
            print(f"    {path}")
    return EXIT_OK


def _replay(args: argparse.Namespace) -> int:
    from toolkit.replay import replay_file

    if args.list:
        return _list_examples()
    if args.file is None:
        return _error("give an example FILE (YAML), or --list")
    text, problems = replay_file(args.file)
    print(text)
    for problem in problems:
        print(f"expectation not met: {problem}", file=sys.stderr)
    return EXIT_FAILED if problems else EXIT_OK


COMMANDS: tuple[Callable[[Any], None], ...] = (_add_report_command, _add_replay_command)


def build_parser() -> argparse.ArgumentParser:
    """Return the ``toolkit`` argument parser with every subcommand of :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(prog="toolkit", description="Tools for tabletop-game combat designers.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add_command in COMMANDS:
        add_command(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``toolkit`` command line on ``argv`` (default ``sys.argv[1:]``) and return
    the exit code: 0 success, 1 a report failed, 2 bad arguments."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits on --help (0) and on bad usage (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return args.handler(args)
    except ToolkitError as exc:
        return _error(str(exc))
    except KeyboardInterrupt:
        print(
            f"\ninterrupted: toolkit {args.command} stopped (finished reports and the index are in place)"
            if args.command == "report"
            else f"\ninterrupted: toolkit {args.command} stopped",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    except RecursionError:
        return _error("the input is nested too deeply to read")
    except BrokenPipeError:  # e.g. `toolkit report --list | head`
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes stdout
        except (OSError, ValueError, AttributeError):
            pass
        return EXIT_FAILED
    except OSError as exc:  # a folder or file that cannot be written or read
        where = f": {excerpt(str(exc.filename))}" if exc.filename else ""
        return _error(f"{exc.strerror or exc}{where}")
