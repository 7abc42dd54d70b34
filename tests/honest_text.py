"""What a rendered report must not show (issue 24 item 6): an estimate without its
interval, or a change inside its interval told as a finding. Used by
tests/test_reports_honest.py and tests/test_notebooks.py."""

from __future__ import annotations

import html as _html
import re

#: What marks a table row or a paragraph as (partly) estimated.
ESTIMATED = re.compile(r"estimated|simulated|Monte Carlo|sampled", re.IGNORECASE)
#: A decimal or a percent (an estimate's value, if the block is estimated).
NUMBER = re.compile(r"(?<![\d/.,])\d+(?:\.\d+)?%|(?<![\d/.,])\d+\.\d+(?![\d/])")
#: Words that explain a change (a causal story).
EXPLAINS = re.compile(r"\bbecause\b|\bso\b|\bsooner\b|\bcarry over\b|\btherefore\b|\bthus\b|\bsince\b", re.I)


def blocks(markup: str) -> list[str]:
    """The designer text of a rendered report, one block per table row, paragraph, list
    item or caption (scripts and styles left out, entities decoded)."""
    markup = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", markup)
    found = re.findall(r"(?is)<(tr|p|li|caption)\b[^>]*>(.*?)</\1>", markup)
    return [re.sub(r"\s+", " ", _html.unescape(re.sub(r"(?s)<[^>]+>", " ", body))).strip() for _, body in found]


def _accounted(text: str, start: int, end: int) -> bool:
    """Whether the number at ``text[start:end]`` is an interval's part, a confidence level or
    an exact value (a fraction's percent) rather than a bare estimate."""
    before, after = text[max(0, start - 14) : start], text[end : end + 14]
    token = text[start:end]
    if token in ("95%", "99%") and re.match(r"\s*(\)|,|;|interval|intervals|confidence)", after):
        return True
    if re.search(r"\(\s*(?:95%|99%)?[:,]?\s*$", before) and re.match(r"\s*to\b", after):  # '(a% to b%)'
        return True
    return bool(
        re.match(r"\s*±", after)  # '2.14 ± 0.05'
        or re.search(r"±\s*$", before)  # the ± itself
        or re.search(r"\bto\s*$|–\s*$|within ±?\s*$|at (?:most|least)\s*$|[<>]\s*$", before)  # a range's end, a bound
        or re.match(r"\s*(?:–|to\b)", after)  # a range's start
        or re.match(r"\s*\(\s*\d[\d.]*%? to\b", text[end : end + 30])  # a value and its range: '0.0% (0.0% to 1.9%)'
        or re.search(r"\d/\d[\d,]*\s*[=≈]\s*$", before)  # '20/27 ≈ 74.1%': exact
    )


def bare_estimates(markup: str) -> list[str]:
    """Estimates shown without their interval: in every block marked as estimated
    (:data:`ESTIMATED`), each decimal or percent that is neither part of an interval
    (``±``, ``a to b``), a confidence level, nor an exact fraction's percent."""
    bad = []
    for text in blocks(markup):
        if not ESTIMATED.search(text):
            continue
        for m in NUMBER.finditer(text):
            if not _accounted(text, m.start(), m.end()):
                bad.append(f"{m.group(0)!r} in: {text[:200]}")
    return bad


def narrated_noise(markup: str) -> list[str]:
    """Changes narrated that are not measurable: a sentence saying "no measurable change"
    that also explains it (:data:`EXPLAINS`); a claim "borne out" in a paragraph that calls
    its difference too small to matter; a change "from A to B" stated without an interval
    and explained; and a stated change "a change of d ± h" whose interval contains 0
    (``|d| <= h``)."""
    bad = []
    for text in blocks(markup):
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            if "no measurable change" in sentence and EXPLAINS.search(sentence.split("no measurable change")[1]):
                bad.append(f"explains no change: {sentence[:200]}")
            told = re.search(r"\bfrom (\d+(?:\.\d+)?%?) to (\d+(?:\.\d+)?%?)(?!\s*±)", sentence)
            if told and not re.match(r"\s*±", sentence[told.end(1) :]) and EXPLAINS.search(sentence[told.end() :]):
                bad.append(f"a change without its interval explained: {sentence[:200]}")
        if "borne out" in text and "too small to matter" in text:
            bad.append(f"borne out on a negligible difference: {text[:200]}")
        for m in re.finditer(r"a change of ([+−-]?)(\d+(?:\.\d+)?) ± (\d+(?:\.\d+)?)", text):
            if float(m.group(2)) <= float(m.group(3)):
                bad.append(f"a change inside its interval narrated: {text[max(0, m.start() - 120) : m.end()]}")
    return bad
