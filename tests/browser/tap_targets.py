"""Measuring a page as a thumb meets it: tap targets, what is in view, what is cut off."""

from __future__ import annotations

from playwright.async_api import Page

SMALL_TARGETS = """() => {
    // Every visible control smaller than 44 × 44 px. A checkbox or radio inside its label is
    // tapped through the label, so the label is measured instead.
    const controls = document.querySelectorAll(
        'a[href], button, summary, select, textarea, [role="button"], '
        + 'input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"]), '
        + 'label:has(input[type="checkbox"]), label:has(input[type="radio"])'
    );
    const small = [];
    for (const node of controls) {
        if (!node.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
        const r = node.getBoundingClientRect();
        if (r.width < 43.5 || r.height < 43.5) {
            const name = (node.getAttribute('aria-label') || node.textContent || node.id).trim();
            const size = `${Math.round(r.width)}×${Math.round(r.height)}`;
            small.push(`${node.tagName.toLowerCase()} "${name.slice(0, 30)}" ${size}`);
        }
    }
    return small;
}"""

OUT_OF_VIEW = """(selectors) => {
    // Selectors whose elements are not wholly inside the viewport as the page opens.
    const out = [];
    for (const selector of selectors) {
        for (const node of document.querySelectorAll(selector)) {
            const r = node.getBoundingClientRect();
            const inside = r.top >= 0 && r.left >= 0
                && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
            if (!inside) {
                const at = [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
                out.push(`${selector} at ${at}`);
            }
        }
    }
    return out;
}"""

CLIPPED = """(selectors) => {
    // Selectors whose text does not fit the element's box (cut off or hidden by overflow).
    const out = [];
    for (const selector of selectors) {
        for (const node of document.querySelectorAll(selector)) {
            const wide = node.scrollWidth > node.clientWidth + 1;
            if (wide || node.scrollHeight > node.clientHeight + 1) {
                const text = node.textContent.slice(0, 40);
                out.push(`${selector}: "${text}" ${node.scrollWidth}×${node.scrollHeight}`);
            }
        }
    }
    return out;
}"""

BAR_LINES = """() => {
    // How many lines the top bar takes: 1 when its items sit on one row and no text in it
    // wraps.
    const bar = document.querySelector('.topbar');
    const rows = new Set();
    for (const item of bar.children) {
        if (item.checkVisibility()) {
            const r = item.getBoundingClientRect();
            rows.add(Math.round((r.top + r.height / 2) / 4));
        }
    }
    let most = rows.size;
    const walker = document.createTreeWalker(bar, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.data.trim() || !node.parentElement.checkVisibility()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const tops = new Set([...range.getClientRects()].map((x) => Math.round(x.top / 4)));
        most = Math.max(most, tops.size);
    }
    return most;
}"""


async def small_targets(page: Page) -> list[str]:
    """Descriptions of the visible controls under 44 × 44 px."""
    return list(await page.evaluate(SMALL_TARGETS))


async def out_of_view(page: Page, selectors: list[str]) -> list[str]:
    """Elements of ``selectors`` not wholly in the viewport."""
    return list(await page.evaluate(OUT_OF_VIEW, selectors))


async def clipped(page: Page, selectors: list[str]) -> list[str]:
    """Elements of ``selectors`` whose content overflows their box."""
    return list(await page.evaluate(CLIPPED, selectors))


async def bar_lines(page: Page) -> int:
    """Lines the top bar takes (1 when it fits)."""
    return int(await page.evaluate(BAR_LINES))


LINKS_CUT = """() => [...document.querySelectorAll("input.share-link")].filter((i) => {
    // A field laid right to left shows its end when scrolled to its start (scrollLeft 0).
    const rtl = getComputedStyle(i).direction === "rtl";
    const after = i.scrollWidth - i.scrollLeft - i.clientWidth;
    return i.offsetParent !== null && (rtl ? -i.scrollLeft > 1 : after > 1);
}).map((i) => i.value)"""


async def links_cut_before_their_end(page: Page) -> list[str]:
    """The links of the page's share fields whose end is out of their field's view."""
    return list(await page.evaluate(LINKS_CUT))


BROKEN_WORDS = """(selectors) => {
    // Words of the elements of ``selectors`` that a line break cuts in two.
    const out = [];
    for (const selector of selectors) {
        for (const node of document.querySelectorAll(selector)) {
            if (!node.checkVisibility()) continue;
            const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
            for (let text = walker.nextNode(); text; text = walker.nextNode()) {
                for (const m of text.data.matchAll(/\\S+/g)) {
                    const range = document.createRange();
                    range.setStart(text, m.index);
                    range.setEnd(text, m.index + m[0].length);
                    const rects = [...range.getClientRects()];
                    const lines = new Set(rects.map((r) => Math.round(r.top)));
                    if (lines.size > 1) out.push(`${selector}: "${m[0]}"`);
                }
            }
        }
    }
    return out;
}"""


async def words_broken(page: Page, selectors: list[str]) -> list[str]:
    """The words in ``selectors`` that a line break cuts in two (read as two words)."""
    return list(await page.evaluate(BROKEN_WORDS, selectors))
