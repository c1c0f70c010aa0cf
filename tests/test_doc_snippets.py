"""Every `.lg` example the documentation marks is checked, as the language reference promises.

A fenced block right after a marker comment `<!-- lg: KIND [error] -->` is checked:

* `file` (and `file scaffold`, Tiny Town on the language page): a whole file, checked alone;
* `variant`: a whole file that extends a shipped edition, checked alone;
* `decl`: declarations, checked after being added to Tiny Town;
* `stmt`: statements, checked inside `rule … { on turn { … } }` added to Tiny Town;
* `quote`: checked by test_doc_excerpts.py against the shipped files;

with `error`, the example must be rejected; otherwise it must check clean.

The reference is split over docs/language.md (Tiny Town, the header,
provenance) and docs/language/*.md; the cheat sheet repeats the syntax lines
of its sections, and a test keeps the two equal.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import landlord_dsl as ld

ROOT = Path(__file__).resolve().parents[1]
_BLOCK = re.compile(r"<!-- lg: ([a-z ]+?) -->\n\n```(?:text|lg)(?: title=\"[^\"]*\")?\n(.*?)```", re.S)


def snippets() -> list[tuple[str, int, str, bool, str]]:
    """Return (page, line, kind, must fail, text) of every marked example in docs/."""
    found = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        for match in _BLOCK.finditer(text):
            words = match.group(1).split()
            line = text.count("\n", 0, match.start()) + 1
            found.append((str(page.relative_to(ROOT)), line, words[0], "error" in words[1:], match.group(2)))
    return found


def _scaffold() -> str:
    (text,) = [
        t
        for page, _, kind, _, t in snippets()
        if page == "docs/language.md" and kind == "file" and "Tiny Town" in t.splitlines()[0]
    ]
    return text


CHECKED = [s for s in snippets() if s[2] in ("file", "variant", "decl", "stmt")]


def test_the_pages_mark_their_examples():
    kinds = {kind for _, _, kind, _, _ in snippets()}
    assert {"file", "decl", "stmt", "variant", "quote"} <= kinds
    assert len(CHECKED) > 40


@pytest.mark.parametrize("page,line,kind,must_fail,text", CHECKED, ids=[f"{s[0]}:{s[1]}" for s in CHECKED])
def test_a_marked_example_checks_as_the_page_says(page, line, kind, must_fail, text):
    if kind == "decl":
        source = _scaffold() + "\n" + text
    elif kind == "stmt":
        source = _scaffold() + "\nrule doc_example {\n    on turn {\n" + text + "\n    }\n}\n"
    else:
        source = text
    found = ld.check(source, f"{page}:{line}.lg")
    problems = [d for d in found if d.severity == "error"]
    if must_fail:
        assert problems, f"{page}:{line}: the example should be rejected"
    else:  # and is written in the current syntax: no warning of an old form
        assert not problems and not [d for d in found if d.severity == "warning"], f"{page}:{line}: " + "; ".join(
            d.message for d in found
        )


_REFERENCE = ["docs/language.md", *(f"docs/language/{p}.md" for p in ("declarations", "statements", "expressions"))]


def _syntax_lines(text: str, pattern: str) -> set[str]:
    """Return the non-comment lines of the fenced lg blocks matched by pattern (group 1 is the block)."""
    return {
        line.strip()
        for block in re.findall(pattern, text, re.S)
        for line in block.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    }


def test_the_cheat_sheet_has_the_syntax_of_every_section_and_nothing_else():
    # a section's syntax is the unmarked block right below its heading
    below_heading = r"\n## [^\n]+\n\n```(?:lg|text)\n(.*?)```"
    reference = set().union(
        *(_syntax_lines((ROOT / page).read_text(encoding="utf-8"), below_heading) for page in _REFERENCE)
    )
    sheet = _syntax_lines((ROOT / "docs/language/cheat-sheet.md").read_text(encoding="utf-8"), r"```lg\n(.*?)```")
    assert len(reference) > 50
    assert reference - sheet == set(), "syntax missing from the cheat sheet"
    assert sheet - reference == set(), "syntax on the cheat sheet that no section of the reference has"


def _table_rows(text: str) -> list[list[str]]:
    """Return the cells of every row of a Markdown table (header and rule lines left out)."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in text.splitlines()
        if line.startswith("|")
    ]
    return rows[2:]


def test_the_cheat_sheet_names_every_built_in_function():
    # (the reference's table of them is generated from the registry: tests/test_compiler.py)
    from landlord_dsl.checking.builtins import BUILTINS

    sheet = (ROOT / "docs/language/cheat-sheet.md").read_text(encoding="utf-8")
    assert [name for name in BUILTINS if f"`{name}`" not in sheet] == []


def test_the_built_in_field_and_context_name_tables_are_the_registries():
    from landlord_dsl.core.types import BUILTIN_FIELDS, CONTEXT_NAMES, SHORTFALL_NAMES

    page = (ROOT / "docs/language/expressions.md").read_text(encoding="utf-8")
    fields = page.split("## Built-in fields", 1)[1]
    assert {(row[0], row[1].strip("`")) for row in _table_rows(fields)} == {
        (of, name) for of, names in BUILTIN_FIELDS.items() for name in names
    }
    context = page.split("## Context names", 1)[1].split("\n## ", 1)[0]
    assert {row[0].strip("`") for row in _table_rows(context)} == set(CONTEXT_NAMES) | set(SHORTFALL_NAMES) | {"card"}
