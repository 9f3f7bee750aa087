// replay.js: the replay viewer of a finished game. It asks the server for the
// spectator view after K moves (GET /api/games/ID/replay?step=K) and draws it
// with the game page's board and panels; buttons, a slider, the arrow keys
// and a click on a move of the list step through the game.
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { GamePage, logWords } from './game.js';

export class ReplayPage {
  constructor(root, { game }) {
    this.root = root;
    this.game = game;
    this.step = null;
    this.data = null;
    clear(root);
    this.bar = h('div', { class: 'replay-bar panel', id: 'replay-bar' });
    this.pageRoot = h('div', { class: 'replay-game' });
    root.appendChild(h('div', { class: 'replay' }, this.bar, this.pageRoot));
    this.page = new GamePage(this.pageRoot, { game, replay: true });
    this.keys = (e) => {
      if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
      if (e.key === 'ArrowRight') this.go(this.step + 1);
      if (e.key === 'ArrowLeft') this.go(this.step - 1);
    };
    window.addEventListener('keydown', this.keys);
    // the seats' names come from the game's summary
    api('GET', `/api/games/${game}`).then((g) => { this.seats = g && g.seats; this.show(); }).catch(() => {});
    this.go(null);
  }

  destroy() { window.removeEventListener('keydown', this.keys); this.page.destroy(); }

  relang() { this.show(); }

  async go(step) {
    if (step !== null && this.data && (step < 0 || step > this.data.steps)) return;
    try {
      const q = step === null ? '' : `?step=${step}`;
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
    this.page.setConn && (this.page.el.conn.textContent = t('replay.title'));
    const B = clear(this.bar);
    const slider = h('input', { type: 'range', min: 0, max: d.steps, value: d.step, id: 'replay-slider', 'aria-label': t('replay.step') });
    slider.addEventListener('change', () => this.go(+slider.value));
    const next = moves[d.step];
    B.appendChild(h('div', { class: 'replay-controls' },
      h('button', { id: 'replay-first', onclick: () => this.go(0), disabled: d.step === 0, 'aria-label': t('replay.first') }, '«'),
      h('button', { id: 'replay-prev', onclick: () => this.go(d.step - 1), disabled: d.step === 0 }, '◀ ', t('replay.prev')),
      h('span', { class: 'replay-pos', id: 'replay-pos' }, t('replay.pos', { k: d.step, n: d.steps })),
      h('button', { id: 'replay-next', onclick: () => this.go(d.step + 1), disabled: d.step >= d.steps }, t('replay.next'), ' ▶'),
      h('button', { id: 'replay-last', onclick: () => this.go(d.steps), disabled: d.step >= d.steps, 'aria-label': t('replay.last') }, '»')),
    slider,
    h('p', { class: 'muted small' }, next ? t('replay.next_move', { who: this.page.seatName(next.player), move: logWords(next, (i) => this.page.seatName(i)).text }) : t('ui.game_over')));
  }

  seatsFromView(view) {
    return view.players.map((p, i) => ({ seat: i, kind: 'human', name: t('ui.player_n', { n: i + 1 }) }));
  }
}
