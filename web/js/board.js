// board.js: draws the board of a view (docs/formats.md, "A player's view")
// as SVG: districts on a grid of cells with water between unconnected plots,
// bridges, warehouses in company colours with their heights, HQs, broken
// roofs, upside-down placeholders and (The Golden Age) free warehouses.
// It knows no rule: which plots are playable comes from the legal moves,
// passed in as a set of plot names.
import { companyColor, inkOn } from './colors.js';

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
    const t = el('text', { x: (x0 + x1 + 1) * CELL / 2, y: (y0 + y1 + 1) * CELL / 2, class: 'district-name' }, gLabels);
    t.textContent = d;
  });

  const playable = opts.playable || new Set();
  const last = opts.last || new Set();
  const hand = opts.hand || new Set();
  const pieces = new Map((view.plots || []).map((s) => [s.plot, s]));
  plots.forEach((p) => {
    const s = pieces.get(p.name) || { height: 0, owner: null, flags: [] };
    const g = el('g', { class: 'plot', 'data-plot': p.name, transform: `translate(${p.x * CELL},${p.y * CELL})` }, gPieces);
    const title = el('title', {}, g);
    title.textContent = p.name + (s.owner ? ` — ${s.owner}` : '') + (s.height ? ` (${s.height})` : '');
    const flags = s.flags || [];
    const filled = s.height > 0 || s.owner !== null || flags.includes('upside');
    if (filled) {
      const color = s.owner ? companyColor(s.owner, compIndex.get(s.owner)) : '#b9b2a2';
      const r = el('rect', { x: INSET + 4, y: INSET + 4, width: CELL - 2 * INSET - 8, height: CELL - 2 * INSET - 8,
        rx: 4, fill: color, class: 'warehouse' + (flags.includes('upside') ? ' upside' : '') }, g);
      if (flags.includes('upside')) r.setAttribute('fill-opacity', '0.45');
      const ink = s.owner ? inkOn(color) : '#222';
      if (s.height > 0) {
        const h = el('text', { x: CELL / 2, y: CELL / 2 + 6, class: 'height', fill: ink }, g);
        h.textContent = String(s.height);
      }
      if (flags.includes('hq')) {
        el('circle', { cx: CELL - INSET - 7, cy: INSET + 7, r: 7, class: 'hq' }, g);
        const t = el('text', { x: CELL - INSET - 7, y: INSET + 10, class: 'hq-text' }, g);
        t.textContent = 'H';
      }
      if (flags.includes('roof')) {
        el('path', { d: `M${INSET + 3} ${INSET + 13} L${INSET + 11} ${INSET + 3} L${INSET + 19} ${INSET + 13} Z`, class: 'roof' }, g);
      }
      if (flags.includes('free')) {
        const f = el('text', { x: INSET + 8, y: CELL - INSET - 5, class: 'free-mark', fill: ink }, g);
        f.textContent = 'f';
      }
    }
    const lab = el('text', { x: INSET + 3, y: CELL - INSET - 3, class: 'plot-label' + (filled ? ' on-piece' : '') }, g);
    lab.textContent = p.label;
    if (filled && s.owner) lab.setAttribute('fill', inkOn(companyColor(s.owner, compIndex.get(s.owner))));
    if (hand.has(p.name) && !filled) {
      el('rect', { x: INSET + 2, y: INSET + 2, width: CELL - 2 * INSET - 4, height: CELL - 2 * INSET - 4, rx: 3, class: 'in-hand' }, g);
    }
    if (playable.has(p.name)) {
      g.classList.add('playable');
      el('rect', { x: INSET, y: INSET, width: CELL - 2 * INSET, height: CELL - 2 * INSET, rx: 3, class: 'playable-ring' }, g);
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'button');
      g.addEventListener('click', (ev) => { ev.stopPropagation(); opts.onPlot && opts.onPlot(p.name, ev); });
      g.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); opts.onPlot && opts.onPlot(p.name, ev); } });
    }
    if (last.has(p.name)) {
      g.classList.add('last');
      if (opts.fresh) g.classList.add('fresh');
      el('rect', { x: INSET - 2, y: INSET - 2, width: CELL - 2 * INSET + 4, height: CELL - 2 * INSET + 4, rx: 5, class: 'last-ring' }, g);
    }
  });
  return svg;
}
