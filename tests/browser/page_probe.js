// Facts about the open page, gathered in one pass for crawl.py to judge.
// Run with WebDriver's execute_script; returns plain JSON. It judges nothing.
const attr = (el, name) => (el.hasAttribute(name) ? el.getAttribute(name) : null);
const text = (el) => (el ? el.textContent.trim() : '');

const ids = Array.from(document.querySelectorAll('[id]')).map((el) => el.id);
const seen = new Set();
const duplicateIds = [];
for (const id of ids) {
  if (seen.has(id) && !duplicateIds.includes(id)) duplicateIds.push(id);
  seen.add(id);
}
// A fragment may also name an <a name="...">.
for (const a of document.querySelectorAll('a[name]')) seen.add(a.getAttribute('name'));

// src/href/data written as a host-absolute path ("/x", not "//host/x") on
// anything but a link: it loads over http at the host root, not from file://.
const absoluteRefs = [];
for (const el of document.querySelectorAll('[src], [href], object[data]')) {
  if (el.matches('a, area')) continue;
  for (const name of ['src', 'href', 'data']) {
    const v = el.getAttribute(name);
    if (v && v.startsWith('/') && !v.startsWith('//')) {
      absoluteRefs.push(`<${el.tagName.toLowerCase()} ${name}="${v}">`);
    }
  }
}

const viewport = document.querySelector('meta[name="viewport" i]');

return {
  lang: document.documentElement.getAttribute('lang'),
  title: document.title.trim(),
  viewport: viewport ? viewport.getAttribute('content') : null,
  ids: Array.from(seen),
  duplicateIds,
  absoluteRefs,
  // The language switch: a link that names the language of the page it leads to.
  switches: Array.from(document.querySelectorAll('a[href][hreflang]')).map((a) => ({
    raw: a.getAttribute('href'),
    url: a.href,
    hreflang: a.getAttribute('hreflang'),
  })),
  links: Array.from(document.querySelectorAll('a[href], area[href]')).map((a) => ({
    raw: a.getAttribute('href'),
    url: a.href,
  })),
  images: Array.from(document.images).map((img) => ({
    raw: attr(img, 'src'),
    url: img.currentSrc || img.src,
    alt: attr(img, 'alt'),
    loaded: img.complete && img.naturalWidth > 0,
  })),
  // The page's stylesheets: a missing one leaves the page unstyled, and it weighs with the page.
  stylesheets: Array.from(document.querySelectorAll('link[rel~="stylesheet" i][href]')).map((l) => ({
    raw: attr(l, 'href'),
    url: l.href,
    loaded: Boolean(l.sheet),
  })),
  // Charts embedded with <object>: whether an SVG document loaded, its title, and its links
  // (resolved against the SVG's own URL, as a click on them is).
  objects: Array.from(document.querySelectorAll('object[data]')).map((o) => {
    const doc = o.contentDocument;
    const root = doc && doc.documentElement;
    const svg = Boolean(root && root.localName === 'svg' && !doc.querySelector('parsererror'));
    const links = [];
    if (svg) {
      for (const a of doc.querySelectorAll('a')) {
        const raw = a.getAttribute('href') ?? a.getAttributeNS('http://www.w3.org/1999/xlink', 'href');
        if (raw === null) continue;
        links.push({ raw, url: new URL(raw, doc.URL).href, target: a.getAttribute('target') });
      }
    }
    return {
      raw: attr(o, 'data'),
      url: o.data,
      label: attr(o, 'aria-label'),
      loaded: svg,
      title: svg ? text(root.querySelector(':scope > title')) : '',
      links,
    };
  }),
  tables: Array.from(document.querySelectorAll('table')).map((t, i) => ({
    n: i + 1,
    caption: text(t.querySelector(':scope > caption')),
    headers: t.querySelectorAll('th').length,
    label: t.id ? '#' + t.id : text(t.querySelector(':scope > caption')).slice(0, 40),
  })),
  // Outermost inline SVGs only: a nested <svg> is part of its parent's picture.
  svgs: Array.from(document.querySelectorAll('svg'))
    .filter((s) => !(s.parentElement && s.parentElement.closest('svg')))
    .map((s, i) => ({
      n: i + 1,
      title: text(s.querySelector(':scope > title')),
      label: s.id ? '#' + s.id : '',
    })),
};
