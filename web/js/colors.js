// colors.js: company colours and patterns, by company name, for both
// editions. The colours are the Okabe-Ito palette (told apart by people with
// the common colour-vision deficiencies) plus grey and black; each company
// also has its own pattern (by its index in the edition) and a short mark
// (the first letters of its name in the page's language), so no company is
// known by its colour alone.
const COLORS = {
  // Building Amsterdam
  Gunpowder: '#8c8c8c', Coal: '#2b2b2b', Porcelain: '#0072b2', Silk: '#cc79a7',
  Spices: '#e69f00', Sugar: '#f0e442', Herring: '#56b4e9', Tea: '#009e73', Tobacco: '#d55e00',
  // The Golden Age (Tea, Silk and Gunpowder as above)
  Gold: '#f0e442', Coffee: '#d55e00', Pepper: '#e69f00', Gems: '#0072b2', Opium: '#cc79a7',
  Silver: '#b5b5b5',
};
const FALLBACK = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442', '#8c8c8c', '#2b2b2b'];

export function companyColor(name, index) {
  return COLORS[name] || FALLBACK[(index || 0) % FALLBACK.length];
}

// Text colour that reads on the company colour.
export function inkOn(hex) {
  const v = parseInt(hex.slice(1), 16);
  const r = v >> 16, g = (v >> 8) & 255, b = v & 255;
  return (0.299 * r + 0.587 * g + 0.114 * b) > 150 ? '#111' : '#fff';
}

// The nine patterns, one per company index: SVG path data drawn in a 8x8 tile.
export const PATTERNS = [
  '',                                   // plain
  'M0 8 L8 0 M-2 2 L2 -2 M6 10 L10 6',  // diagonal lines
  'M0 2 H8 M0 6 H8',                    // horizontal lines
  'M2 2 h0.01 M6 6 h0.01',              // dots
  'M0 0 L8 8 M8 0 L0 8',                // cross-hatch
  'M2 0 V8 M6 0 V8',                    // vertical lines
  'M0 0 h4 v4 h-4 Z M4 4 h4 v4 h-4 Z',  // checks
  'M0 6 L2 2 L4 6 L6 2 L8 6',           // zigzag
  'M4 1 A3 3 0 1 0 4.01 1',             // rings
];

// <pattern> definitions for an SVG: id "pat-K" for company index K, in the
// colour's ink at low opacity so the colour stays visible.
let swatchCount = 0;
export function patternDefs(NS, companies, only, idOf) {
  const defs = document.createElementNS(NS, 'defs');
  companies.forEach((c, k) => {
    const i = only === undefined ? k : only;
    const d = PATTERNS[i % PATTERNS.length];
    if (!d) return;
    const p = document.createElementNS(NS, 'pattern');
    for (const [k, v] of Object.entries({ id: idOf || `pat-${i}`, width: 8, height: 8, patternUnits: 'userSpaceOnUse' })) p.setAttribute(k, v);
    const path = document.createElementNS(NS, 'path');
    const ink = inkOn(companyColor(c.name, i));
    const filled = i === 6;
    for (const [k, v] of Object.entries({ d, stroke: filled ? 'none' : ink, fill: filled ? ink : 'none', 'stroke-width': i === 3 ? 2.4 : 1.1, 'stroke-linecap': 'round', opacity: 0.45 })) path.setAttribute(k, v);
    p.appendChild(path);
    defs.appendChild(p);
  });
  return defs;
}

// A small swatch (inline SVG, 1em) with colour, pattern and mark of a company.
export function swatchSVG(name, index, mark) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 16');
  svg.setAttribute('class', 'swatch-svg');
  svg.setAttribute('aria-hidden', 'true');
  const col = companyColor(name, index);
  const r = document.createElementNS(NS, 'rect');
  for (const [k, v] of Object.entries({ x: 0, y: 0, width: 24, height: 16, rx: 3, fill: col })) r.setAttribute(k, v);
  svg.appendChild(r);
  if (PATTERNS[index % PATTERNS.length]) {
    // the company's pattern, defined in this small picture itself
    const id = `sw${++swatchCount}`;
    const defs = patternDefs(NS, [{ name }], index, id);
    svg.appendChild(defs);
    const over = document.createElementNS(NS, 'rect');
    for (const [k, v] of Object.entries({ x: 0, y: 0, width: 24, height: 16, rx: 3, fill: `url(#${id})` })) over.setAttribute(k, v);
    svg.appendChild(over);
  }
  if (mark) {
    const t = document.createElementNS(NS, 'text');
    for (const [k, v] of Object.entries({ x: 12, y: 12, 'text-anchor': 'middle', 'font-size': 10, 'font-weight': 700, fill: inkOn(col) })) t.setAttribute(k, v);
    t.textContent = mark;
    svg.appendChild(t);
  }
  return svg;
}

export const SEAT_COLORS = ['#d32f2f', '#1976d2', '#388e3c', '#f57c00', '#7b1fa2', '#0097a7'];
