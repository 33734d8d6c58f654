// Django's JavaScript catalog (/jsi18n/, loaded before every module) behind three small names.
const catalog = globalThis;

export function _(text) {
  return catalog.gettext ? catalog.gettext(text) : text;
}

export function ngettext(singular, plural, count) {
  return catalog.ngettext ? catalog.ngettext(singular, plural, count) : count === 1 ? singular : plural;
}

// fmt(_("%(name)s knocked"), {name: "Ana"})
export function fmt(text, values) {
  return text.replace(/%\((\w+)\)s/g, (whole, key) => (key in values ? String(values[key]) : whole));
}
