// rated.js: whether a game is rated, said where it matters (issue 31): on
// the create form, on the game page and on its end screen. The rule is the
// server's (docs/ratings.md, "Which games are rated"; src/server/game/results.c):
// a game is rated when it ends by the rules, every seat is a person with an
// account (no bot, no guest), and it is not a practice game (a chosen seed,
// or a start from a position). This module only says it; the server decides.
import { t } from './i18n.js';
import { h } from './dom.js';
import { api } from './api.js';

// The create form: seats as the form holds them ({kind}), a seed typed or a
// position pasted. Who takes the human seats is not known yet.
export function formRatedText(form) {
  if (form.seats.some((s) => s.kind === 'bot')) return t('rated.no_bot');
  if ((form.seed || '').trim() || (form.position || '').trim()) return t('rated.no_practice');
  if ((form.variant || '').trim()) return t('rated.no_variant');
  return t('rated.if_accounts');
}

// A game: the state frame's status, seats ({kind, guest}) and practice.
export function gameRated(frame) {
  const seats = (frame && frame.seats) || [];
  // ended without a result (abandoned, or aborted by a moderator): nothing
  // was rated, whoever sat there (docs/ratings.md, docs/moderation.md)
  if (frame && (frame.status === 'abandoned' || frame.status === 'aborted')) return { rated: false, text: t('rated.no_result') };
  if (seats.some((s) => s.kind === 'bot')) return { rated: false, text: t('rated.no_bot') };
  if (frame.practice) return { rated: false, text: t('rated.no_practice') };
  if (frame.variant) return { rated: false, text: t('rated.no_variant') };
  if (seats.some((s) => s.guest)) return { rated: false, text: t('rated.no_guest') };
  // a game starts once every human seat is taken (docs/protocol.md): while
  // it waits, who takes the free seats is not known yet (state frames carry
  // no per-seat "claimed")
  if (frame.status === 'waiting' || seats.some((s) => s.claimed === false)) return { rated: null, text: t('rated.if_accounts') };
  return { rated: true, text: t('rated.yes') };
}

// The end screen: whether the game was rated, and each person's rating
// change (issue 31 item 6). The server writes a finished game's result and,
// when it is rated, every player's rating before and after it with the last
// move (docs/ratings.md); GET /api/players/NAME lists them with the game
// (docs/protocol.md, "Players"), so the page asks each seated account once.
// The answer is kept on the page, which draws its panels again at every
// frame. A guest has no profile (404) and a game with one is not rated.
export function endRatings(page, onReady) {
  const f = page.frame;
  const seats = ((f && f.seats) || []).filter((s) => s.kind === 'human' && !s.guest && s.name);
  if (!seats.length || (f.seats || []).some((s) => s.kind === 'bot') || f.practice) return null;
  const box = h('div', { class: 'rating-changes', id: 'rating-changes' });
  const st = page.ratingsShown;
  if (st && st.game === page.game && st.done) {
    if (st.rated) {
      box.appendChild(h('p', { class: 'small', id: 'end-rated-final' }, t('rated.was')));
      box.appendChild(h('ul', { class: 'rating-list' }, st.rows.map((r) => {
        const d = r.after - r.before;
        return h('li', { dataset: { seat: r.seat }, class: d >= 0 ? 'up' : 'down' },
          t('rated.change', { name: r.name, before: r.before, after: r.after, delta: `${d >= 0 ? '+' : '−'}${Math.abs(d)}` }));
      })));
    } else box.appendChild(h('p', { class: 'small', id: 'end-rated-final' }, t('rated.was_not')));
    return box;
  }
  if (!st || st.game !== page.game) {
    page.ratingsShown = { game: page.game, done: false };
    loadRatings(page.game, seats).then((res) => {
      page.ratingsShown = Object.assign({ game: page.game, done: true }, res);
      if (onReady) onReady();
    });
  }
  return box;
}

// Each seated account's entry for the game; asked once more after a second
// when one is not there yet (the result is written with the last move, but
// the page may see the last frame first).
async function loadRatings(game, seats) {
  for (let attempt = 0; attempt < 3; attempt++) {
    const entries = await Promise.all(seats.map(async (s) => {
      try {
        const p = await api('GET', `/api/players/${encodeURIComponent(s.name)}`);
        return { s, g: (p.games || []).find((x) => x.id === game) || null };
      } catch (e) {
        return { s, g: null, gone: e.status === 404 };
      }
    }));
    if (entries.some((e) => e.gone)) return { rated: false, rows: [] };
    if (entries.every((e) => e.g)) {
      const rated = entries.every((e) => e.g.rated && typeof e.g.rating_before === 'number');
      return { rated, rows: rated ? entries.map((e) => ({ seat: e.s.seat, name: e.s.name, before: e.g.rating_before, after: e.g.rating_after })) : [] };
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  return { rated: false, rows: [], unknown: true };
}
