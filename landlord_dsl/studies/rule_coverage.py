"""Rule coverage (`ld.coverage`, `landlord-dsl coverage`): what in the rules fires in play, and how often.

`coverage(rules, games=...)` plays seeded games of heuristic bots (the games
`simulate` plays, by default) with a program compiled with counters, and
returns a `Coverage`: every item of the rules, each with the number of games
it fired in and how many times in all, mapped to its .lg file and line.

The items, in a tree (each item's `key` is the path of labels from the top):

- rule NAME: fired when one of its handlers or triggers ran (it has no counter of its own);
  - a handler (`on turn`, `on land lot`, ...), or a trigger (`when ...`): its body ran;
- action NAME: its body ran (called with `do`, or written in place of the call);
- card NAME (of a deck, not a title deed): drawn, and its effect ran;
- end: the end condition ended the game;
- under each: every statement (it ran), the arms of an `if` (`then`, `else`: the arm ran) and
  the options of a `choose` or `offer` (`option NAME`, and an offer's `done`: chosen).

The counters are lines `_cov[i] += 1` that the compiler adds only when asked
(compiler.compile_counted): the normal program has none, and the counted one
is the normal one with those lines added, so both play the same games. An
item no line counts is left out of the code under these options (an `if`
whose condition the options fix, a trigger that can never fire): it is
reported as not compiled.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..agents import default_reserve, make_agent
from ..checking.loader import RuleSet, load
from ..checking.narrowing import statement_blocks, walk_statements
from ..compiling.compiler import compile_counted
from ..core.errors import UsageError, visible
from ..core.resources import editions_dir
from ..engine.game import Game
from ..language import ast

_SNIPPET = 72  # the most characters of a statement's text a label keeps


@attrs.define
class Item:
    """One thing in the rules that can fire, and how often it did."""

    key: str  # the labels from the top down, joined by " > ": what names it across edits of the file
    kind: str  # rule, handler, trigger, action, card, end, statement, branch or option
    label: str  # its own label, the last part of the key
    file: str  # the .lg file it is written in
    line: int
    parent: int | None  # the index of the item it is part of
    compiled: bool = True  # False: the options leave it out of the program, so it cannot fire
    games: int = 0  # games in which it fired
    times: int = 0  # times it fired, in all the games


@attrs.define
class Coverage:
    """What `coverage` found: the items of the rules in the order of their files, and the games played.

    Example:

        >>> report = ld.coverage("landlords-game-1906", games=2, players=2)
        >>> report.games, report.players, isinstance(report.never_fired(), list)
        (2, 2, True)
    """

    name: str
    title: str
    games: int
    players: int
    seed: int
    options: dict[str, Any]
    items: list[Item]
    files: tuple[str, ...]  # the rules' files, the base edition first

    def never_fired(self, outermost: bool = True, files: Sequence[str] | None = None) -> list[Item]:
        """Return the items that fired in no game, in file order; `outermost`: only those whose parent fired
        (what is inside an item that never fired never fired either). `files`: only the items of these files."""
        found = []
        for item in self.items:
            if item.games or (files is not None and item.file not in files):
                continue
            if outermost and item.parent is not None and not self.items[item.parent].games:
                continue
            found.append(item)
        return found

    def inside(self, index: int) -> int:
        """Return how many items lie inside item `index` (all of them, at any depth)."""
        return sum(1 for i in range(len(self.items)) if self._within(i, index))

    def _within(self, i: int, ancestor: int) -> bool:
        parent = self.items[i].parent
        while parent is not None:
            if parent == ancestor:
                return True
            parent = self.items[parent].parent
        return False

    def own_files(self) -> tuple[str, ...]:
        """Return the files of the rules past their base edition (a variant's own), or the edition's file."""
        return self.files[1:] or self.files

    def result(self) -> dict[str, Any]:
        """Return the report as JSON data: every item (statements included), the never-fired ones by key."""
        return {
            "edition": self.name,
            "title": self.title,
            "games": self.games,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "items": [
                {
                    "key": item.key,
                    "kind": item.kind,
                    "file": shown_path(item.file),
                    "line": item.line,
                    "games": item.games,
                    "times": item.times,
                    "compiled": item.compiled,
                    "parent": item.parent,
                }
                for item in self.items
            ],
            "never_fired": [item.key for item in self.never_fired()],
        }


def coverage(
    rules: RuleSet | str,
    games: int = 100,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    bot_reserve: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Coverage:
    """Play `games` games of heuristic bots with seeds seed, seed+1, ... (as `simulate` does) and return
    the Coverage of the rules: in how many games, and how many times, each item fired.

    `players`: default four, or the nearest number the rules allow. `bot_reserve`: the cash the bots
    keep back (None: agents.default_reserve). `progress` is called with (games done, games).
    """
    ruleset = load(rules) if isinstance(rules, str) else rules
    found = inventory(ruleset)
    program, counts, counted = compile_counted(ruleset, options, found.counters)
    low, high = program.players
    players = players if players is not None else min(max(4, low), high)
    if not low <= players <= high:
        raise UsageError(f"{program.name} is for {low} to {high} players, not {players}")
    if games < 1:
        raise UsageError("coverage needs at least one game")
    if bot_reserve is not None and bot_reserve < 0:
        raise UsageError(f"a bot reserve cannot be negative ({bot_reserve})")
    items = found.items
    ended = [0] * len(found.ends)
    program.end_conditions = [
        (_counting_end(check, ended, e), name) for e, (check, name) in enumerate(program.end_conditions)
    ]
    reserve = default_reserve(program, players) if bot_reserve is None else bot_reserve
    for index, counter in found.counted_items:
        items[index].compiled = counter in counted
    for rule, parts in found.parts.items():
        items[rule].compiled = any(items[p].compiled for p in parts)
    counter_items = list(found.counted_items)
    zero = [0] * len(counts)
    for number in range(games):
        game_seed = seed + number
        game = Game(program, [make_agent("bot", game_seed, i, reserve) for i in range(players)], seed=game_seed)
        counts[:] = zero  # only this game's runs: not those of a setup played aside (default_reserve)
        ended[:] = [0] * len(ended)
        game.play()
        for index, counter in counter_items:
            times = counts[counter]
            if times:
                items[index].games += 1
                items[index].times += times
        for rule, parts in found.parts.items():
            times = sum(counts[found.counter_of[p]] for p in parts)
            if times:
                items[rule].games += 1
                items[rule].times += times
        for e, times in enumerate(ended):
            if times:
                items[found.ends[e]].games += 1
                items[found.ends[e]].times += times
        if progress is not None:
            progress(number + 1, games)
    return Coverage(
        program.name,
        program.title,
        games,
        players,
        seed,
        dict(program.options),
        items,
        tuple(module.source_name for module in ruleset.modules),
    )


def _counting_end(check: Callable[[Game], Any], ended: list[int], e: int) -> Callable[[Game], Any]:
    """Return the end condition `check`, counting in `ended[e]` each time it ends a game."""

    def counted(game: Game) -> Any:
        value = check(game)
        if value:
            ended[e] += 1
        return value

    return counted


class Inventory:
    """The items of a rule set (Item, in file order) and the coverage counters of those that have one."""

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.counters: dict[Any, int] = {}  # by node key (compiler.compile_counted): the counter
        self.counted_items: list[tuple[int, int]] = []  # (item, its counter)
        self.counter_of: dict[int, int] = {}  # by item: its counter
        self.parts: dict[int, list[int]] = {}  # by rule item: its handlers' and triggers' items
        self.ends: list[int] = []  # the end conditions' items, in the program's order
        self._seen: dict[str, int] = {}
        self._lines: dict[str, list[str]] = {}

    def add(self, kind: str, label: str, span: ast.Span, parent: int | None, node_key: Any = None) -> int:
        """Add an item (counted by the counter of `node_key`, if given); return its index."""
        key = label if parent is None else f"{self.items[parent].key} > {label}"
        if key in self._seen:  # two alike in one place: the second is #2, and so on
            self._seen[key] += 1
            label += f" #{self._seen[key]}"
            key += f" #{self._seen[key]}"
        else:
            self._seen[key] = 1
        index = len(self.items)
        self.items.append(Item(key, kind, label, span.file, span.line, parent))
        if node_key is not None:
            counter = len(self.counters)
            self.counters[node_key] = counter
            self.counted_items.append((index, counter))
            self.counter_of[index] = counter
        return index

    def snippet(self, span: ast.Span) -> str:
        """Return the .lg text a span starts with, on its first line: collapsed, without an opening brace."""
        lines = self._lines.get(span.file, [])
        text = lines[span.line - 1][span.column - 1 :] if 0 < span.line <= len(lines) else ""
        text = " ".join(text.split()).removesuffix("{").rstrip()
        return text if len(text) <= _SNIPPET else text[: _SNIPPET - 1] + "…"

    def else_span(self, s: ast.If) -> ast.Span:
        """Return where an `if`'s `else` is written: the last line from its first statement up that has it."""
        assert s.otherwise
        first = s.otherwise[0].span
        lines = self._lines.get(first.file, [])
        line = first.line
        while line > s.span.line and not re.search(r"\belse\b", lines[line - 1] if line <= len(lines) else ""):
            line -= 1
        return attrs.evolve(first, line=line, column=1)

    def statements(self, stmts: Sequence[ast.Stmt], parent: int) -> None:
        """Add the items of a block's statements (and of their arms and options) under item `parent`."""
        for s in stmts:
            self.statement(s, parent)

    def statement(self, s: ast.Stmt, parent: int) -> None:
        index = self.add("statement", self.snippet(s.span), s.span, parent, id(s))
        if isinstance(s, ast.If):
            then = self.add("branch", "then", s.span, index, (id(s), "then"))
            self.statements(s.then, then)
            if s.otherwise:
                arm = self.add("branch", "else", self.else_span(s), index, (id(s), "else"))
                self.statements(s.otherwise, arm)
        elif isinstance(s, ast.For):
            self.statements(s.body, index)
        elif isinstance(s, ast.Choose):
            for o in s.options:
                option = self.add("option", f"option {o.name}", o.span, index, id(o))
                self.statements(o.body, option)
            if s.repeat:
                # at the offer's closing brace, after its options
                self.add("option", "done", attrs.evolve(s.span, line=s.span.end_line), index, (id(s), "done"))


def inventory(ruleset: RuleSet) -> Inventory:
    """Return the items of a rule set, with a coverage counter for each that has one, in file order."""
    m = ruleset.model
    found = Inventory()
    found._lines = {module.source_name: module.source_text.splitlines() for module in ruleset.modules}
    for rule in m.rules:
        if not rule.handlers and not rule.triggers:
            continue  # a rule said in words only ("nothing happens") has nothing to fire
        r = found.add("rule", f"rule {rule.name}", rule.span, None)
        parts = found.parts.setdefault(r, [])
        for handler in rule.handlers:
            h = found.add("handler", handler.heading, handler.span, r, id(handler))
            parts.append(h)
            found.statements(handler.body, h)
        for trigger in rule.triggers:
            t = found.add("trigger", found.snippet(trigger.span), trigger.span, r, id(trigger))
            parts.append(t)
            found.statements(trigger.body, t)
    for action in m.actions.values():
        a = found.add("action", f"action {action.name}", action.span, None, id(action))
        found.statements(action.body, a)
    drawn = {s.deck for body in statement_blocks(m) for s in walk_statements(body) if isinstance(s, ast.Draw)}
    for deck in m.decks.values():
        if deck.name not in drawn:  # cards only dealt or given (title deeds, shares) have no effect to run
            continue
        for card in deck.cards:
            c = found.add("card", f"card {card.name} of {deck.name}", card.span, None, id(card))
            found.statements(card.body, c)
    for end in m.ends:
        found.ends.append(found.add("end", f"end {end.name or found.snippet(end.condition.span)}", end.span, None))
    order = sorted(range(len(found.items)), key=lambda i: _place(found.items[i], ruleset))
    return _reordered(found, order)


def _place(item: Item, ruleset: RuleSet) -> tuple[int, int]:
    files = [module.source_name for module in ruleset.modules]
    return (files.index(item.file) if item.file in files else len(files), item.line)


def _reordered(found: Inventory, order: list[int]) -> Inventory:
    """Return the inventory with its items in `order` (stable within a line: a parent before its parts)."""
    # items of one line keep their order of addition, which puts a parent first
    new_index = {old: new for new, old in enumerate(order)}
    items = [found.items[old] for old in order]
    for item in items:
        if item.parent is not None:
            item.parent = new_index[item.parent]
    found.items = items
    found.counted_items = [(new_index[i], c) for i, c in found.counted_items]
    found.counter_of = {new_index[i]: c for i, c in found.counter_of.items()}
    found.parts = {new_index[r]: [new_index[p] for p in parts] for r, parts in found.parts.items()}
    found.ends = [new_index[e] for e in found.ends]
    return found


def shown_path(file: str) -> str:
    """Return a rule file's path as reports show it: from the current folder, or the shipped `editions/`."""
    path = Path(file)
    for base in (Path.cwd(), editions_dir().parent):
        try:
            return str(path.resolve().relative_to(base.resolve()))
        except ValueError:
            continue
    return file


# ------------------------------------------------------------------ reports
def _where(item: Item) -> str:
    return f"{shown_path(item.file)}:{item.line}"


def _listed(report: Coverage) -> Iterator[Item]:
    """Return the items the text and Markdown reports list as fired: all but the statements."""
    return (item for item in report.items if item.games and item.kind != "statement")


def render_text(report: Coverage) -> str:
    """Return the report for a terminal: what never fired first (outermost items), then what fired."""
    never = report.never_fired()
    lines = [_heading(report), _summary(report), ""]
    if not report.items:
        lines.append("Nothing in these rules can fire: they have no rule with a handler or trigger, card drawn or end.")
    else:
        lines.append(f"Never fired ({len(never)}):" if never else "Everything fired.")
    width = max((len(_where(item)) for item in report.items), default=0)
    for item in never:
        lines.append(f"  {_where(item):{width}}  {item.kind:9}  {item.key}{_note(report, item)}")
    fired = list(_listed(report))
    if fired:
        lines += ["", "Fired (games, times; statements are in --format json):"]
        for item in fired:
            lines.append(f"  {_where(item):{width}}  {item.kind:9}  {item.games:>5} {item.times:>8}  {item.key}")
    return "\n".join(visible(line) for line in lines)


def render_markdown(report: Coverage) -> str:
    """Return the report as Markdown: the never-fired items, then the fired ones, as tables."""
    never = report.never_fired()
    lines = [f"## {_heading(report)}", "", _summary(report), ""]
    if never:
        lines += [f"### Never fired ({len(never)})", "", "| where | kind | item |", "|---|---|---|"]
        lines += [f"| {_where(i)} | {i.kind} | {_cell(i.key)}{_cell(_note(report, i))} |" for i in never]
        lines.append("")
    lines += ["### Fired", "", "| where | kind | games | times | item |", "|---|---|--:|--:|---|"]
    lines += [f"| {_where(i)} | {i.kind} | {i.games} | {i.times} | {_cell(i.key)} |" for i in _listed(report)]
    return "\n".join(visible(line) for line in lines)


def render_json(report: Coverage) -> str:
    return json.dumps(report.result(), indent=2)


def render_toml(report: Coverage) -> str:
    """Return candidate allow-list entries (tests/data/coverage-allow.toml) for the never-fired items of the
    rules' own files (a variant's, past its base edition), each with a reason to write in."""
    lines = [f"[{toml_string(report.name)}]"]
    for item in report.never_fired(files=report.own_files()):
        reason = "only under other options" if not item.compiled else "TODO: why it never fires"
        lines.append(f"{toml_string(item.key)} = {toml_string(reason)}  # {_where(item)}")
    return "\n".join(lines)


def unlisted(report: Coverage, allowed: dict[str, str]) -> tuple[list[Item], list[str]]:
    """Return what an allow-list (key -> reason) leaves unexplained in a report: (the never-fired items of the
    rules' own files that no entry allows, the entries that allow none of them: stale).

    An entry is an item's key; a `*` in it stands for any text, so one entry can allow the like items of
    one place (the cards of one pack, say).
    """
    patterns = {entry: re.compile(".*".join(map(re.escape, entry.split("*")))) for entry in allowed}
    never = report.never_fired(files=report.own_files())
    used: set[str] = set()
    missing = []
    for item in never:
        matching = [entry for entry, pattern in patterns.items() if pattern.fullmatch(item.key)]
        used.update(matching)
        if not matching:
            missing.append(item)
    return missing, [entry for entry in allowed if entry not in used]


def toml_string(text: str) -> str:
    """Return `text` as a TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def _heading(report: Coverage) -> str:
    last = report.seed + report.games - 1
    seeds = f"seed {report.seed}" if report.games == 1 else f"seeds {report.seed}-{last}"
    return f"Coverage of {report.title}: {report.games} games, {report.players} players, {seeds}"


def _summary(report: Coverage) -> str:
    counted = [item for item in report.items if item.kind != "statement"]
    statements = [item for item in report.items if item.kind == "statement"]
    fired = sum(1 for item in counted if item.games)
    ran = sum(1 for item in statements if item.games)
    left_out = sum(1 for item in report.items if not item.compiled)
    return (
        f"{fired} of {len(counted)} rules, handlers, branches, options, cards and ends fired; "
        f"{ran} of {len(statements)} statements ran; {left_out} items left out by the options"
    )


def _note(report: Coverage, item: Item) -> str:
    notes = []
    if not item.compiled:
        notes.append("left out by the options")
    inside = report.inside(report.items.index(item))
    if inside:
        notes.append(f"{inside} inside")
    return f"  ({'; '.join(notes)})" if notes else ""


def _cell(text: str) -> str:
    return re.sub(r"([|\\`*_])", r"\\\1", text)


FORMATS: dict[str, Callable[[Coverage], str]] = {
    "text": render_text,
    "markdown": render_markdown,
    "json": render_json,
    "toml": render_toml,
}
