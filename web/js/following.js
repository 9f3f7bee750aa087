// following.js: the people one follows (issue 32 item 4; docs/protocol.md,
// "Following"). The lobby's "Following" panel lists them: who is online,
// who is playing, their games in play (the new ones marked) with a link to
// watch each, and a link to their profile to challenge them. A profile has
// the Follow / Unfollow button (followButton). The followed person is not
// told (as on lichess): following is the follower's own list. The panel
// reads GET /api/following when the lobby opens and every 30 seconds while
// it is open; it is hidden for guests and for someone who follows nobody.
import { h, clear, toast } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { who } from './session.js';

const POLL_MS = 30000;

// The lobby's panel: followingPanel() starts reading (returns the stopper);
// mountFollowing(el) draws the last list into el, the lobby's (hidden)
// section, whenever the lobby draws itself again (a form field changed):
// no read for that.
let panel = null;
let last = null;

export function mountFollowing(el) {
  panel = el;
  if (last && panel) draw(panel, last);
}

export function followingPanel() {
  let stopped = false;
  const load = async () => {
    const me = who();
    if (stopped) return;
    if (!me || me.kind !== 'account') { last = []; if (panel) draw(panel, last); return; }
    try {
      last = (await api('GET', '/api/following')).following;
    } catch (e) { return; } // keep what is shown
    if (!stopped && panel) draw(panel, last);
  };
  load();
  const timer = setInterval(load, POLL_MS);
  return () => { stopped = true; panel = null; last = null; clearInterval(timer); };
}

function pace(g) {
  return g.days > 0 ? t('mygames.days', { n: g.days }) : t('mygames.live');
}

function draw(el, list) {
  clear(el);
  el.hidden = !list.length;
  if (!list.length) return;
  el.appendChild(h('h2', {}, t('follow.title')));
  for (const p of list) {
    const state = p.playing ? t('follow.playing') : p.online ? t('follow.online') : t('follow.offline');
    el.appendChild(h('div', { class: 'game-row follow-row', dataset: { name: p.name } },
      h('div', {},
        h('span', { class: `presence ${p.online ? 'on' : 'off'}`, 'aria-hidden': 'true' }, '●'), ' ',
        h('a', { href: `#/player/${encodeURIComponent(p.name)}` }, h('b', {}, p.name)), ' · ',
        h('span', { class: 'muted follow-state' }, state)),
      h('div', { class: 'row-buttons' },
        h('a', { class: 'button small follow-challenge', href: `#/player/${encodeURIComponent(p.name)}` }, t('follow.challenge')))));
    for (const g of p.games) {
      el.appendChild(h('div', { class: 'game-row follow-game', dataset: { game: g.id } },
        h('div', {},
          g.new ? h('span', { class: 'new-mark' }, t('follow.new'), ' ') : null,
          h('b', {}, t(`edition.${g.edition}`, { _default: g.edition })), ' · ', pace(g), ' · ',
          g.status === 'waiting' ? t('follow.waiting') : t('mygames.against', { names: g.players.filter((n, i) => i !== g.seat).join(', ') })),
        // a game waiting for players is in the lobby's open games, to join
        g.status === 'waiting' ? null
          : h('a', { class: 'button small secondary follow-watch', href: g.link.replace(/^\/?#/, '#') }, t('lobby.watch'))));
    }
  }
}

// The profile's button: Follow, or Unfollow when already followed. Only
// between accounts, and not on one's own page.
export function followButton(name) {
  const me = who();
  if (!me || me.kind !== 'account' || me.name.toLowerCase() === name.toLowerCase()) return null;
  const b = h('button', { type: 'button', class: 'small', id: 'follow', disabled: true }, t('follow.follow'));
  let on = false;
  const show = () => { b.textContent = on ? t('follow.unfollow') : t('follow.follow'); b.dataset.following = String(on); b.disabled = false; };
  api('GET', '/api/following').then((r) => {
    on = r.following.some((p) => p.name.toLowerCase() === name.toLowerCase());
    show();
  }).catch(() => show());
  b.addEventListener('click', async () => {
    b.disabled = true;
    try {
      const r = await api('POST', on ? '/api/following/remove' : '/api/following', { name });
      on = r.following;
      toast(t(on ? 'follow.done' : 'follow.undone', { name: r.name }));
    } catch (e) { toast(e.message, 'error'); }
    show();
  });
  return b;
}
