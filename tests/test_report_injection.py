"""Markdown and HTML injection in the reports (issue 20 item 1): a designer's text (an
army's name, a house-rules title or notes, a batch file's parameters) is shown as text in
every report and in the batch index, never as a link, an image, a script or a remote URL."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser

import plotly.graph_objects as go
import pytest
from widget_state import without_option_labels

from toolkit.reports import figures
from toolkit.reports.batch_index import write_batch_index
from toolkit.reports.jobs import Job
from toolkit.reports.running import JobResult

#: Every way Markdown or HTML can link or load: an inline link to javascript:, an image, a
#: raw <a> and <img>, an autolink, a bare address (nbconvert's renderer links those).
PAYLOAD = (
    "[N](javascript:alert(1)) ![s](http://127.0.0.1:9/x.png) <a href='http://127.0.0.1:9/d'>d</a> "
    "<img src=http://127.0.0.1:9/e.png> <http://127.0.0.1:9/c> http://127.0.0.1:9/b **bold** `code` _i_"
)


class _Text(HTMLParser):
    """The text of an HTML fragment, and the tags it holds."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _read(fragment: str) -> _Text:
    parser = _Text()
    parser.feed(fragment)
    parser.close()
    return parser


def _unescape_json(markup: str) -> str:
    """``markup`` with the \\uXXXX escapes of JSON (a chart's data) read as characters."""
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), markup)


# -- the escaping itself -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [PAYLOAD, "North & South", "1. first", "# heading", "> quote", "- item", "a\\b", "x*y*z", "<!-- c -->", "&amp;"],
)
def test_plain_text_reads_as_itself_in_say_and_in_nbconvert(text):
    """The designer's text, escaped by plain(), comes back word for word as the page's text
    with no tag of its own: through say()'s renderer and through nbconvert's (which links
    bare addresses)."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    for rendered in (
        figures.markdown_html(f"Army {figures.plain(text)}."),
        markdown2html_mistune(f"Army {figures.plain(text)}."),
    ):
        read = _read(rendered)
        assert "".join(read.text).strip() == f"Army {text}."
        assert read.tags == ["p"], rendered


def test_plain_turns_a_line_break_into_a_space():
    assert _read(figures.markdown_html(figures.plain("North\n# South"))).tags == ["p"]


def test_say_makes_no_link_image_or_markup_even_unescaped(monkeypatch):
    """say() is the safety net: a value a notebook forgot to escape still cannot link or load."""
    shown = []
    monkeypatch.setattr("IPython.display.display", lambda obj: shown.append(obj))
    figures.say(f"**Rules in force:** {PAYLOAD} <script>alert(1)</script>")
    read = _read(shown[0].data)
    assert type(shown[0]).__name__ == "HTML"
    assert set(read.tags) <= {"p", "strong", "em", "code"}, read.tags
    assert "<script>" not in shown[0].data and "&lt;script&gt;" in shown[0].data
    assert "Rules in force:" in "".join(read.text)  # the toolkit's own Markdown still renders


def test_chart_labels_cannot_link():
    """A name in a chart's title, legend, axis or hover text: plotly reads <a href> there,
    so show() writes every tag the toolkit does not write as text; its own <br> and <extra> stay."""
    name = "<a href='http://127.0.0.1:9/d'>North</a><img src=x onerror=alert(1)>"
    fig = go.Figure(go.Bar(x=[name], y=[1], name=name, hovertemplate="%{x}<br>wins<extra></extra>"))
    fig.update_layout(title=f"Chance {name} wins", xaxis_title=name)
    # the chart as show() displays it, without plotly.js (whose code holds "<a href")
    markup = _unescape_json(figures.figure_html(fig, include_plotlyjs=False))
    assert "<a href" not in markup and "<img" not in markup
    assert markup.count("&lt;a href='http://127.0.0.1:9/d'>North&lt;/a>") == 4  # title, x, name, axis
    assert "<br>wins<extra></extra>" in markup


def test_batch_index_shows_payloads_as_text(tmp_path):
    """The batch index: parameters, title, error and output name from a batch file are text;
    its only links are the toolkit's own, to files of the folder."""
    job = Job("durak-battle", {"name_a": PAYLOAD, "name_b": ["<b>x</b>", PAYLOAD]}, "javascript:alert(1)")
    (tmp_path / "javascript:alert(1).html").write_text("x", encoding="utf-8")
    result = JobResult(
        job,
        job.output_name,
        "failed",
        tmp_path / "javascript:alert(1).html",
        None,
        1.0,
        f"InvalidSetupError: {PAYLOAD}",
        f"Durak {PAYLOAD}",
    )
    page = write_batch_index([result], tmp_path / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<a\b[^>]*>", page) == ['<a href="javascript%3Aalert%281%29.html">']
    assert not re.findall(r"<img\b|<script\b", page)
    assert page.count(html.escape(PAYLOAD)) == 4  # two parameters, the title, the error


# -- every report, rendered ------------------------------------------------------------------
#: A tag that links to, loads or runs something.
_ACTIVE_TAG = re.compile(r"<(?:a|img|script|iframe|link|svg|image|video|audio|source|object|embed)\b[^<>]*>", re.I)
#: What only the payloads hold: every tag they could make carries one of these (the
#: toolkit's own links, plotly.js's and nbconvert's never do).
_PAYLOAD_MARK = re.compile(r"127\.0\.0\.1|javascript:|alert\(|onerror", re.I)


def payload_tags(page: str) -> list[str]:
    """Every tag of the page that can link or load and comes from a payload, the charts'
    JSON included (plotly writes "<" there as \\u003c and shows tags in its labels)."""
    page = without_option_labels(page)  # a dropdown's choices are drawn as text
    return [tag for tag in _ACTIVE_TAG.findall(_unescape_json(page)) if _PAYLOAD_MARK.search(tag)]


# Every report rendered with these payloads: tests/test_hostile_renders.py.


def test_the_payload_check_sees_what_the_old_say_made():
    """The check above finds the tags nbconvert made of the payload in a Markdown output
    (what say() displayed before) and in a chart label, and passes plotly.js's own."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    made = payload_tags(markdown2html_mistune(PAYLOAD))
    assert len(made) == 6, made  # javascript: link, image, <a>, <img>, autolink, bare address
    assert payload_tags(json.dumps({"name": "<a href='http://127.0.0.1:9/d'>"}).replace("<", "\\u003c"))
    fig = go.Figure(go.Bar(x=["North"], y=[1]))
    assert not payload_tags(figures.figure_html(fig, include_plotlyjs=True))
