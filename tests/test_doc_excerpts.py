"""The excerpts the documentation quotes are the real files and the real output.

A fenced block (```lg or ```text) right after a marker comment is checked here:

* `<!-- lg: quote -->`: the block is a verbatim excerpt of a shipped .lg file,
  as it is or as `landlord-dsl fmt --width 80` lays it out (the pages' code
  fits 80 columns: tests/test_doc_code_width.py);
* `<!-- play: ARGS; [head K] turns N M ... -->`: the block is those turns of
  the narration `landlord-dsl play ARGS` prints, regenerated and compared
  (after its first K lines below the title and a line "..." with `head K`);
* `<!-- log: ARGS; turn N -->`: the block is the events of turn N in the log
  `landlord-dsl play ARGS --log FILE` writes.

So a change to a rule file or to the engine that makes an excerpt stale fails
here; regenerate the excerpt from the command in its marker.
"""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

import landlord_dsl as ld
from landlord_dsl.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["docs/tour.md", "docs/editions/landlords-game-1906.md", "docs/getting-started.md"]
DOC_WIDTH = 80


def _layouts(path: Path) -> list[str]:
    """Return a shipped file's text as it is and as `fmt --width 80` lays it out."""
    text = path.read_text(encoding="utf-8")
    return [text, ld.format_source(text, str(path), width=DOC_WIDTH)]


SHIPPED = [layout for p in sorted((ROOT / "editions").rglob("*.lg")) for layout in _layouts(p)]
_BLOCK = re.compile(
    r"<!-- (lg: quote|play: [^>]*|log: [^>]*) -->\n\n```(?:text|lg)(?: title=\"([^\"]*)\")?\n(.*?)```", re.S
)


def excerpts(kind: str) -> list[tuple[str, str, str]]:
    """Return (page, marker, block text) of every excerpt of one kind ('lg', 'play', 'log') on the pages."""
    return [(page, marker, block) for page, marker, _, block in titled_excerpts(kind)]


def titled_excerpts(kind: str) -> list[tuple[str, str, str, str]]:
    """Return (page, marker, the block's title or "", block text) of every excerpt of one kind on the pages."""
    found = []
    for page in PAGES:
        for marker, title, block in _BLOCK.findall((ROOT / page).read_text()):
            if marker.startswith(kind):
                found.append((page, marker, title, block))
    return found


def play_output(args: list[str]) -> str:
    """Return what `landlord-dsl play ARGS` prints."""
    out = io.StringIO()
    assert main(["play", *args], out=out) == 0
    return out.getvalue()


def split_marker(marker: str) -> tuple[list[str], list[int], int]:
    """Return the play arguments, the turn numbers and the head length of a 'play:' or 'log:' marker."""
    args, rest = marker.split(":", 1)[1].split(";")
    words = rest.split()
    head = int(words[1]) if words[0] == "head" else 0
    turns = words[words.index("turns" if "turns" in words else "turn") + 1 :]
    return shlex.split(args), [int(t) for t in turns], head


@pytest.mark.parametrize("page,marker,block", excerpts("lg"))
def test_quoted_rule_text_is_in_a_shipped_file(page, marker, block):
    assert any(block in text for text in SHIPPED), f"{page}: this quote is in no shipped .lg file:\n{block}"


@pytest.mark.parametrize("page,marker,title,block", [e for e in titled_excerpts("lg") if e[2]])
def test_a_quote_titled_with_a_file_is_in_that_file(page, marker, title, block):
    assert any(block in text for text in _layouts(ROOT / title)), f"{page}: this quote is not in {title}"


def test_the_pages_have_excerpts_of_every_kind():
    assert excerpts("lg") and excerpts("play") and excerpts("log")


@pytest.mark.parametrize("page,marker,block", excerpts("play"))
def test_transcript_excerpt_is_the_real_narration(page, marker, block):
    args, turns, head = split_marker(marker)
    text = play_output(args)
    chunks = {
        int(m.group(1)): m.group(0).strip("\n")
        for m in re.finditer(r"\n-- Turn (\d+): .*?(?=\n\n-- Turn |\n\nThe game ends|\Z)", text, re.S)
    }
    expected = "\n\n".join(chunks[t] for t in turns) + "\n"
    if head:
        expected = "\n".join(text.splitlines()[1 : head + 1]) + "\n...\n" + expected
    assert block == expected, f"{page}: regenerate with `landlord-dsl play {' '.join(args)}`"


@pytest.mark.parametrize("page,marker,block", excerpts("log"))
def test_log_excerpt_is_the_real_event_log(page, marker, block, tmp_path):
    args, turns, _ = split_marker(marker)
    log = tmp_path / "log.jsonl"
    play_output([*args, "--log", str(log)])
    lines = [line for line in log.read_text().splitlines() if re.match(rf'\["\w+",{turns[0]},', line)]
    assert block == "\n".join(lines) + "\n", f"{page}: regenerate with `landlord-dsl play {' '.join(args)} --log FILE`"
