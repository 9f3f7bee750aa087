// mygames.js: "My games" (#/my-games): every game of the session's player
// that is not over, those where it is the player's turn first, each with its
// deadline (turn-based games count days per move) and a link to the seat.
// Reads GET /api/my-games (docs/protocol.md, "Players"); refreshed every
// 15 seconds. A game that waits for its players shows its creator the
// invite links of the seats still free (invites.js).
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { InviteLinks } from './invites.js';
import { duration, urgent } from './clock.js';
import { notifyToggle } from './badge.js';

// One game in play of one's own: edition, pace, whose turn, the time left
// (as a person reads it, red only near the end: clock.js) and a link to the
// seat. Shared by this page and the lobby's "Your games".
export function yourGameRow(g, linkText) {
  const secondsPerMove = g.mode === 'turn-based' ? (g.days || 0) * 86400 : 0;
  const left = g.deadline ? Math.max(0, Math.round((g.deadline - Date.now()) / 1000)) : null;
  // the table (GET /api/my-games: players): who else sits, who decides now
  const players = g.players || [];
  const others = players.filter((p) => p.seat !== g.seat).map((p) => p.name);
  const deciding = players.filter((p) => p.seat !== g.seat && p.deciding).map((p) => p.name);
  return h('div', { class: `game-row${g.your_turn ? ' your-turn' : ''}`, dataset: { game: g.id } },
    h('div', {},
      h('b', {}, t(`edition.${g.edition}`, { _default: g.edition })), ' · ',
      g.mode === 'turn-based' ? t('mygames.days', { n: g.days }) : t('mygames.live'), ' · ',
      g.your_turn ? h('b', {}, t('mygames.your_turn'))
        : h('span', { class: 'muted turn-of' }, deciding.length ? t('mygames.turn_of', { names: deciding.join(', ') }) : t('mygames.waiting'))),
    others.length ? h('div', { class: 'small opponents' }, t('mygames.against', { names: others.join(', ') })) : null,
    left !== null ? h('div', { class: `small time-left${urgent(left, secondsPerMove) ? ' urgent' : ' muted'}`,
      title: t('mygames.deadline', { when: new Date(g.deadline).toLocaleString() }) }, t('mygames.left', { time: duration(left) })) : null,
    h('a', { class: 'button small', href: g.link }, linkText));
}

export class MyGamesPage {
  constructor(root) {
    this.root = root;
    this.invites = new Map(); // game id -> InviteLinks
    this.load();
    this.poll = setInterval(() => this.load(), 15000);
  }

  destroy() { clearInterval(this.poll); }

  relang() { this.render(); }

  async load() {
    try {
      this.data = await api('GET', '/api/my-games');
      this.error = null;
      // the invite links of the games not waiting for this player (a game
      // waiting for its players waits for nobody's move)
      for (const g of this.data.games || []) {
        if (g.your_turn) continue;
        if (!this.invites.has(g.id)) this.invites.set(g.id, new InviteLinks(g.id));
        this.invites.get(g.id).load();
      }
    } catch (e) {
      this.error = e.status === 401 ? t('mygames.need_session') : e.message;
    }
    this.render();
  }

  render() {
    const R = clear(this.root);
    const games = (this.data && this.data.games) || [];
    R.appendChild(h('section', { class: 'panel', id: 'my-games' },
      h('h2', {}, t('mygames.title')),
      this.error ? h('p', { class: 'error-banner', role: 'alert' }, this.error) : null,
      !this.data && !this.error ? h('p', {}, t('ui.loading')) : null,
      this.data && !games.length ? h('p', { class: 'muted' }, t('lobby.no_games')) : null,
      this.data ? notifyToggle() : null,
      games.map((g) => {
        const row = yourGameRow(g, t('lobby.open'));
        if (this.invites.has(g.id)) row.appendChild(this.invites.get(g.id).el);
        return row;
      })));
  }
}
