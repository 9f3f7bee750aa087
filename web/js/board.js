// board.js: draws the board of a view (docs/formats.md, "A player's view")
// as SVG: districts on a grid of cells with water between unconnected plots,
// bridges, warehouses in company colours with their heights, HQs, broken
// roofs, upside-down placeholders and (The Golden Age) free warehouses.
// It knows no rule: which plots are playable comes from the legal moves,
// passed in as a set of plot names. Warehouses are drawn as buildings, one
// storey per level, with a roof; each company's buildings carry its colour,
// its pattern and its mark (colors.js); an HQ is a flag token on the roof; a
// broken roof is a cracked red roof; the plot's label sits on a light tag at
// the foot of the cell so it stays readable under a building. drawLegend()
// explains every sign.
import { companyColor, inkOn, patternDefs } from './colors.js';
import { t, placeName } from './i18n.js';

const CELL = 48;      // grid cell in SVG units
const INSET = 4;      // water between unconnected neighbours is 2*INSET wide
const NS = 'http://www.w3.org/2000/svg';

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

const DISTRICT_TINTS = ['#efe6cf', '#e6ecd2', '#e9dfd6', '#dfe7e6', '#ece2c6', '#e2e6d4', '#eadcd0', '#dde4dc'];

// opts: {playable: Set of plot names, last: Set of plot names,
//        onPlot(name), companies: [names in index order]}
export function drawBoard(view, opts) {
  const plots = view.board.plots;
  const byName = new Map(plots.map((p, i) => [p.name, i]));
  let maxx = 0, maxy = 0;
  for (const p of plots) { maxx = Math.max(maxx, p.x); maxy = Math.max(maxy, p.y); }
  const W = (maxx + 1) * CELL, H = (maxy + 1) * CELL;
  const svg = el('svg', { viewBox: `-6 -6 ${W + 12} ${H + 12}`, class: 'board', role: 'img',
    'aria-label': view.board.name });
  // its width in SVG units, for the phone's style rule that keeps a plot
  // at least 36 px wide (style.css: the board scrolls sideways instead)
  svg.style.setProperty('--board-w', String(W + 12));
  svg.appendChild(patternDefs(NS, view.companies || []));
  el('rect', { x: -6, y: -6, width: W + 12, height: H + 12, class: 'water', rx: 8 }, svg);
  const districts = view.board.districts || [];
  const compIndex = new Map((view.companies || []).map((c, i) => [c.name, i]));

  const gLand = el('g', { class: 'land' });
  const gBridge = el('g', { class: 'bridges' }, svg);
  const gPieces = el('g', { class: 'pieces' }, svg);
  const gLabels = el('g', { class: 'district-labels' }, svg);

  const cx = (p) => p.x * CELL + CELL / 2, cy = (p) => p.y * CELL + CELL / 2;

  // Land: each plot a full cell, so connected neighbours form one piece of
  // land. Then water between grid neighbours that are not connected (or
  // are connected only by a bridge), and the bridges over the water.
  const gWater = el('g', { class: 'canals' }, svg);
  svg.insertBefore(gLand, gBridge);
  svg.insertBefore(gWater, gBridge);
  const occupied = new Map(plots.map((p) => [`${p.x},${p.y}`, p]));
  plots.forEach((p) => {
    const tint = DISTRICT_TINTS[Math.max(0, districts.indexOf(p.district)) % DISTRICT_TINTS.length];
    el('rect', { x: p.x * CELL, y: p.y * CELL, width: CELL, height: CELL, fill: tint, class: 'lot' }, gLand);
    // right and lower grid neighbours: water unless connected without a bridge
    for (const [dx, dy] of [[1, 0], [0, 1]]) {
      const q = occupied.get(`${p.x + dx},${p.y + dy}`);
      const joined = q && p.adjacent.includes(q.name) && !p.bridges.includes(q.name);
      if (joined) continue;
      if (dx) el('rect', { x: (p.x + 1) * CELL - INSET, y: p.y * CELL - INSET, width: 2 * INSET, height: CELL + 2 * INSET, class: 'canal' }, gWater);
      else el('rect', { x: p.x * CELL - INSET, y: (p.y + 1) * CELL - INSET, width: CELL + 2 * INSET, height: 2 * INSET, class: 'canal' }, gWater);
    }
    // left and upper edges facing no plot: water too
    if (!occupied.has(`${p.x - 1},${p.y}`)) el('rect', { x: p.x * CELL - INSET, y: p.y * CELL - INSET, width: 2 * INSET, height: CELL + 2 * INSET, class: 'canal' }, gWater);
    if (!occupied.has(`${p.x},${p.y - 1}`)) el('rect', { x: p.x * CELL - INSET, y: p.y * CELL - INSET, width: CELL + 2 * INSET, height: 2 * INSET, class: 'canal' }, gWater);
    for (const n of p.adjacent) {
      const q = plots[byName.get(n)];
      if (!q || byName.get(n) < byName.get(p.name)) continue;
      const isBridge = p.bridges.includes(n);
      const dx = q.x - p.x, dy = q.y - p.y;
      if (!isBridge && Math.abs(dx) + Math.abs(dy) === 1) continue;
      // a bridge (or a long link): a plank over the water between the two plots
      const ux = Math.sign(dx), uy = Math.sign(dy);
      const straight = dx === 0 || dy === 0;
      const x1 = straight ? cx(p) + ux * (CELL / 2 - INSET - 2) : cx(p), y1 = straight ? cy(p) + uy * (CELL / 2 - INSET - 2) : cy(p);
      const x2 = straight ? cx(q) - ux * (CELL / 2 - INSET - 2) : cx(q), y2 = straight ? cy(q) - uy * (CELL / 2 - INSET - 2) : cy(q);
      el('line', { x1, y1, x2, y2, class: isBridge ? 'bridge' : 'link' }, gBridge);
      if (isBridge) el('line', { x1, y1, x2, y2, class: 'bridge-rail' }, gBridge);
    }
  });

  // District names, faint, over the middle of each district.
  districts.forEach((d) => {
    const ps = plots.filter((p) => p.district === d);
    if (!ps.length || districts.length < 2) return;
    const x0 = Math.min(...ps.map((p) => p.x)), x1 = Math.max(...ps.map((p) => p.x));
    const y0 = Math.min(...ps.map((p) => p.y)), y1 = Math.max(...ps.map((p) => p.y));
    const tx = el('text', { x: (x0 + x1 + 1) * CELL / 2, y: y0 * CELL + 1, class: 'district-name' }, gLabels);
    tx.textContent = placeName(d);
  });

  const playable = opts.playable || new Set();
  const last = opts.last || new Set();
  const hand = opts.hand || new Set();
  const pieces = new Map((view.plots || []).map((s) => [s.plot, s]));
  plots.forEach((p) => {
    const s = pieces.get(p.name) || { height: 0, owner: null, flags: [] };
    const g = el('g', { class: 'plot', 'data-plot': p.name, transform: `translate(${p.x * CELL},${p.y * CELL})` }, gPieces);
    const title = el('title', {}, g);
    const ci = s.owner ? compIndex.get(s.owner) : -1;
    title.textContent = placeName(p.name) + (s.owner ? ` — ${opts.companyName ? opts.companyName(s.owner) : s.owner}` : '') + (s.height ? ` (${t('legend.levels', { n: s.height })})` : '');
    if (s.owner) g.dataset.company = s.owner;
    const flags = s.flags || [];
    const filled = s.height > 0 || s.owner !== null || flags.includes('upside');
    if (filled) drawBuilding(g, s, flags, ci, opts);
    // the plot's label on a light tag at the foot of the cell: readable on
    // land and under a building alike
    const label = p.label;
    const lw = 4 + 5.6 * String(label).length;
    el('rect', { x: INSET + 1, y: CELL - INSET - 11, width: lw, height: 10, rx: 2, class: 'label-tag' }, g);
    const lab = el('text', { x: INSET + 3, y: CELL - INSET - 3, class: 'plot-label' }, g);
    lab.textContent = label;
    if (hand.has(p.name) && !filled) {
      el('rect', { x: INSET + 2, y: INSET + 2, width: CELL - 2 * INSET - 4, height: CELL - 2 * INSET - 4, rx: 3, class: 'in-hand' }, g);
    }
    if (playable.has(p.name)) {
      g.classList.add('playable');
      el('rect', { x: INSET, y: INSET, width: CELL - 2 * INSET, height: CELL - 2 * INSET, rx: 3, class: 'playable-ring' }, g);
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'button');
      g.setAttribute('aria-label', title.textContent);
      g.addEventListener('click', (ev) => { ev.stopPropagation(); opts.onPlot && opts.onPlot(p.name, ev); });
      g.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); opts.onPlot && opts.onPlot(p.name, ev); } });
    }
    if (last.has(p.name)) {
      g.classList.add('last');
      if (opts.fresh) g.classList.add('fresh');
      el('rect', { x: INSET - 2, y: INSET - 2, width: CELL - 2 * INSET + 4, height: CELL - 2 * INSET + 4, rx: 5, class: 'last-ring' }, g);
    }
  });
  if (opts.highlight) {
    svg.classList.add('highlighting');
    svg.querySelectorAll(`.plot[data-company="${CSS.escape(opts.highlight)}"]`).forEach((g) => g.classList.add('hl'));
  }
  return svg;
}

// A building: one storey per level (a lone or placeholder warehouse one),
// in its company's colour with its pattern and mark, a roof on top (cracked
// and red when broken), the HQ as a flag token on the roof, and a "free"
// ribbon for The Golden Age's free warehouses.
function drawBuilding(g, s, flags, ci, opts) {
  const storeys = Math.max(1, s.height || 1);
  const upside = flags.includes('upside');
  const color = s.owner ? companyColor(s.owner, ci) : '#b9b2a2';
  const ink = s.owner ? inkOn(color) : '#222';
  const bw = 26, x0 = (CELL - bw) / 2;
  const sh = Math.min(7, 22 / storeys);           // storey height
  const base = CELL - INSET - 12;                 // the ground line, above the label tag
  const top = base - storeys * sh;
  const b = el('g', { class: 'warehouse' + (upside ? ' upside' : '') + (s.owner ? '' : ' lone') }, g);
  el('rect', { x: x0, y: top, width: bw, height: base - top, fill: color, class: 'body' }, b);
  if (s.owner && ci >= 0 && ci % 9 !== 0) el('rect', { x: x0, y: top, width: bw, height: base - top, fill: `url(#pat-${ci})`, class: 'pattern' }, b);
  for (let k = 1; k < storeys; k++) el('line', { x1: x0, x2: x0 + bw, y1: base - k * sh, y2: base - k * sh, class: 'storey', stroke: ink }, b);
  // windows: one row per storey
  for (let k = 0; k < storeys && sh >= 5; k++) {
    const wy = base - (k + 1) * sh + sh / 2 - 1.2;
    for (const wx of [x0 + 4, x0 + bw - 7]) el('rect', { x: wx, y: wy, width: 3, height: 2.4, class: 'window', fill: ink }, b);
  }
  const broken = flags.includes('roof');
  // an Amsterdam warehouse's stepped gable (trapgevel) with its hoisting
  // beam at the top, instead of a plain roof; cracked and red when broken
  const q = bw / 6;
  el('path', { d: `M${x0} ${top} V${top - 3} H${x0 + q} V${top - 6} H${x0 + 2 * q} V${top - 9} H${x0 + 4 * q} V${top - 6} H${x0 + 5 * q} V${top - 3} H${x0 + bw} V${top} Z`,
    class: broken ? 'roof gable broken' : 'roof gable' }, b);
  el('line', { x1: CELL / 2, y1: top - 7, x2: CELL / 2, y2: top - 3, class: 'hoist' }, b);
  if (broken) el('path', { d: `M${CELL / 2 - 4} ${top - 6} L${CELL / 2 - 1} ${top - 2} L${CELL / 2 - 3} ${top - 1} L${CELL / 2 + 1} ${top + 3}`, class: 'crack' }, b);
  if (s.owner && opts.mark) {
    const m = el('text', { x: CELL / 2, y: base - 2, class: 'co-mark', fill: ink }, b);
    m.textContent = opts.mark(s.owner);
  }
  if (flags.includes('hq')) {
    // the HQ: a flag on a pole over the roof
    const fx = CELL / 2, fy = top - 9;
    el('line', { x1: fx, y1: fy, x2: fx, y2: Math.max(1, fy - 10), class: 'hq-pole' }, b);
    el('path', { d: `M${fx} ${Math.max(1, fy - 10)} l9 3 l-9 3 Z`, class: 'hq', fill: color }, b);
  }
  if (flags.includes('free')) {
    el('rect', { x: x0 - 4, y: base - 8, width: 12, height: 7, rx: 1.5, class: 'free-tag' }, b);
    const f = el('text', { x: x0 + 2, y: base - 2.5, class: 'free-mark' }, b);
    f.textContent = '★';
  }
}

// The legend of the board's signs, as a small SVG per sign and its words.
export function drawLegend(view, opts) {
  const items = [
    ['warehouse', t('legend.warehouse')], ['levels', t('legend.storeys')], ['hq', t('legend.hq')],
    ['roof', t('legend.broken_roof')], ['upside', t('legend.placeholder')],
  ];
  if (view.edition === 'golden-age') items.push(['free', t('legend.free')]);
  items.push(['playable', t('legend.playable')], ['hand', t('legend.in_hand')], ['last', t('legend.last')], ['bridge', t('legend.bridge')]);
  const box = document.createElement('div');
  box.className = 'legend-items';
  for (const [kind, words] of items) {
    const svg = el('svg', { viewBox: `0 0 ${CELL} ${CELL}`, class: 'legend-icon', 'aria-hidden': 'true' });
    el('rect', { x: 0, y: 0, width: CELL, height: CELL, fill: '#efe6cf' }, svg);
    const g = el('g', {}, svg);
    const co = (view.companies || [])[1] || { name: '' };
    const one = { owner: co.name, height: 1, flags: [] };
    if (kind === 'warehouse') drawBuilding(g, { owner: null, height: 1 }, [], -1, opts);
    if (kind === 'levels') drawBuilding(g, { owner: co.name, height: 3 }, [], 1, opts);
    if (kind === 'hq') drawBuilding(g, one, ['hq'], 1, opts);
    if (kind === 'roof') drawBuilding(g, one, ['roof'], 1, opts);
    if (kind === 'upside') drawBuilding(g, { owner: null, height: 0 }, ['upside'], -1, opts);
    if (kind === 'free') drawBuilding(g, one, ['free'], 1, opts);
    if (kind === 'playable') el('rect', { x: INSET, y: INSET, width: CELL - 2 * INSET, height: CELL - 2 * INSET, rx: 3, class: 'playable-ring' }, g);
    if (kind === 'hand') el('rect', { x: INSET + 2, y: INSET + 2, width: CELL - 2 * INSET - 4, height: CELL - 2 * INSET - 4, rx: 3, class: 'in-hand' }, g);
    if (kind === 'last') el('rect', { x: INSET - 2, y: INSET - 2, width: CELL - 2 * INSET + 4, height: CELL - 2 * INSET + 4, rx: 5, class: 'last-ring' }, g);
    if (kind === 'bridge') {
      el('rect', { x: 0, y: CELL / 2 - 6, width: CELL, height: 12, class: 'canal' }, g);
      el('line', { x1: CELL / 2, y1: CELL / 2 - 10, x2: CELL / 2, y2: CELL / 2 + 10, class: 'bridge' }, g);
      el('line', { x1: CELL / 2, y1: CELL / 2 - 10, x2: CELL / 2, y2: CELL / 2 + 10, class: 'bridge-rail' }, g);
    }
    const item = document.createElement('div');
    item.className = `legend-item legend-${kind}`;
    const span = document.createElement('span');
    span.textContent = words;
    item.append(svg, span);
    box.appendChild(item);
  }
  return box;
}
