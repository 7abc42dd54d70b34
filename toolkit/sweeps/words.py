"""A sweep's fields and outcomes in a designer's words, for every page that shows a sweep
(its report, a notebook's rows, the page to share)."""

from __future__ import annotations

from toolkit.errors import ToolkitError

__all__ = ["field_words", "outcome_words"]


def outcome_words(label: str) -> str:
    """An outcome's label as a designer reads it: its fields (the names the files use) with
    spaces, yes/no for a flag — ``"defender_damage=1, attacker_crit=False"`` reads
    ``"defender damage 1, attacker crit no"``; a label without fields stays as it is."""
    parts = str(label).split(", ")
    if not all("=" in p for p in parts):
        return str(label)
    flags = {"True": "yes", "False": "no"}
    return ", ".join(
        f"{name.replace('_', ' ')} {flags.get(value, value)}" for name, _, value in (p.partition("=") for p in parts)
    )


def field_words(system: str, field: str) -> str:
    """Return a swept field as a designer reads it: a rules field (``rules.tie_break``) by
    its label ("Ties on hits"), a calculator's argument with spaces ("defence dice")."""
    if field.startswith("rules."):
        from toolkit.house_rules import rules_class

        try:
            return rules_class(system).field_label(field.removeprefix("rules."))
        except ToolkitError:
            return field.removeprefix("rules.").replace("_", " ")
    return field.replace("_", " ")
