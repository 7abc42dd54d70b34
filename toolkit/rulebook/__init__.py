"""Rule-book examples (issue 15): find an example for any situation, export it ready to print.

:mod:`toolkit.rulebook.export` writes a replayed example as rule-book prose in HTML or
Markdown, with its cards and poker dice drawn by :mod:`toolkit.rulebook.svg`.
"""
