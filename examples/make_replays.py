"""Write the replays the documentation embeds (docs/replays/*.html).

Run from the repository root after changing a rule file they use:

    python examples/make_replays.py

tests/test_watch.py fails while a replay in docs/ is out of date.
"""

from __future__ import annotations

from pathlib import Path

import landlord_dsl as ld
from landlord_dsl.presentation.watch import record, replay_html

OUT = Path(__file__).resolve().parent.parent / "docs" / "replays"

# (file, edition or variant, options, players, seed, heading)
REPLAYS = [
    (
        "monopolist-demonstration.html",
        "landlords-game-1906-monopolist-demonstration",
        {},
        4,
        1,
        "The 1906 monopolist demonstration, seed 1",
    ),
    (
        "single-tax.html",
        "landlords-game-1906",
        {"single_tax": "from_start"},
        4,
        1,
        "The Landlord's Game (1906) under the Single Tax from the start, seed 1",
    ),
]


def build(edition: str, options: dict, players: int, seed: int, heading: str) -> str:
    """Return the replay page of one seeded game of heuristic bots."""
    rules = ld.load_edition(edition)
    game = ld.new_game(rules, players=players, seed=seed, options=options)
    recording = record(game, rules)
    game.play()
    return replay_html(game, rules, recording, heading=heading)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for file, edition, options, players, seed, heading in REPLAYS:
        (OUT / file).write_text(build(edition, options, players, seed, heading), encoding="utf-8")
        print(f"wrote {OUT / file}")


if __name__ == "__main__":
    main()
