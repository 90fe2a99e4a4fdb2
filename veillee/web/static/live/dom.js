// The small DOM helpers every page shares: an element by its id, and a new element of a class
// holding a text.

/** The element whose id is `id`, or null. */
export const $ = (id) => document.getElementById(id);

/** A new `tag` element with `className` (if any) and `text` (if given) as its text. */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
