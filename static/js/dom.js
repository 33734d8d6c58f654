// The small DOM helpers every page's script shares (one copy; the others import them).
const SVG = "http://www.w3.org/2000/svg";

export const $ = (id) => document.getElementById(id);

// element("p", "muted", "text"): a new element with its class and text.
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// svgNode("line", {x1: 0, ...}, "text"): a new SVG element with its attributes and text.
export function svgNode(name, attributes, text) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

// What a json_script tag put in the page; null when the tag is missing.
export function pageData(id) {
  const node = $(id);
  return node ? JSON.parse(node.textContent) : null;
}

export function clear(node) {
  node.replaceChildren();
  return node;
}
