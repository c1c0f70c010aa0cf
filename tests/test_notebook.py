"""What a notebook shows for the main objects (issue 36 §3): presentation/notebook.py, registered with IPython.

IPython is not needed here: the HTML functions are called directly, and the
registration is checked against a stand-in for IPython's formatter, whose
class names are then looked up for real (a renamed class would show as a
plain repr, silently, in every notebook).
"""

from __future__ import annotations

import importlib
import re
import sys
import types

import pytest

import landlord_dsl as ld
from landlord_dsl.presentation import notebook
from landlord_dsl.studies.parallel import simulate_many

HOUSE = """edition "house" {
    title "House <b>rules</b>"
    extends "landlords-game-1906"
    source "house-rule: ours" original
}
const wages = 150 source "house-rule" original
"""


def test_a_rule_set_shows_its_summary_and_its_board():
    html = notebook.ruleset_html(ld.load_edition("monopoly-1933-atlantic-city"))
    assert "Monopoly, Atlantic City" in html and "<td" in html
    assert re.search(r"<td[^>]*>spaces</td><td[^>]*>40</td>", html)
    assert "<svg" in html and "Boardwalk" in html


def test_every_text_is_escaped():
    html = notebook.ruleset_html(ld.load_text(HOUSE))
    assert "House &lt;b&gt;rules&lt;/b&gt;" in html and "<b>rules" not in html


def test_a_game_shows_its_turn_and_players_with_their_cash_and_square():
    game = ld.new_game("landlords-game-1906", players=3, seed=7, turn_limit=12)
    game.play()
    html = notebook.game_html(game)
    assert f"turn {game.turn}" in html
    for seat in range(3):
        row = html.split(f">{game.names[seat]}</td>")[1].split("</tr>")[0]
        assert f">{game.cash(seat)}</td>" in row
        assert f">{game.prog.space_labels[game.pos[seat]]}</td>" in row
    # issue 36 §3: and its board, a numbered token on each playing seat's space
    assert "<svg" in html and html.count('<g class="token">') == len(game.seats)
    for seat in game.seats:
        assert f"<title>{game.names[seat]}</title>" in html


def test_a_simulation_summary_shows_its_table():
    summary = simulate_many(ld.load_edition("landlords-game-1906"), 6, 4, seed=0, jobs=1)
    html = notebook.summary_html(summary)
    result = summary.result()
    assert re.search(r"<td[^>]*>games</td><td[^>]*>6</td>", html)
    assert f"mean Gini {result['final_wealth']['mean_gini']}" in html and "in every game" in html


def test_a_diff_is_a_list_that_a_notebook_shows_as_a_table():
    changes = ld.diff("landlords-game-1906", ld.load_text(HOUSE))
    assert isinstance(changes, list) and [c.name for c in changes] == ["title", "wages"]
    html = changes._repr_html_()
    assert "2 changes" in html and ">wages</td>" in html and "const wages = 100 -&gt; const wages = 150" in html
    assert notebook.changes_html([]) == "<div>No changes.</div>"


def test_an_analysis_shows_its_table_and_heat_map():
    pytest.importorskip("numpy")
    analysis = ld.analyze("monopoly-1933-atlantic-city", rents=False)
    html = notebook.analysis_html(analysis)
    jail = analysis.by_space("jail")
    assert f">{jail.turn:.2%}</td>" in html
    if importlib.util.find_spec("matplotlib"):
        assert "<svg" in html


def test_register_names_classes_that_exist():
    calls = []
    formatter = types.SimpleNamespace(for_type_by_name=lambda module, name, f: calls.append((module, name, f)))
    shell = types.SimpleNamespace(display_formatter=types.SimpleNamespace(formatters={"text/html": formatter}))
    notebook.register(shell)
    assert {name for _, name, _ in calls} == {"RuleSet", "Game", "Summary", "Analysis"}
    for module, name, render in calls:
        assert isinstance(getattr(importlib.import_module(module), name), type), (module, name)
        assert callable(render)


def test_importing_the_package_inside_ipython_registers_the_displays(monkeypatch):
    calls = []
    formatter = types.SimpleNamespace(for_type_by_name=lambda module, name, f: calls.append(name))
    shell = types.SimpleNamespace(display_formatter=types.SimpleNamespace(formatters={"text/html": formatter}))
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    ld._show_in_notebooks()
    assert sorted(calls) == ["Analysis", "Game", "RuleSet", "Summary"]
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: None))
    calls.clear()
    ld._show_in_notebooks()
    assert calls == []
