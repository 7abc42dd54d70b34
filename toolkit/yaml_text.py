"""YAML text written as PyYAML's safe dumper writes it, without its pure-Python emitter.

:func:`plain_dump` writes the shapes an example file holds (mappings with scalar keys,
lists, strings, whole numbers, booleans, ``None``; one mapping type on one line) with
PyYAML's own rules, step by step (indentation, flow mappings, plain and single-quoted
scalars, line breaks past the width), asking PyYAML once per distinct scalar how it
writes it; it returns ``None`` for anything else, and the caller asks PyYAML
(:func:`toolkit.notation.dump_example`, :func:`toolkit.notation.dump_yaml`). The text is
the same, byte for byte (``tests/test_rulebook_yaml_dump.py``): several times faster.
"""

from __future__ import annotations

from typing import Any

import yaml

__all__ = ["plain_dump"]


def plain_dump(
    data: Any, width: int | None = 80, *, indentless: bool = True, flow_type: type | None = None
) -> str | None:
    """Return ``yaml.dump(data, Dumper=D, sort_keys=False, allow_unicode=True, width=width,
    default_flow_style=False)``, or ``None`` when ``data`` holds what this writer leaves to
    PyYAML (a float or any other type, a repeated list or mapping, a text over several
    lines or needing double quotes, a very long key).

    ``D`` is ``yaml.SafeDumper`` with ``indentless`` (list items under a key at the key's
    indentation, as PyYAML writes them), else a safe dumper that indents them under their
    key; ``flow_type`` is a ``dict`` subclass ``D`` writes on one line (``{a: 1, b: 2}``).
    """
    return _PlainEmitter.dump(data, width, indentless, flow_type)


class _Unsupported(Exception):
    """A value :func:`plain_dump` leaves to PyYAML."""


#: (type, value) -> (tag, text) of a scalar, as PyYAML's safe representer writes it.
_SCALARS: dict[tuple[type, Any], tuple[str, str]] = {}
#: (tag, text, flow context, simple key) -> ``""`` (plain) or ``"'"`` (single quoted).
_STYLES: dict[tuple[str, str, bool, bool], str] = {}


class _PlainEmitter:
    """PyYAML's safe dump (``default_flow_style=False``, ``sort_keys=False``,
    ``allow_unicode=True``) of the shapes an example file holds, written directly:
    mappings with scalar keys (the ``flow_type`` on one line), lists, strings, whole
    numbers, booleans and ``None``, none of them written twice (no aliases).

    It follows PyYAML's emitter step by step (``write_indent``, ``write_indicator``, the
    plain and single-quoted scalars, the line breaks past the width); each scalar's style
    is PyYAML's own choice (its ``analyze_scalar`` and resolver, asked once per distinct
    scalar). Whatever it does not
    follow makes :meth:`dump` return ``None`` (the caller then asks PyYAML): a float or
    any other type, a repeated list or mapping, a text over several lines or needing
    double quotes.
    """

    _probe = yaml.SafeDumper(None, allow_unicode=True)  # scalars as every safe dumper writes them
    _SCALAR_TYPES = (str, int, bool, type(None))

    def __init__(self, best_width: int, indentless: bool, flow_type: type | None) -> None:
        self.best_width = best_width
        self.indentless = indentless
        self.flow_type = flow_type
        self.out: list[str] = []
        self.column = 0
        self.whitespace = True
        self.indention = True
        self.indent: int | None = None
        self.indents: list[int | None] = []
        self.flow_level = 0
        self.seen: set[int] = set()

    @classmethod
    def dump(cls, data: Any, width: int | None, indentless: bool, flow_type: type | None) -> str | None:
        """The YAML text of ``data`` (a non-empty mapping), or None to leave it to PyYAML."""
        if type(data) is not dict or not data:
            return None
        best_width = width if width and width > 4 else 80  # PyYAML's Emitter.__init__
        emitter = cls(best_width, indentless, flow_type)
        try:
            emitter.node(data, mapping=False)
        except _Unsupported:
            return None
        emitter.write_indent()  # the document's end
        return "".join(emitter.out)

    # -- PyYAML's writers (yaml.emitter.Emitter) for what an example holds
    def write_indicator(
        self, indicator: str, need_whitespace: bool, whitespace: bool = False, indention: bool = False
    ) -> None:
        data = indicator if self.whitespace or not need_whitespace else " " + indicator
        self.whitespace = whitespace
        self.indention = self.indention and indention
        self.column += len(data)
        self.out.append(data)

    def write_indent(self) -> None:
        indent = self.indent or 0
        if not self.indention or self.column > indent or (self.column == indent and not self.whitespace):
            self.whitespace = True
            self.indention = True
            self.column = 0
            self.out.append("\n")
        if self.column < indent:
            self.whitespace = True
            self.out.append(" " * (indent - self.column))
            self.column = indent

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        self.indents.append(self.indent)
        if self.indent is None:
            self.indent = 2 if flow else 0  # PyYAML's best_indent is 2
        elif not indentless:
            self.indent += 2

    def scalar(self, value: Any, simple_key: bool) -> None:
        kind = type(value)
        if kind not in self._SCALAR_TYPES:
            raise _Unsupported
        key = (kind, value)
        found = _SCALARS.get(key)
        if found is None:
            node = self._probe.represent_data(value)
            found = _SCALARS[key] = (node.tag, node.value)
        tag, text = found
        flow = self.flow_level > 0
        style_key = (tag, text, flow, simple_key)
        style = _STYLES.get(style_key)
        if style is None:
            style = _STYLES[style_key] = self._style(tag, text, flow, simple_key)
        split = not simple_key
        if style == "":  # write_plain
            if not self.whitespace:
                self.out.append(" ")
                self.column += 1
            self.whitespace = False
            self.indention = False
            if self.column + len(text) <= self.best_width or not split or " " not in text:
                self.out.append(text)  # no space where PyYAML would break the line
                self.column += len(text)
            else:
                self.write_plain_split(text)
        else:
            self.write_indicator("'", True)
            quoted = text.replace("'", "''")
            if self.column + len(quoted) <= self.best_width or not split or " " not in text:
                self.out.append(quoted)
                self.column += len(quoted)
            else:
                self.write_single_quoted_split(text)
            self.write_indicator("'", False)

    def write_plain_split(self, text: str) -> None:
        """PyYAML's ``write_plain`` of a one-line text, breaking at a single space past the width."""
        spaces = False
        start = end = 0
        while end <= len(text):
            ch = text[end] if end < len(text) else None
            if spaces:
                if ch != " ":
                    if start + 1 == end and self.column > self.best_width:
                        self.write_indent()
                        self.whitespace = False
                        self.indention = False
                    else:
                        self.out.append(text[start:end])
                        self.column += end - start
                    start = end
            elif ch is None or ch == " ":
                self.out.append(text[start:end])
                self.column += end - start
                start = end
            if ch is not None:
                spaces = ch == " "
            end += 1

    def write_single_quoted_split(self, text: str) -> None:
        """PyYAML's ``write_single_quoted`` of a one-line text (between its quotes)."""
        spaces = False
        start = end = 0
        while end <= len(text):
            ch = text[end] if end < len(text) else None
            if spaces:
                if ch is None or ch != " ":
                    if start + 1 == end and self.column > self.best_width and start != 0 and end != len(text):
                        self.write_indent()
                    else:
                        self.out.append(text[start:end])
                        self.column += end - start
                    start = end
            elif (ch is None or ch == " " or ch == "'") and start < end:
                self.out.append(text[start:end])
                self.column += end - start
                start = end
            if ch == "'":
                self.out.append("''")
                self.column += 2
                start = end + 1
            if ch is not None:
                spaces = ch == " "
            end += 1

    @classmethod
    def _style(cls, tag: str, text: str, flow: bool, simple_key: bool) -> str:
        """PyYAML's ``choose_scalar_style`` for a scalar written by the safe representer:
        ``""`` (plain) or ``"'"``; raises _Unsupported for anything else."""
        probe = cls._probe
        analysis = probe.analyze_scalar(text)
        if analysis.multiline or analysis.empty:
            raise _Unsupported
        if simple_key and len(text) + len("!!bool") >= 128:
            raise _Unsupported  # PyYAML's check_simple_key counts the tag too: a "? " key
        implicit = (
            tag == probe.resolve(yaml.ScalarNode, text, (True, False)),
            tag == probe.resolve(yaml.ScalarNode, text, (False, True)),
        )
        if implicit[0] and (analysis.allow_flow_plain if flow else analysis.allow_block_plain):
            return ""
        if analysis.allow_single_quoted and implicit[1]:
            return "'"
        raise _Unsupported

    def node(self, value: Any, mapping: bool) -> None:
        kind = type(value)
        flow_map = kind is self.flow_type
        if kind is dict or kind is list or flow_map:
            if id(value) in self.seen:
                raise _Unsupported  # PyYAML would write an anchor and an alias
            self.seen.add(id(value))
            if self.flow_level or flow_map or not value:
                self.flow(value)
            elif kind is list:
                self.block_sequence(value, mapping)
            else:
                self.block_mapping(value)
        else:
            self.increase_indent(flow=True)  # expect_scalar
            self.scalar(value, simple_key=False)
            self.indent = self.indents.pop()

    def key(self, key: Any) -> None:
        if type(key) not in self._SCALAR_TYPES:
            raise _Unsupported
        self.increase_indent(flow=True)
        self.scalar(key, simple_key=True)
        self.indent = self.indents.pop()

    def block_mapping(self, value: dict[Any, Any]) -> None:
        self.increase_indent(flow=False)
        for key, item in value.items():
            self.write_indent()
            self.key(key)
            self.write_indicator(":", False)
            self.node(item, mapping=True)
        self.indent = self.indents.pop()

    def block_sequence(self, value: list[Any], mapping: bool) -> None:
        self.increase_indent(flow=False, indentless=self.indentless and mapping and not self.indention)
        for item in value:
            self.write_indent()
            self.write_indicator("-", True, indention=True)
            self.node(item, mapping=False)
        self.indent = self.indents.pop()

    def flow(self, value: dict[Any, Any] | list[Any]) -> None:
        is_list = type(value) is list
        self.write_indicator("[" if is_list else "{", True, whitespace=True)
        self.flow_level += 1
        self.increase_indent(flow=True)
        for i, item in enumerate(value):
            if i:
                self.write_indicator(",", False)
            if self.column > self.best_width:
                self.write_indent()
            if is_list:
                self.node(item, mapping=False)
            else:
                self.key(item)
                self.write_indicator(":", False)
                self.node(value[item], mapping=True)  # type: ignore[index]
        self.indent = self.indents.pop()
        self.flow_level -= 1
        self.write_indicator("]" if is_list else "}", False)
