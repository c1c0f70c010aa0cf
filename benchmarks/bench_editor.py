"""Editor benchmark: how long the language server takes to re-check a file after an edit (issue 34's goal: 300 ms),
and to answer a completion.

    python benchmarks/bench_editor.py [--repeat 10]

For each shipped edition, the best of R runs in CPU time (`time.process_time`) of what `landlord-dsl lsp`
does on every change of a document: `editor.features.problems` (parse, merge with the bases, check, work
out the fixed values), warm (the grammar loaded, the edition's text changed by one character each run, so
no cache of a previous run's result can answer). Then of two completions in a rule added at the file's end:
a statement's first word (the keywords the grammar allows there, worked out by parsing up to the cursor) and
the fields after `player.`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from time import process_time

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # benchmark the working tree next to this file, installed or not

from landlord_dsl.core.resources import editions_dir  # noqa: E402
from landlord_dsl.editor.features import completions, problems  # noqa: E402

_RULE = "\nrule bench_typing {\n    on turn {\n        STATEMENT\n    }\n}\n"


def _completion_ms(text: str, file: str, typed: str, repeat: int) -> float:
    """Return the best CPU time in ms of the completions at the end of `typed`, a statement of a rule added."""
    edited = text + _RULE.replace("STATEMENT", typed)
    line = edited.splitlines().index(f"        {typed}") + 1
    best = float("inf")
    for _ in range(repeat):
        start = process_time()
        found = completions(edited, file, line, len(f"        {typed}") + 1)
        best = min(best, process_time() - start)
        assert found, typed
    return 1000 * best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10, help="runs per edition (the best is kept)")
    args = ap.parse_args()
    print(f"best of {args.repeat}, CPU ms: re-check after an edit; completion of a statement; of a field")
    for path in sorted(editions_dir().glob("*.lg")):
        text = path.read_text(encoding="utf-8")
        best = float("inf")
        for run in range(args.repeat):
            edited = text + f"\n# edit {run}\n"  # a new text each time
            start = process_time()
            found = problems(edited, str(path))
            best = min(best, process_time() - start)
            assert not [d for d in found if d.severity == "error"], found
        statement = _completion_ms(text, str(path), "p", args.repeat)
        field = _completion_ms(text, str(path), "if player.", args.repeat)
        print(f"{path.stem:<40} {1000 * best:8.1f} {statement:8.1f} {field:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
