"""Replay a rule-book example file of any system as narrated prose (``toolkit replay FILE``).

An example file names its system (``system: fairy-meat``); the system's notation module
reads it, its engine plays it out, and the narrated log is the text a rule book prints.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from toolkit.errors import NotationError

__all__ = ["replay_file", "SYSTEMS"]

#: Systems whose examples can be replayed.
SYSTEMS = ("fairy-meat", "durak-battle")


def replay_file(path: str | Path) -> tuple[str, list[str]]:
    """Return (the narrated example, the expectations it does not meet) for an example file.

    Raises:
        NotationError: the file cannot be read or played, with the line at fault.
    """
    path = Path(path)
    if not path.is_file():
        raise NotationError(f"{str(path)!r} is not a file: give the path of an example, e.g. data/examples/*.yaml")
    try:
        system = (yaml.safe_load(path.read_text()) or {}).get("system", "fairy-meat")
    except (yaml.YAMLError, AttributeError) as exc:
        raise NotationError(f"{path}: not an example file: {exc}") from None
    if system == "fairy-meat":
        from toolkit.fairy_meat.notation import check_expectations, load_example, replay

        example = load_example(path)
        state = replay(example)
        lines = [example.title, "=" * len(example.title)]
        if example.notes:
            lines += [example.notes.strip(), ""]
        lines.append(state.log())
        summary = state.summary()
        lines += [
            "",
            f"After the combat: {state.names[0]} has {summary['attacker_live']} Live, {state.names[1]} "
            f"{summary['defender_live']} Live; damage dealt {summary['damage_to_defender']}"
            + (f"; Nasty Hits: {', '.join(summary['nasty_hits'])}" if summary["nasty_hits"] else "")
            + ".",
        ]
        return "\n".join(lines), check_expectations(example, state)
    if system == "durak-battle":
        from toolkit.durak_battle import notation as durak

        battle = durak.load_example(path)
        end = durak.replay(battle)
        lines = [battle.title, "=" * len(battle.title)]
        if battle.notes:
            lines += [battle.notes.strip(), ""]
        lines += [end.log(), "", durak.battle_summary(end)]
        return "\n".join(lines), durak.check_expectations(battle, end)
    raise NotationError(f"{path}: unknown system {system!r}; examples can be replayed for: {', '.join(SYSTEMS)}")
