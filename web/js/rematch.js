// rematch.js: "play again with the same people" in a finished game's result
// box (game.js; docs/protocol.md, "Rematch"). One click proposes the same
// table again (POST /api/games/ID/rematch): each other person is asked,
// bots are not. The box then shows the offer as its people see it
// (GET /api/rematches, read every 3 s while the box is on screen and the
// offer is open, every 12 s otherwise): who said yes, who is still asked; Accept and Decline for
// someone asked, "Take it back" for someone who said yes; a decline or the
// offer running out says so and lets anyone ask again. When the last person
// accepts, the new game starts, and everyone who said yes and is still
// looking at the old game is taken to it. Against bots only the game starts
// at once. Spectators and replays get no box. The header's badge counts the
// offers one is asked (badge.js), and the lobby lists them.
import { h, clear, toast } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { refreshMyGames } from './badge.js';

const POLL_MS = 3000;
const state = new Map(); // old game id -> { offer, timer, el, page }

function go(link) { location.hash = link.replace(/^\/?#/, '#'); }

export function rematchBox(page) {
  const f = page.frame;
  if (page.watch || page.replay || !f || f.seat === undefined || f.seat < 0) return null;
  let s = state.get(page.game);
  if (!s) { s = { offer: null, timer: null, el: null, page, read: false }; state.set(page.game, s); }
  s.page = page;
  s.el = h('div', { class: 'rematch-box', id: 'rematch-box' });
  draw(s, f.rematch);
  if (!s.read) { s.read = true; poll(s); }
  return s.el;
}

// The offers of this session for this game; again while one is open.
async function poll(s) {
  clearTimeout(s.timer);
  const game = s.page.game;
  try {
    const r = await api('GET', '/api/rematches');
    const mine = r.offers.filter((o) => o.game === game);
    update(s, mine.length ? mine[0] : null);
  } catch (e) { /* a hiccup: read again later */ }
  const looking = location.hash.includes(game) && s.el && s.el.isConnected;
  // while open: every 3 s; else more slowly (someone may ask again)
  const open = s.offer && (s.offer.status === 'pending' || s.offer.status === 'starting');
  if (looking && !(s.offer && s.offer.status === 'started')) {
    s.timer = setTimeout(() => poll(s), open ? POLL_MS : 4 * POLL_MS);
  } else if (!looking) {
    state.delete(game);
  }
}

function update(s, offer) {
  const was = s.offer;
  s.offer = offer;
  // it started now, and this person said yes: to the new game
  if (offer && offer.status === 'started' && offer.link && (!was || was.status !== 'started') &&
      offer.mine === 'yes' && location.hash.includes(s.page.game)) {
    toast(t('game.rematch_ready'));
    refreshMyGames();
    go(offer.link);
    return;
  }
  if (offer && was && was.status === 'pending' && offer.status !== 'pending') refreshMyGames();
  draw(s, s.page.frame && s.page.frame.rematch);
}

function draw(s, frameRematch) {
  const el = s.el;
  if (!el) return;
  clear(el);
  const o = s.offer;
  const started = (o && o.status === 'started' && o.rematch) || frameRematch;
  if (started) {
    el.appendChild(h('a', { href: `#/play/${started}`, class: 'button primary', id: 'open-rematch' }, t('game.rematch_open')));
    return;
  }
  const propose = (label) => {
    const b = h('button', { class: 'primary', id: 'rematch' }, label);
    b.addEventListener('click', async () => {
      b.disabled = true;
      try {
        const r = await api('POST', `/api/games/${s.page.game}/rematch`, {});
        if (r.status === 'started' && r.link) { toast(t('game.rematch_ready')); go(r.link); return; }
        s.offer = r;
        draw(s, null);
        poll(s);
      } catch (e) {
        b.disabled = false;
        toast(t('game.rematch_failed', { why: e.message }), 'error');
      }
    });
    return b;
  };
  if (!o) { el.appendChild(propose(t('game.rematch'))); return; }
  if (o.status === 'pending' || o.status === 'starting') {
    const who = o.answers.map((a) => h('li', { class: `answer ${a.answer}`, dataset: { answer: a.answer } },
      `${a.name}: `, t(`rematch.answer_${a.answer}`)));
    el.appendChild(h('p', { id: 'rematch-offer' }, o.mine === 'ask' ? t('rematch.asked', { name: o.by }) : t('rematch.waiting')));
    el.appendChild(h('ul', { class: 'rematch-answers' }, who));
    const act = (verb, id, label, cls) => {
      const b = h('button', { class: cls, id }, label);
      b.addEventListener('click', async () => {
        b.disabled = true;
        try {
          const r = await api('POST', `/api/rematches/${o.id}/${verb}`, {});
          if (r.status === 'started' && r.link) { toast(t('game.rematch_ready')); refreshMyGames(); go(r.link); return; }
          s.offer = r;
          draw(s, null);
          refreshMyGames();
          poll(s);
        } catch (e) { toast(t('game.rematch_failed', { why: e.message }), 'error'); poll(s); }
      });
      return b;
    };
    el.appendChild(o.mine === 'ask'
      ? h('div', { class: 'row-buttons' }, act('accept', 'rematch-accept', t('rematch.accept'), 'primary'), act('decline', 'rematch-decline', t('rematch.decline'), ''))
      : h('div', { class: 'row-buttons' }, act('decline', 'rematch-cancel', t('rematch.cancel'), 'small')));
    return;
  }
  const why = o.status === 'declined' ? t('rematch.declined', { name: o.declined_by || '?' })
    : o.status === 'expired' ? t('rematch.expired')
      : t('game.rematch_failed', { why: o.why || o.status });
  el.appendChild(h('p', { id: 'rematch-ended', class: 'muted', dataset: { status: o.status } }, why));
  el.appendChild(propose(t('rematch.again')));
}
