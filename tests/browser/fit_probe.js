// Does every table fit, at the current width, and does no short word break across lines?
// Returns {width, tables, brokenWords}; crawl.py judges them. It judges nothing itself.
//
// tables[]: for each <table>, whether part of it lies beyond the frame a reader sees it in (its
// nearest box that clips sideways, else the window) and, if so, the first column header cut off,
// whether the box can scroll there, and whether a scroll cue is visible: a `.scroll-cue` element
// inside that box with text, rendered (checkVisibility with opacity and visibility), inside the
// window and the box.
//
// brokenWords[]: words (Intl.Segmenter, in the language of their cell) of at most MAX_WORD
// characters in a short text of a table cell (a text node of at most MAX_TEXT characters: a
// value, a status, a label, a range) whose Range covers more than one line box: a line break
// inside the word (正/常, 5,/958). Longer words (a 60-character run id) may wrap, and so may a
// long sentence in a cell, where the browser's phrase breaking (auto-phrase: 条件に/対する)
// and the segmenter's dictionary need not agree.
const MAX_WORD = 20;
const MAX_TEXT = 32;
const win = window.innerWidth;
const label = (t) => {
  const caption = t.querySelector(':scope > caption');
  const text = caption ? caption.textContent.trim().slice(0, 40) : '';
  return t.id ? '#' + t.id : text;
};
const visible = (el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
// Rendered, and not in a box shrunk to a pixel to hide it from the eye but not from a screen
// reader (a stacked table's header row).
const seen = (el) => {
  if (!visible(el)) return false;
  for (let a = el; a && a !== document.body; a = a.parentElement) {
    const r = a.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) return false;
  }
  return true;
};
const tables = [];
Array.from(document.querySelectorAll('table')).forEach((table, i) => {
  let box = null;
  for (let el = table.parentElement; el && el !== document.body && el !== document.documentElement; el = el.parentElement) {
    if (getComputedStyle(el).overflowX !== 'visible') { box = el; break; }
  }
  const frame = { left: 0, right: win };
  let scrollable = false;
  if (box) {
    const r = box.getBoundingClientRect();
    const left = r.left + box.clientLeft;
    frame.left = Math.max(0, left);
    frame.right = Math.min(win, left + box.clientWidth);
    const style = getComputedStyle(box).overflowX;
    scrollable = (style === 'auto' || style === 'scroll') && box.scrollWidth > box.clientWidth + 1;
  }
  // The frame is what shows with the box scrolled to its start: measure from there.
  const scrolled = box ? box.scrollLeft : 0;
  if (box) box.scrollLeft = 0;
  const rect = table.getBoundingClientRect();
  // Beyond the frame: the table's own box, or a cell's content that overflows it (a nowrap note
  // wider than its stacked row) and makes the box scroll.
  const hidden = rect.right > frame.right + 1 || rect.left < frame.left - 1
    || (box !== null && box.scrollWidth > box.clientWidth + 1);
  let firstHidden = '';
  if (hidden) {
    for (const cell of table.querySelectorAll('tr:first-child > th, tr:first-child > td')) {
      const c = cell.getBoundingClientRect();
      if (c.width > 0 && (c.right > frame.right + 1 || c.left < frame.left - 1)) {
        firstHidden = cell.textContent.trim().slice(0, 40);
        break;
      }
    }
    if (!firstHidden) firstHidden = '(a cell\'s content, not a column)';
  }
  let cue = false;
  if (box) {
    for (const el of box.querySelectorAll('.scroll-cue')) {
      const c = el.getBoundingClientRect();
      if (el.textContent.trim() && visible(el) && c.width > 0 && c.height > 0
          && c.left >= frame.left - 1 && c.right <= frame.right + 1) { cue = true; break; }
    }
    box.scrollLeft = scrolled;
  }
  tables.push({
    n: i + 1, label: label(table), hidden, firstHidden, scrollable, cue,
    inBox: !!box, tableWidth: Math.round(rect.width), frameWidth: Math.round(frame.right - frame.left),
  });
});

const brokenWords = [];
const segmenters = {};
const segmenter = (lang) => (segmenters[lang] ||= new Intl.Segmenter(lang || 'en', { granularity: 'word' }));
const range = document.createRange();
for (const cell of document.querySelectorAll('th, td')) {
  if (brokenWords.length >= 20) break;
  if (!seen(cell)) continue;
  const lang = (cell.closest('[lang]') || document.documentElement).getAttribute('lang') || 'en';
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.data.trim().length > MAX_TEXT) continue;
    for (const s of segmenter(lang).segment(node.data)) {
      if (!s.isWordLike || s.segment.length < 2 || s.segment.length > MAX_WORD) continue;
      range.setStart(node, s.index);
      range.setEnd(node, s.index + s.segment.length);
      const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
      if (rects.length < 2) continue;
      const top = rects[0].top;
      const lineHeight = rects[0].height;
      if (rects.some((r) => Math.abs(r.top - top) > lineHeight / 2)) {
        const lines = [];
        for (const r of rects) {
          if (!lines.some((l) => Math.abs(l - r.top) <= lineHeight / 2)) lines.push(r.top);
        }
        brokenWords.push({
          word: s.segment, lines: lines.length, lang,
          cell: cell.textContent.trim().replace(/\s+/g, ' ').slice(0, 40),
        });
      }
    }
  }
}
return { width: win, tables, brokenWords };
