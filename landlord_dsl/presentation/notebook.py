"""Rich displays in Jupyter: what a notebook shows for a rule set, a game, a simulation, a diff and an analysis.

Each `*_html` function returns a self-contained HTML fragment (every text
escaped). A rule set shows its summary and its board (the drawing of
`landlord-dsl board`); a game its turn, its players and its board with their tokens; a simulation
`Summary` its table; a diff (`Changes`, what `diff` returns) its changes;
an `Analysis` its table and, with matplotlib, its board heat map.

Those classes live in stages below this one, which cannot import it, so
they carry no `_repr_html_` of their own: `register(shell)` gives IPython's
HTML formatter a function for each, by module and class name (IPython's
equivalent of `_repr_html_`, resolved when the class is first displayed).
`import landlord_dsl` calls it when it runs inside IPython; `Changes`, which
lives here, has its own `_repr_html_`.
"""

from __future__ import annotations

import io
from html import escape
from typing import TYPE_CHECKING, Any

from ..language.formatter import quote

if TYPE_CHECKING:
    from ..checking.loader import RuleSet
    from ..engine.game import Game
    from ..studies.analysis.report import Analysis
    from ..studies.simulate import Summary
    from .compare import Change

_STYLE = "border-collapse:collapse;font-size:13px"
_CELL = "padding:2px 8px;border-bottom:1px solid #ddd;text-align:left"


def _table(head: list[str], rows: list[list[Any]]) -> str:
    """Return an HTML table of `rows` under `head`, every cell escaped."""
    cells = "".join(f'<th style="{_CELL}">{escape(h)}</th>' for h in head)
    body = "".join(
        "<tr>" + "".join(f'<td style="{_CELL}">{escape(str(c))}</td>' for c in row) + "</tr>" for row in rows
    )
    return f'<table style="{_STYLE}"><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>'


def _literal(value: Any) -> str:
    """Return a value as a .lg file writes it (true, 60, "vote")."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if isinstance(value, int) else quote(str(value))


def _heading(text: str) -> str:
    return f'<div style="font-weight:600;margin:4px 0">{escape(text)}</div>'


_BOARD_BOX = '<div style="max-width:560px;margin-top:6px">{}</div>'


def ruleset_html(rules: RuleSet) -> str:
    """Return a rule set as its title, a summary table (name, players, board, rules, options) and its board."""
    from .board import board_svg

    model = rules.model
    header = model.header
    low, high = header.players if header.players else ("?", "?")
    options = ", ".join(f"{name} = {_literal(o.default)}" for name, o in model.options.items()) or "none"
    summary = _table(
        ["", ""],
        [
            ["name", rules.name],
            ["players", f"{low} to {high}"],
            ["spaces", len(model.spaces)],
            ["rules", len(model.rules)],
            ["options", options],
        ],
    )
    board = board_svg(rules)
    board = board[board.index("<svg") :]
    return f"<div>{_heading(header.title or rules.name)}{summary}{_BOARD_BOX.format(board)}</div>"


def game_html(game: Game) -> str:
    """Return a game as its turn and a table of its players: cash, the space each is on, titles held."""
    prog = game.prog
    rows = [
        [
            game.names[s],
            game.cash(s),
            prog.space_labels[game.pos[s]],
            len(game.titles[s]),
            "playing" if s in game.seats else "out",
        ]
        for s in range(game.n)
    ]
    head = f"{prog.title}: turn {game.turn}" + (f", {game.names[game.current]} to play" if game.seats else "")
    table = _table(["player", "cash", "on", "titles", ""], rows)
    board = (
        "" if prog.rules is None else f'<div style="max-width:560px;margin-top:6px">{_board_with_tokens(game)}</div>'
    )
    return f"<div>{_heading(head)}{table}{board}</div>"


def _board_with_tokens(game: Game) -> str:
    """Return the game's board (board_svg) with a numbered token for each player still playing on his space."""
    from .board import board_cells, board_svg

    svg = board_svg(game.prog.rules, program=game.prog)
    cells = board_cells(len(game.prog.space_names))
    tokens, on_space = [], dict.fromkeys(range(len(cells)), 0)
    for seat in game.seats:
        x, y, w, _, _ = cells[game.pos[seat]]
        k = on_space[game.pos[seat]]
        on_space[game.pos[seat]] += 1
        cx, cy = x + w - 9 - 13 * (k % 3), y + 12 + 13 * (k // 3)
        tokens.append(
            f'<g class="token"><title>{escape(game.names[seat])}</title>'
            f'<circle cx="{cx:g}" cy="{cy:g}" r="6" fill="#1f4e79" stroke="#fff"/>'
            f'<text x="{cx:g}" y="{cy + 3:g}" font-size="8" text-anchor="middle" fill="#fff">{seat + 1}</text></g>'
        )
    svg = svg[svg.index("<svg") :]
    return svg.replace("</svg>", "".join(tokens) + "</svg>")


def summary_html(summary: Summary) -> str:
    """Return a simulation's summary as the table `landlord-dsl simulate` prints."""
    result = summary.result()
    turns, wealth = result["turns_per_game"], result["final_wealth"]
    rows = [
        ["games", result["games"]],
        ["players", result["players"]],
        ["turns per game", f"mean {turns['mean']}, median {turns['median']}, {turns['min']} to {turns['max']}"],
        ["wins by seat", ", ".join(f"seat {i + 1}: {w}" for i, w in enumerate(result["wins_by_seat"]))],
        ["final wealth", f"mean score {wealth['mean_score']}, mean Gini {wealth['mean_gini']}"],
        ["end reasons", ", ".join(f"{k}: {v}" for k, v in result["end_reasons"].items())],
        ["prosperity", f"{100 * result['prosperity_rate']:.1f}% of games"],
        ["money conserved", "in every game" if result["money_conserved_in_all_games"] else "NOT in every game"],
    ]
    return f"<div>{_heading('Simulation')}{_table(['', ''], rows)}</div>"


def changes_html(changes: list[Change]) -> str:
    """Return a diff's changes as a table: what kind of thing, which, how it changed, and the details."""
    rows = [
        [
            c.category,
            c.name + (f" -> {c.new_name}" if c.new_name else ""),
            c.change,
            "; ".join(f"{what}: {old} -> {new}" for what, old, new in c.details)
            or f"{c.old if c.old is not None else '-'} -> {c.new if c.new is not None else '-'}",
        ]
        for c in changes
    ]
    if not rows:
        return "<div>No changes.</div>"
    return f"<div>{_heading(f'{len(rows)} changes')}{_table(['kind', 'name', 'change', 'details'], rows)}</div>"


def analysis_html(analysis: Analysis) -> str:
    """Return an analysis as its heat map of where turns end (with matplotlib) and its table per space."""
    rows = sorted((r for r in analysis.rows if not r.status), key=lambda r: r.index)
    table = _table(
        ["#", "space", "throws ending here", "turns ending here"],
        [[r.index, r.label, f"{r.throw:.2%}", f"{r.turn:.2%}"] for r in rows],
    )
    picture = _heatmap_svg([r.label for r in rows], [r.turn for r in rows])
    exact = "exact" if analysis.exact else "for the reference economy (see its warnings)"
    return (
        f"<div>{_heading(f'{analysis.title}: long-run movement of one token, {exact}')}"
        f'{picture}<div style="max-height:420px;overflow:auto">{table}</div></div>'
    )


def _heatmap_svg(labels: list[str], values: list[float]) -> str:
    """Return the board heat map of `values` as inline SVG, or '' without matplotlib."""
    try:
        from .plots import board_heatmap, pyplot

        plt = pyplot()
    except Exception:  # matplotlib missing: the table says it all
        return ""
    out = io.StringIO()
    # the same picture gives the same text (no date, fixed ids), so a rendered notebook can be compared
    with plt.rc_context({"svg.hashsalt": "landlord-dsl", "svg.fonttype": "none"}):
        fig, ax = plt.subplots(figsize=(6.4, 6.4), layout="constrained")
        board_heatmap(ax, labels, values, "share of turns ending here", "{:.2%}")
        fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    svg = out.getvalue()
    return f'<div style="max-width:560px">{svg[svg.index("<svg") :]}</div>'


class Changes(list):
    """The changes `diff` returns: a list of `Change`, shown in a notebook as a table."""

    def _repr_html_(self) -> str:
        return changes_html(self)


# (module, class) -> the function that draws it; IPython resolves a name when the class is first displayed
DISPLAYS = {
    ("landlord_dsl.checking.loader", "RuleSet"): ruleset_html,
    ("landlord_dsl.engine.game", "Game"): game_html,
    ("landlord_dsl.studies.simulate", "Summary"): summary_html,
    ("landlord_dsl.studies.analysis.report", "Analysis"): analysis_html,
}


def register(shell: Any) -> None:
    """Tell an IPython shell's HTML formatter how to show a rule set, a game, a summary and an analysis."""
    formatter = shell.display_formatter.formatters["text/html"]
    for (module, name), render in DISPLAYS.items():
        formatter.for_type_by_name(module, name, render)
