"""What a designer must never read on a page, an export or a widget: Python.

:func:`python_on_page` finds, in HTML or plain text, a Python repr (``['10', 'J']``,
``PosixPath(...)``, ``<IPython.core.display.HTML object>``, ``VBox(children=...``), a
``None`` given as a value (``rules = None``; the Fairy Meat "None" rule is a word of the
game and stays), ``field='value'`` and ``field=value``, a snake_case identifier
(``zero_tie``, ``defence_dice``; file names such as ``tens_hit.yaml`` are names of files
and stay), a Python warning or traceback, a Python call (``ceil(5/2) = 3``),
``True``/``False`` as a value, and a path into a virtual environment.

Designer files shown as files are exempt: an element with the class ``rb-source`` (an
example file's YAML to copy) and a YAML download's text (its keys are the file format); so
is a command to type, in ``<code>`` (``toolkit report durak-battle -p tokens_a [5, 7]``).
"""

from __future__ import annotations

import html as _html
import re

_SOURCE = re.compile(r'(?is)<(pre|details|div|textarea)\b[^>]*class="[^"]*\brb-source\b[^"]*"[^>]*>.*?</\1>')
_COMMAND = re.compile(r"(?is)<code>\s*(?:\.venv/bin/)?(?:toolkit|python3?|jupyter) [^<]*</code>")
_FILE_NAME = r"(?:\.(?:ya?ml|ipynb|html|md|py|svg|zip|parquet|json|txt|csv))"

PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a Python list or tuple repr", re.compile(r"[\[(]\s*'[^'\n]{0,40}'\s*[,\])]")),
    ("a path object", re.compile(r"\b(?:Posix|Windows|Pure)?Path\(")),
    ("an object repr", re.compile(r"<[\w.]+ object(?: at 0x[0-9a-f]+)?>|\bobject at 0x[0-9a-f]+")),
    ("a widget repr", re.compile(r"\b(?:VBox|HBox|Dropdown|Output|HTML)\((?:children|value|options)=")),
    ("None as a value", re.compile(r"=\s*None\b|\bNone\s*=|:\s*None\b(?!\s+(?:rule|means|said))")),
    ("field='value'", re.compile(r"\b\w+=\s*['\"]")),
    ("field=value", re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]*=\S|\b[a-z]{2,}=[\w\[(]")),
    ("a snake_case id", re.compile(rf"(?<![\w/-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b(?!{_FILE_NAME}|[/(])")),
    ("a Python call", re.compile(r"\b(?:ceil|floor|len|max|min|abs|round|sum)\(")),
    ("True or False as a value", re.compile(r"(?<![\w'\"])(?:True|False)(?![\w'\"])")),
    ("a Python warning or traceback", re.compile(r"\b\w+Warning: |Traceback \(most recent call last\)")),
    ("a virtual environment's path", re.compile(r"/\.venv/|site-packages/")),
)


def page_text(markup: str) -> str:
    """The text a designer reads in HTML (or plain text): no scripts, styles, tags or
    designer files shown as files (``rb-source``), entities decoded."""
    markup = _COMMAND.sub(" ", _SOURCE.sub(" ", markup))
    markup = re.sub(r"(?is)<(script|style|svg)\b.*?</\1>", " ", markup)
    markup = re.sub(r"(?s)<!--.*?-->|</?[a-zA-Z][a-zA-Z0-9-]*(?:\s[^>]*)?/?>", " ", markup)
    return _html.unescape(markup)


def python_on_page(markup: str, where: str = "") -> list[str]:
    """Return every piece of Python in the text ``markup`` shows, as ``what: …context…``
    (``where`` prefixed), none when the page reads as a designer's."""
    text = page_text(markup)
    found = []
    for what, pattern in PATTERNS:
        for m in pattern.finditer(text):
            context = text[max(0, m.start() - 30) : m.end() + 30].replace("\n", " ")
            found.append(f"{where}{': ' if where else ''}{what}: …{context}…")
    return found
