"""docs/single-tax-report.md is what examples/single_tax_report.py prints today.

The report's figures (outcomes, Gini by round) come from 6,000 seeded games;
this plays them again and compares the page, so a change to the engine, the
bots or the 1906 rules that moves a figure fails here. Regenerate with
`python examples/single_tax_report.py`.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow  # replays the report's 6,000 games
def test_the_single_tax_report_is_a_fresh_run_of_its_script(tmp_path):
    spec = importlib.util.spec_from_file_location("single_tax_report", ROOT / "examples" / "single_tax_report.py")
    report = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(report)
    assert report.main(["--out", str(tmp_path / "report.md")]) == 0
    elapsed = re.compile(r"it took \d+ s here")
    fresh = elapsed.sub("it took N s here", (tmp_path / "report.md").read_text(encoding="utf-8"))
    shipped = elapsed.sub("it took N s here", (ROOT / "docs" / "single-tax-report.md").read_text(encoding="utf-8"))
    assert fresh == shipped, "regenerate with python examples/single_tax_report.py"
    for name in ("single-tax-gini.png", "single-tax-gini-narrow.png"):
        assert (tmp_path / "assets" / name).stat().st_size > 10_000


def test_the_report_opens_with_its_findings_and_keeps_its_comparisons_as_tables_on_a_phone():
    """Issue 36: no summary at the top, and on a phone the comparison tables became cards that could not be
    compared side by side (extra.js leaves a table inside .ll-compare alone; browser_check measures it)."""
    page = (ROOT / "docs" / "single-tax-report.md").read_text(encoding="utf-8")
    assert page.index('!!! abstract "In short"') < page.index("## Outcomes")
    summary = page[page.index("In short") : page.index("Regenerate it with")]
    assert "100% of the games under the ordinary rules" in summary and "from 0.424 to 0.345" in summary
    for table in ("| regime | turns per game |", "| regime | r0 |"):
        before = page[: page.index(table)]
        assert before.rindex('<div class="ll-compare') > before.rindex("</div>") if "</div>" in before else True
    script = (ROOT / "docs" / "assets" / "extra.js").read_text(encoding="utf-8")
    assert 'table.closest(".ll-compare")' in script
