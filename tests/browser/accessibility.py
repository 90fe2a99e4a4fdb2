"""axe-core in the browser tests: the ``axe.min.js`` that the PyPI package
``axe-playwright-python`` carries (a dev dependency; never served by the site, never kept in
this repository) is evaluated in a page under test through Playwright, so the page's CSP (no
inline script, no eval) stays as it is, and ``axe.run`` checks the page against WCAG 2 A and
AA (and the experimental rules named in ``EXPERIMENTAL``)."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from playwright.async_api import Page

AXE = files("axe_playwright_python").joinpath("axe.min.js").read_text("utf-8")
SERIOUS = ("serious", "critical")
EXPERIMENTAL = ["label-content-name-mismatch"]
"""axe rules that its tags leave out (axe calls them experimental) and that we hold every page
to: an accessible name holds the visible text (WCAG 2.5.3, label in name), so a voice-control
user can say what they see."""

RUN = """async (EXPERIMENTAL) => {
  const result = await axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
    rules: Object.fromEntries(EXPERIMENTAL.map((id) => [id, { enabled: true }])),
  });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
  }));
}"""


async def load_axe(page: Page) -> None:
    """Evaluate axe-core in ``page`` unless it is there already."""
    if not await page.evaluate("() => typeof window.axe === 'object'"):
        await page.evaluate(AXE)


async def axe_violations(page: Page, impacts: tuple[str, ...] = SERIOUS) -> list[dict[str, Any]]:
    """The axe-core violations of ``page`` as it stands whose impact is one of ``impacts``:
    ``[{"id", "impact", "help", "nodes"}]`` (empty when the page passes)."""
    await load_axe(page)
    found: list[dict[str, Any]] = await page.evaluate(RUN, EXPERIMENTAL)
    return [v for v in found if v["impact"] in impacts]


ONE_RULE = """async (rule) => {
  const result = await axe.run(document, { runOnly: { type: "rule", values: [rule] } });
  const targets = (found) => found.flatMap((v) => v.nodes.map((n) => n.target.join(" ")));
  return [targets(result.violations), targets([...result.passes, ...result.incomplete])];
}"""


async def axe_rule(page: Page, rule: str) -> tuple[list[str], list[str]]:
    """axe-core's one ``rule`` on ``page`` as it stands: (the selectors of the elements that
    violate it, the selectors of those it checked and did not fault)."""
    await load_axe(page)
    violations, others = await page.evaluate(ONE_RULE, rule)
    return list(violations), list(others)
