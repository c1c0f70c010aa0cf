"""Regenerate the generated parts of the edition pages (docs/editions/NAME.md) from the rule files.

Run from the repository root after changing an edition's board or a scenario test's xfail:

    python examples/edition_pages.py               # the pages, from the rule files and the kept data
    python examples/edition_pages.py --readings    # also play the sensitivity studies again (minutes)
    python examples/edition_pages.py --skill       # also play the studies of skill and luck again (an hour)

Two regions of each page are written between marker comments:

* `board`: the table of the track, read from the rule file (positions, labels,
  kinds, fields, groups, and each space's citation with its confidence as a
  coloured badge), folded so that the board picture above it leads the page;
* `disagreements`: every scenario test marked xfail(strict=True), which
  records where the encoding and the rule text still disagree, with its reason;
* `extensions`: the edition's extension points (declarations marked
  `extension`), with what replacing each does;
* `readings`: what depends on our reconstruction: `landlord-dsl sensitivity`
  of the edition (every option tagged `reconstruction` against the defaults,
  on the same seeds), drawn from docs/assets/readings/NAME.json. The study is
  slow, so it is played again only with `--readings`; the data keeps a digest
  of the same study on its first few games, which the test plays again to
  tell data that no longer matches the rules.
* `skill`: the edition's skill and luck (`landlord-dsl skill`, docs/skill.md), drawn from
  docs/assets/skill/NAME.json, kept with a digest of its first deals like the readings; docs/skill.md's
  `family` region sets every edition side by side, with 1906 under the Single Tax (played with `--skill`).

tests/test_edition_pages.py fails while a page is out of date.
"""

from __future__ import annotations

import ast as pyast
import hashlib
import html
import json
import re
import sys
from pathlib import Path

import landlord_dsl as ld
from landlord_dsl.language import ast

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "docs" / "editions"

# Per edition: the scenario tests that read its rules, the group-valued field shown as a set
# column (with its heading), whether to list the other groups, and rents read from tables.
EDITIONS = {
    "landlords-game-1904": {
        "tests": ["test_scenarios_1904.py"],
        "sets": {},
        "groups": True,
        "rents": None,
    },
    "landlords-game-1906": {
        "tests": ["test_scenarios_1906.py", "test_scenarios_single_tax.py"],
        "sets": {"section": "Section"},
        "groups": True,
        "rents": None,
    },
    "landlords-game-1939": {
        "tests": ["test_scenarios_1939.py"],
        "sets": {"section": "Section"},
        "groups": True,
        "rents": None,
    },
    "monopoly-1933-atlantic-city": {
        "tests": ["test_scenarios_1933.py"],
        "sets": {"color": "Colour"},
        "groups": False,
        # the title cards' rents: land, 1 to 4 houses, hotel; railroads and utilities by number owned
        "rents": (
            "rent_schedule",
            {
                "railroad": ("railroad_fare", "{} by railroads owned"),
                "utility": ("utility_multiplier", "dice \u00d7 {} by utilities owned"),
            },
        ),
    },
}

READINGS = ROOT / "docs" / "assets" / "readings"
READING_GAMES = 200  # games per reading in the studies the pages show
READING_METRICS = ("turns", "gini_round_10", "prosperity", "win_seat_1")
CHECK_GAMES = 3  # games of the same study the test plays again

SKILL = ROOT / "docs" / "assets" / "skill"
# each rung measured, with its field and its deals: the bot and the cheapest search against random players, a
# random player among bots (where the bots beat random players every game, luck shows among the bots), and the
# cheapest search among bots (skill above the heuristic); kept under "RUNG vs FIELD"
SKILL_RUNGS = (("bot", "random", 300), ("rollout:1", "random", 100), ("random", "bot", 300), ("rollout:1", "bot", 100))
SKILL_CHECK_DEALS = 2  # deals of each rung the test plays again
# the skill studies kept: every edition at its defaults, and 1906 under the Single Tax from the start
SKILL_STUDIES = {
    key: study
    for name in EDITIONS
    for key, study in {
        name: (name, {}),
        **({f"{name}-single-tax": (name, {"single_tax": "from_start"})} if name == "landlords-game-1906" else {}),
    }.items()
}
SKILL_PAGE = ROOT / "docs" / "skill.md"

BEGIN = "<!-- BEGIN GENERATED {} (examples/edition_pages.py) -->\n"
END = "<!-- END GENERATED {} -->\n"


def literal(expr: ast.Expr) -> object:
    """Return the value of a fixed table key or value: a number, a text, a space name, or a list of them."""
    if isinstance(expr, (ast.IntLit, ast.TextLit)):
        return expr.value
    if isinstance(expr, ast.Name):
        return expr.name
    if isinstance(expr, ast.ListLit):
        return [literal(item) for item in expr.items]
    raise ValueError(f"not a literal: {expr!r}")


def table(model, name: str) -> dict:
    """Return a declared table as a dict of literal keys and values."""
    return {literal(k): literal(v) for k, v in model.tables[name].entries}


def badge(confidence: str | None) -> str:
    """Return the HTML badge of a confidence tag (empty when the fact carries none)."""
    if not confidence:
        return ""
    return f'<span class="ll-badge ll-{confidence}">{confidence}</span>'


def set_name(model, group: str) -> str:
    """Return how a set column shows a group: a colour or section named in its label, else 'not stated'."""
    label = model.group_labels.get(group) or group
    if ":" in label:
        return html.escape(label.split(":", 1)[0])
    if re.fullmatch(r"[A-Z][a-z]+ \d+", label):  # "Section 3"
        return html.escape(label.split()[1])
    return f'<span class="ll-unstated" title="{html.escape(label)}">not stated</span>'


def board_table(name: str) -> str:
    """Return the board of an edition as a folded HTML table (stacked on narrow screens by extra.css)."""
    spec = EDITIONS[name]
    rules = ld.load_edition(name)
    model, program = rules.model, ld.compile_rules(rules)
    members = {tuple(ms): g for g, ms in model.groups.items()}
    numbers = [
        f
        for f, column in program.space_fields.items()
        if any(isinstance(v, int) and not isinstance(v, bool) for v in column)
    ]
    heads = ["Pos", "Space", "Kind", *(f.replace("_", " ").capitalize() for f in numbers)]
    rents = None
    if spec["rents"]:
        by_space, by_kind = spec["rents"]
        rents = (table(model, by_space), {kind: (table(model, t), text) for kind, (t, text) in by_kind.items()})
        heads.append("Rent")  # land, 1 to 4 houses, hotel (the page says so above the table)
    heads += list(spec["sets"].values()) + (["Groups"] if spec["groups"] else []) + ["Source"]
    rows = []
    for i, space in enumerate(model.spaces):
        cells = [str(i), f"{html.escape(space.label)}<br><code>{space.name}</code>", f"<code>{space.kind}</code>"]
        cells += [str(program.space_fields[f][i]) if program.space_fields[f][i] is not None else "" for f in numbers]
        shown_sets = set()
        if rents:
            by_space, by_kind = rents
            if space.name in by_space:
                cells.append(" · ".join(str(v) for v in by_space[space.name]))
            elif space.kind in by_kind:
                values, text = by_kind[space.kind]
                cells.append(text.format(" · ".join(str(values[k]) for k in sorted(values))))
            else:
                cells.append("")
        for field in spec["sets"]:
            value = program.space_fields.get(field, [None] * (i + 1))[i]
            group = members.get(tuple(value)) if isinstance(value, tuple) else None
            shown_sets.add(group)
            cells.append(set_name(model, group) if group else "")
        if spec["groups"]:
            cells.append(", ".join(f"<code>{g}</code>" for g in space.groups if g not in shown_sets))
        source = ""
        if space.provenance:
            p = space.provenance
            source = f"{html.escape(p.source)} {badge(p.confidence)}"
            if p.note:
                source += f'<br><span class="ll-note">{html.escape(p.note)}</span>'
        cells.append(source)
        rows.append(cells)
    lines = [
        f'<details class="ll-board abstract" markdown="0">'
        f"<summary>The {len(rows)} spaces of the board, in order of play (table)</summary>",
        '<table class="ll-board-table">',
        "<thead><tr>" + "".join(f"<th>{h}</th>" for h in heads) + "</tr></thead>",
        "<tbody>",
    ]
    for cells in rows:
        lines.append("<tr>" + "".join(f'<td data-label="{h}">{c}</td>' for h, c in zip(heads, cells)) + "</tr>")
    lines += ["</tbody>", "</table>", "</details>"]
    return "\n".join(lines) + "\n"


def xfails(test_file: str) -> list[tuple[str, str]]:
    """Return (test name, reason) of every test in a scenario test file marked xfail(strict=True)."""
    tree = pyast.parse((ROOT / "tests" / test_file).read_text(encoding="utf-8"))
    found = []
    for node in tree.body:
        if not isinstance(node, pyast.FunctionDef):
            continue
        for deco in node.decorator_list:
            if isinstance(deco, pyast.Call) and pyast.unparse(deco.func).endswith("mark.xfail"):
                reason = next((pyast.literal_eval(k.value) for k in deco.keywords if k.arg == "reason"), "")
                found.append((node.name, reason))
    return found


def disagreements(name: str) -> str:
    """Return the list of the known disagreements between an edition's encoding and its rule text."""
    items = [(f, test, reason) for f in EDITIONS[name]["tests"] for test, reason in xfails(f)]
    if not items:
        return (
            "None known: every scenario test of this edition passes "
            f"({', '.join('`tests/' + f + '`' for f in EDITIONS[name]['tests'])}).\n"
        )
    lines = [
        "Each is a scenario test that fails today and is marked as an expected failure "
        "(`xfail(strict=True)`), so it starts failing the suite the day the encoding is fixed:",
        "",
    ]
    for f, test, reason in items:
        lines.append(f"* **{reason[0].upper() + reason[1:]}.** (`tests/{f}`, `{test}`)")
    return "\n".join(lines) + "\n"


def extensions(name: str) -> str:
    """Return the list of an edition's extension points, each with what replacing it does."""
    from landlord_dsl.checking.extensions import extension_points

    points = extension_points(ld.load_edition(name).model)
    if not points:
        return (
            "None: the edition marks no declaration `extension`; a variant changes it by restating "
            "whole declarations.\n"
        )
    lines = [
        "A variant changes the edition here by declaring a function, action or rule of the same name "
        "(see [Writing a variant](../writing-a-variant.md)); variants that replace different ones combine freely.",
        "",
        "| Extension point | Replacing it |",
        "|---|---|",
    ]
    lines += [f"| {p.kind} `{p.signature}` | {html.escape(p.doc, quote=False)} |" for p in points]
    return "\n".join(lines) + "\n"


def reading_study(name: str, games: int, jobs: int | None = None) -> dict:
    """Return `landlord-dsl sensitivity NAME --metric READING_METRICS --games GAMES --format json` as data."""
    from landlord_dsl.compiling.compiler import compile_ruleset
    from landlord_dsl.studies.sensitivity import sensitivity, to_json

    rules = ld.load_edition(name)
    low, high = compile_ruleset(rules).players
    return to_json(sensitivity(rules, READING_METRICS, games, min(max(4, low), high), jobs=jobs))


def reading_check(name: str) -> str:
    """Return the digest of the edition's sensitivity study on its first CHECK_GAMES games."""
    study = reading_study(name, CHECK_GAMES, jobs=1)
    return hashlib.sha256(json.dumps(study, sort_keys=True).encode()).hexdigest()


def write_readings(name: str) -> None:
    """Play the edition's sensitivity study and keep it, with its check, in READINGS/NAME.json."""
    READINGS.mkdir(parents=True, exist_ok=True)
    data = {"check": reading_check(name), "study": reading_study(name, READING_GAMES)}
    (READINGS / f"{name}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def readings(name: str) -> str:
    """Return the region of the readings: the kept sensitivity study as a table, with the command that plays it."""
    from landlord_dsl.studies.sensitivity import render_markdown

    study = json.loads((READINGS / f"{name}.json").read_text(encoding="utf-8"))["study"]
    command = f"landlord-dsl sensitivity {name} --metric {','.join(READING_METRICS)} --games {study['games']}"
    if not study["readings"]:
        return f"No option of the edition is tagged `reconstruction` with values to try (`{command}`).\n"
    mattering = [r["option"] for r in study["readings"] if r["matters"]]
    lead = (
        f"Of the {len(study['readings'])} readings played, "
        + (
            f"{len(mattering)} change an outcome (an interval excludes zero): " + ", ".join(f"`{o}`" for o in mattering)
            if mattering
            else "none changes an outcome beyond its interval"
        )
        + f". Each value against the defaults, {study['games']} games each on the same seeds, "
        f"{study['players']} players; shares in percentage points; **bold**: the 95 % interval of the paired "
        f"difference excludes zero (`{command}`; see [Readings and causes](../studies.md))."
    )
    return lead + "\n\n" + render_markdown(study, heading=False)


def skill_label(rung: str, field: str) -> str:
    """Return the name a rung against its field is kept under."""
    return f"{rung} vs {field}"


def skill_study(key: str, deals: int | None = None, jobs: int | None = None, rungs: tuple = ()) -> dict:
    """Return the skill study SKILL_STUDIES[key], each rung of SKILL_RUNGS (or those whose skill_label is in
    `rungs`) with its deals (or `deals`), as {label: the data of `landlord-dsl skill`}."""
    from landlord_dsl.studies.skill import play_skill

    edition, options = SKILL_STUDIES[key]
    rules = ld.load_edition(edition)
    return {
        skill_label(rung, field): play_skill(rules, [rung], field, deals or n, options=options, jobs=jobs)
        for rung, field, n in SKILL_RUNGS
        if not rungs or skill_label(rung, field) in rungs
    }


def skill_check(key: str, label: str) -> str:
    """Return the digest of one rung of the skill study (by its skill_label) on its first SKILL_CHECK_DEALS deals."""
    study = skill_study(key, SKILL_CHECK_DEALS, jobs=1, rungs=(label,))
    return hashlib.sha256(json.dumps(study, sort_keys=True).encode()).hexdigest()


def write_skill(key: str, jobs: int | None = None) -> None:
    """Play the skill study and keep it, with its check, in SKILL/KEY.json."""
    SKILL.mkdir(parents=True, exist_ok=True)
    checks = {skill_label(r, f): skill_check(key, skill_label(r, f)) for r, f, _ in SKILL_RUNGS}
    data = {"check": checks, "study": skill_study(key, jobs=jobs)}
    (SKILL / f"{key}.json").write_text(json.dumps(data, sort_keys=True) + "\n", encoding="utf-8")


def skill_kept(key: str) -> dict | None:
    """Return the kept data of a skill study, {label: data}, or None when it has not been played."""
    path = SKILL / f"{key}.json"
    return json.loads(path.read_text(encoding="utf-8"))["study"] if path.exists() else None


NOT_PLAYED = "not played yet (`python examples/edition_pages.py --skill`)"


def skill_command(key: str, rung: str, field: str, deals: int) -> str:
    """Return the command that plays one rung of a kept skill study."""
    edition, options = SKILL_STUDIES[key]
    words = ["landlord-dsl skill", edition, "--ladder", rung, "--field", field, "--games", str(deals)]
    words += [f"--option {k}={v}" for k, v in options.items()]
    return " ".join(words)


def skill_rows(key: str, label: str | None = None) -> list[str]:
    """Return the Markdown rows of a kept skill study, a rung a row (led by `label` when given)."""
    from landlord_dsl.studies.skill import render_markdown, skill_report

    kept = skill_kept(key) or {}
    lead = f"| {label} |" if label else "|"
    rows = []
    for rung, field, deals in SKILL_RUNGS:
        if skill_label(rung, field) not in kept:
            rows.append(f"{lead} `{rung}` | `{field}` | {NOT_PLAYED} |" + " |" * 5)
            continue
        (row,) = render_markdown(skill_report(kept[skill_label(rung, field)])).splitlines()[2:]
        first, rest = row.split(" | ", 1)
        rows.append(f"{lead}{first[1:]} | `{field}` | {_interval_below(rest)} {deals} |")
    return rows


def _interval_below(cells: str) -> str:
    """Return Markdown table cells with each figure's interval on a line below it: a row of five figures
    with their intervals side by side is wider than the page's text column."""
    return re.sub(r"(\S) \[", r"\1<br>[", cells)


SKILL_HEADER = "| rung | field | win rate | edge | seed share | skill share | rest | deals |"


def skill_region(name: str) -> str:
    """Return the region of an edition page: its kept skill studies as a table, with the commands."""
    keys = [key for key, (edition, _) in SKILL_STUDIES.items() if edition == name]
    label = lambda key: ", ".join(f"{k} = {v}" for k, v in SKILL_STUDIES[key][1].items()) or "defaults"  # noqa: E731
    lines = [
        "One agent (the rung) against a field of another, in each seat in turn on the same dice, 4 players; "
        "the 95 % intervals resample the deals. *Seed share*: how much of what a seat wins the deal and the seat "
        "decide whoever plays; *skill share*: how much the agent sitting there decides; *rest*: the two together "
        "(see [Skill and luck](../skill.md), where the editions stand side by side).",
        "",
        "| rules " + SKILL_HEADER,
        "|---|---|---|" + "---:|" * 6,
    ]
    for key in keys:
        lines += skill_rows(key, label(key))
    lines += [
        "",
        "Played by:",
        "",
        *(f"* `{skill_command(key, *rung)}`" for key in keys for rung in SKILL_RUNGS),
    ]
    return "\n".join(lines) + "\n"


def family_region() -> str:
    """Return docs/skill.md's region: every kept skill study side by side, and the two 1906 regimes compared."""
    from landlord_dsl.studies.skill import render_markdown, skill_report

    lines = [
        "| edition " + SKILL_HEADER,
        "|---|---|---|" + "---:|" * 6,
    ]
    for key in SKILL_STUDIES:
        lines += skill_rows(key, key)  # plain text: a name may break at its hyphens
    lines += [
        "",
        "The 1906 monopolist rules (`single_tax = never`, the default) minus the Single Tax from the start "
        "(`single_tax = from_start`), the same deals resampled for both (a positive skill share: more skill "
        "under the monopolist rules):",
        "",
        SKILL_HEADER,
        "|---|---|" + "---:|" * 6,
    ]
    for _rung, field, deals, mono, tax in _regimes():
        (row,) = render_markdown(skill_report(mono, versus=tax), "difference", sign=True).splitlines()[2:]
        first, rest = row.split(" | ", 1)
        lines.append(f"{first} | `{field}` | {_interval_below(rest)} {deals} |")
    return "\n".join(lines) + "\n"


def _regimes() -> list[tuple[str, str, int, dict, dict]]:
    """Return (rung, field, deals, monopolist data, Single Tax data) of each rung kept for both 1906 regimes."""
    mono, tax = skill_kept("landlords-game-1906") or {}, skill_kept("landlords-game-1906-single-tax") or {}
    labels = [(r, f, n, skill_label(r, f)) for r, f, n in SKILL_RUNGS]
    return [(r, f, n, mono[k], tax[k]) for r, f, n, k in labels if k in mono and k in tax]


def historian_region() -> str:
    """Return docs/skill.md's answer to the historian: per rung, whether the 1906 monopolist rules leave
    more to luck than the Single Tax does, read from the paired difference of the skill shares."""
    from landlord_dsl.studies.skill import skill_report

    lines = []
    for rung, field, deals, mono, tax in _regimes():
        report = skill_report(mono, versus=tax)["rungs"][0]
        a, b, d = report["skill_share"], report["versus"]["skill_share"], report["difference"]["skill_share"]
        e, s = report["difference"]["edge"], report["difference"]["seed_share"]
        s_mono, s_tax = report["seed_share"]["mean"], report["versus"]["seed_share"]["mean"]
        pct = lambda v: f"{100 * v:.1f}"  # noqa: E731
        if d["ci95_low"] > 0:
            verdict = "**no: the monopolist game leaves less to luck**, its skill share is the larger"
        elif d["ci95_high"] < 0:
            verdict = "**yes: the monopolist game leaves more to luck**, its skill share is the smaller"
        else:
            verdict = "**the interval cannot tell**: it holds both answers"
        lines.append(
            f"* With `{rung}` against `{field}` players ({deals} deals a regime): skill share "
            f"{pct(a['mean'])} % [{pct(a['ci95_low'])}, {pct(a['ci95_high'])}] under the monopolist rules, "
            f"{pct(b['mean'])} % [{pct(b['ci95_low'])}, {pct(b['ci95_high'])}] under the Single Tax; the "
            f"difference, deal by deal, {pct(d['mean'])} points [{pct(d['ci95_low'])}, {pct(d['ci95_high'])}] "
            f"(edge {pct(e['mean'])} points [{pct(e['ci95_low'])}, {pct(e['ci95_high'])}]; seed share "
            f"{pct(s_mono)} % against {pct(s_tax)} %, {pct(s['mean'])} points [{pct(s['ci95_low'])}, "
            f"{pct(s['ci95_high'])}]): {verdict}."
        )
    return "\n".join(lines) + "\n"


def render_family(text: str) -> str:
    """Return docs/skill.md's text with its generated regions rewritten."""
    return _rewrite(text, (("family", family_region()), ("historian", historian_region())))


def _rewrite(text: str, regions: tuple[tuple[str, str], ...]) -> str:
    for region, body in regions:
        begin, end = BEGIN.format(region), END.format(region)
        if begin not in text:
            continue
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + begin + "\n" + body + "\n" + end + tail
    return text


def render(name: str, text: str) -> str:
    """Return a page's text with its generated regions rewritten."""
    regions = (
        ("board", board_table(name)),
        ("extensions", extensions(name)),
        ("readings", readings(name)),
        ("disagreements", disagreements(name)),
        ("skill", skill_region(name)),
    )
    return _rewrite(text, regions)


def main() -> int:
    if "--skill" in sys.argv[1:]:
        for key in SKILL_STUDIES:
            print(f"playing the skill study of {key}", file=sys.stderr)
            write_skill(key)
    for name in EDITIONS:
        if "--readings" in sys.argv[1:]:
            print(f"playing the readings of {name}", file=sys.stderr)
            write_readings(name)
        page = PAGES / f"{name}.md"
        old = page.read_text(encoding="utf-8")
        new = render(name, old)
        if new != old:
            page.write_text(new, encoding="utf-8")
            print(f"wrote {page}", file=sys.stderr)
    old = SKILL_PAGE.read_text(encoding="utf-8")
    new = render_family(old)
    if new != old:
        SKILL_PAGE.write_text(new, encoding="utf-8")
        print(f"wrote {SKILL_PAGE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
