"""A page to share: one self-contained HTML file on which a reader with no Python picks a
value for each setting (pool sizes, a house rule) and reads the odds, with their bars.

Every number is computed before the page is written — by a sweep
(:mod:`toolkit.sweeps.share`, written beside the sweep's table) or by an explorer over the
values of its controls (:meth:`toolkit.widgets.OddsExplorer.share_page`) — written as text
by the toolkit's one display rule (an exact probability ``'7/27 ≈ 25.9%'``, an estimate
with its 95% interval ``'48.8% ± 0.7% (95%)'``) and embedded as JSON in the page (a
:class:`SharedGrid`); the page's script only looks them up. It needs no server, no kernel
and no network.

The chart is drawn with HTML and CSS (a bar per outcome, its interval as a line across
it), not plotly: the page is for sending to someone, and plotly.js would add about 3.5 MB
to draw bars of one setting at a time.

Everything a designer wrote (a title, a value, an outcome's name) reaches the page as
data: escaped text in the HTML, and in the JSON block every ``<``, ``>`` and ``&`` written
as ``\\u003c``, ``\\u003e``, ``\\u0026``, so ``</script>`` in a title cannot end the block;
the script puts text on the page with ``textContent`` only.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit.errors import TooBigError

__all__ = [
    "KINDS",
    "MAX_SHARED_POINTS",
    "SharedAxis",
    "SharedGrid",
    "SharedRow",
    "check_shared_size",
    "is_share_page",
    "page_data",
    "page_html",
]

#: The most settings (points) one page holds: past this the page is too heavy to send.
MAX_SHARED_POINTS = 5_000
#: The kinds of row, in the order the page shows them, with their headings.
KINDS = (
    ("headline", "The headline"),
    ("chance", "Chances of single events"),
    ("value", "Values"),
    ("probability", "Every outcome"),
)


@dataclass(frozen=True)
class SharedRow:
    """One number of one setting: the outcome's name, its kind (``"probability"``,
    ``"chance"`` or ``"value"``), its value and interval as floats (for the bar) and its
    text as the toolkit writes it (what the reader reads)."""

    outcome: str
    kind: str
    value: float
    low: float | None
    high: float | None
    text: str


@dataclass(frozen=True)
class SharedAxis:
    """One setting the reader picks: its label and its values' labels, in order."""

    label: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class SharedGrid:
    """What a share page shows: its title and notes, fixed facts ``(label, text)``, the
    axes, and the rows of each setting by its value indices (one per axis; a setting
    missing from ``points`` reads "no numbers for this setting"). ``lines`` holds, by the
    same key, sentences shown above a setting's numbers (an explorer's summary)."""

    title: str
    axes: tuple[SharedAxis, ...]
    points: Mapping[tuple[int, ...], tuple[SharedRow, ...]]
    notes: str = ""
    facts: tuple[tuple[str, str], ...] = ()
    lines: Mapping[tuple[int, ...], tuple[str, ...]] = field(default_factory=dict)
    start: tuple[int, ...] = ()


#: The mark of a page to share in its own HTML (what may be written over).
_MARK = "<script type='application/json' id='share-data'>"


def is_share_page(path: Path) -> bool:
    """Whether ``path`` is a page to share the toolkit wrote (one it may write over)."""
    try:
        return _MARK.encode() in path.read_bytes()
    except OSError:
        return False


def check_shared_size(points: int, what: str) -> None:
    """Refuse, before anything is computed, a page of more than :data:`MAX_SHARED_POINTS`
    settings, saying its size.

    Raises:
        TooBigError: the size, the limit and what to do.
    """
    if points > MAX_SHARED_POINTS:
        raise TooBigError(
            f"{what} has {points:,} settings; a page to share holds at most {MAX_SHARED_POINTS:,}: "
            "pick fewer values to vary"
        )


def _json_block(data: Any) -> str:
    """``data`` as JSON that cannot end its script block: ``<``, ``>``, ``&`` (and the
    line separators JavaScript once read as line ends) escaped as ``\\uXXXX``."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text


def page_data(grid: SharedGrid) -> dict[str, Any]:
    """Return what the page embeds: axes, outcome names (each once), and per setting
    (``"i,j,…"``) its rows ``[outcome index, kind, value, low, high, text]`` and lines."""
    outcomes: dict[str, int] = {}
    points = {}
    for key, rows in grid.points.items():
        points[",".join(map(str, key))] = {
            "rows": [
                [outcomes.setdefault(r.outcome, len(outcomes)), r.kind, r.value, r.low, r.high, r.text] for r in rows
            ],
            "lines": list(grid.lines.get(key, ())),
        }
    return {
        "axes": [{"label": a.label, "values": list(a.values)} for a in grid.axes],
        "start": list(grid.start) or [0] * len(grid.axes),
        "outcomes": list(outcomes),
        "kinds": [list(k) for k in KINDS],
        "points": points,
    }


_STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:960px;padding:0 1em;color:#222}
h1{font-size:1.6em;margin-bottom:.2em} .notes{color:#444}
.facts{border-collapse:collapse;margin:.8em 0;font-size:.9em;color:#444}
.facts th{text-align:left;padding:1px 12px 1px 0;font-weight:600}
.controls{display:flex;flex-wrap:wrap;gap:.6em 2em;margin:1em 0;padding:.8em 1em;background:#f4f6f8;border-radius:6px}
fieldset{border:0;padding:0;margin:0} legend{font-weight:600;padding:0;margin-bottom:.2em}
fieldset label{margin-right:.9em;white-space:nowrap} output{margin-left:.6em;font-weight:600}
.setting{font-weight:600;margin:.6em 0 .3em} .line{margin:.2em 0;color:#333}
table.odds{border-collapse:collapse;width:100%} .odds td{padding:3px 8px 3px 0;vertical-align:middle}
.odds td.outcome{text-align:left;width:34%} .odds td.number{text-align:left;white-space:nowrap;width:30%}
.track{position:relative;height:14px;background:#eef1f4;border-radius:2px}
.bar{position:absolute;left:0;top:0;bottom:0;background:#4c78a8;border-radius:2px}
.whisker{position:absolute;top:6px;height:2px;background:#222}
.missing{color:#a33} tr.scale td{font-size:.8em;color:#666;padding-bottom:0}
footer{margin-top:2em;font-size:.85em;color:#666}
"""

_SCRIPT = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("share-data").textContent);
  var picked = data.start.slice();
  var controls = document.getElementById("controls");
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  data.axes.forEach(function (axis, a) {
    var box = el("fieldset");
    box.appendChild(el("legend", "", axis.label));
    var n = axis.values.length, id = "axis-" + a;
    if (n <= 4) {
      axis.values.forEach(function (v, i) {
        var label = el("label"), input = el("input");
        input.type = "radio"; input.name = id; input.value = String(i); input.checked = i === picked[a];
        input.addEventListener("change", function () { picked[a] = i; show(); });
        label.appendChild(input); label.appendChild(document.createTextNode(" " + v));
        box.appendChild(label);
      });
    } else if (axis.values.every(function (v) { return /^-?[0-9]+$/.test(v); })) {
      var range = el("input"), out = el("output");
      range.type = "range"; range.min = "0"; range.max = String(n - 1); range.step = "1";
      range.value = String(picked[a]); range.id = id; range.setAttribute("aria-label", axis.label);
      out.textContent = axis.values[picked[a]];
      range.addEventListener("input", function () {
        picked[a] = Number(range.value); out.textContent = axis.values[picked[a]]; show();
      });
      box.appendChild(range); box.appendChild(out);
    } else {
      var select = el("select");
      select.id = id; select.setAttribute("aria-label", axis.label);
      axis.values.forEach(function (v, i) {
        var option = el("option", "", v); option.value = String(i); option.selected = i === picked[a];
        select.appendChild(option);
      });
      select.addEventListener("change", function () { picked[a] = Number(select.value); show(); });
      box.appendChild(select);
    }
    controls.appendChild(box);
  });
  function show() {
    var odds = document.getElementById("odds");
    odds.textContent = "";
    var words = data.axes.map(function (axis, a) { return axis.label + ": " + axis.values[picked[a]]; });
    odds.appendChild(el("div", "setting", words.join(" · ")));
    var point = data.points[picked.join(",")];
    if (!point) {
      odds.appendChild(el("p", "missing", "No numbers for this setting: the toolkit could not compute it."));
      return;
    }
    point.lines.forEach(function (line) { odds.appendChild(el("div", "line", line)); });
    data.kinds.forEach(function (kind) {
      var rows = point.rows.filter(function (r) { return r[1] === kind[0]; });
      if (!rows.length) return;
      odds.appendChild(el("h2", "", kind[1]));
      var table = el("table", "odds"), bars = kind[0] !== "value";
      table.setAttribute("data-kind", kind[0]);
      var top = Math.max.apply(null, rows.map(function (r) { return r[4] === null ? r[2] : r[4]; }));
      top = Math.min(1, Math.ceil(top * 10 - 1e-9) / 10);  // the bars' scale: up to the next 10%
      if (bars && top > 0) {
        var head = el("tr", "scale");
        head.appendChild(el("td"));
        head.appendChild(el("td", "", "bar: 0 to " + Math.round(top * 100) + "%"));
        head.appendChild(el("td"));
        table.appendChild(head);
      }
      rows.forEach(function (r) {
        var tr = el("tr");
        tr.setAttribute("data-outcome", data.outcomes[r[0]]);
        tr.appendChild(el("td", "outcome", data.outcomes[r[0]]));
        if (bars) {
          var cell = el("td"), track = el("div", "track"), bar = el("div", "bar");
          var scale = top > 0 ? 100 / top : 0;
          bar.style.width = (r[2] * scale) + "%";
          track.appendChild(bar);
          if (r[3] !== null && r[4] !== null && r[4] > r[3]) {
            var whisker = el("div", "whisker");
            whisker.style.left = (r[3] * scale) + "%";
            whisker.style.width = ((r[4] - r[3]) * scale) + "%";
            track.appendChild(whisker);
          }
          cell.appendChild(track);
          tr.appendChild(cell);
        }
        tr.appendChild(el("td", "number", r[5]));
        table.appendChild(tr);
      });
      odds.appendChild(table);
    });
  }
  show();
})();
"""


def page_html(grid: SharedGrid) -> str:
    """Return the share page of ``grid``: one self-contained HTML file (no server, no
    network) with a control per axis (buttons for up to 4 values, a slider for more whole
    numbers, else a list) and the chosen setting's numbers with their bars."""
    esc = html.escape
    facts = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in grid.facts)
    estimated = any(r.low != r.high for rows in grid.points.values() for r in rows)
    how = (
        "Pick a value for each setting: the numbers below follow. Every number was computed by the "
        "toolkit before this page was written: exact numbers are fractions (while short) and percents"
        + (", estimates carry their 95% interval (±), drawn as a line across the bar." if estimated else ".")
    )
    return "\n".join(
        [
            "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
            "<meta name='viewport' content='width=device-width, initial-scale=1'>",
            f"<title>{esc(grid.title)}</title><style>{_STYLE}</style></head><body>",
            f"<h1>{esc(grid.title)}</h1>",
            f"<p class='notes'>{esc(grid.notes)}</p>" if grid.notes else "",
            f"<table class='facts'>{facts}</table>" if facts else "",
            f"<p>{esc(how)}</p>",
            "<form id='controls' class='controls' onsubmit='return false'></form>",
            "<div id='odds' aria-live='polite'></div>",
            "<footer>Made with the toolkit; this page works offline and needs nothing installed.</footer>",
            f"{_MARK}{_json_block(page_data(grid))}</script>",
            f"<script>{_SCRIPT}</script>",
            "</body></html>",
        ]
    )
