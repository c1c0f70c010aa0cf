"""The code the documentation shows fits its column: no line of a fenced block is wider than 80 (issue 36).

The site's text column holds about 80 characters of code on a desktop, so a
wider line made the block scroll sideways. Every line of every fenced block
of docs/ is checked, code and commands alike: the `.lg` examples are laid
out by `landlord-dsl fmt --width 80` (a quote of a shipped file is that
file as `fmt --width 80` lays it out: tests/test_doc_excerpts.py), long
commands are continued with `\\`, Python is broken as black breaks it.

Left out, and why:

* what a program prints (```text blocks and the output lines of ```console
  blocks), which the pages show verbatim and tests/test_doc_commands.py and
  tests/test_variants.py compare with what the commands print: a narrower
  block would be another program's output;
* the few lines listed in EXCEPTIONS, each with its reason.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WIDTH = 80
_FENCE = re.compile(r"^([ \t]*)(```+)([^\n]*)\n(.*?)^\1\2[ \t]*$", re.M | re.S)
OUTPUT_LANGS = {"text", "lg-diff"}

_STRING = "a string of a shipped file longer than the room the line leaves (fmt never splits a string)"
_BY_HAND = (
    "the walk-through's file as the reader first types it, before step 6 runs `fmt` on it "
    "(the checker's error output shows this line)"
)
_AT_100 = "the walk-through quotes the shipped edition, laid out at 100 columns, and checks the quote against it"
EXCEPTIONS = {
    ("docs/studies.md", "    monopoly-1933-free-parking-jackpot+monopoly-1933-double-go-salary+"): (
        "one argument, three shipped variants combined with `+`, which the shell cannot break"
    ),
    ("docs/tour.md", 'deck green_cards "Title deeds, charters and the Broker\'s License (green)"'): _STRING,
    ("docs/tour.md", '        source "magie-1906, Rule 2 worked example (6th space); moddable-boards'): _STRING,
    ("docs/tour.md", 'rule franchises_rule "Franchises and railroads: charges, municipal cinch'): _STRING,
    ("docs/writing-a-variant.md", "        pay bank_charge(player, percent(wealth(player), income_tax_pct))"): _AT_100,
    ("docs/writing-a-variant.md", "  on land income_tax_square { pay bank_charge(player, income_tax_flat)"): _BY_HAND,
}


def code_lines() -> list[tuple[str, int, str, str]]:
    """Return (page, line number, language, line) of every line of a fenced block of docs/ that is code,
    not a program's output (module docstring)."""
    found = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        name = str(page.relative_to(ROOT))
        text = page.read_text(encoding="utf-8")
        for fence in _FENCE.finditer(text):
            lang = (fence.group(3).split() or [""])[0]
            if lang in OUTPUT_LANGS:
                continue
            first = text.count("\n", 0, fence.start()) + 2
            indent = len(fence.group(1))
            command = False
            for k, line in enumerate(fence.group(4).splitlines()):
                line = line[indent:]
                if lang == "console":  # a command and its `\` continuations; the rest is output
                    command = line.startswith("$ ") or (command and found[-1][3].endswith("\\"))
                    if not command:
                        continue
                found.append((name, first + k, lang, line))
    return found


def test_the_code_lines_are_found_in_every_kind_of_block():
    langs = {lang for _, _, lang, _ in code_lines()}
    assert {"lg", "sh", "python", "console", "toml"} <= langs, langs
    assert not any(line.startswith("game.jsonl: ok") for *_, line in code_lines()), "console output counted as code"


@pytest.mark.parametrize("page", sorted({page for page, *_ in code_lines()}))
def test_no_code_line_is_wider_than_the_column(page):
    wide = [
        f"{page}:{number}: {len(line)} columns ({lang}): {line}"
        for name, number, lang, line in code_lines()
        if name == page and len(line) > WIDTH and not any(line.startswith(p) for n, p in EXCEPTIONS if n == page)
    ]
    assert not wide, "\n".join(wide)


@pytest.mark.parametrize("page,prefix", sorted(EXCEPTIONS))
def test_every_exception_is_still_a_wide_line_of_its_page(page, prefix):
    assert any(name == page and line.startswith(prefix) and len(line) > WIDTH for name, _, _, line in code_lines()), (
        f"{page}: no line wider than {WIDTH} starts with {prefix!r}; drop it from EXCEPTIONS"
    )
