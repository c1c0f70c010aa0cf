"""Run the worked studies of docs/studies.md and draw one figure of each into docs/assets/studies/.

Run from the repository root (needs the `plot` and `optimise` extras):

    python examples/study_figures.py              # the three studies, as the page shows them
    python examples/study_figures.py optimise     # one study only
    python examples/study_figures.py --redraw     # draw the figures again from the kept data, without playing

The studies are the page's own commands, with the same parameters:
`sensitivity` of three readings of the 1939 edition, `diff --attribute`
between the 1906 monopolist demonstration and the 1906 game under the Single
Tax, and `optimise` of the 1933 Go salary (24 trials of 200 games, and the
confirmation on 400 fresh seeds). Each figure is drawn wide (the page's
column) and narrow (phones) with the code behind the commands' `--plot`
(presentation/plots.py); beside it, NAME.json keeps the study's data (its
`--format json`) and `check`, the digest of the same study played on its
first figure_data.CHECK_GAMES games (see examples/figure_data.py). The
script puts each figure in its generated region of docs/studies.md;
tests/test_figures.py fails while a figure, its data or the page is out of
date. The three take under a CPU-minute together (sensitivity 7 s, attribution 7 s, optimise 17 s of
CPU; a few minutes of wall time on a loaded machine).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import figure_data

import landlord_dsl as ld
from landlord_dsl.presentation.plots import attribution_figure, sensitivity_figure, study_figure
from landlord_dsl.studies import attribution, optimise, sensitivity
from landlord_dsl.studies.paired import parse_metrics

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "assets" / "studies"
PAGE = ROOT / "docs" / "studies.md"
SCRIPT = "examples/study_figures.py"
PLAYERS = 4
CHECK_TRIALS = 3  # trials of the optimise study replayed for its check


def run_sensitivity(games: int) -> dict[str, Any]:
    """Return `landlord-dsl sensitivity landlords-game-1939 --over land_rents,wage_scale,count_wage_checks
    --metric turns,gini_round_10,win_seat_1 --games GAMES` as its --format json."""
    data = sensitivity.sensitivity(
        ld.load_edition("landlords-game-1939"),
        parse_metrics(["turns,gini_round_10,win_seat_1"], PLAYERS),
        games,
        PLAYERS,
        "land_rents,wage_scale,count_wage_checks",
        jobs=1,
    )
    return sensitivity.to_json(data)


def run_attribution(games: int) -> dict[str, Any]:
    """Return `landlord-dsl diff landlords-game-1906-monopolist-demonstration
    examples/landlords-game-1906-single-tax.lg --attribute --metric turns,gini_round_10,win_seat_1 --games GAMES`
    as its --format json."""
    data = attribution.attribute(
        ld.load_edition("landlords-game-1906-monopolist-demonstration"),
        ld.load(ROOT / "examples" / "landlords-game-1906-single-tax.lg"),
        parse_metrics(["turns,gini_round_10,win_seat_1"], PLAYERS),
        games,
        PLAYERS,
        jobs=1,
    )
    return attribution.to_json(data)


def run_optimise(games: int, trials: int = 24, confirm: int | None = 400) -> dict[str, Any]:
    """Return `landlord-dsl optimise monopoly-1933-atlantic-city --vary salary=50..400,25 --objective "minimise
    gini_round_20" --constraint "turns <= 180" --trials TRIALS --games GAMES --confirm CONFIRM` as its --format
    json."""
    rules = ld.load_edition("monopoly-1933-atlantic-city")
    q = optimise.Question(
        rules,
        optimise.parse_vary(rules, ["salary=50..400,25"]),
        optimise.parse_objectives(["minimise gini_round_20"], PLAYERS),
        optimise.parse_constraints(["turns <= 180"], PLAYERS),
        games,
        PLAYERS,
        0,
        0,
        (),
    )
    data = optimise.run_study(q, trials, None, jobs=1)
    if confirm:
        optimise.confirm(q, data, confirm, jobs=1)
    return optimise.to_json(data)


@attrs.frozen
class Study:
    """One worked study of the page: how to run it, how to draw it, and how the page shows it."""

    name: str
    run: Callable[[int], dict[str, Any]]
    check_run: Callable[[], dict[str, Any]]
    draw: Callable[[dict[str, Any], Path, bool], float]
    games: int
    alt: str


STUDIES = {
    s.name: s
    for s in (
        Study(
            "sensitivity",
            run_sensitivity,
            lambda: run_sensitivity(figure_data.CHECK_GAMES),
            sensitivity_figure,
            200,
            "The effect of each of three readings of the 1939 edition on game length, the Gini of wealth after "
            "round 10 and the first seat's wins, each with its paired 95 % interval",
        ),
        Study(
            "attribution",
            run_attribution,
            lambda: run_attribution(figure_data.CHECK_GAMES),
            attribution_figure,
            200,
            "The total difference between the 1906 monopolist demonstration and the 1906 game under the Single "
            "Tax, and the Shapley contribution of each of the three changes, with 95 % intervals",
        ),
        Study(
            "optimise",
            run_optimise,
            lambda: run_optimise(figure_data.CHECK_GAMES, CHECK_TRIALS, None),
            study_figure,
            200,
            "The mean Gini of wealth after round 20 of each trial of the 1933 study against its Go salary, with "
            "95 % intervals; the chosen salary in red, the trials whose games run too long hollow",
        ),
    )
}


def check(study: Study) -> str:
    """Return the digest of the study played on its first figure_data.CHECK_GAMES games (the optimise study on
    its first CHECK_TRIALS trials, without a confirmation)."""
    return figure_data.digest(study.check_run())


def region(study: Study, out: Path = OUT) -> str:
    """Return the page's region of one study, drawing its pictures (wide and narrow) into `out` from the kept
    data."""
    data = figure_data.read(out / f"{study.name}.png")["study"]
    px = min(study.draw(data, out / f"{study.name}{k}.png", k == "-narrow") for k in ("", "-narrow"))
    return figure_data.picture(
        f"../assets/studies/{study.name}.png",
        f"../assets/studies/{study.name}-narrow.png",
        px,
        study.alt,
        f"../assets/studies/{study.name}.png",
    )


def page(text: str, out: Path = OUT) -> str:
    """Return the page's text with every study's region drawn from the kept data in `out`."""
    for study in STUDIES.values():
        text = figure_data.replace_region(text, f"{study.name}-figure", SCRIPT, region(study, out))
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"the studies to run, of {', '.join(STUDIES)} (default: every one)")
    parser.add_argument("--out", type=Path, default=OUT, help="directory of the figures")
    parser.add_argument("--redraw", action="store_true", help="draw the figures again from the kept data")
    args = parser.parse_args(argv)
    for name in args.names:
        if name not in STUDIES:
            parser.error(f"no study '{name}': the studies are {', '.join(STUDIES)}")
    args.out.mkdir(parents=True, exist_ok=True)
    if not args.redraw:
        for name in args.names or STUDIES:
            study = STUDIES[name]
            data = json.loads(json.dumps(study.run(study.games)))  # drawn as it is kept
            figure_data.write(args.out / f"{name}.png", check(study), study=data)
            print(f"ran the {name} study", file=sys.stderr)
    if args.out == OUT:
        PAGE.write_text(page(PAGE.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"wrote {PAGE}", file=sys.stderr)
    else:
        for study in STUDIES.values():
            if figure_data.data_path(args.out / f"{study.name}.png").is_file():
                region(study, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
