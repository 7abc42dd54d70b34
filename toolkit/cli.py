"""The ``toolkit`` command line (also ``python -m toolkit``).

``toolkit report NAME [-p NAME VALUE]... [-f FILE.yaml] [-o DIR] [--workers N] [--show-code]``
runs report notebooks into HTML (a batch in parallel on a local Dask cluster, one worker
process per core by default); ``toolkit report --list`` lists them.
``toolkit replay FILE`` replays a rule-book example of any registered system
(:mod:`toolkit.systems`); ``toolkit replay --list`` lists the systems and their examples;
``toolkit replay FILE --format html|markdown [-o OUT] [--images DIR]`` writes it as a
rule-book paragraph with its cards and dice drawn (:mod:`toolkit.rulebook.export`);
``--format pdf -o OUT.pdf`` as a print-ready PDF.
``toolkit find-example SYSTEM SITUATION [-n N] [--rules FILE] [-o DIR]`` finds rule-book
examples of a situation (:mod:`toolkit.rulebook`); ``toolkit find-example --list SYSTEM``
lists the situations.
``toolkit sweep FILE.yaml -o DIR [--workers N] [--scheduler ADDRESS]`` runs a parameter
sweep on Dask (:mod:`toolkit.sweeps`); ``toolkit sweep --list`` lists the calculators.
``toolkit tune FILE.yaml -o DIR`` finds the house rules that hit a tuning file's targets
(:mod:`toolkit.tune`).

Exit codes: 0 every report succeeded, 1 a report failed, 2 bad arguments, 130
interrupted (Ctrl-C: one line, no traceback).

Each subcommand is one ``_add_<command>_command(subparsers)`` function that builds its
parser and sets ``handler``; list it in :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolkit.errors import InvalidSetupError, ToolkitError, path_excerpt
from toolkit.files import same_file
from toolkit.notation import excerpt, show_controls

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


def _budget(text: str) -> float:
    """A ``find-example --budget``: seconds more than 0, in the finder's own message."""
    from toolkit.rulebook.finder import check_budget

    try:
        value = float(text)
    except ValueError:
        value = None
    try:
        return check_budget(value if value is not None else text)
    except InvalidSetupError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


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


def _say(line: str) -> None:
    """Print a progress line now: a pipe (``toolkit report all | tee log``, a test) holds
    unflushed lines until the command ends."""
    print(line, flush=True)


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
        from toolkit.reports.jobs import main_jobs

        jobs += main_jobs(args.notebooks)  # every report, and data/batch/main.yaml's jobs
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

    started = time.perf_counter()
    result = run_batch(
        jobs,
        args.output,
        progress=_say,
        kernel_name=args.kernel,
        notebooks_dir=args.notebooks,
        show_code=args.show_code,
        write_index=len(jobs) > 1 or args.file is not None or args.name == "all",
        timeout=timeout,
        workers=workers,
    )
    if result.index_path is not None:
        print(f"index: {result.index_path}")
    if len(jobs) > 1:
        from toolkit.numbers import count

        ran = min(workers, len(jobs))
        print(
            f"{count(len(jobs), 'report')} in {time.perf_counter() - started:.1f} s "
            f"({'one after another' if ran == 1 else f'{ran} at a time'})"
        )
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
    parser.add_argument(
        "--format",
        choices=("text", "markdown", "html", "pdf"),
        default="text",
        help="text (the narration, as before), or the example as a rule-book paragraph with its cards and dice "
        "drawn: markdown, html (a self-contained page ready to print) or pdf (print-ready, A4; needs -o OUT.pdf)",
    )
    parser.add_argument(
        "-o", "--output", type=Path, default=None, metavar="OUT", help="write the export to OUT instead of printing it"
    )
    parser.add_argument(
        "--images",
        type=Path,
        default=None,
        metavar="DIR",
        help="markdown: write the cards and dice as SVG files in DIR and link them (default with -o OUT: a folder "
        "OUT-images beside OUT; printed without -o: inline data: URIs, which GitHub and nbconvert do not show)",
    )
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
    if args.images is not None and args.format != "markdown":
        return _error("--images DIR is for --format markdown (html and pdf draw the pictures inline)")
    if args.format == "pdf" and args.output is None:
        return _error("--format pdf writes a file: give -o OUT.pdf (a PDF is not printed to the terminal)")
    if args.output is not None:
        overwritten = next((f for f in _example_inputs(args.file) if same_file(args.output, f)), None)
        if overwritten is not None:
            what = "the example" if overwritten == args.file else "the house-rules file the example names"
            return _error(
                f"-o {path_excerpt(args.output)} is {what}: give another output file (it would be overwritten)"
            )
    if args.format == "text":
        text, problems = replay_file(args.file)
    else:
        text, problems = _rulebook_export(args)
    if args.output is None:
        # names are refused with control characters at load; a terminal obeys them all the same
        print(show_controls(text), end="" if text.endswith("\n") else "\n")
    else:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):  # a PDF
            args.output.write_bytes(text)
        else:
            args.output.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
        print(f"wrote {show_controls(str(args.output))}")
    for problem in problems:
        print(f"expectation not met: {show_controls(problem)}", file=sys.stderr)
    return EXIT_FAILED if problems else EXIT_OK


def _example_inputs(file: Path) -> list[Path]:
    """The files a replay of ``file`` reads: the example, and the house-rules file its
    ``rules:`` names (what ``-o`` must not overwrite)."""
    from toolkit.house_rules import example_folder, find_rules_file
    from toolkit.replay import read_source

    notation, read = read_source(file)
    raw = read.data.get("rules")
    named = isinstance(raw, str) and raw.strip()
    found = find_rules_file(notation.system, raw, example_folder(read.where)) if named else None
    return [file] if found is None else [file, found]


def _rulebook_export(args: argparse.Namespace) -> tuple[str | bytes, list[str]]:
    """The example of ``args.file`` as a rule-book export (a PDF's bytes) and its unmet expectations; Markdown
    written to a file puts its pictures in ``--images`` (default: ``OUT-images`` beside it),
    linked relative to where the Markdown goes."""
    from toolkit.rulebook.export import export

    link = None
    images = args.images
    if images is None and args.format == "markdown" and args.output is not None:
        images = args.output.with_name(f"{args.output.stem}-images")  # image files beside the Markdown
    if images is not None and args.output is not None:
        link = Path(os.path.relpath(images.resolve(), args.output.resolve().parent)).as_posix()
    text, example = export(args.file, args.format, images=images, images_link=link)
    return text, [p for e in example.expectations for p in e.problems]


# -- toolkit find-example ---------------------------------------------------------------
def _add_find_example_command(subparsers: Any) -> None:
    from toolkit.rulebook.finder import DEFAULT_BUDGET, DEFAULT_SEED
    from toolkit.rulebook.situations import catalogued_systems

    known = catalogued_systems()

    parser = subparsers.add_parser(
        "find-example",
        help="find rule-book examples of a situation (an example file that replays, expect filled in)",
        description="Search deals and rolls for the simplest examples showing a situation of the catalogue "
        "(toolkit find-example --list SYSTEM), check each by replaying it, and print them or write them to "
        f"DIR as .yaml files (and .html when the rule-book export is installed). Systems: {', '.join(known)}.",
    )
    parser.add_argument("system", nargs="?", metavar="SYSTEM", help=f"one of {', '.join(known)}")
    parser.add_argument("situation", nargs="?", metavar="SITUATION", help="a situation name (see --list)")
    parser.add_argument("--list", action="store_true", help="list the situations of SYSTEM, one a line")
    parser.add_argument("-n", type=int, default=3, metavar="N", help="how many examples (default 3)")
    parser.add_argument("--rules", metavar="FILE", help="a house-rules file (or a shipped name) to follow")
    parser.add_argument("-o", "--output-dir", type=Path, metavar="DIR", help="write the files into DIR")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"search seed (default {DEFAULT_SEED})")
    parser.add_argument(
        "--budget", type=_budget, default=DEFAULT_BUDGET, help=f"seconds of search (default {DEFAULT_BUDGET:g})"
    )
    parser.set_defaults(handler=_find_example)


def _find_example(args: argparse.Namespace) -> int:
    import importlib.util

    from toolkit.house_rules import load_rules
    from toolkit.rulebook.finder import find_examples
    from toolkit.rulebook.situations import catalogue, catalogued_systems, situation

    known = catalogued_systems()

    if args.system is None:
        return _error(f"give a SYSTEM ({', '.join(known)}) and a SITUATION, or --list SYSTEM")
    if args.system not in known:
        return _error(f"unknown system {excerpt(args.system)}: use one of {', '.join(known)}")
    if args.list:
        for entry in catalogue(args.system):
            print(entry.name)
        return EXIT_OK
    if args.situation is None:
        return _error(f"give a SITUATION of {args.system} (toolkit find-example --list {args.system})")
    if args.n < 1:
        return _error(f"-n must be 1 or more, got {args.n}")
    wanted = situation(args.system, args.situation)
    if args.rules is None and wanted.variant and not wanted.possible_under(load_rules(args.system)):
        changes = ", ".join(f"{k}={v!r}" for k, v in wanted.variant)
        print(f"note: {args.situation} needs a variant: searched under {changes}", file=sys.stderr)
    found = find_examples(args.system, args.situation, args.rules, args.n, args.seed, args.budget)
    if not found:
        print(
            f"no example of {args.situation} found in {args.budget:g} s: try a larger --budget or another --seed",
            file=sys.stderr,
        )
        return EXIT_FAILED
    if len(found) < args.n:
        print(f"found {len(found)} of the {args.n} examples asked for", file=sys.stderr)
    if args.output_dir is None:
        print("\n---\n".join(found), end="")
        return EXIT_OK
    to_html = None
    if importlib.util.find_spec("toolkit.rulebook.export") is not None:
        to_html = getattr(importlib.import_module("toolkit.rulebook.export"), "to_html", None)
    if to_html is None:
        print("note: toolkit.rulebook.export.to_html is not installed: .yaml files only, no .html", file=sys.stderr)
    args.output_dir.mkdir(parents=True, exist_ok=True)
    for k, text in enumerate(found, 1):
        stem = args.output_dir / f"{args.situation}_{k}"
        stem.with_suffix(".yaml").write_text(text, encoding="utf-8")
        written = [stem.with_suffix(".yaml")]
        if to_html is not None:
            stem.with_suffix(".html").write_text(to_html(text), encoding="utf-8")
            written.append(stem.with_suffix(".html"))
        print(*written)
    return EXIT_OK


# -- toolkit sweep ----------------------------------------------------------------------
def _add_sweep_command(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sweep",
        help="run a parameter sweep on Dask and write a Parquet table and an HTML report",
        description=(
            "Run the grid of a sweep file (data/sweeps/*.yaml) on a local Dask cluster of worker processes "
            "(or --scheduler ADDRESS), and write DIR/<name>.parquet and DIR/<name>.html. Finished points are "
            "stored in DIR/.points/ as they come: a rerun skips them. Exits 1 if a point failed."
        ),
    )
    parser.add_argument("file", nargs="?", type=Path, metavar="FILE.yaml", help="a sweep file")
    parser.add_argument(
        "-o", "--output", type=Path, default=Path("sweeps"), metavar="DIR", help="output directory (sweeps)"
    )
    parser.add_argument(
        "--workers", type=_positive_int, default=None, metavar="N", help="local worker processes (the machine's cores)"
    )
    parser.add_argument(
        "--scheduler", default=None, metavar="ADDRESS", help="a running Dask scheduler, e.g. tcp://10.0.0.5:8786"
    )
    parser.add_argument("--list", action="store_true", help="list the calculators and their arguments")
    parser.set_defaults(handler=_sweep_command)


def _positive_int(text: str) -> int:
    """A ``--workers`` count: a whole number from 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of workers, got {text[:40]!r}") from None
    if not 1 <= value <= 10_000:
        raise argparse.ArgumentTypeError(f"from 1 to 10,000 workers, got {text[:40]!r}")
    return value


def _sweep_command(args: argparse.Namespace) -> int:
    from toolkit.sweeps import calculators_of, run_sweep
    from toolkit.systems import names

    if args.list:
        code = EXIT_OK
        for system in names("calculators"):
            try:
                listed = calculators_of(system)
            except ToolkitError as exc:  # a plug-in's broken hook: one line, the others listed
                code = _error(str(exc))
                continue
            for calc in listed:
                print(calc.describe())
        return code
    if args.file is None:
        return _error("give a sweep FILE.yaml (see data/sweeps/), or --list")
    if args.workers is not None and args.scheduler:
        return _error("--workers sizes the local cluster: leave it out with --scheduler (the cluster has its own)")
    result = run_sweep(args.file, args.output, workers=args.workers, scheduler=args.scheduler, progress="terminal")
    print(f"table: {result.table_path}")
    if result.report_path is not None:
        print(f"report: {result.report_path}")
    if result.share_path is not None:
        print(f"page to share: {result.share_path}")
    elif result.report_path is not None:
        from toolkit.sweeps.share import shared_notice

        print(*shared_notice(result.sweep), sep="\n")
    for failure in result.failures:
        print(f"failed: {failure.describe()}", file=sys.stderr)
    print(f"done: {result.summary()}")
    return EXIT_OK if result.ok else EXIT_FAILED


# -- toolkit tune -----------------------------------------------------------------------
def _add_tune_command(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tune",
        help="find the house rules that hit a target (a tuning file) and write the best candidates",
        description=(
            "Search the knobs of a tuning file (data/tune/*.yaml) for the house rules that meet its targets: "
            "exhaustive on Dask when the space is small, else bisection or Optuna. Writes DIR/<name>.csv and "
            ".html (the best candidates), DIR/<name>_<rank>.yaml (each as a house-rules file) and the "
            "rule-change table of the best. Measured points are stored in DIR/.search/: a rerun reuses them. "
            "Exits 1 if no setting meets every target."
        ),
    )
    parser.add_argument("file", type=Path, metavar="FILE.yaml", help="a tuning file")
    parser.add_argument(
        "-o", "--output", type=Path, default=Path("tune"), metavar="DIR", help="output directory (tune)"
    )
    parser.add_argument(
        "--workers", type=_positive_int, default=None, metavar="N", help="local worker processes (the machine's cores)"
    )
    parser.add_argument(
        "--scheduler", default=None, metavar="ADDRESS", help="a running Dask scheduler, e.g. tcp://10.0.0.5:8786"
    )
    parser.set_defaults(handler=_tune_command)


def _tune_command(args: argparse.Namespace) -> int:
    from toolkit.tune import tune

    if args.workers is not None and args.scheduler:
        return _error("--workers sizes the local cluster: leave it out with --scheduler (the cluster has its own)")
    result = tune(args.file, args.output, workers=args.workers, scheduler=args.scheduler, progress="terminal")
    for path in result.files:
        print(f"wrote: {path}")
    for line in result.failures:
        print(f"failed: {line}", file=sys.stderr)
    print(f"done: {result.summary()}")
    return EXIT_OK if result.found else EXIT_FAILED


COMMANDS: tuple[Callable[[Any], None], ...] = (
    _add_report_command,
    _add_replay_command,
    _add_find_example_command,
    _add_sweep_command,
    _add_tune_command,
)


def build_parser() -> argparse.ArgumentParser:
    """Return the ``toolkit`` argument parser with every subcommand of :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(prog="toolkit", description="Tools for tabletop-game combat designers.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add_command in COMMANDS:
        add_command(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``toolkit`` command line on ``argv`` (default ``sys.argv[1:]``) and return
    the exit code: 0 success, 1 a report failed, 2 bad arguments. A plug-in that fails to
    import is one ``warning:`` line, and every other system's command works."""
    from toolkit import systems

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", systems.PluginWarning)  # printed once, below, as one line
        for problem in systems.plugin_problems():
            print(f"warning: {show_controls(problem)}", file=sys.stderr)
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
            else "\ninterrupted: toolkit sweep stopped (finished points are stored: run it again to go on)"
            if args.command == "sweep"
            else "\ninterrupted: toolkit tune stopped (measured points are stored: run it again to go on)"
            if args.command == "tune"
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
        where = f": {path_excerpt(exc.filename)}" if exc.filename else ""
        return _error(f"{exc.strerror or exc}{where}")
