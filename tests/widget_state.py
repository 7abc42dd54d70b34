"""What a rendered page's saved widget state shows as text only.

A dropdown's choices (``_options_labels``) are drawn by ipywidgets as each option's text
(``textContent``), never parsed as markup, so a house-rules title listed there is shown, not
run: the payload checks of the hostile-report tests read the page without them.
"""

from __future__ import annotations

import re

__all__ = ["without_option_labels"]

_OPTION_LABELS = re.compile(r'"_options_labels": \[(?:[^\]"]|"(?:[^"\\]|\\.)*")*\]')


def without_option_labels(page: str) -> str:
    """Return ``page`` with every dropdown's list of choice labels in its widget state emptied.

    >>> without_option_labels('{"_options_labels": ["a <b>", "c \\\\" ]"], "value": "<i>"}')
    '{"_options_labels": [], "value": "<i>"}'
    """
    return _OPTION_LABELS.sub('"_options_labels": []', page)
