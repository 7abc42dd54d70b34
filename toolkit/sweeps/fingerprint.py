"""The fingerprint of the toolkit's code: what a stored sweep point was computed with.

The version string cannot tell two builds apart (it has stayed ``0.1.0`` through every
change of the calculations), so a point's key and every stored chunk name a hash of the
toolkit package's source files instead: after any change of the code, a rerun computes
its points again rather than keeping numbers the new code might not give.

Callers look the function up through this module (``fingerprint.code_fingerprint()``),
so that a test can stand in another fingerprint for the client and its in-process workers.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

__all__ = ["code_fingerprint", "FINGERPRINT_CHARS"]

#: Hex digits of the fingerprint (64 bits: two builds never collide in practice).
FINGERPRINT_CHARS = 16


def code_fingerprint() -> str:
    """Return the fingerprint of this process's toolkit: a hash of the relative path and
    the bytes of every ``.py`` file of the package (computed once per process).

    >>> len(code_fingerprint()) == FINGERPRINT_CHARS and code_fingerprint() == code_fingerprint()
    True
    """
    return _source_hash()


@functools.cache
def _source_hash() -> str:
    import toolkit

    root = Path(toolkit.__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:FINGERPRINT_CHARS]
