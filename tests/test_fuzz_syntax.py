"""Fuzz: syntax slips in the shipped files give located diagnostics, never an internal error (issue 13, item 16).

Every shipped edition and variant is mutated (by test_fuzz's mutations) or
given one of the slips the diagnostics have hints for: a misspelt keyword,
another language's spelling (`=` to compare, `elif`, `&&`, `||`, `True`),
a brace dropped, a label unquoted. With error recovery a file may now yield
several syntax errors and the checker's findings beside them: each must
satisfy the fuzz contract (a LandlordError only, every diagnostic located
inside the text it quotes), and a syntax error is always among them.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.language.grammar import keyword_terminals
from landlord_dsl.language.recovery import MAX_SYNTAX_ERRORS
from landlord_dsl.language.syntax_errors import code_of
from test_fuzz import FILE, assert_contract, mutated

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "editions").rglob("*.lg"))]
_KEYWORDS = sorted(keyword_terminals())
# A whole shipped file is checked per example (about half a second): a quarter of the profile's examples.
_EXAMPLES = settings(max_examples=max(25, settings.default.max_examples // 4))
_LABEL = re.compile(r'^(\s*(?:rule|group|account|kind|deck)\s+[a-z_][a-z0-9_]*\s+)"([^"\\{}]+)"', re.MULTILINE)


def _misspell(word: str, how: int) -> str:
    """Return `word` with a letter dropped, doubled, or swapped with the next (never `word` itself)."""
    i = how % len(word)
    swapped = word[:i] + word[i + 1 : i + 2] + word[i] + word[i + 2 :]
    dropped = word[:i] + word[i + 1 :]
    out = [dropped, word[:i] + word[i] + word[i:], swapped if swapped != word else dropped][how % 3]
    return out or word + "x"


@st.composite
def slipped(draw) -> str:
    text = draw(st.sampled_from(SHIPPED))
    code = "\n".join(code_of(line) for line in text.split("\n"))  # strings and comments blanked: slips go in code
    slip = draw(st.sampled_from(["keyword", "compare", "elif", "and", "or", "True", "brace", "label"]))
    if slip == "label" and _LABEL.search(text):
        matches = list(_LABEL.finditer(text))
        m = matches[draw(st.integers(0, len(matches) - 1))]
        return text[: m.start()] + m.group(1) + m.group(2) + text[m.end() :]
    if slip == "keyword":
        words = [m for m in re.finditer(r"\b[a-z]+\b", code) if m.group(0) in _KEYWORDS]
        m = words[draw(st.integers(0, len(words) - 1))]
        return text[: m.start()] + _misspell(m.group(0), draw(st.integers(0, 30))) + text[m.end() :]
    pattern = {
        "compare": r" == ",
        "elif": r"\belse if\b",
        "and": r"\band\b",
        "or": r"\bor\b",
        "True": r"\btrue\b",
        "label": r" == ",
    }.get(slip, "")
    spots = list(re.finditer(pattern, code)) if pattern else []
    if slip == "brace" or not spots:
        braces = [m.start() for m in re.finditer(r"[{}]", code)]
        at = braces[draw(st.integers(0, len(braces) - 1))]
        return text[:at] + text[at + 1 :]
    m = spots[draw(st.integers(0, len(spots) - 1))]
    instead = {"compare": " = ", "elif": "elif", "and": "&&", "or": "||", "True": "True", "label": " = "}[slip]
    return text[: m.start()] + instead + text[m.end() :]


def _assert_located(text: str) -> None:
    assert_contract(text)
    diags = ld.check(text, FILE)
    assert len([d for d in diags if d.message.startswith(("unexpected", "this"))]) <= MAX_SYNTAX_ERRORS + 1
    for d in diags:
        assert d.span is not None or "extends" in text, d.render()


@pytest.mark.slow
@_EXAMPLES
@given(mutated(SHIPPED))
def test_mutations_of_every_shipped_file(text: str):
    _assert_located(text)


@pytest.mark.slow
@_EXAMPLES
@given(slipped())
def test_slips_in_every_shipped_file(text: str):
    _assert_located(text)
    assert ld.check(text, FILE), f"every slip is a mistake: {_changed_line(text)!r}"


def _changed_line(text: str) -> str:
    """Return the line a slip changed (for the failure message)."""
    base = max(SHIPPED, key=lambda s: difflib.SequenceMatcher(None, s, text, autojunk=False).quick_ratio())
    return "\n".join(difflib.unified_diff(base.split("\n"), text.split("\n"), lineterm="", n=0))
