// leaderboard.js: the leaderboard of an edition (#/leaderboard/EDITION):
// players by rating, the established ratings first and the provisional ones
// (marked "?") after them, each name a link to the player's page. Reads
// GET /api/leaderboard?edition=EDITION (docs/protocol.md, "Players").
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { ratingText } from './profile.js';

const EDITIONS = ['amsterdam', 'golden-age'];

export class LeaderboardPage {
  constructor(root, { edition }) {
    this.root = root;
    this.edition = EDITIONS.includes(edition) ? edition : 'amsterdam';
    this.load();
  }

  destroy() {}

  relang() { this.render(); }

  async load() {
    try {
      this.data = await api('GET', `/api/leaderboard?edition=${this.edition}`);
      this.error = null;
    } catch (e) {
      this.error = e.message;
    }
    this.render();
  }

  render() {
    const R = clear(this.root);
    R.appendChild(h('section', { class: 'panel leaderboard', id: 'leaderboard' },
      h('h2', {}, t('leaderboard.title')),
      h('nav', { class: 'tabs' }, EDITIONS.map((e) => h('a', {
        href: `#/leaderboard/${e}`, class: e === this.edition ? 'button small' : 'button small secondary',
        'aria-current': e === this.edition ? 'page' : null,
      }, t(`edition.${e}`, { _default: e })))),
      this.error ? h('p', { class: 'error-banner', role: 'alert' }, this.error) : null,
      !this.data ? h('p', {}, t('ui.loading'))
        : !this.data.players.length ? h('p', { class: 'muted' }, t('leaderboard.empty'))
          : h('table', { class: 'ratings', id: 'leaderboard-table' },
            h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, t('lobby.name')), h('th', {}, t('profile.rating')), h('th', {}, t('profile.rated_games')))),
            h('tbody', {}, this.data.players.map((p) => h('tr', { class: p.provisional ? 'provisional' : '' },
              h('td', {}, String(p.rank)),
              h('td', {}, h('a', { href: `#/player/${encodeURIComponent(p.name)}` }, p.name)),
              h('td', { class: 'rating' }, ratingText(p)),
              h('td', {}, String(p.games)))))),
      h('p', { class: 'muted small' }, t('profile.provisional_note'))));
  }
}
