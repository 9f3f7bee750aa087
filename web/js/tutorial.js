// tutorial.js: the interactive tutorial of each edition (issue 31, item 2).
// The steps are data: web/tutorial/EDITION.json (docs/tutorial.md): for each
// step a position, the seat the learner plays, the one move asked for (and,
// for an amount or a shape that may be chosen freely, a pattern of moves
// taken as right too), what to highlight, and in each language the texts:
// what to look at, why another move is not the one (said in the page,
// before anything is sent: explained, not just refused), and what the move
// did and why.
//   #/learn                 the tutorial menu: both editions, every step,
//                           the steps done marked, each one can be replayed
//   #/learn/EDITION/N       step N (1-based): a game started from the
//                           step's position (POST /api/games "position", the
//                           other seats greedy bots), played on the game page
// The browser decides no rule here either: the game is the server's, the
// moves are the state frame's legal list (game.js); the tutorial only
// chooses which of the legal moves it asks for.
// Leaving a step ends its game (POST /api/games/ID/end): it does not stay in
// "My games" with the learner to move.
// Progress (the steps done) is kept by the server for an account (GET and
// POST /api/tutorial, docs/protocol.md "Tutorial progress": every device
// sees it), and in this browser's localStorage for a guest (one entry for
// all guests) and as the account's copy when the server cannot be asked.
import { h, clear } from './dom.js';
import { t, lang } from './i18n.js';
import { api } from './api.js';
import { ensure as ensureSession, who, onSession } from './session.js';
import { GamePage } from './game.js';

export const EDITIONS = ['amsterdam', 'golden-age'];
const STORE = 'chartered.tutorial';
const cache = new Map();

// The steps of an edition (web/tutorial/EDITION.json), read once.
export async function loadTutorial(edition) {
  if (!EDITIONS.includes(edition)) throw new Error(`no tutorial for ${edition}`);
  if (!cache.has(edition)) {
    cache.set(edition, fetch(`/web/tutorial/${edition}.json`, { cache: 'no-cache' }).then((r) => {
      if (!r.ok) throw new Error(`${r.status}`);
      return r.json();
    }).catch((e) => { cache.delete(edition); throw e; }));
  }
  return cache.get(edition);
}

// A text of a step (or of the edition: step null) in the page's language;
// English when a language lacks it (the test fails on such a gap).
export function stepText(data, step, key) {
  const texts = step ? step.text : data.text;
  const own = texts[lang()] && texts[lang()][key];
  return own || (texts.en && texts.en[key]) || '';
}

// ---- progress ----------------------------------------------------------
function progressOwner() {
  const w = who();
  return w && w.kind === 'account' ? `account:${w.name}` : 'guest';
}
const accountName = () => { const w = who(); return w && w.kind === 'account' ? w.name : null; };
// the account's steps as the server last answered them: { name, done: { EDITION: Set } }
let kept = null;
const keptFor = () => (kept && kept.name === accountName() ? kept : null);
function keep(name, done) {
  kept = { name, done: Object.fromEntries(EDITIONS.map((e) => [e, new Set((done && done[e]) || [])])) };
}
function readAll() {
  try { return JSON.parse(localStorage.getItem(STORE) || '{}') || {}; } catch (e) { return {}; }
}
function writeAll(all) {
  try { localStorage.setItem(STORE, JSON.stringify(all)); } catch (e) { /* private mode: not kept */ }
}
// An account's progress from the server, once a page shows it; steps this
// browser kept for the account before (or while the server could not be
// asked) are sent up, so none is lost.
export async function loadProgress() {
  const name = accountName();
  if (!name) return;
  try {
    const r = await api('GET', '/api/tutorial');
    keep(name, r.done);
    const local = readAll()[progressOwner()] || {};
    for (const ed of EDITIONS) {
      for (const id of local[ed] || []) {
        if (!kept.done[ed].has(id)) keep(name, (await api('POST', '/api/tutorial', { edition: ed, step: id })).done);
      }
    }
  } catch (e) { /* the browser's copy is shown */ }
}
export function doneSteps(edition) {
  const k = keptFor();
  if (k) return new Set(k.done[edition]);
  const all = readAll();
  return new Set(((all[progressOwner()] || {})[edition]) || []);
}
function markDone(edition, id) {
  const all = readAll();
  const mine = all[progressOwner()] || (all[progressOwner()] = {});
  const list = new Set(mine[edition] || []);
  list.add(id);
  mine[edition] = [...list];
  writeAll(all);
  const name = accountName();
  if (!name) return;
  if (keptFor()) kept.done[edition].add(id);
  api('POST', '/api/tutorial', { edition, step: id }).then((r) => keep(name, r.done)).catch(() => { /* kept in the browser: sent up later */ });
}
async function forget(edition) {
  const all = readAll();
  if (all[progressOwner()]) delete all[progressOwner()][edition];
  writeAll(all);
  const name = accountName();
  if (!name) return;
  if (keptFor()) kept.done[edition].clear();
  try { keep(name, (await api('POST', '/api/tutorial/reset', { edition })).done); } catch (e) { /* the browser's copy is cleared */ }
}

// Does a move answer the step? The asked move, or one the step's pattern
// takes as right too (any bid, any pair of free warehouses).
export function answers(step, move) {
  if (move === step.move) return true;
  return !!step.accept && new RegExp(step.accept).test(move);
}

// ---- the menu ----------------------------------------------------------
export class TutorialMenu {
  constructor(root) {
    this.root = root;
    this.unsub = onSession(() => this.render());
    this.render();
  }

  destroy() { if (this.unsub) this.unsub(); }

  relang() { this.render(); }

  async render() {
    const R = this.root;
    let datas;
    try {
      [datas] = await Promise.all([Promise.all(EDITIONS.map(loadTutorial)), loadProgress()]);
    } catch (e) {
      clear(R).appendChild(h('p', { class: 'error-banner', role: 'alert' }, t('tutorial.load_failed', { why: e.message })));
      return;
    }
    clear(R);
    const page = h('div', { class: 'tutorial-menu', id: 'tutorial-menu' },
      h('h2', {}, t('tutorial.title')),
      h('p', {}, t('tutorial.intro')),
      h('p', { class: 'muted small', id: 'tutorial-kept' }, t(who() && who().kind === 'account' ? 'tutorial.kept_account' : 'tutorial.kept_guest')));
    datas.forEach((data, k) => {
      const ed = EDITIONS[k];
      const done = doneSteps(ed);
      const next = data.steps.findIndex((s) => !done.has(s.id));
      page.appendChild(h('section', { class: 'panel tutorial-edition', id: `tutorial-${ed}`, dataset: { edition: ed } },
        h('h3', {}, t(`edition.${ed}`)),
        h('p', { class: 'muted' }, stepText(data, null, 'summary')),
        h('p', { class: 'small', id: `tutorial-progress-${ed}` }, t('tutorial.progress', { done: data.steps.filter((s) => done.has(s.id)).length, n: data.steps.length })),
        h('div', { class: 'row-buttons' },
          h('a', { class: 'button primary', id: `tutorial-start-${ed}`, href: `#/learn/${ed}/${next < 0 ? 1 : next + 1}` },
            t(done.size === 0 ? 'tutorial.start' : next < 0 ? 'tutorial.again' : 'tutorial.continue')),
          done.size ? h('button', { type: 'button', class: 'secondary', id: `tutorial-reset-${ed}`, onclick: async () => { await forget(ed); this.render(); } }, t('tutorial.reset')) : null),
        h('ol', { class: 'tutorial-steps' }, data.steps.map((s, i) => h('li', { class: done.has(s.id) ? 'done' : '', dataset: { step: s.id } },
          h('a', { href: `#/learn/${ed}/${i + 1}` }, stepText(data, s, 'title')),
          done.has(s.id) ? h('span', { class: 'tick', 'aria-label': t('tutorial.done') }, ' ✓') : null)))));
    });
    R.appendChild(page);
  }
}

// ---- one step: a game from its position ---------------------------------
export class TutorialStepPage {
  constructor(root, { edition, n }) {
    this.root = root;
    this.edition = edition;
    this.n = Number(n) || 1;
    this.page = null;
    this.start();
  }

  destroy() { this.closed = true; clearTimeout(this.retry); if (this.page) this.page.destroy(); }

  // while the step's game is being created, the loading line stays as it is
  // (starting again would create a second game)
  relang() { if (this.page) this.page.relang(); }

  async start() {
    // the game page keeps the state in the root's attributes (game.js):
    // none of an earlier step's may stay while this one loads
    for (const k of Object.keys(this.root.dataset)) delete this.root.dataset[k];
    this.root.className = '';
    clear(this.root).appendChild(h('p', { class: 'muted', id: 'tutorial-loading' }, t('ui.loading')));
    let data;
    try { data = await loadTutorial(this.edition); } catch (e) {
      clear(this.root).appendChild(h('p', { class: 'error-banner', role: 'alert' }, t('tutorial.load_failed', { why: e.message })));
      return;
    }
    const step = data.steps[this.n - 1];
    if (!step) { location.hash = '#/learn'; return; }
    // the learner plays the step's seat; every other seat is a greedy bot
    // (quick: the game goes on at once after the learner's move)
    const players = Number((step.position.find((l) => /^players \d+$/.test(l)) || 'players 0').split(' ')[1]);
    const seats = [];
    for (let i = 1; i <= players; i++) seats.push(i === step.seat ? { kind: 'human' } : { kind: 'bot', bot: 'greedy' });
    let g;
    try {
      await ensureSession('');
      // unlisted: a step's game is nobody else's business, and ends as
      // abandoned when the learner leaves it (docs/protocol.md, "listed")
      g = await api('POST', '/api/games', { position: step.position.join('\n') + '\n', seats, listed: false });
    } catch (e) {
      if (this.closed) return;
      // too many games created a minute (docs/protocol.md, "Limits"): wait
      // as the server says, and try again
      if (e.status === 429) {
        clear(this.root).appendChild(h('p', { class: 'muted', id: 'tutorial-wait' }, t('tutorial.wait')));
        this.retry = setTimeout(() => this.start(), 5000);
        return;
      }
      clear(this.root).appendChild(h('p', { class: 'error-banner', role: 'alert' }, t('tutorial.load_failed', { why: e.message })));
      return;
    }
    if (this.closed) {
      // left while the game was being created: it is ended at once
      api('POST', `/api/games/${encodeURIComponent(g.id)}/end`).catch(() => null);
      return;
    }
    this.page = new TutorialGame(this.root, { game: g.id, data, edition: this.edition, index: this.n - 1, owner: this });
  }

  restart() {
    if (this.page) this.page.destroy();
    this.page = null;
    this.start();
  }
}

// The game page with the tutorial's card above it (and in its dialogs), the
// step's things highlighted, and the asked move checked before it is sent.
class TutorialGame extends GamePage {
  constructor(root, { game, data, edition, index, owner }) {
    super(root, { game });
    this.owner = owner;
    this.tut = { data, edition, index, step: data.steps[index], asked: null, askedAt: -1, done: false, wrong: null };
    this.renderCard();
  }

  // Leaving the step ends its game (POST /api/games/ID/end, docs/protocol.md):
  // a practice game of the learner against bots, which would otherwise stay
  // in play, the learner to move, in "My games" for a day. A move being
  // stored makes the server refuse for a moment (409): asked again. Closing
  // the page sends it as a beacon.
  destroy() {
    super.destroy();
    window.removeEventListener('pagehide', this.onHide);
    this.endGame();
  }

  async endGame() {
    if (this.endAsked || (this.frame && this.frame.status !== 'playing')) return;
    this.endAsked = true;
    for (let i = 0; i < 5; i++) {
      try { await api('POST', `/api/games/${encodeURIComponent(this.game)}/end`); return; } catch (e) {
        if (e.status !== 409 || /not in play/.test(e.message)) return;
        await new Promise((r) => setTimeout(r, 400));
      }
    }
  }

  build() {
    if (!this.onHide) {
      this.onHide = () => { if (!this.endAsked && navigator.sendBeacon) { this.endAsked = true; navigator.sendBeacon(`/api/games/${encodeURIComponent(this.game)}/end`); } };
      window.addEventListener('pagehide', this.onHide);
    }
    super.build();
    this.root.classList.add('tutorial-game');
    this.cardEl = h('section', { class: 'panel tutorial-card', id: 'tutorial-card', 'aria-live': 'polite' });
    this.cardKey = null;
    this.root.prepend(this.cardEl);
    if (this.tut) this.renderCard();
  }

  // The card: the step's title and text (what to look at; once the move is
  // made, what it did and why), a wrong move's explanation, the way on.
  card(inDialog) {
    const T = this.tut;
    const { data, step, index } = T;
    const n = data.steps.length;
    const last = index === n - 1;
    const el = h('div', { class: `tutorial-box${T.done ? ' done' : ''}`, dataset: { step: step.id, state: T.done ? 'done' : T.wrong ? 'wrong' : 'ask' } },
      h('p', { class: 'tutorial-where small muted' }, t('tutorial.step_of', { edition: t(`edition.${T.edition}`), n: index + 1, total: n })),
      h('h2', { class: 'tutorial-title' }, stepText(data, step, 'title')),
      h('p', { class: 'tutorial-text' }, stepText(data, step, T.done ? 'after' : 'look')));
    if (T.wrong && !T.done) {
      el.appendChild(h('div', { class: 'tutorial-wrong', role: 'alert' },
        h('strong', {}, t('tutorial.not_this')), ' ', stepText(data, step, 'wrong')));
    }
    if (T.done && T.note) el.appendChild(h('p', { class: 'tutorial-note', role: 'status' }, t('tutorial.done_note')));
    const buttons = h('div', { class: 'row-buttons' });
    if (T.done) {
      if (!last) buttons.appendChild(h('a', { class: 'button primary tutorial-next', id: inDialog ? null : 'tutorial-next', href: `#/learn/${T.edition}/${index + 2}` }, t('tutorial.next')));
      else {
        el.appendChild(h('p', { class: 'tutorial-finished' }, stepText(data, null, 'finished')));
        buttons.appendChild(h('a', { class: 'button primary tutorial-next', id: inDialog ? null : 'tutorial-finish', href: '#/learn' }, t('tutorial.finish')));
      }
    }
    // where the step points, brought into view (on a phone the card, the
    // board and the decision panel do not fit on one screen)
    if (!T.done && !inDialog && ((step.highlight.plots || []).length || (step.highlight.panels || []).length)) {
      buttons.appendChild(h('button', { type: 'button', class: 'secondary tutorial-show', id: 'tutorial-show', onclick: () => this.showMarked() }, t('tutorial.show')));
    }
    buttons.appendChild(h('button', { type: 'button', class: 'secondary tutorial-replay', id: inDialog ? null : 'tutorial-replay', onclick: () => this.replayStep() }, t('tutorial.replay')));
    buttons.appendChild(h('a', { class: 'button secondary tutorial-menu-link', id: inDialog ? null : 'tutorial-menu-link', href: '#/learn' }, t('tutorial.menu')));
    el.appendChild(buttons);
    return el;
  }

  renderCard() {
    if (!this.cardEl || !this.tut) return;
    // drawn again only when what it says changes: the game page draws at
    // every frame, and a card rebuilt each time would be read out again
    // by a screen reader (it is a live region) and lose a focused button
    const T = this.tut;
    const key = [lang(), !!this.frame, T.done, T.wrong, T.wrongN, T.note].join('|');
    if (key !== this.cardKey) {
      this.cardKey = key;
      clear(this.cardEl).appendChild(this.card(false));
    }
    this.root.dataset.tutorial = !this.frame ? 'loading' : this.tut.done ? 'done' : this.tut.wrong ? 'wrong' : 'ask';
    // a dialog covers the page: the card goes into it too, under its title
    const box = this.el.dialog && !this.el.dialog.hidden ? this.el.dialog.querySelector('.dialog') : null;
    if (box) {
      const old = box.querySelector('.tutorial-box');
      if (old) old.remove();
      const head = box.querySelector('.dialog-head');
      const c = this.card(true);
      c.classList.add('in-dialog');
      if (head) head.after(c); else box.prepend(c);
    }
  }

  // The first ringed plot (else the first outlined panel) scrolled into
  // the middle of the screen.
  showMarked() {
    const e = this.root.querySelector('svg.board .plot.tut-mark') || this.root.querySelector('.tut-mark-panel');
    if (e) e.scrollIntoView({ block: 'center', inline: 'center', behavior: 'smooth' });
  }

  // A new game of the same step (the route stays, so no hashchange: the
  // step page starts it).
  replayStep() { if (this.owner) this.owner.restart(); }

  render() {
    super.render();
    this.markPanels();
    this.renderCard();
  }

  renderBoard() {
    super.renderBoard();
    if (!this.tut || this.tut.done) return;
    for (const p of this.tut.step.highlight.plots || []) {
      const g = this.el.board.querySelector(`.plot[data-plot="${CSS.escape(p)}"]`);
      if (!g) continue;
      // a dashed ring of its own, beside the playable ring (which only the
      // legal plots get)
      const ring = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
      for (const [k, x] of Object.entries({ x: 1, y: 1, width: 46, height: 46, rx: 6, class: 'tut-ring' })) ring.setAttribute(k, x);
      g.appendChild(ring);
      g.classList.add('tut-mark');
    }
  }

  markPanels() {
    document.querySelectorAll('.tut-mark-panel').forEach((e) => e.classList.remove('tut-mark-panel'));
    if (!this.tut || this.tut.done) return;
    for (const sel of this.tut.step.highlight.panels || []) {
      const e = this.root.querySelector(sel);
      if (e) e.classList.add('tut-mark-panel');
    }
  }

  renderDialog() {
    super.renderDialog();
    if (this.tut) this.renderCard();
  }

  // The asked move goes to the server; another one is explained here and
  // not sent; once the step is done, the game is only to be looked at.
  send(move) {
    const T = this.tut;
    if (!T || !this.frame || this.sent) return;
    if (T.asked && !T.done) return;
    if (T.done) { T.note = true; this.closeChooser(); this.renderCard(); return; }
    if (!answers(T.step, move)) {
      T.wrong = move;
      T.wrongN = (T.wrongN || 0) + 1;
      this.closeChooser();
      this.renderCard();
      this.root.dataset.wrongMoves = String((+this.root.dataset.wrongMoves || 0) + 1);
      return;
    }
    T.wrong = null;
    T.asked = move;
    T.askedAt = this.frame.decision;
    super.send(move);
  }

  onError(msg) {
    if (this.tut) this.tut.asked = null;
    super.onError(msg);
  }

  onState(frame) {
    super.onState(frame);
    const T = this.tut;
    if (!T || T.done || !T.asked || !this.frame) return;
    // taken: the game moved past the decision the move was made in
    if (this.frame.decision !== T.askedAt) {
      T.done = true;
      markDone(T.edition, T.step.id);
      this.render();
      const next = document.getElementById('tutorial-next') || document.getElementById('tutorial-finish');
      if (next && this.el.dialog.hidden) next.focus({ preventScroll: true });
    }
  }
}

// #/learn and #/learn/EDITION/N
export function TutorialPage(root, { edition, n }) {
  return edition ? new TutorialStepPage(root, { edition, n }) : new TutorialMenu(root);
}

