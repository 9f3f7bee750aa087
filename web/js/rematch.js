// rematch.js: the rematch button of a finished game's result box (game.js).
// One click asks the server for the same table again
// (POST /api/games/ID/rematch: same edition, board, rules, pace and bots,
// every person in the seat they had, a new deal) and opens it; once someone
// has proposed it, every player of the old game is shown a link to it (the
// state frame's "rematch" member). Spectators and replays get no button.
import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';

export function rematchBox(page) {
  const f = page.frame;
  if (page.watch || page.replay || !f || f.seat === undefined || f.seat < 0) return null;
  if (f.rematch) {
    return h('a', { href: `#/play/${f.rematch}`, class: 'button primary', id: 'open-rematch' }, t('game.rematch_open'));
  }
  const b = h('button', { class: 'primary', id: 'rematch' }, t('game.rematch'));
  b.addEventListener('click', async () => {
    b.disabled = true;
    try {
      const r = await api('POST', `/api/games/${page.game}/rematch`, {});
      toast(t('game.rematch_ready'));
      location.hash = r.link.replace(/^\/?#/, '#');
    } catch (e) {
      b.disabled = false;
      toast(t('game.rematch_failed', { why: e.message }), 'error');
    }
  });
  return b;
}
