// replay.js: the replay viewer of a finished game. It asks the server for the
// spectator view after K moves (GET /api/games/ID/replay?step=K) and draws it
// with the game page's board and panels; buttons, a slider, a field to jump
// to any move, play/pause (one move a second), the arrow keys (space plays
// or pauses) step through the game, and the bar says the shown move in words.
// Below the bar, the game's analysis (analysis.js, issue 33): a graph of the
// players' chances that a click jumps through, and the moments that mattered,
// also marked in the log.
import { h, clear } from './dom.js';
import { t, lang } from './i18n.js';
import { api } from './api.js';
import { GamePage, logWords } from './game.js';
import { AnalysisPanel } from './analysis.js';

export class ReplayPage {
  constructor(root, { game }) {
    this.root = root;
    this.game = game;
    this.step = null;
    this.data = null;
    clear(root);
    this.bar = h('div', { class: 'replay-bar panel', id: 'replay-bar' });
    this.pageRoot = h('div', { class: 'replay-game' });
    this.page = new GamePage(this.pageRoot, { game, replay: true });
    this.analysis = new AnalysisPanel(this);
    root.appendChild(h('div', { class: 'replay' }, this.bar, this.analysis.el, this.pageRoot));
    this.keys = (e) => {
      if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
      if (e.key === 'ArrowRight') this.go(this.step + 1);
      if (e.key === 'ArrowLeft') this.go(this.step - 1);
      if (e.key === ' ' && e.target === document.body) { e.preventDefault(); this.toggle(); }
    };
    window.addEventListener('keydown', this.keys);
    // the seats' names come from the game's summary
    api('GET', `/api/games/${game}`).then((g) => { this.seats = g && g.seats; this.show(); }).catch(() => {});
    this.go(null);
  }

  destroy() { this.stop(); this.analysis.destroy(); window.removeEventListener('keydown', this.keys); this.page.destroy(); }

  // play: one move a second until the end or a pause
  toggle() { if (this.timer) this.stop(); else this.play(); this.show(); }
  play() {
    if (this.data && this.step >= this.data.steps) this.go(0);
    this.timer = setInterval(async () => {
      if (this.busy) return;
      if (!this.data || this.step >= this.data.steps) { this.stop(); this.show(); return; }
      this.busy = true;
      await this.go(this.step + 1);
      this.busy = false;
    }, 1000);
  }
  stop() { clearInterval(this.timer); this.timer = null; }

  relang() { this.analysis.render(); this.go(this.step); }

  async go(step) {
    if (step !== null && this.data && (step < 0 || step > this.data.steps)) return;
    try {
      // the moves in words in the page's language
      const q = step === null ? `?lang=${lang()}` : `?step=${step}&lang=${lang()}`;
      this.data = await api('GET', `/api/games/${this.game}/replay${q}`);
      this.step = this.data.step;
      this.show();
    } catch (e) {
      this.page.showError(t('replay.failed', { why: e.message }));
    }
  }

  show() {
    const d = this.data;
    if (!d) return;
    const moves = d.moves || [];
    // feed the game page a frame as the server would send a spectator
    const shown = moves.slice(0, d.step);
    const frame = {
      type: 'state', game: this.game, seat: -1, status: d.step >= d.steps ? 'over' : 'playing', decision: d.step,
      deciders: d.view.deciders || [], legal: [], seats: this.seats || this.seatsFromView(d.view),
      log: shown, last: shown.length ? shown[shown.length - 1] : null, view: d.view,
      result: d.step >= d.steps ? d.result : undefined,
    };
    this.page.logMap = new Map(shown.map((e) => [e.n, e]));
    this.page.frame = frame;
    this.page.lastDecision = frame.decision;
    this.page.render();
    // the analysis: the graph's position line, the moments in the log
    if (this.analysis.state.status === 'done') { this.analysis.render(); this.analysis.decorate(); }
    this.page.setConn && (this.page.el.conn.textContent = t('replay.title'));
    const B = clear(this.bar);
    const slider = h('input', { type: 'range', min: 0, max: d.steps, value: d.step, id: 'replay-slider', 'aria-label': t('replay.step') });
    slider.addEventListener('input', () => { this.el && (this.el.pos.textContent = t('replay.pos', { k: slider.value, n: d.steps })); });
    slider.addEventListener('change', () => this.go(+slider.value));
    const jump = h('input', { type: 'number', min: 0, max: d.steps, value: d.step, id: 'replay-jump', 'aria-label': t('replay.jump') });
    jump.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); this.go(Math.max(0, Math.min(d.steps, +jump.value || 0))); } });
    jump.addEventListener('change', () => this.go(Math.max(0, Math.min(d.steps, +jump.value || 0))));
    const pos = h('span', { class: 'replay-pos', id: 'replay-pos' }, t('replay.pos', { k: d.step, n: d.steps }));
    this.el = { pos };
    const shownMove = moves[d.step - 1];
    const next = moves[d.step];
    // a move in words, with its player's name unless the words have it
    const words = (e) => { const w = logWords(e, (i) => this.page.seatName(i)); return w.withPlayer ? w.text : `${this.page.seatName(e.player)}: ${w.text}`; };
    const say = (e, k) => t('replay.this_move', { k, move: words(e) });
    B.append(h('div', { class: 'replay-controls' },
      h('button', { id: 'replay-first', onclick: () => this.go(0), disabled: d.step === 0, 'aria-label': t('replay.first') }, '«'),
      h('button', { id: 'replay-prev', onclick: () => this.go(d.step - 1), disabled: d.step === 0 }, '◀ ', t('replay.prev')),
      h('button', { id: 'replay-play', class: 'primary', 'aria-pressed': String(!!this.timer), onclick: () => this.toggle() }, this.timer ? `❚❚ ${t('replay.pause')}` : `▶ ${t('replay.play')}`),
      h('button', { id: 'replay-next', onclick: () => this.go(d.step + 1), disabled: d.step >= d.steps }, t('replay.next'), ' ▶'),
      h('button', { id: 'replay-last', onclick: () => this.go(d.steps), disabled: d.step >= d.steps, 'aria-label': t('replay.last') }, '»'),
      pos,
      h('label', { class: 'jump' }, t('replay.jump'), ' ', jump)),
    slider,
    h('p', { class: 'replay-now', id: 'replay-now', 'aria-live': 'polite' }, shownMove ? say(shownMove, d.step) : t('replay.pos', { k: 0, n: d.steps })),
    h('p', { class: 'muted small' }, next ? t('replay.next_move', { move: words(next) }) : t('ui.game_over')));
  }

  seatsFromView(view) {
    return view.players.map((p, i) => ({ seat: i, kind: 'human', name: t('ui.player_n', { n: i + 1 }) }));
  }
}
