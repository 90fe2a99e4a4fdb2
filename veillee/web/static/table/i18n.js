// The page's catalog (site + every area), fetched once; t() fills {placeholders}.
export async function loadCatalog(lang) {
  const response = await fetch(`/i18n/${lang}.json`);
  const catalog = response.ok ? await response.json() : {};
  return function t(key, values = {}) {
    const text = catalog[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
  };
}
