"""Driving a notebook in JupyterLab from Playwright, the way Galata does.

JupyterLab is started with ``--LabApp.expose_app_in_browser=True``, so the page has
``window.jupyterapp``: a notebook is ready when its context and its kernel's session are
ready (``panel.context.ready``, ``panel.sessionContext.ready``), all cells run through the
``notebook:run-all-cells`` command (whose promise settles when the last cell is done),
and the run is over when the kernel is idle and no prompt shows ``[*]``.

Widgets are found by what a designer sees: a cell by a line of its source, a button by
its label, a slider by its description. Input-to-screen times are measured in the page:
a capturing listener stamps every ``pointerdown``/``keydown`` with ``performance.now()``,
and a poll every 10 ms stamps the first moment a watched part of the page differs.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .machine_pace import paced

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"

#: Installed in every page: stamps the last input event.
INPUT_STAMP = """
(() => {
  if (window.__toolkitInputStamp) return;
  window.__toolkitInputStamp = true;
  window.__toolkitInput = null;
  for (const type of ['pointerdown', 'keydown']) {
    document.addEventListener(type, () => { window.__toolkitInput = performance.now(); }, true);
  }
})();
"""

#: A region's visible state: its HTML widgets' text (summary lines, tables, logs, not the
#: controls, not a busy line) and its shown plotly charts' bars, ticks and labels.
REGION_STATE = """
(el) => {
  if (!el) return ['', ''];
  // a busy line (aria-busy) is not an answer: read as empty until the numbers are drawn
  const text = Array.from(el.querySelectorAll('.widget-html, .widget-htmlmath'))
    .map(e => e.querySelector("[aria-busy='true']") ? '' : e.innerText).join('\\n');
  const chart = Array.from(el.querySelectorAll('.js-plotly-plot'))
    .filter(p => p.offsetParent !== null)  // shown: a hidden view's chart is not on screen
    .map(p =>
    Array.from(p.querySelectorAll(
      '.bars path, .textpoint text, .xtick text, .ytick text, .g-xtitle text, .g-ytitle text'))
      .map(e => e.getAttribute('d') || e.textContent).join(';')).join('|');
  return [text, chart];
}
"""

#: Where a widget shows that it is working: a busy class or ARIA state, or a line saying so.
BUSY = re.compile(r"\b(computing|calculating|solving|working|recomputing|busy)\b", re.IGNORECASE)
BUSY_SELECTOR = ".toolkit-busy, [aria-busy='true'], .jp-mod-busy"


def notebook_source(notebook: Path) -> list[str]:
    """Each cell's source, in order."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells]


def cell_index(notebook: Path, code: str) -> int:
    """The index of the only code cell whose source contains ``code``."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    found = [i for i, c in enumerate(cells) if c["cell_type"] == "code" and code in "".join(c["source"])]
    if len(found) != 1:
        raise LookupError(f"{len(found)} code cells of {notebook.name} contain {code!r}")
    return found[0]


@dataclass
class OutputCheck:
    """What the outputs of a run notebook hold."""

    widgets: int = 0  # widget outputs in the notebook model
    rendered: int = 0  # of those, drawn as widgets in the page
    problems: list[str] = field(default_factory=list)  # each a sentence naming the cell
    stderr: list[str] = field(default_factory=list)  # stderr text that is not a traceback


class NotebookPage:
    """One notebook open in JupyterLab in a Playwright page."""

    def __init__(self, page: Page, url: str, path: Path) -> None:
        self.page, self.url, self.path = page, url, path
        page.add_init_script(INPUT_STAMP)

    # -- opening and running ----------------------------------------------------------------
    def open(self, timeout_s: float = 90) -> float:
        """Load JupyterLab on the notebook and wait until its kernel is ready; return the seconds taken."""
        start = time.perf_counter()
        self.page.goto(self.url, timeout=timeout_s * 1000)
        self.page.wait_for_function("() => window.jupyterapp !== undefined", timeout=timeout_s * 1000)
        self.page.evaluate(
            """async (name) => {
              const app = window.jupyterapp;
              await app.started;
              await app.restored;
              for (let i = 0; i < 600; i++) {
                const panel = app.shell.currentWidget;
                if (panel && panel.sessionContext && panel.context && panel.context.path.endsWith(name)) {
                  await panel.context.ready;
                  await panel.sessionContext.ready;
                  return;
                }
                await new Promise(r => setTimeout(r, 100));
              }
              throw new Error('the notebook ' + name + ' did not open');
            }""",
            self.path.name,
        )
        self.wait_idle(timeout_s)
        return time.perf_counter() - start

    def kernel_status(self) -> str:
        """The notebook's kernel status as JupyterLab knows it (``idle``, ``busy``, ...)."""
        return self.page.evaluate(
            "() => { const k = window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel;"
            " return k ? k.status : 'none'; }"
        )

    def wait_idle(self, timeout_s: float, quiet_s: float = 0.3) -> None:
        """Wait until the kernel has been idle, with no cell prompt showing ``[*]``, for
        ``quiet_s`` on end (it goes idle for a moment between two queued widget messages)."""
        self.page.wait_for_function(
            """(quiet) => {
              const panel = window.jupyterapp.shell.currentWidget;
              const kernel = panel.sessionContext.session?.kernel;
              const idle = kernel && kernel.status === 'idle' &&
                !Array.from(panel.node.querySelectorAll('.jp-InputPrompt')).some(p => p.textContent.includes('*'));
              if (!idle) { window.__toolkitIdleSince = null; return false; }
              if (window.__toolkitIdleSince == null) window.__toolkitIdleSince = performance.now();
              return performance.now() - window.__toolkitIdleSince >= quiet;
            }""",
            arg=quiet_s * 1000,
            timeout=timeout_s * 1000,
            polling=20,
        )
        self.page.evaluate("() => { window.__toolkitIdleSince = null; }")

    def run_all(self, timeout_s: float = 240) -> float:
        """Run every cell (Run → Run All Cells) and wait for the kernel; return the seconds taken."""
        start = time.perf_counter()
        self.page.evaluate("async () => { await window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        self.wait_idle(timeout_s)
        return time.perf_counter() - start

    def run_cell(self, index: int, timeout_s: float = 120) -> None:
        """Run one cell (select it, Run → Run Selected Cell) without waiting."""
        self.page.evaluate(
            """async (index) => {
              const panel = window.jupyterapp.shell.currentWidget;
              panel.content.activeCellIndex = index;
              panel.content.deselectAll();
              await window.jupyterapp.commands.execute('notebook:run-cell');
            }""",
            index,
        )

    # -- finding things -----------------------------------------------------------------------
    def cell(self, index: int) -> Locator:
        """The cell at ``index`` (every cell is in the DOM: windowing is off)."""
        return self.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell").nth(index)

    def output(self, code: str) -> Locator:
        """The output area of the code cell whose source contains ``code``."""
        return self.cell(cell_index(self.path, code)).locator(".jp-Cell-outputArea")

    # -- checking outputs ---------------------------------------------------------------------------
    def wait_widgets_drawn(self, timeout_s: float = 60) -> None:
        """Wait until no widget output still says it is loading."""
        self.page.wait_for_function(
            """() => !Array.from(document.querySelectorAll('.jp-OutputArea-output'))
                 .some(o => /Loading widget/i.test(o.innerText))""",
            timeout=timeout_s * 1000,
            polling=200,
        )

    def check_outputs(self) -> OutputCheck:
        """Compare the model's outputs with the page: every widget output drawn as a widget,
        no error output, no traceback on stderr, no "Loading widget…"/"Error displaying widget"."""
        rows: list[dict[str, Any]] = self.page.evaluate(
            """(mime) => {
              const panel = window.jupyterapp.shell.currentWidget;
              const cells = panel.content.model.cells;
              const views = panel.content.widgets;
              const rows = [];
              for (let i = 0; i < cells.length; i++) {
                const cell = cells.get(i);
                if (cell.type !== 'code') continue;
                const outputs = cell.outputs.toJSON();
                const nodes = Array.from(views[i].node.querySelectorAll(
                  '.jp-Cell-outputArea > .jp-OutputArea-child > .jp-OutputArea-output'));
                outputs.forEach((o, k) => {
                  const node = nodes[k];
                  rows.push({
                    cell: i, type: o.output_type, name: o.name || '',
                    widget: !!(o.data && o.data[mime]),
                    text: (Array.isArray(o.text) ? o.text.join('') : (o.text || '')).slice(0, 2000),
                    ename: o.ename || '', evalue: o.evalue || '',
                    drawn: !!(node && node.querySelector('.jupyter-widgets, .widget-box, .widget-inline-hbox')),
                    shown: node ? node.innerText.slice(0, 400) : '<no node>',
                  });
                });
              }
              return rows;
            }""",
            WIDGET_MIME,
        )
        check = OutputCheck()
        for row in rows:
            where = f"cell {row['cell']}"
            if row["type"] == "error":
                check.problems.append(f"{where}: {row['ename']}: {row['evalue']}")
            if row["type"] == "stream" and row["name"] == "stderr":
                if "Traceback" in row["text"] or "Error" in row["text"]:
                    check.problems.append(f"{where}: traceback on stderr: {row['text'][:400]}")
                else:
                    check.stderr.append(f"{where}: {row['text'][:400]}")
            if row["widget"]:
                check.widgets += 1
                shown = row["shown"]
                if row["drawn"] and not re.search(r"Loading widget|Error displaying widget|model not found", shown):
                    check.rendered += 1
                else:
                    check.problems.append(f"{where}: widget not drawn, shows {shown[:200]!r}")
        page_errors = self.page.evaluate(
            """() => Array.from(document.querySelectorAll(
                 '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'))
                 .map(e => e.innerText).filter(t => /Traceback|Error/.test(t))"""
        )
        for text in page_errors:
            if not any(text[:60] in p for p in check.problems):
                check.problems.append(f"an output (inside a widget?) shows an error: {text[:400]}")
        return check

    # -- measuring -------------------------------------------------------------------------------
    def region_state(self, region: Locator) -> list[str]:
        """``[text, chart]`` of a region (see :data:`REGION_STATE`)."""
        return region.evaluate(REGION_STATE)

    def settle(self, region: Locator, quiet_s: float = 0.15, timeout_s: float = 120) -> list[str]:
        """Wait until ``region`` has not changed for ``quiet_s`` (a redraw still on its way
        from an earlier input would otherwise be taken for the answer to the next); return its state."""
        return region.evaluate(
            """(el, [code, quiet, timeout]) => new Promise((resolve, reject) => {
              const state = eval(code);
              const started = performance.now();
              let last = JSON.stringify(state(el)), since = performance.now();
              const poll = () => {
                const now = JSON.stringify(state(el));
                if (now !== last) { last = now; since = performance.now(); }
                if (performance.now() - since >= quiet) return resolve(JSON.parse(now));
                if (performance.now() - started > timeout) return reject(new Error('the region never settles'));
                setTimeout(poll, 10);
              };
              poll();
            })""",
            [REGION_STATE, quiet_s * 1000, timeout_s * 1000],
        )

    def timed(self, act: Any, region: Locator, *, parts: str = "any", timeout_s: float = 120) -> float:
        """Do ``act()`` (a click or key press) and return the seconds from its input event
        to the moment ``region``'s text or chart differs: ``parts`` is ``"any"``,
        ``"text"``, ``"chart"`` or ``"both"`` (both must have changed)."""
        self.wait_idle(timeout_s)
        before = self.settle(region)
        self.page.evaluate("() => { window.__toolkitInput = null; }")
        act()
        changed = region.evaluate(
            """(el, [before, parts, code, timeout]) => new Promise((resolve, reject) => {
              const state = eval(code);
              const started = performance.now();
              const poll = () => {
                const now = state(el);
                const text = now[0] !== before[0], chart = now[1] !== before[1];
                const done = parts === 'any' ? (text || chart) : parts === 'text' ? text
                  : parts === 'chart' ? chart : (text && chart);
                if (done) return resolve(performance.now());
                if (performance.now() - started > timeout) return reject(new Error('no change on screen'));
                setTimeout(poll, 10);
              };
              poll();
            })""",
            [before, parts, REGION_STATE, timeout_s * 1000],
        )
        pressed = self.page.evaluate("() => window.__toolkitInput")
        if pressed is None:
            raise AssertionError("no input event was seen (the action did not reach the page)")
        return (changed - pressed) / 1000

    def busy_within(self, act: Any, region: Locator, window_s: float) -> float | None:
        """Do ``act()``; return the seconds from its input event until ``region`` shows it is
        busy (a :data:`BUSY_SELECTOR` element, or a line matching :data:`BUSY`), or None if it
        does not within ``window_s``.

        The watch starts before ``act()`` (a MutationObserver on ``region``), not after it
        returns: on a slow machine a short busy state can come and go before a poll started
        after the input would look (the Angry Miniatures explorer's, about 0.3 s)."""
        texts = """(el) => Array.from(el.querySelectorAll('.widget-html, .widget-htmlmath, .widget-label'))
                      .map(e => e.innerText)"""
        already = [t for t in region.evaluate(texts) if BUSY.search(t)]
        self.page.evaluate("() => { window.__toolkitInput = null; }")
        region.evaluate(
            """(el, [selector, pattern, already, code]) => {
              const re = new RegExp(pattern, 'i');
              const texts = eval(code);
              const busy = () => el.matches(selector) || el.querySelector(selector) !== null
                || texts(el).some(t => re.test(t) && !already.includes(t));
              window.__toolkitBusy = busy() ? performance.now() : null;
              const observer = new MutationObserver(() => {
                if (window.__toolkitBusy === null && busy()) window.__toolkitBusy = performance.now();
                if (window.__toolkitBusy !== null) observer.disconnect();
              });
              if (window.__toolkitBusy === null)
                observer.observe(el, {subtree: true, childList: true, attributes: true, characterData: true});
              window.__toolkitBusyWatch = observer;
            }""",
            [BUSY_SELECTOR, BUSY.pattern, already, texts],
        )
        act()
        seen = self.page.evaluate(
            """(windowMs) => new Promise(resolve => {
              const started = performance.now();
              const poll = () => {
                if (window.__toolkitBusy !== null) return resolve(window.__toolkitBusy);
                if (performance.now() - started > windowMs) {
                  window.__toolkitBusyWatch.disconnect();
                  return resolve(null);
                }
                setTimeout(poll, 5);
              };
              poll();
            })""",
            window_s * 1000 + 500,
        )
        pressed = self.page.evaluate("() => window.__toolkitInput")
        if seen is None or pressed is None:
            return None
        return (seen - pressed) / 1000 if (seen - pressed) / 1000 <= window_s else None


# -- controls, found as a designer names them ---------------------------------------------------------
def button(region: Locator, label: str) -> Locator:
    """The button (or toggle button) labelled exactly ``label`` in ``region``."""
    return region.get_by_role("button", name=label, exact=True)


def slider(region: Locator, description: str) -> Locator:
    """The slider whose description is ``description`` (exact text)."""
    label = region.page.locator(".widget-label", has_text=re.compile(rf"^\s*{re.escape(description)}\s*$"))
    return region.locator(".widget-slider").filter(has=label)


def slider_value(control: Locator) -> str:
    """The value a slider shows (its readout)."""
    return control.locator(".widget-readout").inner_text().strip()


def nudge(control: Locator, key: str = "ArrowRight") -> None:
    """Move a slider one step with the keyboard, as a designer can (focus the handle, press a key)."""
    control.locator(".noUi-handle").press(key)


def timed_text(nb: NotebookPage, act: Any, target: Locator, done: str, timeout_s: float = 60) -> tuple[float, str]:
    """Do ``act()``; return the seconds from its input event until ``target``'s text matches
    the regular expression ``done`` (the page's clock), and that text."""
    nb.page.evaluate("() => { window.__toolkitInput = null; }")
    act()
    seen, text = target.evaluate(
        """(el, [done, timeout]) => new Promise((resolve, reject) => {
          const re = new RegExp(done), started = performance.now();
          const poll = () => {
            if (re.test(el.innerText)) return resolve([performance.now(), el.innerText]);
            if (performance.now() - started > timeout) return reject(new Error('not shown: ' + el.innerText));
            setTimeout(poll, 10);
          };
          poll();
        })""",
        [done, timeout_s * 1000],
    )
    pressed = nb.page.evaluate("() => window.__toolkitInput")
    if pressed is None:
        raise AssertionError("no input event was seen (the action did not reach the page)")
    return (seen - pressed) / 1000, text


#: How many times a view switch is timed; the fastest is held to the limit (:func:`time_view_switch`).
VIEW_SWITCH_TRIES = 3


@dataclass(frozen=True)
class ViewSwitch:
    """A view switch (exactly→at least) timed :data:`VIEW_SWITCH_TRIES` times: ``seconds``
    the fastest, at ``pace`` (the machine's pace around that try), ``tries`` every figure."""

    seconds: float
    pace: float
    tries: tuple[float, ...]

    @property
    def note(self) -> str:
        """The tries in words, for the timing table."""
        return f"fastest of {len(self.tries)}: " + ", ".join(f"{s:.3f}" for s in self.tries) + " s"


def time_view_switch(nb: NotebookPage, region: Locator, tries: int = VIEW_SWITCH_TRIES) -> ViewSwitch:
    """Switch ``region``'s explorer from "exactly" to "at least" and back ``tries`` times;
    return the seconds from each "at least" click to its chart drawn, the fastest first
    held (:class:`ViewSwitch`).

    A switch only shows a chart already drawn (toolkit/widgets/explorer.py), and the browser
    shows it itself (a style rule follows the pressed button): its cost is a repaint, with
    no round trip to the kernel. The main part of the
    suite runs beside the browser part on the same cores, and one scheduling delay there
    is longer than the switch itself: on CI one switch took 0.625 s at pace 2.07 where the
    other two explorers' took 0.19-0.34 s. The fastest of a few tries is the switch's own
    cost; every try is kept in the table's note."""
    figures: list[tuple[float, float]] = []
    for _ in range(tries):
        with paced() as pace:
            seconds = nb.timed(button(region, "at least").click, region, parts="chart")
        figures.append((seconds, pace.value))
        nb.timed(button(region, "exactly").click, region, parts="chart")
    seconds, pace = min(figures)
    return ViewSwitch(seconds, pace, tuple(s for s, _ in figures))


def time_cell_to_chart(nb: NotebookPage, code: str, timeout_s: float = 120) -> dict[str, float]:
    """Run the cell whose source contains ``code`` again and return the seconds from the
    run until: ``"done"`` the kernel has run it (its prompt has a number again),
    ``"controls"`` its widget is drawn, ``"chart"`` its chart has bars: what a designer
    waits for the explorer's default settings."""
    index = cell_index(nb.path, code)
    return nb.page.evaluate(
        r"""async ([index, timeout]) => {
          const panel = window.jupyterapp.shell.currentWidget;
          const node = panel.content.widgets[index].node;
          panel.content.activeCellIndex = index;
          panel.content.deselectAll();
          const started = performance.now();
          const seen = {};
          window.jupyterapp.commands.execute('notebook:run-cell');
          await new Promise(r => setTimeout(r, 0));
          while (performance.now() - started < timeout) {
            const t = (performance.now() - started) / 1000;
            const prompt = node.querySelector('.jp-InputPrompt');
            if (prompt && prompt.textContent.includes('*')) seen.running = true;
            if (seen.running && !('done' in seen) && /\d/.test(prompt.textContent)) seen.done = t;
            if (!('controls' in seen) && node.querySelector('.jp-Cell-outputArea .widget-slider')) seen.controls = t;
            const bars = Array.from(node.querySelectorAll('.jp-Cell-outputArea .js-plotly-plot .bars path'))
              .filter(p => (p.getAttribute('d') || '').length > 4);
            if (!('chart' in seen) && bars.length) seen.chart = t;
            if ('done' in seen && 'chart' in seen) { delete seen.running; return seen; }
            await new Promise(r => setTimeout(r, 10));
          }
          throw new Error('no chart drawn: ' + JSON.stringify(seen));
        }""",
        [index, timeout_s * 1000],
    )


# -- what a designer reads ---------------------------------------------------------------------------
def cut_off_labels(region: Locator) -> list[str]:
    """The texts in ``region`` that do not fit their box (labels, buttons, toggle buttons,
    dropdowns): each as the designer sees it cut, ``shown → full``."""
    return region.evaluate(
        """(el) => {
          const found = [];
          const boxes = el.querySelectorAll(
            '.widget-label, .widget-label-basic, button.jupyter-button, .widget-dropdown select, .widget-readout');
          for (const box of boxes) {
            if (box.offsetParent === null) continue;  // hidden (a closed accordion)
            const text = (box.tagName === 'SELECT' ? box.options[box.selectedIndex]?.text : box.innerText) || '';
            if (!text.trim()) continue;
            let cut = box.scrollWidth > box.clientWidth + 1;
            if (box.tagName === 'SELECT') {
              const probe = document.createElement('span');
              probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre;font:' +
                getComputedStyle(box).font;
              probe.textContent = text;
              document.body.appendChild(probe);
              cut = probe.getBoundingClientRect().width > box.clientWidth - 20;  // minus the arrow
              probe.remove();
            }
            if (cut) found.push(text.trim());
          }
          return found;
        }"""
    )


def short_sliders(region: Locator, min_px: int = 100) -> list[str]:
    """The sliders in ``region`` whose track is shorter than ``min_px`` pixels (a slider
    squeezed to a dot by its neighbours), each as ``description: width``."""
    return region.evaluate(
        """(el, least) => Array.from(el.querySelectorAll('.widget-slider'))
          .filter(s => s.offsetParent !== null)
          .map(s => [s.querySelector('.widget-label')?.innerText.trim() || '(no label)',
                     (s.querySelector('.noUi-target, .slider-container') || s).getBoundingClientRect().width])
          .filter(([_, w]) => w < least)
          .map(([label, w]) => `${label}: ${Math.round(w)} px`)""",
        min_px,
    )


class viewport_width:
    """A context in which the page is ``width`` pixels wide (restored afterwards), its
    layout settled."""

    def __init__(self, page: Page, width: int) -> None:
        self.page, self.width = page, width

    def __enter__(self) -> None:
        self.before = self.page.viewport_size
        self.page.set_viewport_size({"width": self.width, "height": (self.before or {}).get("height", 1000)})
        self.page.wait_for_timeout(400)  # the layout follows the new width

    def __exit__(self, *exc: object) -> None:
        if self.before:
            self.page.set_viewport_size(self.before)


def dimmed_while_busy(nb: NotebookPage, act: Any, region: Locator, timeout_s: float = 120) -> list[dict[str, Any]]:
    """Do ``act()`` and watch ``region`` until the kernel is idle: for each part an
    explorer marks as showing numbers (``.toolkit-numbers``: the chart, the summary
    sentence, the table), whether the busy state's dimming rule covered it while the
    explorer was busy, and the lowest opacity it was drawn with. Returns
    ``[{"what": "chart" | "sentence" | "table", "covered": bool, "opacity": float}]``."""
    region.evaluate(
        """(el) => {
          const seen = new Map();
          window.__toolkitDim = { seen, busy: false, stop: false };
          const what = e => e.querySelector('.js-plotly-plot') || e.classList.contains('widget-vbox') ? 'chart'
                          : (e.querySelector('table') ? 'table' : 'sentence');
          const poll = () => {
            const busy = el.querySelector('.toolkit-explorer.toolkit-busy');
            if (busy) {
              window.__toolkitDim.busy = true;
              for (const part of busy.querySelectorAll('.toolkit-numbers')) {
                const key = what(part);
                const old = seen.get(key) || { covered: false, opacity: 1 };
                old.covered = old.covered || part.matches('.toolkit-explorer.toolkit-busy .toolkit-numbers');
                old.opacity = Math.min(old.opacity, parseFloat(getComputedStyle(part).opacity));
                seen.set(key, old);
              }
            }
            if (!window.__toolkitDim.stop) setTimeout(poll, 5);
          };
          poll();
        }"""
    )
    act()
    nb.wait_idle(timeout_s)
    return nb.page.evaluate(
        """() => { const d = window.__toolkitDim; d.stop = true;
                   return Array.from(d.seen.entries()).map(([what, v]) => ({ what, ...v })); }"""
    )


#: A fraction a designer cannot read: a denominator of 10,000 or more (issue 12 item 3).
LONG_FRACTION = re.compile(r"\b\d+/(\d{5,}|\d{1,3}(,\d{3}){2,})\b")
#: What is left when the fraction is dropped: "= ≈ 48.8%".
DROPPED_FRACTION = re.compile(r"=\s*≈")


def unreadable_numbers(text: str) -> list[str]:
    """The long fractions and the "= ≈" of ``text``, each once, in order."""
    found = [m.group(0) for m in LONG_FRACTION.finditer(text)] + [
        text[max(0, m.start() - 30) : m.end() + 8] for m in DROPPED_FRACTION.finditer(text)
    ]
    return list(dict.fromkeys(found))


@dataclass(frozen=True)
class Drag:
    """What a slider drag did: the value reached, the chart redraws during the drag and
    after the release, and the seconds from the release to the last redraw."""

    value: str
    redraws_during: int
    redraws_after: int
    settled_after_s: float


def drag_slider(
    nb: NotebookPage, control: Locator, region: Locator, to_end: bool = True, steps: int = 24, pause_ms: int = 10
) -> Drag:
    """Drag a slider's handle with the mouse to the end of its track (or the start), in
    ``steps`` moves ``pause_ms`` apart (a brisk drag: about half a second), watching
    ``region``'s chart; return what happened (:class:`Drag`) once the kernel is idle and
    the chart has been quiet for a second."""
    nb.settle(region)
    region.evaluate(
        """(el, code) => {
          const state = eval(code);
          const seen = { changes: [], up: null };
          let last = state(el)[1];
          window.__toolkitDrag = seen;
          document.addEventListener('pointerup', () => { seen.up = performance.now(); }, { once: true, capture: true });
          const poll = () => {
            const now = state(el)[1];
            if (now !== last) { last = now; seen.changes.push(performance.now()); }
            if (!seen.stop) setTimeout(poll, 10);
          };
          poll();
        }""",
        REGION_STATE,
    )
    handle = control.locator(".noUi-handle").bounding_box()
    track = control.locator(".noUi-base").bounding_box()
    assert handle and track, "the slider is not on screen"
    y = handle["y"] + handle["height"] / 2
    x0 = handle["x"] + handle["width"] / 2
    x1 = track["x"] + (track["width"] + 5 if to_end else -5)
    mouse = nb.page.mouse
    mouse.move(x0, y)
    mouse.down()
    for k in range(1, steps + 1):
        mouse.move(x0 + (x1 - x0) * k / steps, y)
        nb.page.wait_for_timeout(pause_ms)
    mouse.up()
    nb.wait_idle(180)
    nb.settle(region, quiet_s=1.0)
    seen = nb.page.evaluate("() => { const s = window.__toolkitDrag; s.stop = true; return s; }")
    up = seen["up"]
    during = [t for t in seen["changes"] if up is None or t <= up]
    after = [t for t in seen["changes"] if up is not None and t > up]
    settled = (max(after) - up) / 1000 if after else 0.0
    return Drag(slider_value(control), len(during), len(after), settled)
