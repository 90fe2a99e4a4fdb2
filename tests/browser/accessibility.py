"""axe-core in the browser tests: the ``axe.min.js`` that the PyPI package
``axe-playwright-python`` carries (a dev dependency; never served by the site, never kept in
this repository) is evaluated in a page under test through Playwright, so the page's CSP (no
inline script, no eval) stays as it is, and ``axe.run`` checks the page against WCAG 2 A and
AA."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from playwright.async_api import Page

AXE = files("axe_playwright_python").joinpath("axe.min.js").read_text("utf-8")
SERIOUS = ("serious", "critical")

RUN = """async () => {
  const result = await axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
  });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
  }));
}"""


async def axe_violations(page: Page, impacts: tuple[str, ...] = SERIOUS) -> list[dict[str, Any]]:
    """The axe-core violations of ``page`` as it stands whose impact is one of ``impacts``:
    ``[{"id", "impact", "help", "nodes"}]`` (empty when the page passes)."""
    if not await page.evaluate("() => typeof window.axe === 'object'"):
        await page.evaluate(AXE)
    found: list[dict[str, Any]] = await page.evaluate(RUN)
    return [v for v in found if v["impact"] in impacts]
