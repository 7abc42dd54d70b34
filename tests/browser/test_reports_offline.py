"""One small report per system, rendered with the project's runner (``toolkit report -f``),
opened in Chromium with the network blocked (only file:// and 127.0.0.1): every plotly
chart is drawn, and the page logs no console error and asks the network for nothing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .browser_session import ConsoleLog
from .lab_server import REPO
from .notebook_page import unreadable_numbers

JOBS = Path(__file__).parent / "small_reports.yaml"
REPORTS = ["angry-miniatures-small", "fairy-meat-small", "durak-battle-small"]
TEXTS: dict[str, str] = {}  # each report's text as the browser shows it
#: Internal side ids in the Durak report (issue 12 item 4).
SIDE_IDS = re.compile(r"\b[ab]'s (?:cards|tokens)\b|\b[ab] (?:attacks first|wins|loses)\b|\bside [ab]\b|\barmy [ab]\b")


def offline_recording(blocked: list[str]):
    """A route handler like conftest's ``offline`` that also lists what it blocked."""

    def handle(route, request):
        url = request.url
        if url.startswith(("file://", "data:", "blob:")) or url.split("/")[2].split(":")[0] == "127.0.0.1":
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    return handle


@pytest.fixture(scope="module")
def rendered(tmp_path_factory, timings):
    """The reports' directory, rendered once for the module."""
    out = tmp_path_factory.mktemp("reports")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "toolkit", "report", "-f", str(JOBS), "-o", str(out)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    timings.add("reports: toolkit report -f small_reports.yaml (3 reports, papermill)", time.perf_counter() - start)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def opened(browser_context, rendered, timings):
    """Each report opened offline: name -> (charts in the HTML, charts drawn, console log, blocked URLs)."""
    found = {}
    for name in REPORTS:
        html = rendered / f"{name}.html"
        assert html.is_file(), sorted(p.name for p in rendered.iterdir())
        page = browser_context.new_page()
        console, blocked = ConsoleLog(label=name), []
        console.watch(page)

        page.route("**/*", offline_recording(blocked))
        start = time.perf_counter()
        page.goto(html.as_uri(), wait_until="load")
        expected = html.read_text(encoding="utf-8").count("Plotly.newPlot(")
        page.wait_for_function(
            "(n) => document.querySelectorAll('.js-plotly-plot .main-svg').length >= n || n === 0",
            arg=expected,
            timeout=60_000,
        )
        page.wait_for_timeout(500)  # let late scripts report their errors
        drawn = page.evaluate(
            "() => Array.from(document.querySelectorAll('.js-plotly-plot'))"
            ".filter(p => p.querySelector('.main-svg')).length"
        )
        timings.add(f"reports: {name}.html opened offline, {drawn} charts drawn", time.perf_counter() - start)
        found[name] = (expected, drawn, console, blocked)
        TEXTS[name] = page.inner_text("body")
        page.close()
    return found


@pytest.mark.parametrize("name", REPORTS)
def test_report_draws_every_chart_offline(opened, name):
    expected, drawn, _, _ = opened[name]
    assert drawn > 0 and drawn == expected, f"{drawn} of {expected} charts drawn"


@pytest.mark.parametrize("name", REPORTS)
def test_report_logs_no_console_error_offline(opened, name):
    _, _, console, _ = opened[name]
    assert console.errors == []


@pytest.mark.parametrize("name", REPORTS)
def test_report_asks_the_network_for_nothing(opened, name):
    _, _, _, blocked = opened[name]
    assert blocked == []


@pytest.mark.parametrize("name", REPORTS)
def test_report_numbers_are_readable(opened, name):
    found = unreadable_numbers(TEXTS[name])
    assert not found, found[:12]


@pytest.mark.parametrize("name", REPORTS)
def test_report_links_rulings_inside_the_repository(opened, name):
    lines = [line for line in TEXTS[name].splitlines() if "shared/rules" in line]
    assert not lines, lines


@pytest.mark.parametrize("name", REPORTS)
def test_report_prints_the_rules_in_force_once(opened, name):
    """Issue 23 item 4: the rules a report used are printed once (they were printed twice:
    the house-rules box and a "Rules in force" line), the report's own variant parameters
    included."""
    assert TEXTS[name].count("Rules in force") == 1, [
        line for line in TEXTS[name].splitlines() if "Rules in force" in line
    ]


def test_durak_report_names_armies_not_side_ids(opened):
    """Issue 12 item 4: the armies by name (the report's name_a/name_b, North and South by default)."""
    text = TEXTS["durak-battle-small"]
    found = sorted({m.group(0) for m in SIDE_IDS.finditer(text)})
    assert not found, found
    assert "North attacks first" in text and "South's cards" in text
