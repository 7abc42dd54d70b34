"""Write docs/rulings.md and the README's ruling index from the rulings registry.

Each system's ``rulings.py`` says what its rulings are; the rules layer marks the function
implementing each with ``@implements(...)``. Run ``python scripts/rulings.py`` after
changing either; ``--check`` only says whether the files are up to date (the tests run it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from toolkit.rulings import books, rulings_page, with_readme_section  # noqa: E402

PAGE = ROOT / "docs" / "rulings.md"
README = ROOT / "README.md"


def expected() -> dict[Path, str]:
    """Return what each generated file should hold."""
    found = books()
    return {PAGE: rulings_page(found), README: with_readme_section(README.read_text(encoding="utf-8"), found)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the files are up to date")
    args = parser.parse_args(argv)
    stale = [path for path, text in expected().items() if path.read_text(encoding="utf-8") != text]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is out of date: run python scripts/rulings.py")
        return 1 if stale else 0
    for path, text in expected().items():
        if path in stale:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
