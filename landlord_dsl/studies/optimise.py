"""A search over option values and constants for the rules that best meet an objective (`landlord-dsl optimise`).

Each trial sets the varied options and constants (a constant as `--set`
sets it, checking.constants), plays games 0..G-1 from seeds seed..seed+G-1
(common random numbers: every trial plays the same seeds, so two trials
differ only by their rules), and reduces each game to the values of the
metrics the objectives and constraints name (studies.paired). A trial's
objective is the mean over its games. Optuna proposes the trials: TPE for
one objective, NSGA-II for several (with their Pareto front), both given
the constraints (a mean above or below a bound) so that infeasible trials
are avoided.

The search is reproducible: trial n is proposed by a sampler seeded with
`study seed + n` from the trials before it, and a trial's games are played
in order by play_cells, the same for any --jobs; so the same question gives
the same trials and the same answer, in one run or resumed from its storage
(optuna's SQLite database) after an interruption. A storage remembers the
question it was made for and refuses another.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ..checking.constants import _literal, with_constants
from ..checking.loader import RuleSet
from ..checking.options import resolve_options
from ..core.errors import Diagnostic, LandlordError, UsageError, did_you_mean
from ..language import ast
from ..language.formatter import format_module
from .paired import Interval, difference, level, metric_meaning, parse_metrics, play_cells
from .rulesource import rule_source
from .stats import fixed
from .sweep import option_text

STUDY_NAME = "landlord-dsl optimise"
STARTUP_TRIALS = 10  # TPE's random trials before it models the objective
POPULATION = 16  # NSGA-II's population (small: a study has tens of trials, not thousands)
RUNNERS_UP = 5  # trials shown beside the best, each compared with it game by game
_OBJECTIVE = re.compile(r"\s*(minimi[sz]e|maximi[sz]e)\s+([a-z0-9_]+)\s*")
_CONSTRAINT = re.compile(r"\s*([a-z0-9_]+)\s*(<=|>=)\s*(-?[0-9]+(?:\.[0-9]+)?)\s*")
_RANGE = re.compile(r"\s*(-?[0-9]+)\s*\.\.\s*(-?[0-9]+)\s*(?:,\s*([0-9]+)\s*)?")


def optuna_module() -> Any:
    """Return the optuna module, or raise a LandlordError saying how to install it."""
    try:
        import optuna
    except ImportError:
        raise LandlordError("landlord-dsl optimise needs optuna: pip install 'landlord-dsl[optimise]'") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


@attrs.frozen
class Dimension:
    """An option or a constant the search varies: whole numbers low..high by step, or the listed values."""

    name: str
    kind: str  # "option" or "const"
    low: int = 0
    high: int = 0
    step: int = 1
    values: tuple[Any, ...] | None = None

    def describe(self) -> str:
        """Return the dimension as `--vary` writes it."""
        if self.values is not None:
            return f"{self.name}={','.join(option_text(v) for v in self.values)}"
        return f"{self.name}={self.low}..{self.high}" + (f",{self.step}" if self.step != 1 else "")


@attrs.frozen
class Objective:
    """A metric to minimise or maximise (its mean over a trial's games)."""

    metric: str
    maximise: bool

    def describe(self) -> str:
        """Return the objective as `--objective` writes it."""
        return f"{'maximise' if self.maximise else 'minimise'} {self.metric}"


@attrs.frozen
class Constraint:
    """A bound a trial's mean of a metric must keep to (`turns <= 150`)."""

    metric: str
    at_most: bool
    bound: float

    def describe(self) -> str:
        """Return the constraint as `--constraint` writes it."""
        return f"{self.metric} {'<=' if self.at_most else '>='} {self.bound:g}"

    def excess(self, mean: float) -> float:
        """Return how far a mean lies beyond the bound (zero or less: the constraint holds), optuna's convention."""
        return mean - self.bound if self.at_most else self.bound - mean


def parse_vary(rules: RuleSet, texts: Sequence[str], fixed_names: Sequence[str] = ()) -> tuple[Dimension, ...]:
    """Return the dimensions `--vary` names: `NAME=LO..HI[,STEP]` (a whole-number option or constant),
    `NAME=V1,V2,...` (listed values) or `NAME` alone (every value of a true/false or choice option).

    Every problem (an unknown name, a bad range, a value of the wrong type, a name given twice or also
    fixed by --option/--set) is a UsageError naming it."""
    options, consts = rules.model.options, rules.model.consts
    out: list[Dimension] = []
    problems: list[Diagnostic] = []
    for text in texts:
        name, sep, spec = text.partition("=")
        name = name.strip()
        if name in options:
            kind = "option"
        elif name in consts:
            kind = "const"
        else:
            problems.append(
                Diagnostic(
                    f"--vary: {rules.name} has no option or constant '{name}'",
                    hint=did_you_mean(name, [*options, *consts]) or "see `landlord-dsl show` for its options",
                )
            )
            continue
        if name in fixed_names or any(d.name == name for d in out):
            problems.append(Diagnostic(f"--vary {name}: it is given twice (or also fixed by --option or --set)"))
            continue
        try:
            out.append(_dimension(rules, name, kind, spec.strip() if sep else None))
        except UsageError as err:
            problems.extend(err.diagnostics)
    if problems:
        raise UsageError(problems)
    if not out:
        raise UsageError("optimise needs something to vary: --vary NAME=LO..HI[,STEP] (repeatable)")
    return tuple(out)


def _dimension(rules: RuleSet, name: str, kind: str, spec: str | None) -> Dimension:
    """Return one dimension of the search, its values checked against the option's or constant's type."""
    default: int | str | bool | None
    if kind == "option":
        default = rules.model.options[name].default
    else:
        default = 0 if rules.model.annotations.type_of(rules.model.consts[name]) == "int" else None
    if spec is None:
        if kind == "option" and isinstance(default, bool):
            return Dimension(name, kind, values=(False, True))
        choices = rules.model.choices.get(rules.model.options[name].choice or name) if kind == "option" else None
        if choices is None:
            raise UsageError(f"--vary {name}: give its range, NAME=LO..HI[,STEP], or its values, NAME=V1,V2,...")
        return Dimension(name, kind, values=tuple(choices))
    if (m := _RANGE.fullmatch(spec)) is not None:
        low, high, step = int(m.group(1)), int(m.group(2)), int(m.group(3) or 1)
        if not isinstance(default, int) or isinstance(default, bool):
            raise UsageError(f"--vary {name}: a range needs a whole-number {kind}; list its values instead")
        if high <= low or step < 1 or (high - low) % step:
            raise UsageError(
                f"--vary {name}={spec}: a range is LO..HI with LO below HI, and STEP (at least 1) dividing HI - LO"
            )
        for end in (low, high):
            _typed(rules, name, kind, str(end))
        return Dimension(name, kind, low, high, step)
    values = tuple(dict.fromkeys(_typed(rules, name, kind, v.strip()) for v in spec.split(",") if v.strip()))
    if len(values) < 2:
        raise UsageError(f"--vary {name}={spec}: give at least two values, or a range LO..HI[,STEP]")
    return Dimension(name, kind, values=values)


def _typed(rules: RuleSet, name: str, kind: str, text: str) -> Any:
    """Return a value of an option or constant, typed; raise UsageError if it is not one."""
    if kind == "option":
        return resolve_options(rules, {name: text})[name]
    found = _literal(name, rules.model.annotations.type_of(rules.model.consts[name]), text)
    if isinstance(found, Diagnostic):
        raise UsageError([found])
    return found[1]


def parse_objectives(texts: Sequence[str], players: int) -> tuple[Objective, ...]:
    """Return the objectives (`minimise METRIC` or `maximise METRIC`); a bad one is a UsageError."""
    out = []
    for text in texts:
        m = _OBJECTIVE.fullmatch(text)
        if m is None:
            raise UsageError(f"--objective wants 'minimise METRIC' or 'maximise METRIC', not {text!r}")
        (metric,) = parse_metrics([m.group(2)], players)
        out.append(Objective(metric, m.group(1).startswith("max")))
    if not out:
        raise UsageError("optimise needs an objective: --objective 'minimise gini_round_20' (repeatable)")
    if len({o.metric for o in out}) != len(out):
        raise UsageError("--objective: a metric is named twice")
    return tuple(out)


def parse_constraints(texts: Sequence[str], players: int) -> tuple[Constraint, ...]:
    """Return the constraints (`METRIC <= BOUND` or `METRIC >= BOUND`); a bad one is a UsageError."""
    out = []
    for text in texts:
        m = _CONSTRAINT.fullmatch(text)
        if m is None:
            raise UsageError(f"--constraint wants 'METRIC <= BOUND' or 'METRIC >= BOUND', not {text!r}")
        (metric,) = parse_metrics([m.group(1)], players)
        out.append(Constraint(metric, m.group(2) == "<=", float(m.group(3))))
    return tuple(out)


@attrs.frozen
class Question:
    """Everything that decides a study's trials and their values: what a storage is made for."""

    rules: RuleSet
    dimensions: tuple[Dimension, ...]
    objectives: tuple[Objective, ...]
    constraints: tuple[Constraint, ...]
    games: int
    players: int
    seed: int = 0
    study_seed: int = 0
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def metrics(self) -> tuple[str, ...]:
        """Return the metrics played: the objectives', then the constraints' not among them."""
        return tuple(dict.fromkeys([o.metric for o in self.objectives] + [c.metric for c in self.constraints]))

    def fingerprint(self) -> str:
        """Return the question as one JSON text (the rules by their hash, with what --set sets)."""
        return json.dumps(
            {
                "rules": self.rules.name,
                "rules_hash": self.rules.rules_hash,
                "options": [list(o) for o in self.options],
                "vary": [f"{d.kind} {d.describe()}" for d in self.dimensions],
                "objectives": [o.describe() for o in self.objectives],
                "constraints": [c.describe() for c in self.constraints],
                "games": self.games,
                "players": self.players,
                "seed": self.seed,
                "study_seed": self.study_seed,
            },
            sort_keys=True,
        )


def _cell(q: Question, params: dict[str, Any]) -> Any:
    """Return the RuleSource a trial plays: the rules with its constants set, and its options (the rules as
    given for no `params`)."""
    consts = {d.name: params[d.name] for d in q.dimensions if d.kind == "const" and d.name in params}
    options = {
        **dict(q.options),
        **{d.name: params[d.name] for d in q.dimensions if d.kind == "option" and d.name in params},
    }
    rules = with_constants(q.rules, {**dict(q.rules.constants), **consts}) if consts else q.rules
    return rule_source(rules, resolve_options(rules, options))


def _sampler(optuna: Any, q: Question, number: int) -> Any:
    """Return the sampler that proposes trial `number`: seeded with the study seed plus the number."""
    seed = q.study_seed + number

    def constraints(trial: Any) -> list[float]:
        return list(trial.user_attrs.get("excess", [0.0]))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the constraints argument is marked experimental
        if len(q.objectives) > 1:
            return optuna.samplers.NSGAIISampler(
                population_size=POPULATION, seed=seed, constraints_func=constraints if q.constraints else None
            )
        return optuna.samplers.TPESampler(
            n_startup_trials=STARTUP_TRIALS, seed=seed, constraints_func=constraints if q.constraints else None
        )


def _suggest(trial: Any, d: Dimension) -> Any:
    if d.values is not None:
        return d.values[trial.suggest_categorical(d.name, list(range(len(d.values))))]
    return trial.suggest_int(d.name, d.low, d.high, step=d.step)


def run_study(
    q: Question,
    trials: int,
    storage: str | None = None,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Run (or continue, from `storage`, a path to an SQLite file) the search until it has `trials` complete
    trials; return the study as plain data: the baseline (the rules as given), every trial, the best (or, for
    several objectives, the Pareto front) with intervals and paired differences."""
    optuna = optuna_module()
    if trials < 1:
        raise UsageError("--trials must be at least 1")
    url = f"sqlite:///{storage}" if storage else None
    directions = ["maximize" if o.maximise else "minimize" for o in q.objectives]
    try:
        study = optuna.create_study(
            storage=url,
            study_name=STUDY_NAME,
            directions=directions,
            load_if_exists=True,
            sampler=_sampler(optuna, q, 0),
        )
    except ValueError as err:  # the storage holds a study with other directions
        raise UsageError(f"--storage {storage}: it holds a study of another question ({err})") from None
    except Exception as err:  # sqlalchemy's errors: not a database, or one another program wrote
        why = str(getattr(err, "orig", None) or err).splitlines()[0]  # sqlite's own words, not sqlalchemy's page
        raise UsageError(f"--storage {storage}: cannot use it as optuna's SQLite storage: {why}") from None
    fingerprint = q.fingerprint()
    held = study.user_attrs.get("question")
    if held is None and study.trials:
        raise UsageError(f"--storage {storage}: it holds a study that is not landlord-dsl's")
    if held is not None and held != fingerprint:
        raise UsageError(
            [
                Diagnostic(
                    f"--storage {storage}: it holds a study of another question",
                    hint="give another --storage, or the same edition, --vary, --objective, --constraint, --games, "
                    "--players, --seed, --study-seed, --option and --set as when it was made: "
                    + _difference(json.loads(held), json.loads(fingerprint)),
                )
            ]
        )
    metrics = q.metrics
    if held is None:  # the question is kept with its baseline, so that a study stopped here starts afresh
        (baseline,) = play_cells([_cell(q, {})], q.games, q.players, metrics, q.seed, jobs)
        study.set_user_attr("baseline", [list(row) for row in baseline])
        study.set_user_attr("question", fingerprint)
    baseline = [tuple(row) for row in study.user_attrs["baseline"]]

    def done() -> list[Any]:
        return [t for t in study.get_trials(deepcopy=False) if t.state == optuna.trial.TrialState.COMPLETE]

    finished = done()
    played: dict[str, list[list[float]]] = {}

    def objective(trial: Any) -> tuple[float, ...] | float:
        params = {d.name: _suggest(trial, d) for d in q.dimensions}
        key = json.dumps(trial.params, sort_keys=True)
        if key in played:  # the same rules play the same games: no need to play them again
            rows = [tuple(r) for r in played[key]]
        else:
            (rows,) = play_cells([_cell(q, params)], q.games, q.players, metrics, q.seed, jobs)
        means = [sum(r[m] for r in rows) / len(rows) for m in range(len(metrics))]
        trial.set_user_attr("per_game", [list(r) for r in rows])
        trial.set_user_attr("excess", [c.excess(means[metrics.index(c.metric)]) for c in q.constraints])
        values = tuple(means[metrics.index(o.metric)] for o in q.objectives)
        return values if len(values) > 1 else values[0]

    while len(finished) < trials:
        played.update({json.dumps(t.params, sort_keys=True): t.user_attrs["per_game"] for t in finished})
        study.sampler = _sampler(optuna, q, len(finished))
        study.optimize(objective, n_trials=1, catch=())
        finished = done()
        if progress is not None:
            progress(len(finished), trials)
    return _report(q, finished[:trials], baseline, storage)


def _difference(held: dict[str, Any], asked: dict[str, Any]) -> str:
    """Return what differs between two fingerprints, in words."""
    return "; ".join(f"{k} was {held.get(k)!r}, now {asked.get(k)!r}" for k in sorted(asked) if held.get(k) != asked[k])


def _params(q: Question, t: Any) -> dict[str, Any]:
    """Return a trial's values of the dimensions (the listed values, not their indexes)."""
    return {d.name: d.values[t.params[d.name]] if d.values is not None else t.params[d.name] for d in q.dimensions}


def _entry(q: Question, t: Any, number: int, baseline: list[tuple[float, ...]]) -> dict[str, Any]:
    """Return trial `number` (counting complete trials only, from 0) as data: its values, each metric's mean with
    its interval, and its paired difference from the baseline (value minus baseline, game by game)."""
    rows = [tuple(r) for r in t.user_attrs["per_game"]]
    metrics = q.metrics
    return {
        "trial": number,
        "params": _params(q, t),
        "feasible": all(e <= 0 for e in t.user_attrs["excess"]),
        "rows": rows,
        "metrics": {
            name: {
                "value": level(name, [r[m] for r in rows]),
                "vs_baseline": difference(name, [r[m] - b[m] for r, b in zip(rows, baseline)]),
            }
            for m, name in enumerate(metrics)
        },
    }


def _dominates(a: dict[str, Any], b: dict[str, Any], objectives: Sequence[Objective]) -> bool:
    def score(e: dict[str, Any], o: Objective) -> float:
        mean = e["metrics"][o.metric]["value"].mean
        return -mean if o.maximise else mean

    pairs = [(score(a, o), score(b, o)) for o in objectives]
    return all(x <= y for x, y in pairs) and any(x < y for x, y in pairs)


def _report(q: Question, finished: list[Any], baseline: list[tuple[float, ...]], storage: str | None) -> dict[str, Any]:
    """Return the study's data: the question, the baseline, every distinct trial, the best or the Pareto front."""
    entries: list[dict[str, Any]] = []
    seen: set[str] = set()
    for number, t in enumerate(sorted(finished, key=lambda t: t.number)):
        key = json.dumps(t.params, sort_keys=True)
        if key not in seen:  # a setting proposed again is the same games: shown once, at its first trial
            seen.add(key)
            entries.append(_entry(q, t, number, baseline))
    feasible = [e for e in entries if e["feasible"]]
    metrics = q.metrics
    data: dict[str, Any] = {
        "edition": q.rules.name,
        "constants_set": dict(q.rules.constants),
        "options_set": dict(q.options),
        "vary": [d.describe() for d in q.dimensions],
        "objectives": [o.describe() for o in q.objectives],
        "constraints": [c.describe() for c in q.constraints],
        "meanings": {name: metric_meaning(name) for name in metrics},
        "games": q.games,
        "players": q.players,
        "seed": q.seed,
        "study_seed": q.study_seed,
        "trials": len(finished),
        "distinct": len(entries),
        "storage": storage,
        "sampler": "NSGA-II" if len(q.objectives) > 1 else "TPE",
        "baseline": {name: level(name, [r[m] for r in baseline]) for m, name in enumerate(metrics)},
        "entries": entries,
        "feasible": len(feasible),
        "best": None,
        "runners_up": [],
        "front": [],
    }
    if not feasible:
        return data
    if len(q.objectives) == 1:
        (o,) = q.objectives
        sign = -1 if o.maximise else 1
        ranked = sorted(feasible, key=lambda e: (sign * e["metrics"][o.metric]["value"].mean, e["trial"]))
        best = ranked[0]
        data["best"] = best
        m = metrics.index(o.metric)
        data["runners_up"] = [
            {
                **e,
                "vs_best": difference(o.metric, [r[m] - b[m] for r, b in zip(e["rows"], best["rows"])]),
                "same_games": [r[m] for r in e["rows"]] == [b[m] for b in best["rows"]],
            }
            for e in ranked[1 : 1 + RUNNERS_UP]
        ]
    else:
        front = [e for e in feasible if not any(_dominates(f, e, q.objectives) for f in feasible)]
        first = q.objectives[0]
        data["front"] = sorted(
            front, key=lambda e: ((-1 if first.maximise else 1) * e["metrics"][first.metric]["value"].mean, e["trial"])
        )
        data["best"] = data["front"][0]
    return data


def confirm(q: Question, data: dict[str, Any], games: int, jobs: int | None = None, pick: int | None = None) -> None:
    """Play the chosen setting (chosen()) and the rules as given on `games` fresh seeds, the ones after the
    study's, and add to `data` each metric's value on both and their paired difference: the best of many
    trials is chosen for looking good on the study's seeds, so its own intervals flatter it; these do not."""
    e = chosen(data, pick)
    start = q.seed + q.games
    given, best = play_cells([_cell(q, {}), _cell(q, e["params"])], games, q.players, q.metrics, start, jobs)
    data["confirmation"] = {
        "games": games,
        "seed": start,
        "trial": e["trial"],
        "params": e["params"],
        "metrics": {
            name: {
                "given": level(name, [r[m] for r in given]),
                "chosen": level(name, [r[m] for r in best]),
                "difference": difference(name, [b[m] - g[m] for g, b in zip(given, best)]),
            }
            for m, name in enumerate(q.metrics)
        },
    }


def _shown(name: str, e: Interval, sign: bool = False) -> str:
    """Return a mean with its interval in the metric's own unit (percent for shares)."""
    share = name.startswith("win_seat_") or name == "prosperity"
    digits = 4 if name.startswith("gini_round_") else 1
    scale = 100 if share else 1
    unit = (" pts" if sign else " %") if share else ""
    return (
        f"{fixed(scale * e.mean, digits, sign)} "
        f"[{fixed(scale * e.low, digits, sign)}, {fixed(scale * e.high, digits, sign)}]{unit}"
    )


def _setting(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={option_text(v)}" for k, v in params.items())


def to_json(data: dict[str, Any]) -> dict[str, Any]:
    """Return a study as JSON-ready data (`--format json`), the per-game values left out."""

    def entry(e: dict[str, Any]) -> dict[str, Any]:
        out = {
            "trial": e["trial"],
            "params": e["params"],
            "feasible": e["feasible"],
            "metrics": {
                name: {"value": v["value"].to_json(), "vs_baseline": v["vs_baseline"].to_json()}
                for name, v in e["metrics"].items()
            },
        }
        if "vs_best" in e:
            out["vs_best"] = {**e["vs_best"].to_json(), "same_games": e["same_games"]}
        return out

    return {
        **{
            k: data[k]
            for k in (
                "edition",
                "constants_set",
                "options_set",
                "vary",
                "objectives",
                "constraints",
                "meanings",
                "games",
                "players",
                "seed",
                "study_seed",
                "trials",
                "distinct",
                "feasible",
                "sampler",
            )
        },
        "baseline": {name: e.to_json() for name, e in data["baseline"].items()},
        "best": entry(data["best"]) if data["best"] is not None else None,
        "runners_up": [entry(e) for e in data["runners_up"]],
        "front": [entry(e) for e in data["front"]],
        "trials_played": [entry(e) for e in data["entries"]],
        "confirmation": _confirmation_json(data.get("confirmation")),
    }


def _confirmation_json(c: dict[str, Any] | None) -> dict[str, Any] | None:
    if c is None:
        return None
    return {
        **{k: c[k] for k in ("games", "seed", "trial", "params")},
        "metrics": {
            name: {k: v.to_json() for k, v in parts.items()} | {"excludes_zero": parts["difference"].excludes_zero}
            for name, parts in c["metrics"].items()
        },
    }


def _header(data: dict[str, Any]) -> list[str]:
    lines = [
        f"optimise {data['edition']}: {'; '.join(data['objectives'])}"
        + (f" subject to {', '.join(data['constraints'])}" if data["constraints"] else ""),
        f"varied: {' '.join(data['vary'])}"
        + "".join(f"; set {k}={option_text(v)}" for k, v in {**data["constants_set"], **data["options_set"]}.items()),
        f"{data['trials']} trials ({data['distinct']} distinct, {data['feasible']} feasible; {data['sampler']}, "
        f"study seed {data['study_seed']}), {data['games']} games each, {data['players']} players, "
        f"seeds {data['seed']}..{data['seed'] + data['games'] - 1} in every trial",
        "every [low, high] is a 95 % interval across games (mean ± 1.96 SE; a share's: Wilson); a difference is "
        "paired game by game",
    ]
    return lines


def render_text(data: dict[str, Any]) -> str:
    """Return a study as text: the question, the baseline, the best (or the Pareto front) and the runners-up."""
    lines = _header(data) + ["", "metrics (the rules as given, with their defaults):"]
    for name, e in data["baseline"].items():
        lines.append(f"  {name:16} {_shown(name, e)}  {data['meanings'][name]}")
    if data["best"] is None:
        lines += ["", "no trial met the constraints"]
        return "\n".join(lines) + "\n"

    def block(e: dict[str, Any], title: str) -> None:
        lines.append(f"{title}: {_setting(e['params'])} (trial {e['trial']})")
        for name, v in e["metrics"].items():
            lines.append(
                f"  {name:16} {_shown(name, v['value'])}   vs as given {_shown(name, v['vs_baseline'], sign=True)}"
            )

    if data["front"] and len(data["objectives"]) > 1:
        lines += ["", f"Pareto front ({len(data['front'])} settings no other feasible trial beats on every objective):"]
        for i, e in enumerate(data["front"], 1):
            block(e, f"  [{i}]")
    else:
        lines.append("")
        block(data["best"], "best")
        if data["runners_up"]:
            metric = data["objectives"][0].split()[1]
            lines += ["", f"runners-up ({metric}, trial minus best, game by game):"]
            for e in data["runners_up"]:
                mean = _shown(metric, e["metrics"][metric]["value"])
                lines.append(
                    f"  {_setting(e['params'])}: {mean}, {_shown(metric, e['vs_best'], sign=True)}"
                    + (
                        "  (every game the same as the best's)"
                        if e["same_games"]
                        else ("" if e["vs_best"].excludes_zero else "  (not told apart from the best)")
                    )
                )
    lines += _confirmation_text(data.get("confirmation"))
    return "\n".join(lines) + "\n"


def _confirmation_text(c: dict[str, Any] | None) -> list[str]:
    if c is None:
        return []
    lines = [
        "",
        f"confirmed on {c['games']} fresh games (seeds {c['seed']}..{c['seed'] + c['games'] - 1}, not searched on): "
        f"{_setting(c['params'])} minus as given, game by game",
    ]
    for name, parts in c["metrics"].items():
        mark = " *" if parts["difference"].excludes_zero else ""
        lines.append(
            f"  {name:16} {_shown(name, parts['chosen'])} vs {_shown(name, parts['given'])}: "
            f"{_shown(name, parts['difference'], sign=True)}{mark}"
        )
    return lines


def render_markdown(data: dict[str, Any]) -> str:
    """Return a study (as `to_json` gives it) as Markdown: the question, then a table of the best (or the front)
    and the runners-up, one column per metric."""
    names = list(data["meanings"])

    def cell(name: str, e: dict[str, Any]) -> str:
        return _shown(name, Interval(e["mean"], e["ci95_low"], e["ci95_high"]))

    lines = [
        f"Optimising {data['edition']}: {'; '.join(data['objectives'])}"
        + (f", subject to {', '.join(data['constraints'])}" if data["constraints"] else "")
        + f" ({data['trials']} trials, {data['sampler']}, study seed {data['study_seed']}; {data['games']} games "
        f"a trial on seeds {data['seed']}..{data['seed'] + data['games'] - 1}; 95 % intervals across games).",
        "",
        "| Setting | " + " | ".join(f"`{n}`" for n in names) + " |",
        "|---|" + "---:|" * len(names),
        "| as given | " + " | ".join(cell(n, data["baseline"][n]) for n in names) + " |",
    ]
    rows = data["front"] if len(data["objectives"]) > 1 else ([data["best"]] if data["best"] else [])
    for i, e in enumerate(rows):
        mark = "**" if i == 0 or len(data["objectives"]) > 1 else ""
        lines.append(
            f"| {mark}{_setting(e['params'])}{mark} | "
            + " | ".join(cell(n, e["metrics"][n]["value"]) for n in names)
            + " |"
        )
    for e in data["runners_up"]:
        lines.append(
            f"| {_setting(e['params'])} | " + " | ".join(cell(n, e["metrics"][n]["value"]) for n in names) + " |"
        )
    return "\n".join(lines) + "\n"


REFERENCE = "optimise-study"  # the key the written variant cites its study by


def _literal_expr(value: Any) -> Any:
    if isinstance(value, bool):
        return ast.BoolLit(value)
    if isinstance(value, int):
        return ast.IntLit(value)
    return ast.TextLit(str(value))


def chosen(data: dict[str, Any], pick: int | None = None) -> dict[str, Any]:
    """Return the trial a written variant takes: the best, or with several objectives the front's `pick`-th
    setting (from 1; default the first); raise UsageError when there is none."""
    if data["best"] is None:
        raise UsageError("no trial met the constraints: there is no variant to write")
    if pick is None:
        return data["best"]
    if len(data["objectives"]) == 1:
        raise UsageError("--pick chooses a setting of a Pareto front: give it with several objectives")
    if not 1 <= pick <= len(data["front"]):
        raise UsageError(f"--pick {pick}: the Pareto front has settings 1 to {len(data['front'])}")
    return data["front"][pick - 1]


def variant_text(q: Question, data: dict[str, Any], name: str, extends: str, command: str, pick: int | None) -> str:
    """Return the .lg text of a variant named `name` that extends `extends` (the edition studied) and sets the
    chosen trial's values, with the constants and options the study fixed; its citations name the study
    (`command`, its seeds, trials and objective values with their intervals)."""
    e = chosen(data, pick)
    metrics = "; ".join(f"{n} {_shown(n, v['value'])}" for n, v in e["metrics"].items())
    given = "; ".join(f"{n} {_shown(n, v)}" for n, v in data["baseline"].items())
    summary = (
        f"trial {e['trial']} of {data['trials']} ({data['sampler']}, study seed {data['study_seed']}), "
        f"{data['games']} games on seeds {data['seed']}..{data['seed'] + data['games'] - 1}, {data['players']} "
        f"players: {metrics} (as given: {given}); 95 % intervals across games"
    )
    c = data.get("confirmation")
    if c is not None and c["trial"] == e["trial"]:
        summary += (
            f"; confirmed on {c['games']} fresh games (seeds {c['seed']}..{c['seed'] + c['games'] - 1}), minus as "
            "given: " + "; ".join(f"{n} {_shown(n, v['difference'], sign=True)}" for n, v in c["metrics"].items())
        )
    cite = ast.Provenance(f"{REFERENCE}, trial {e['trial']}", "original")
    options = {**dict(q.options), **{d.name: e["params"][d.name] for d in q.dimensions if d.kind == "option"}}
    consts = {**dict(q.rules.constants), **{d.name: e["params"][d.name] for d in q.dimensions if d.kind == "const"}}
    decls: list[Any] = [
        ast.ReferenceDecl(
            REFERENCE,
            f"landlord-dsl optimise: {'; '.join(data['objectives'])}"
            + (f" subject to {', '.join(data['constraints'])}" if data["constraints"] else ""),
            command,
        )
    ]
    for n, value in consts.items():
        decls.append(attrs.evolve(q.rules.model.consts[n], value=_literal_expr(value), provenance=cite))
    for n, value in options.items():
        decls.append(attrs.evolve(q.rules.model.options[n], default=value, provenance=cite))
    title = q.rules.model.header.title or q.rules.name
    header = ast.Header(
        name,
        title=f"{title}, with {_setting({**consts, **options})}",
        extends=extends,
        provenance=ast.Provenance(REFERENCE, "original", summary),
    )
    return format_module(ast.Module(header, tuple(decls)))
