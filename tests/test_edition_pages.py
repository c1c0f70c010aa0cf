"""The generated parts of the edition pages (board tables, known disagreements) match the rule files and tests.

examples/edition_pages.py writes them; a change to a board, a citation or an
xfail that leaves a page stale fails here.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("edition_pages", ROOT / "examples" / "edition_pages.py")
edition_pages = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(edition_pages)


@pytest.mark.parametrize("name", sorted(edition_pages.EDITIONS))
def test_the_generated_regions_of_the_page_are_up_to_date(name):
    text = (ROOT / "docs" / "editions" / f"{name}.md").read_text(encoding="utf-8")
    for region in ("board", "extensions", "readings", "disagreements", "skill"):
        assert edition_pages.BEGIN.format(region) in text, f"the page has no generated {region}"
    assert edition_pages.render(name, text) == text, "run python examples/edition_pages.py"


@pytest.mark.parametrize("name", sorted(edition_pages.EDITIONS))
def test_the_board_table_has_every_space_with_its_confidence_badge(name):
    import landlord_dsl as ld

    rules = ld.load_edition(name)
    table = edition_pages.board_table(name)
    assert table.count("<tr><td") == len(rules.model.spaces)
    cited = [s.provenance.confidence for s in rules.model.spaces if s.provenance and s.provenance.confidence]
    assert len(re.findall(r'class="ll-badge ll-(\w+)"', table)) == len(cited)


def test_the_1933_table_gives_rents_and_named_colours():
    table = edition_pages.board_table("monopoly-1933-atlantic-city")
    boardwalk = next(row for row in table.splitlines() if "<code>boardwalk</code>" in row)
    assert "50 · 200 · 600 · 1400 · 1700 · 2000" in boardwalk and ">Light blue<" in boardwalk
    reading = next(row for row in table.splitlines() if "<code>reading_railroad</code>" in row)
    assert "25 · 50 · 100 · 200 by railroads owned" in reading
    assert "not stated" in next(row for row in table.splitlines() if "<code>oriental_avenue</code>" in row)


def test_known_disagreements_list_every_strict_xfail_of_the_scenario_tests():
    reasons = [r for spec in edition_pages.EDITIONS.values() for f in spec["tests"] for _, r in edition_pages.xfails(f)]
    assert reasons, "the scenario tests have no xfail to list (the test below would prove nothing)"
    pages = "".join(
        (ROOT / "docs" / "editions" / f"{name}.md").read_text(encoding="utf-8") for name in edition_pages.EDITIONS
    )
    for reason in reasons:
        assert reason[1:] in pages


@pytest.mark.parametrize("name", sorted(edition_pages.EDITIONS))
def test_the_page_opens_with_the_board_picture(name):
    text = (ROOT / "docs" / "editions" / f"{name}.md").read_text(encoding="utf-8")
    body = text.split("\n# ", 1)[1].split("\n", 1)[1].lstrip("\n")
    first = body.split("\n", 1)[0]
    picture = f"../assets/boards/{name}.svg"
    assert first.startswith("[![The board of ") and re.search(rf"\]\({re.escape(picture)}\)(\{{[^}}]*\}})?\]\(", first)
    assert (ROOT / "docs" / picture.removeprefix("../")).exists()


@pytest.mark.parametrize("name", sorted(edition_pages.EDITIONS))
def test_the_page_lists_its_sections_under_its_picture(name):
    """Issue 36: the edition pages, 5-10k pixels tall, hid the table of contents (the board tables need the
    width) and had no in-page navigation; the contents now stand under the board picture."""
    text = (ROOT / "docs" / "editions" / f"{name}.md").read_text(encoding="utf-8")
    contents = text.index('<nav class="ll-contents" markdown>')
    assert text.index("../assets/boards/") < contents < text.index("\n## ")
    assert "[TOC]" in text[contents : text.index("</nav>", contents)]


@pytest.mark.parametrize("name", sorted(edition_pages.EDITIONS))
def test_the_kept_readings_study_is_the_one_the_rules_play_now(name):
    """Issue 33 §1: the page's "what depends on our reconstruction" table comes from data kept beside it; the
    data's digest of the same study on its first games must be what the rules give now (else run
    python examples/edition_pages.py --readings)."""
    import json

    kept = json.loads((edition_pages.READINGS / f"{name}.json").read_text(encoding="utf-8"))
    assert kept["check"] == edition_pages.reading_check(name), "run python examples/edition_pages.py --readings"
    assert kept["study"]["games"] == edition_pages.READING_GAMES
    assert [m["metric"] for m in kept["study"]["metrics"]] == list(edition_pages.READING_METRICS)


def _skill_labels(searching: bool) -> list[str]:
    from landlord_dsl.agents.seats import parse_seat

    return [
        edition_pages.skill_label(r, f)
        for r, f, _ in edition_pages.SKILL_RUNGS
        if (parse_seat(r).searches or parse_seat(f).searches) == searching
    ]


def _kept_skill(key: str) -> dict:
    import json

    if not (edition_pages.SKILL / f"{key}.json").exists():
        pytest.skip(f"the skill study of {key} is being played (the page says not played yet)")
    return json.loads((edition_pages.SKILL / f"{key}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("key", sorted(edition_pages.SKILL_STUDIES))
def test_the_kept_skill_study_is_the_one_the_rules_play_now(key):
    """Issue 30 §3: the skill and luck tables of the edition pages and docs/skill.md come from data kept in
    docs/assets/skill/; its digest of each rung's first deals must be what the rules give now (else run
    python examples/edition_pages.py --skill). The rungs without a searcher here; the others in the slow test."""
    kept = _kept_skill(key)
    for label in _skill_labels(searching=False):
        assert kept["check"][label] == edition_pages.skill_check(key, label), "run examples/edition_pages.py --skill"
    assert sorted((k, d["field"], d["deals"]) for k, d in kept["study"].items()) == sorted(
        (edition_pages.skill_label(r, f), f, n) for r, f, n in edition_pages.SKILL_RUNGS
    )


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(edition_pages.SKILL_STUDIES))
def test_the_kept_skill_study_of_the_searching_rungs_is_the_one_the_rules_play_now(key):
    kept = _kept_skill(key)
    for label in _skill_labels(searching=True):
        assert kept["check"][label] == edition_pages.skill_check(key, label), "run examples/edition_pages.py --skill"


def test_the_skill_page_shows_the_kept_studies_and_the_answer_to_the_historian():
    text = edition_pages.SKILL_PAGE.read_text(encoding="utf-8")
    for region in ("family", "historian"):
        assert edition_pages.BEGIN.format(region) in text, f"docs/skill.md has no generated {region}"
    assert edition_pages.render_family(text) == text, "run python examples/edition_pages.py"
    for key in edition_pages.SKILL_STUDIES:
        assert f"| {key} |" in text
