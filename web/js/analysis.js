// analysis.js: a finished game's analysis in the replay, and the hint box
// of the game page (issue 33; docs/analysis.md, docs/protocol.md "Analysis
// and hints").
//
// The replay asks GET /api/games/ID/analysis: a stored analysis is drawn at
// once; one under way shows its progress (asked again each second); none
// offers "Analyse this game" (POST). Drawn: each player's chance of winning
// after each decision, one line per player in the seat's colour; a click on
// the graph jumps the replay to that decision (step n + 1: the board after
// it); the moments that mattered are numbered on the graph, listed with the
// bot's move and the difference in words, and marked in the replay's log.
import { h, clear } from './dom.js';
import { t, lang } from './i18n.js';
import { api } from './api.js';
import { SEAT_COLORS } from './colors.js';
import { ensure as ensureSession } from './session.js';

const SVG = 'http://www.w3.org/2000/svg';
function s(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined) e.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

const pct = (x) => `${Math.round(x * 100)}%`;

export class AnalysisPanel {
  // replay: the ReplayPage (go(step), page.seatName(i), data.steps)
  constructor(replay) {
    this.replay = replay;
    this.game = replay.game;
    this.el = h('section', { class: 'panel analysis', id: 'analysis', 'aria-labelledby': 'analysis-title' });
    this.state = { status: 'loading' };
    this.timer = null;
    this.load();
  }

  destroy() { clearTimeout(this.timer); this.timer = null; this.gone = true; }

  async load() {
    try {
      const r = await api('GET', `/api/games/${encodeURIComponent(this.game)}/analysis`);
      this.took(r);
    } catch (e) {
      this.state = e.status === 404 ? { status: 'none' } : { status: 'error', why: e.message };
      this.render();
    }
  }

  // an answer of GET or POST: done, or under way (poll), or failed
  took(r) {
    if (this.gone) return;
    this.state = r || { status: 'none' };
    this.render();
    clearTimeout(this.timer);
    if (r && (r.status === 'queued' || r.status === 'running')) this.timer = setTimeout(() => this.load(), 1000);
    if (r && r.status === 'done') this.replay.show();   // the log's marks
  }

  async request() {
    this.state = { status: 'asking' };
    this.render();
    try {
      // the shares are a person's: someone with no session asks as a guest
      await ensureSession();
      const r = await api('POST', `/api/games/${encodeURIComponent(this.game)}/analysis`, {});
      this.took(r);
    } catch (e) {
      this.state = { status: 'refused', why: e.message };
      this.render();
    }
  }

  render() {
    const E = clear(this.el);
    E.appendChild(h('h3', { id: 'analysis-title' }, t('analysis.title')));
    const st = this.state;
    if (st.status === 'loading' || st.status === 'asking') { E.appendChild(h('p', { class: 'muted' }, t('analysis.loading'))); return; }
    if (st.status === 'none' || st.status === 'refused' || st.status === 'failed' || st.status === 'error') {
      E.appendChild(h('p', { class: 'small' }, t('analysis.what')));
      if (st.why || st.error) E.appendChild(h('p', { class: 'error small', role: 'alert', id: 'analysis-error' }, t('analysis.failed', { why: st.why || st.error })));
      E.appendChild(h('button', { class: 'primary', id: 'analysis-request', onclick: () => this.request() }, t('analysis.request')));
      return;
    }
    if (st.status === 'queued' || st.status === 'running') {
      const msg = st.status === 'queued' && st.ahead > 0 ? t('analysis.queued', { n: st.ahead }) : t('analysis.running', { done: st.done || 0, total: st.total || 0 });
      E.appendChild(h('p', { id: 'analysis-progress', role: 'status' }, msg));
      E.appendChild(h('progress', { max: st.total || 1, value: st.done || 0, 'aria-label': msg }));
      return;
    }
    if (st.status === 'done' && st.analysis) this.drawDone(E, st.analysis);
  }

  drawDone(E, a) {
    E.appendChild(h('p', { class: 'small muted' }, t('analysis.explain')));
    E.appendChild(this.graph(a));
    const names = (i) => this.replay.page.seatName(i);
    E.appendChild(h('ul', { class: 'analysis-legend small' }, Array.from({ length: a.players }, (_, q) =>
      h('li', {}, h('span', { class: 'dot', style: { background: SEAT_COLORS[q % SEAT_COLORS.length] } }), names(q)))));
    E.appendChild(h('h4', {}, t('analysis.moments')));
    if (!a.moments.length) { E.appendChild(h('p', { class: 'muted small' }, t('analysis.no_moments'))); return; }
    E.appendChild(h('ol', { class: 'analysis-moments', id: 'analysis-moments' }, a.moments.map((m) =>
      h('li', { dataset: { n: m.n, rank: m.rank } },
        h('button', { class: 'link moment-jump', onclick: () => this.replay.go(m.n + 1) },
          t('analysis.moment_head', { k: m.rank, n: m.n + 1, name: names(m.player) })),
        ' ', h('span', { class: 'moment-advice' }, this.advice(m)),
        ' ', h('span', { class: 'muted small' }, t('analysis.chances', { best: pct(m.best_chance), played: pct(m.played_chance) }))))));
  }

  advice(m) { return (m.advice && (m.advice[lang()] || m.advice.en)) || ''; }

  // The graph: x the decisions, y 0..100%; one polyline per player.
  graph(a) {
    const W = 640, H = 220, L = 36, R = 8, T = 14, B = 22;
    const pw = W - L - R, ph = H - T - B, n = a.decisions.length;
    const xOf = (i) => L + (n > 1 ? (pw * i) / (n - 1) : 0);
    const yOf = (p) => T + ph - ph * p;
    const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, class: 'analysis-graph', id: 'analysis-graph', role: 'img', 'aria-label': t('analysis.graph_label') });
    for (let k = 0; k <= 4; k++) {
      const y = yOf(k / 4);
      svg.appendChild(s('line', { x1: L, y1: y, x2: L + pw, y2: y, class: 'grid' }));
      svg.appendChild(s('text', { x: L - 4, y: y + 4, 'text-anchor': 'end', class: 'axis' }, `${25 * k}%`));
    }
    svg.appendChild(s('text', { x: L + pw / 2, y: H - 4, 'text-anchor': 'middle', class: 'axis' }, t('analysis.axis_decision', { n })));
    for (let q = 0; q < a.players; q++) {
      const pts = a.decisions.map((d, i) => `${xOf(i).toFixed(1)},${yOf(d.chances[q]).toFixed(1)}`).join(' ');
      svg.appendChild(s('polyline', { points: pts, fill: 'none', stroke: SEAT_COLORS[q % SEAT_COLORS.length], 'stroke-width': 2, class: 'chance-line', 'data-seat': q }));
    }
    // the replay's position
    const at = this.replay.data ? this.replay.data.step - 1 : -1;
    if (at >= 0 && at < n) svg.appendChild(s('line', { x1: xOf(at), y1: T, x2: xOf(at), y2: T + ph, class: 'now', id: 'analysis-now' }));
    // the most important moment is drawn last, so on top: two moments a
    // decision apart overlap, and a click lands on the one drawn last
    for (const m of [...a.moments].sort((p, q) => q.rank - p.rank)) {
      const d = a.decisions[m.n];
      const x = xOf(m.n), y = yOf(d.chances[m.player]);
      const g = s('g', { class: 'moment-mark', 'data-n': m.n, 'data-rank': m.rank, tabindex: 0, role: 'button', 'aria-label': t('analysis.moment_head', { k: m.rank, n: m.n + 1, name: this.replay.page.seatName(m.player) }) },
        s('title', {}, this.advice(m)),
        s('line', { x1: x, y1: T, x2: x, y2: T + ph, class: 'moment-line' }),
        s('circle', { cx: x, cy: y, r: 7, fill: '#fff', stroke: SEAT_COLORS[m.player % SEAT_COLORS.length], 'stroke-width': 3 }),
        s('text', { x, y: T - 3, 'text-anchor': 'middle', class: 'moment-num' }, m.rank));
      const go = (e) => { e.stopPropagation(); this.replay.go(m.n + 1); };
      g.addEventListener('click', go);
      g.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(e); } });
      svg.appendChild(g);
    }
    // a click anywhere: the nearest decision
    svg.addEventListener('click', (e) => {
      const r = svg.getBoundingClientRect();
      const x = ((e.clientX - r.left) / r.width) * W;
      const i = Math.max(0, Math.min(n - 1, Math.round(((x - L) / pw) * (n - 1))));
      this.replay.go(i + 1);
    });
    return svg;
  }

  // The replay drew its log: the moments' entries marked, with the advice.
  decorate() {
    const a = this.state.status === 'done' && this.state.analysis;
    const list = document.getElementById('log-list');
    if (!a || !list) return;
    for (const m of a.moments) {
      const li = list.querySelector(`li[data-n="${m.n}"]`);
      if (!li || li.classList.contains('moment')) continue;
      li.classList.add('moment');
      li.title = this.advice(m);
      li.appendChild(h('span', { class: 'moment-tag', dataset: { rank: m.rank } }, ' ', t('analysis.log_mark', { k: m.rank })));
      li.appendChild(h('div', { class: 'moment-advice small' }, this.advice(m)));
    }
  }
}

// ---- hints (the game page) ----------------------------------------------------------
// Whether the page may offer a hint: a seat of one's own deciding, in a game
// with a bot that is not rated (the server refuses otherwise).
export function hintOffered(page) {
  const seats = (page.frame && page.frame.seats) || [];
  return !page.replay && page.seat >= 0 && page.myTurn && page.frame.status === 'playing' && seats.some((x) => x.kind === 'bot');
}

// The Hint button and, once asked, the bot's move with its reason (kept for
// the decision it was asked at).
export function hintBox(page, describe) {
  const box = h('div', { class: 'hint-box', id: 'hint-box' });
  const dec = page.frame.decision;
  const got = page.hintGot && page.hintGot.decision === dec ? page.hintGot : null;
  if (!got) {
    box.appendChild(h('button', { class: 'secondary', id: 'hint-button', disabled: page.hintAsking === dec, onclick: () => askHint(page) },
      '💡 ', page.hintAsking === dec ? t('hint.asking') : t('hint.button')));
    return box;
  }
  if (got.error) {
    box.appendChild(h('p', { class: 'error small', role: 'alert' }, t('hint.failed', { why: got.error })));
    return box;
  }
  const move = describe(got.move);
  const reason = got.same ? t('hint.reason_same', { pct: pct(got.chance) })
    : t('hint.reason', { pct: pct(got.chance), other: describe(got.other), opct: pct(got.other_chance) });
  box.appendChild(h('p', { id: 'hint-text', role: 'status', dataset: { move: got.move } }, '💡 ', h('b', {}, t('hint.says', { move })), ' ', h('span', { class: 'small' }, reason)));
  return box;
}

async function askHint(page) {
  const dec = page.frame.decision;
  page.hintAsking = dec;
  page.renderDecision();
  try {
    const r = await api('POST', `/api/games/${encodeURIComponent(page.game)}/hint`, {});
    page.hintGot = r;
  } catch (e) {
    page.hintGot = { decision: dec, error: e.message };
  }
  page.hintAsking = null;
  if (page.frame && page.frame.decision === dec && !page.destroyed) page.renderDecision();
}
