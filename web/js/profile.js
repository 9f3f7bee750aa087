// profile.js: a player's page (#/player/NAME): the ratings per edition
// (a "?" marks a provisional one), how many games the player has finished
// and has in play, and the finished games, newest first, each with its
// places, scores, rating change and a link to its replay. Reads
// GET /api/players/NAME (docs/protocol.md, "Players"). Another account's
// page has "Challenge": a game of two of the edition and pace chosen
// (POST /api/challenges, "Challenges"), answered in that person's lobby,
// and Follow / Unfollow (following.js; "Following"), and Report (moderation.js).
import { h, clear, toast } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { who, onSession } from './session.js';
import { refreshMyGames } from './badge.js';
import { followButton } from './following.js';
import { reportButton } from './moderation.js';

// "1642?" for a provisional rating (lichess's mark)
export function ratingText(r) { return `${r.rating}${r.provisional ? '?' : ''}`; }

export function dateText(unixSeconds) {
  return new Date(unixSeconds * 1000).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

export class ProfilePage {
  constructor(root, { name }) {
    this.root = root;
    this.name = name;
    this.data = null;
    this.form = { edition: 'amsterdam', pace: 'live' };
    this.unsub = onSession(() => this.render());
    this.load();
  }

  destroy() { if (this.unsub) this.unsub(); }

  relang() { this.render(); }

  async load() {
    try {
      this.data = await api('GET', `/api/players/${encodeURIComponent(this.name)}`);
      this.error = null;
    } catch (e) {
      this.error = e.status === 404 ? t('profile.unknown', { name: this.name }) : e.message;
    }
    this.render();
  }

  render() {
    const R = clear(this.root);
    if (this.error) { R.appendChild(h('p', { class: 'error-banner', role: 'alert' }, this.error)); return; }
    if (!this.data) { R.appendChild(h('p', {}, t('ui.loading'))); return; }
    const d = this.data;
    R.appendChild(h('div', { class: 'profile', id: 'profile' },
      h('section', { class: 'panel' },
        h('h2', { id: 'profile-name' }, d.name, ' ', followButton(d.name), ' ', reportButton(d.name)),
        h('p', { class: 'muted' }, t('profile.since', { date: dateText(d.created) }), ' · ',
          h('span', { id: 'profile-played' }, t('profile.played', { n: d.played })), ' · ',
          t('profile.playing', { n: d.playing })),
        h('h3', {}, t('profile.ratings')),
        d.ratings.length
          ? h('table', { class: 'ratings', id: 'profile-ratings' },
            h('thead', {}, h('tr', {}, h('th', {}, t('lobby.edition')), h('th', {}, t('profile.rating')), h('th', {}, t('profile.deviation')), h('th', {}, t('profile.rated_games')))),
            h('tbody', {}, d.ratings.map((r) => h('tr', { dataset: { edition: r.edition } },
              h('td', {}, h('a', { href: `#/leaderboard/${r.edition}` }, t(`edition.${r.edition}`, { _default: r.edition }))),
              h('td', { class: 'rating' }, ratingText(r)),
              h('td', {}, `± ${r.deviation}`),
              h('td', {}, String(r.games))))))
          : h('p', { class: 'muted' }, t('profile.unrated')),
        d.ratings.some((r) => r.provisional) ? h('p', { class: 'muted small' }, t('profile.provisional_note')) : null,
        this.challengeForm(d)),
      h('section', { class: 'panel' },
        h('h3', {}, t('profile.finished')),
        d.games.length ? h('div', { id: 'profile-games' }, d.games.map((g) => this.gameRow(g)))
          : h('p', { class: 'muted' }, t('lobby.no_games')))));
  }

  // Only between accounts, and not to oneself (the server says so too).
  challengeForm(d) {
    const me = who();
    if (!me || me.kind !== 'account' || me.name.toLowerCase() === d.name.toLowerCase()) return null;
    const F = this.form;
    const sel = (id, value, choices, onchange, label) => h('label', { class: 'field' }, h('span', {}, label),
      h('select', { id, onchange: (e) => onchange(e.target.value) },
        choices.map(([v, text]) => h('option', { value: v, selected: v === value }, text))));
    return h('form', { class: 'challenge-form', id: 'challenge-form', onsubmit: (e) => { e.preventDefault(); this.challenge(d.name); } },
      h('h3', {}, t('challenge.title')),
      h('div', { class: 'fields' },
        sel('challenge-edition', F.edition, ['amsterdam', 'golden-age'].map((e) => [e, t(`edition.${e}`, { _default: e })]),
          (v) => { F.edition = v; }, t('lobby.edition')),
        // live, or turn-based with 1, 2, 3 or 7 days per move, as the lobby offers
        sel('challenge-pace', F.pace, [['live', t('lobby.mode_live')], ...[1, 2, 3, 7].map((n) => [String(n), t('lobby.mode_days', { n })])],
          (v) => { F.pace = v; }, t('lobby.mode'))),
      h('button', { type: 'submit', class: 'primary', id: 'challenge' }, t('challenge.button', { name: d.name })));
  }

  async challenge(name) {
    const F = this.form;
    const body = { name, edition: F.edition, mode: F.pace === 'live' ? 'live' : 'turn-based' };
    if (F.pace !== 'live') body.days = +F.pace;
    try {
      await api('POST', '/api/challenges', body);
      toast(t('challenge.sent', { name }));
      refreshMyGames();
    } catch (e) { toast(e.message, 'error'); }
  }

  gameRow(g) {
    const me = g.seat;
    const won = g.winners.includes(me);
    const change = g.rating_after !== undefined ? g.rating_after - g.rating_before : null;
    return h('div', { class: 'game-row', dataset: { game: g.id } },
      h('div', {},
        h('b', {}, t(`edition.${g.edition}`, { _default: g.edition })), ' · ', dateText(g.finished), ' · ',
        won ? h('span', { class: 'won' }, t('profile.won')) : t('profile.place', { n: (g.place ?? rank(g, me)) + 1 }),
        change !== null ? h('span', { class: `change ${change >= 0 ? 'up' : 'down'}` }, ` ${g.rating_before} → ${g.rating_after} (${change >= 0 ? '+' : ''}${change})`)
          : h('span', { class: 'muted' }, ` · ${t('profile.unrated_game')}`),
        g.hints ? [' · ', h('span', { class: 'tag hinted', title: t('hint.used_title') }, t('hint.used_n', { n: g.hints }))] : null),
      h('div', { class: 'muted small' }, g.names.map((n, i) => `${n} ${g.scores[i] !== undefined ? `f${g.scores[i]}` : ''}`).join(', ')),
      h('a', { class: 'button small', href: g.replay }, t('lobby.replay')));
  }
}

// 0-based place of seat s by score (for an unrated game, which has no stored place)
function rank(g, s) { return g.scores.filter((x) => x > g.scores[s]).length; }
