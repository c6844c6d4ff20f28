// Small DOM helpers: elements built from a tag, attributes and children (never from HTML strings, so
// nothing a player typed can become markup, and no inline style is ever needed under the page's CSP).

const SVG = "http://www.w3.org/2000/svg";

function build(element, attrs, children) {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "class") element.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** A count in words: counted(1, "trick") is "1 trick", counted(2, "trick") "2 tricks". */
export const counted = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** An HTML element: h("button", {class: "x", onclick}, "text", ...). */
export const h = (tag, attrs, ...children) => build(document.createElement(tag), attrs, children);

/** An SVG element, the same way. */
export const s = (tag, attrs, ...children) => build(document.createElementNS(SVG, tag), attrs, children);

/** Replace a container's children. */
export function mount(container, ...children) {
  container.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return container;
}

/** A labelled form control, with a hint under it. */
export function field(labelText, control, hint = null) {
  return h("label", { class: "field" }, h("span", {}, labelText), control, hint ? h("small", {}, hint) : null);
}

/** A select of [value, text] options, `value` chosen. */
export function select(name, options, value) {
  return h("select", { name }, options.map(([v, text]) => h("option", { value: v, selected: String(v) === String(value) }, text)));
}

/** The target score's field, within the game's bounds (the server's default when left empty). */
export function targetField(max, fallback, unit = "Target score") {
  return field(unit, h("input", { name: "target", type: "number", min: 1, max, placeholder: `default ${fallback}` }));
}
