"""The documentation's figures are up to date: the games behind them replay the same, and they redraw the same.

Each figure script keeps, beside each figure, the data it was drawn from
(examples/figure_data.py). Here the first few of the seeded games behind a
simulation figure are played again and their summary is compared with the
digest kept with the data (a change to the rules, the engine or the
statistics shows there), and the figure is drawn again from the kept data
and compared with the picture in docs/ (a change to the plotting code shows
there). The exact analysis figures are cheap to remake: the analysis is run
again, compared with the kept figures, and drawn again.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from matplotlib.testing.compare import compare_images

import landlord_dsl as ld
from landlord_dsl.core.errors import LandlordError
from landlord_dsl.presentation.plots import analysis_figure, simulation_figure
from landlord_dsl.studies.parallel import simulate_many

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))

import figure_data  # noqa: E402

# RMS difference (0-255) allowed between the picture and its redrawing: 0 with the same matplotlib and fonts,
# a little more elsewhere; a changed line, colour or label is well above it
TOLERANCE = 1.0


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


stats_figures = _script("stats_figures")
single_tax_report = _script("single_tax_report")
single_tax_populations = _script("single_tax_populations")
stats_populations = _script("stats_populations")
analysis_figures = _script("analysis_figures")
study_figures = _script("study_figures")


def _same_picture(figure: Path, redrawn: Path, run: str) -> None:
    try:
        difference = compare_images(str(figure), str(redrawn), tol=TOLERANCE)
    except Exception as err:  # e.g. the sizes differ
        difference = str(err)
    assert difference is None, f"{figure} is not what the plotting code draws from its data now: {run}\n{difference}"


@pytest.mark.parametrize("name", stats_figures.editions())
def test_simulation_statistics_figures_are_up_to_date(name, tmp_path):
    run = "run python examples/stats_figures.py"
    figure = stats_figures.OUT / f"{name}.png"
    assert figure.is_file() and figure_data.data_path(figure).is_file(), f"{figure} or its data is missing: {run}"
    data = figure_data.read(figure)
    assert data["summary"]["games"] == 1000, f"docs/statistics.md shows 1,000 games per edition: {run}"
    rules = ld.load_edition(name)
    program = ld.compile_rules(rules)
    assert data["check"] == stats_figures.check(rules, stats_figures.players_for(program)), (
        f"the games behind {figure} are no longer played the same: {run}"
    )
    redrawn = tmp_path / figure.name
    simulation_figure(data["summary"], program, redrawn)
    _same_picture(figure, redrawn, run)


def test_single_tax_chart_is_up_to_date(tmp_path):
    run = "run python examples/single_tax_report.py"
    figure = ROOT / "docs" / "assets" / "single-tax-gini.png"
    assert figure_data.data_path(figure).is_file(), f"the data of {figure} is missing: {run}"
    data = figure_data.read(figure)
    assert data["games"] == 1000, f"docs/single-tax-report.md is written from 1,000 games per regime: {run}"
    assert data["check"] == single_tax_report.check(), f"the games behind {figure} are no longer played the same: {run}"
    redrawn = tmp_path / figure.name
    single_tax_report.chart(data["curves"], single_tax_report.ADOPTION_ROUND, redrawn)
    _same_picture(figure, redrawn, run)


def test_the_single_tax_reports_populations_section_is_its_data():
    """Issue 30 §4: the section 'Does it depend on the players?' says what its data says."""
    run = "run python examples/single_tax_populations.py"
    data = json.loads(single_tax_populations.DATA.read_text(encoding="utf-8"))
    assert data["games"] == 200, f"the section is written from 200 games a table: {run}"
    page = (ROOT / "docs" / "single-tax-report.md").read_text(encoding="utf-8")
    expected = figure_data.replace_region(
        page, single_tax_populations.REGION, single_tax_populations.SCRIPT, single_tax_populations.section(data)
    )
    assert page == expected, run


def test_the_populations_reading_tells_a_reversal_from_a_difference_of_power():
    from landlord_dsl.studies.paired import Interval

    read = single_tax_populations.reading
    up, down, none = Interval(0.1, 0.05, 0.15), Interval(-0.1, -0.15, -0.05), Interval(0.0, -0.05, 0.05)
    assert read({"a": up, "b": up}) == "rises under every population"
    assert read({"a": up, "b": down}) == "**reverses with the players**"
    assert read({"a": none, "b": none}) == "no detectable change under any population"
    assert read({"a": up, "b": Interval(0.04, -0.01, 0.09)}).endswith("do not differ detectably")
    assert "depends on the players" in read({"a": Interval(0.3, 0.25, 0.35), "b": none})


@pytest.mark.slow
def test_the_single_tax_populations_games_replay_the_same():
    """The first game of every population and regime (searchers included) plays as it did for the data."""
    data = json.loads(single_tax_populations.DATA.read_text(encoding="utf-8"))
    assert data["check"] == single_tax_populations.check(), "run python examples/single_tax_populations.py"


def test_the_statistics_pages_populations_section_is_its_data():
    """Issue 30 §4: docs/statistics.md's section 'Does it depend on the players?' says what its data says,
    for every shipped edition and the three populations."""
    run = "run python examples/stats_populations.py"
    data = json.loads(stats_populations.DATA.read_text(encoding="utf-8"))
    assert data["games"] == stats_populations.GAMES, (
        f"the section is written from {stats_populations.GAMES} games: {run}"
    )
    assert sorted(data["values"]) == sorted(stats_populations.POPULATIONS), run
    for population, by_edition in data["values"].items():
        assert sorted(by_edition) == sorted(stats_populations.editions()), run
        assert all(len(games) == data["games"] for games in by_edition.values()), (population, run)
    page = (ROOT / "docs" / "statistics.md").read_text(encoding="utf-8")
    expected = figure_data.replace_region(
        page, stats_populations.REGION, stats_populations.SCRIPT, stats_populations.section(data)
    )
    assert page == expected, run


def test_the_statistics_populations_conclusions_come_from_the_heuristic_tables():
    """The orders the section tests are the heuristic games' orders of the means, neighbour by neighbour, so
    every order holds (or is not detected) under the heuristic population; each reading is worked out from
    the effects in its row."""
    from landlord_dsl.studies.paired import Interval

    data = json.loads(stats_populations.DATA.read_text(encoding="utf-8"))
    rows = stats_populations.rows(data)
    names = stats_populations.editions()
    orders = [c for c in stats_populations.conclusions(data) if c[0] == "order"]
    assert len(orders) == len(stats_populations.ORDERED) * (len(names) - 1)
    assert len(rows) == len(orders) + len(stats_populations.SEATS) * len(names)
    for _, effects, reading in rows[: len(orders)]:
        assert effects["heuristic"].mean >= 0 and stats_populations.verdict(effects["heuristic"]) != "lower"
        assert reading == stats_populations.reading(effects)
    read = stats_populations.reading
    up, down, none = Interval(0.1, 0.05, 0.15), Interval(-0.1, -0.15, -0.05), Interval(0.0, -0.05, 0.05)
    assert read({"a": up, "b": up, "c": up}) == "higher under every population"
    assert read({"a": up, "b": down, "c": up}) == "**reverses with the players**"
    assert read({"a": none, "b": none}) == "no detectable difference under any population"
    assert read({"a": up, "b": Interval(0.04, -0.01, 0.09)}).endswith("do not differ detectably")
    assert "depends on the players" in read({"a": Interval(0.3, 0.25, 0.35), "b": none})


@pytest.mark.slow
def test_the_statistics_populations_games_replay_the_same():
    """The first game of every population and edition (searchers included) plays as it did for the data."""
    data = json.loads(stats_populations.DATA.read_text(encoding="utf-8"))
    assert data["check"] == stats_populations.check(), "run python examples/stats_populations.py"


@pytest.mark.parametrize("name", analysis_figures.editions())
def test_exact_analysis_figures_are_up_to_date(name, tmp_path):
    pytest.importorskip("numpy")
    run = "run python examples/analysis_figures.py"
    figure = analysis_figures.OUT / f"{name}.png"
    try:
        result = analysis_figures.analysis_of(name)
    except LandlordError:
        assert not figure.exists(), f"{name} can no longer be analysed, but {figure} is still there: {run}"
        return
    assert figure.is_file() and figure.with_suffix(".json").is_file(), f"{figure} or its data is missing: {run}"
    kept = json.loads(figure.with_suffix(".json").read_text(encoding="utf-8"))
    now = result.to_json()["spaces"]
    assert [(r["index"], r["status"]) for r in kept] == [(r["index"], r["status"]) for r in now], run
    for a, b in zip(kept, now):
        for key in ("throw", "turn", "visits"):
            assert math.isclose(a[key], b[key], rel_tol=1e-9, abs_tol=1e-12), f"{name} {a['label']} {key}: {run}"
    redrawn = tmp_path / figure.name
    analysis_figure(result, redrawn)
    _same_picture(figure, redrawn, run)


@pytest.mark.parametrize("script", [stats_figures, analysis_figures], ids=["statistics", "analysis"])
def test_the_pages_show_each_panel_readable_and_up_to_date(script, tmp_path):
    """Issue 36: the composites were shown at 0.45 of their size (labels of 3 px). The pages show each board
    and the outcome panels apart, wide and narrow, stating the smallest text of each (`data-text-px`, which
    tests/browser_check.py scales to the width shown); every shipped edition that has a figure is shown; the
    pictures and the page's text are what the script draws now from the kept data."""
    run = f"run python {script.SCRIPT}" + (" --redraw" if script is stats_figures else "")
    for kept in script.OUT.glob("*.json"):
        (tmp_path / kept.name).write_bytes(kept.read_bytes())
    region = script.page_region(tmp_path)
    page = script.PAGE.read_text(encoding="utf-8")
    assert figure_data.replace_region(page, "figures", script.SCRIPT, region) == page, f"{script.PAGE}: {run}"
    drawn = sorted(tmp_path.glob("*.png"))
    assert drawn and all(f"../assets/{script.OUT.name}/{p.name}" in region for p in drawn)
    for picture in drawn:
        _same_picture(script.OUT / picture.name, picture, run)
    for figure in script.OUT.glob("*.json"):
        assert f"### {ld.compile_rules(ld.load_edition(figure.stem)).title}\n" in region, figure.stem
    assert all(float(px) >= 8 for px in re.findall(r'data-text-px="([0-9.]+)"', region))


@pytest.mark.parametrize("name", list(study_figures.STUDIES))
def test_the_worked_studies_figures_are_up_to_date(name, tmp_path):
    """Issue 33: docs/studies.md shows a figure of each worked study. The study played on its first few games
    gives the digest kept with the data; the pictures, wide and narrow, are what the plotting code draws from
    the kept data now; the page's region is what the script writes; the kept study is the page's command."""
    if name == "optimise":
        pytest.importorskip("optuna")
    run = f"run python {study_figures.SCRIPT} {name}"
    study = study_figures.STUDIES[name]
    figure = study_figures.OUT / f"{name}.png"
    assert figure.is_file() and figure_data.data_path(figure).is_file(), f"{figure} or its data is missing: {run}"
    data = figure_data.read(figure)
    assert data["study"]["games"] == study.games, f"docs/studies.md shows {study.games} games: {run}"
    assert data["check"] == study_figures.check(study), f"the games behind {figure} are no longer the same: {run}"
    (tmp_path / figure_data.data_path(figure).name).write_bytes(figure_data.data_path(figure).read_bytes())
    region = study_figures.region(study, tmp_path)
    for picture in (f"{name}.png", f"{name}-narrow.png"):
        _same_picture(study_figures.OUT / picture, tmp_path / picture, run)
    page = study_figures.PAGE.read_text(encoding="utf-8")
    assert figure_data.replace_region(page, f"{name}-figure", study_figures.SCRIPT, region) == page, run
    assert all(float(px) >= 8 for px in re.findall(r'data-text-px="([0-9.]+)"', region))


def test_the_worked_studies_figures_show_the_pages_numbers():
    # the kept data is the study the page's console shows (its text is checked by tests/test_doc_commands.py)
    page = study_figures.PAGE.read_text(encoding="utf-8")
    kept = {name: figure_data.read(study_figures.OUT / f"{name}.png")["study"] for name in study_figures.STUDIES}
    turns = next(m for m in kept["attribution"]["metrics"] if m["metric"] == "turns")["total"]
    assert f"total (b - a)    {turns['mean']:+.1f} [{turns['ci95_low']:+.1f}, {turns['ci95_high']:+.1f}]" in page
    first = kept["sensitivity"]["readings"][0]
    assert f"  1. {first['option']} (default {str(first['default']).lower()}): size {first['size_sd']:.2f}" in page
    best = kept["optimise"]["best"]
    assert f"best: salary={best['params']['salary']} (trial {best['trial']})" in page


def test_a_label_is_broken_between_words_only_and_kept_whole():
    from landlord_dsl.presentation.plots import wrap_words

    assert wrap_words("Poor House and Central Park", 10) == ["Poor House", "and", "Central", "Park"]
    assert wrap_words("Pennsylvania Railroad", 6) == ["Pennsylvania", "Railroad"]
    assert wrap_words("Atlantic City Water-Works", 14) == ["Atlantic City", "Water-Works"]


def test_a_changed_game_or_drawing_is_noticed(tmp_path):
    # the check is not blind: other seeds give another digest, and a picture drawn differently differs
    name = "monopoly-1933-atlantic-city"
    rules = ld.load_edition(name)
    program = ld.compile_rules(rules)
    kept = figure_data.read(stats_figures.OUT / f"{name}.png")
    other = simulate_many(
        rules, figure_data.CHECK_GAMES, stats_figures.players_for(program), seed=1, jobs=1, stats=True
    ).result()
    assert figure_data.digest(other) != kept["check"]
    summary = dict(kept["summary"], games=999)  # only the title's "1000 games" changes
    redrawn = tmp_path / "changed.png"
    simulation_figure(summary, program, redrawn)
    with pytest.raises(AssertionError):
        _same_picture(stats_figures.OUT / f"{name}.png", redrawn, "")
