// At the current width: how large each embedded chart's text is as a reader sees it, and where
// the page's first chart starts. Returns {width, charts, firstChart}; crawl.py judges them.
//
// charts[]: per <object> whose document is an SVG: its smallest <text> font-size in CSS px of
// the page, which is the font-size drawn times the scale the SVG is shown at (the object's
// content box over the drawing's viewBox, the smaller of width and height, as
// preserveAspectRatio's default "meet" scales it); null when it draws no text.
//
// firstChart: the top of the first <figure> (else the first <object> or <img>) in CSS px from
// the top of the document, and its source; null without one.
const charts = [];
for (const obj of document.querySelectorAll('object')) {
  const doc = obj.contentDocument;
  const svg = doc && doc.documentElement;
  if (!svg || svg.namespaceURI !== 'http://www.w3.org/2000/svg') continue;
  const box = svg.viewBox && svg.viewBox.baseVal;
  const drawnWidth = box && box.width ? box.width : svg.width.baseVal.value;
  const drawnHeight = box && box.height ? box.height : svg.height.baseVal.value;
  const scale = Math.min(obj.clientWidth / drawnWidth, obj.clientHeight / drawnHeight);
  let smallest = null;
  let drawn = null;
  for (const text of svg.querySelectorAll('text')) {
    if (!text.textContent.trim()) continue;
    const size = parseFloat(doc.defaultView.getComputedStyle(text).fontSize);
    if (drawn === null || size < drawn) drawn = size;
  }
  if (drawn !== null) smallest = drawn * scale;
  charts.push({ src: obj.getAttribute('data'), smallest, drawn, drawnWidth, shownWidth: obj.clientWidth });
}
const first = document.querySelector('figure') || document.querySelector('object, img');
const firstChart = first
  ? { top: Math.round(first.getBoundingClientRect().top + window.scrollY),
      src: (first.querySelector('object, img') || first).getAttribute('data') || (first.querySelector('object, img') || first).getAttribute('src') }
  : null;
return { width: window.innerWidth, charts, firstChart };
