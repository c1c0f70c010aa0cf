"""Fuzz the newer surfaces (issue 35, "done when"): game logs, sweep resume files and replay pages.

* **Logs**: a real `play --log` file, changed at random (a JSON value
  anywhere replaced, a line dropped, repeated, swapped or replaced by hostile
  text or bytes, the file cut short), replayed by `landlord-dsl replay`: the
  command ends with status 0, 1 or 2 and a clear message, never 3 (an
  internal error).
* **Sweep files**: a real record, damaged the same way and surrounded by
  hostile lines and bytes, read back as `sweep --out` reads it: a list of
  records the table renders, or a UsageError naming the line.
* **Replay pages**: titles, labels and player names full of markup, quotes,
  template placeholders and control characters: the page holds no markup
  and no script but its own, and its data block decodes to the game's data.

Examples per property: a few dozen by default (CI time), many more with
LANDLORD_HYPOTHESIS_PROFILE=thorough (see conftest.py).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import tempfile
from html import escape
from html.parser import HTMLParser
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import landlord_dsl as ld
from landlord_dsl.cli.main import main
from landlord_dsl.core.errors import UsageError
from landlord_dsl.presentation.replay import log_text
from landlord_dsl.presentation.watch import record, replay_data, replay_html
from landlord_dsl.studies.sweep import read_records, render_table
from test_fuzz_saves import json_paths

THOROUGH = os.environ.get("LANDLORD_HYPOTHESIS_PROFILE") == "thorough"


def _examples(default: int) -> int:
    return default * 20 if THOROUGH else default


_HOSTILE_FRAGMENTS = st.sampled_from(
    [
        "</script>",
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(2)>",
        "{{DATA}}",
        "{{BOARD}}",
        "{{TITLE}}",
        "<!--",
        "-->",
        "]]>",
        "' onload='x",
        '" onload="x',
        "&amp;",
        "\u2028",
        "\u202e",
        "\x1b[2J",
        "\x00",
        "javascript:",
        "\ufeff",
    ]
)
_HOSTILE_TEXT = st.lists(_HOSTILE_FRAGMENTS | st.text(max_size=6), min_size=1, max_size=4).map("".join)

_JSON_SCALARS = st.one_of(
    st.integers(),
    st.integers(-3, 60),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
    _HOSTILE_TEXT,
)
_JSON = st.recursive(
    _JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=2),
    max_leaves=6,
)


def _tamper_json(draw, data):
    """Return `data` (decoded JSON) with one value replaced, dropped, nudged or added, as drawn."""
    path = draw(st.sampled_from(list(json_paths(data))))
    if not path:
        return draw(_JSON)
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    key, old = path[-1], parent[path[-1]]
    op = draw(st.sampled_from(["replace", "nudge", "drop", "add"]))
    if op == "nudge" and type(old) is int:
        parent[key] = old + draw(st.sampled_from([-1, 1, -100, 10**6, 10**30]))
    elif op == "drop":
        del parent[key]
    elif op == "add" and isinstance(parent, dict):
        parent[draw(st.sampled_from(["extra", "seed", "Games"]))] = draw(_JSON)
    else:
        parent[key] = draw(_JSON)
    return data


def _damaged_lines(draw, lines: list[bytes]) -> bytes:
    """Return `lines` joined, after one to three drawn damages (JSON values, lines, hostile bytes, a cut)."""
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["json", "json", "drop", "repeat", "swap", "hostile", "bytes", "cut"]))
        if not lines:
            break
        at = draw(st.integers(0, len(lines) - 1))
        if op == "json":
            try:
                lines[at] = json.dumps(_tamper_json(draw, json.loads(lines[at]))).encode()
            except (ValueError, RecursionError):  # a line already damaged: replace it whole
                lines[at] = draw(_HOSTILE_TEXT).encode("utf-8", "surrogatepass")
        elif op == "drop":
            del lines[at]
        elif op == "repeat":
            lines.insert(at, lines[at])
        elif op == "swap":
            other = draw(st.integers(0, len(lines) - 1))
            lines[at], lines[other] = lines[other], lines[at]
        elif op == "hostile":
            lines.insert(at, draw(_HOSTILE_TEXT).encode("utf-8", "surrogatepass"))
        elif op == "bytes":
            lines.insert(at, draw(st.binary(max_size=20) | st.just(b"[" * 100_000)))
        else:
            joined = b"\n".join(lines)
            cut = draw(st.integers(0, len(joined)))
            lines = joined[:cut].split(b"\n")
    return b"\n".join(lines) + draw(st.sampled_from([b"\n", b"", b"\n\n"]))


# ------------------------------------------------------------------ logs


@functools.cache
def _log_lines() -> tuple[bytes, ...]:
    """Return the lines of a real log: 1906, two players, a few turns."""
    program = ld.compile_rules(ld.load_edition("landlords-game-1906"))
    game = ld.new_game(program, players=2, seed=3, turn_limit=6)
    game.play()
    return tuple(line.encode() for line in log_text(game, "landlords-game-1906", 3).rstrip("\n").split("\n"))


@st.composite
def damaged_logs(draw) -> bytes:
    return _damaged_lines(draw, list(_log_lines()))


def _cli(*argv: str) -> tuple[int, str]:
    """Run the CLI in this process; return (exit status, standard error)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(list(argv), out=io.StringIO())
    return code, err.getvalue()


def test_the_undamaged_log_replays():
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "game.jsonl")
        path.write_bytes(b"\n".join(_log_lines()) + b"\n")
        assert _cli("replay", str(path)) == (0, "")


@settings(max_examples=_examples(30))
@given(damaged_logs())
def test_a_damaged_log_replays_or_is_refused_clearly(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "game.jsonl")
        path.write_bytes(data)
        code, err = _cli("replay", str(path))
    assert code in (0, 1, 2), err
    assert "internal error" not in err and "Traceback" not in err
    assert code == 0 or err.strip()


# ------------------------------------------------------------ sweep files

_RECORD = {
    "rules_hash": "0" * 16,
    "options": {"faster_game": False, "wages": 100, "mode": "plain"},
    "players": 3,
    "games": 4,
    "seed": 1,
    "summary": {
        "games": 4,
        "turns_per_game": {"mean": 120.5},
        "wins_by_seat": [1, 2, 1],
        "final_wealth": {"mean_gini": 0.25},
        "prosperity_rate": 0.5,
        "end_reasons": {"turn limit (200)": 4},
        "money_conserved_in_all_games": True,
        "warnings": [],
    },
}


@st.composite
def damaged_sweep_files(draw) -> bytes:
    lines = [json.dumps(_RECORD).encode() for _ in range(draw(st.integers(1, 3)))]
    return _damaged_lines(draw, lines)


def test_the_undamaged_sweep_file_reads_back():
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "sweep.jsonl")
        path.write_text(json.dumps(_RECORD) + "\n", encoding="utf-8")
        assert read_records(path) == [_RECORD]


@settings(max_examples=_examples(60))
@given(damaged_sweep_files())
def test_a_damaged_sweep_file_reads_back_or_is_refused_clearly(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, "sweep.jsonl")
        path.write_bytes(data)
        try:
            records = read_records(path)
        except UsageError as err:
            assert str(path) in err.render() and "not a sweep record" in err.render()
            return
        kept = path.read_bytes()
    assert kept == b"" or kept.endswith(b"\n")  # a torn last line was cut off
    assert isinstance(render_table(records), str)
    assert isinstance(render_table(records, colour=True), str)


# ------------------------------------------------------------ replay pages


class _Markup(HTMLParser):
    """Collects the tags and attribute names of a page, as a browser's tokenizer splits them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes.update(name for name, _ in attrs)


@functools.cache
def _plain_page_tags() -> tuple[str, ...]:
    """Return the tags of a page of the same rules with harmless texts: the template's own markup."""
    page, _ = _page("Plain", "Alpha", ("Ann", "Bob"))
    markup = _Markup()
    markup.feed(page)
    return tuple(markup.tags)


def _lg_text(text: str) -> str:
    """Return `text` as a .lg string's contents: quotes, backslashes and line ends (which it cannot hold) removed."""
    return "".join(c for c in text if c not in '"\\\n\r') or "x"


def _page(title: str, label: str, names: tuple[str, str]) -> tuple[str, dict]:
    source = (
        f'edition "hostile" {{ title "{_lg_text(title)}" players 2 to 2 turn limit 4 }}\n'
        f'account bank "{_lg_text(label)}" unlimited\n'
        'kind plain "Plain" { }\n'
        "board {\n"
        f'    space a "{_lg_text(label)}" : plain\n'
        '    space b "B" : plain\n'
        "}\n"
        f'rule r "{_lg_text(title)}" {{ on setup {{ pay 5 from bank to player }} '
        "on turn { roll dice move forward dice.total } }\n"
    )
    rules = ld.load_text(source, "hostile.lg")
    game = ld.new_game(rules, players=2, seed=1, names=list(names))
    recording = record(game, rules)
    game.play()
    return replay_html(game, rules, recording), replay_data(game, rules, recording)


_NAMES = st.tuples(_HOSTILE_TEXT, _HOSTILE_TEXT).filter(lambda n: n[0].strip() and n[1].strip() and n[0] != n[1])


@settings(max_examples=_examples(25))
@given(title=_HOSTILE_TEXT, label=_HOSTILE_TEXT, names=_NAMES)
def test_hostile_texts_make_a_safe_page_or_a_clear_error(title, label, names):
    try:
        page, data = _page(title, label, names)
    except ld.LandlordError as err:  # a text the language refuses (a control character, say), said clearly
        assert err.render()
        return
    markup = _Markup()
    markup.feed(page)
    plain = _plain_page_tags()
    # no element of a text's: only the template's kinds of element (a long label is wrapped in more tspans),
    # and its scripts only
    assert set(markup.tags) <= set(plain) | {"tspan"} and markup.tags.count("script") == plain.count("script")
    assert not {name for name in markup.attributes if name.startswith("on")}
    opening = '<script type="application/json" id="data">'
    assert page.count(opening) == 1 and page.count("</script>") == 2
    blob = page.split(opening, 1)[1].split("</script>", 1)[0]
    assert "<" not in blob and json.loads(blob) == data
    assert escape(data["title"]) in page
