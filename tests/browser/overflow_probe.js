// Does the open page scroll sideways at the current width, and if so, why?
// Returns {scrollWidth, innerWidth, culprits}: culprits names up to three of the
// deepest elements that stick out past the viewport without a scrolling or
// clipping box around them (a table inside an overflow-x:auto wrapper is fine).
const limit = window.innerWidth + 1;
const culprits = [];
const describe = (el, rect) => {
  let name = el.tagName.toLowerCase();
  if (el.id) name += '#' + el.id;
  else if (el.classList.length) name += '.' + el.classList[0];
  return `${name} (right edge at ${Math.round(rect.right)} px)`;
};
const find = (el) => {
  for (const child of el.children) {
    if (culprits.length >= 3) return;
    const style = getComputedStyle(child);
    if (style.position === 'fixed') continue;
    const clipped = style.overflowX !== 'visible';
    const rect = child.getBoundingClientRect();
    if (rect.right > limit) {
      const before = culprits.length;
      if (!clipped) find(child);
      if (culprits.length === before) culprits.push(describe(child, rect));
    } else if (!clipped) {
      find(child);
    }
  }
};
const scrollWidth = document.documentElement.scrollWidth;
if (scrollWidth > limit && document.body) find(document.body);
return { scrollWidth, innerWidth: window.innerWidth, culprits };
