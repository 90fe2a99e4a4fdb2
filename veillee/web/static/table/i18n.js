// The site's translator lives in ../live/i18n.js; this path is kept for callers that import it
// from here.
export { loadCatalog } from "../live/i18n.js";
