// The one translator of the site's pages: t(key, values) from a catalog of the server's strings
// (veillee/web/i18n/*.json). `{name}` placeholders are filled from `values`; when `values.n` is
// a number, the plural form of `key` is chosen by Intl.PluralRules for the page's language
// (`key.one`, `key.other`, … as the catalog holds them; French: 0 and 1 are "one").

/** A translator for `lang` over `catalog` ({key: text}); a missing key shows as itself. */
export function translator(lang, catalog) {
  const plurals = new Intl.PluralRules(lang);
  return function t(key, values = {}) {
    let text;
    if (typeof values.n === "number") {
      text = catalog[`${key}.${plurals.select(values.n)}`] ?? catalog[`${key}.other`];
    }
    text = text ?? catalog[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
  };
}

/** The catalog the server embedded in the page (`<script type="application/json"
 * id="catalog">`), or null: a page that must open offline carries its strings with it. */
export function embeddedCatalog() {
  const node = document.getElementById("catalog");
  return node ? JSON.parse(node.textContent) : null;
}

/** The translator for `lang`: the page's embedded catalog, else the site's catalog fetched from
 * the server (`/i18n/<lang>.json`); with neither, keys show as themselves. */
export async function loadCatalog(lang) {
  let catalog = embeddedCatalog();
  if (!catalog) {
    const response = await fetch(`/i18n/${lang}.json`);
    catalog = response.ok ? await response.json() : {};
  }
  return translator(lang, catalog);
}
