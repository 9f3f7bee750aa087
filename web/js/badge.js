// badge.js: "your turn" on every page (issue 32). One poll of
// GET /api/my-games (docs/protocol.md, "Players") every 20 seconds, at once
// when the page comes back into view and when the session changes, feeds:
//   - the header's badge: the number of games waiting for this person's move;
//   - the lobby's "Your games" and the open games it must not offer as Watch
//     (onMyGames);
//   - an opt-in browser notification on this device (the Notifications API)
//     when a game becomes this person's turn, unless that game is the page
//     being looked at.
// The same poll reads GET /api/challenges ("Challenges") and
// GET /api/rematches ("Rematch"): incoming challenges and the rematch offers
// one is asked count in the badge too, the lobby lists them (onChallenges),
// and a new one gets an opt-in notification.
// A light poll rather than a message on every connection: the lobby and
// profile pages hold no WebSocket, and the read is a short indexed one.
import { t } from './i18n.js';
import { api } from './api.js';
import { onSession } from './session.js';

const POLL_MS = 20000;
const NOTIFY_KEY = 'chartered.notify';
let games = null;              // the last answer's games, or null before one
let turnIds = null;            // ids of the games that were this person's turn
const listeners = new Set();
let badgeEl = null;
let chall = null;              // the last GET /api/challenges answer
let challIds = null;           // ids of the incoming challenges seen
const challListeners = new Set();
let started = false;

// f(games) now (if known) and after every poll; returns the unsubscriber.
export function onMyGames(f) {
  listeners.add(f);
  if (games) f(games);
  return () => listeners.delete(f);
}

export function myGames() { return games; }

// f({incoming, outgoing}) now (if known) and after every poll.
export function onChallenges(f) {
  challListeners.add(f);
  if (chall) f(chall);
  return () => challListeners.delete(f);
}

// Challenges are between accounts: a guest or no session has none (401).
// Rematch offers (GET /api/rematches, "Rematch") are for guests too: the
// ones this person is asked count in the badge and are listed with the
// challenges (chall.rematches).
async function refreshChallenges() {
  let next;
  try {
    next = await api('GET', '/api/challenges');
  } catch (e) {
    if (e.status !== 401) return;
    next = { incoming: [], outgoing: [] };
  }
  try {
    next.rematches = (await api('GET', '/api/rematches')).offers
      .filter((o) => o.status === 'pending' && o.mine === 'ask');
  } catch (e) {
    if (e.status !== 401 && chall) next.rematches = chall.rematches || [];
    else next.rematches = [];
  }
  const ids = new Set([...next.incoming.map((c) => c.id), ...next.rematches.map((o) => o.id)]);
  if (challIds) for (const c of next.incoming) if (!challIds.has(c.id)) notifyChallenge(c);
  if (challIds) for (const o of next.rematches) if (!challIds.has(o.id)) notifyRematch(o);
  challIds = ids;
  chall = next;
  drawBadge();
  for (const f of challListeners) f(chall);
}

export async function refreshMyGames() {
  let next;
  try {
    next = (await api('GET', '/api/my-games')).games || [];
  } catch (e) {
    if (e.status !== 401) return; // a network hiccup: keep what is shown
    next = [];                    // no session: no games of one's own
  }
  const nowTurn = new Set(next.filter((g) => g.your_turn).map((g) => g.id));
  if (turnIds) for (const g of next) if (g.your_turn && !turnIds.has(g.id)) notifyTurn(g);
  turnIds = nowTurn;
  games = next;
  drawBadge();
  for (const f of listeners) f(games);
  await refreshChallenges();
}

// The header's badge (app.js mounts it again whenever the header is redrawn).
export function mountBadge(el) {
  badgeEl = el;
  drawBadge();
  if (!started) {
    started = true;
    // the service worker (sw.js): the site installs on a phone, and
    // notifications work where only a worker may show them
    if (navigator.serviceWorker && window.isSecureContext) {
      navigator.serviceWorker.register('/sw.js').catch(() => { /* notifications from the page still work */ });
    }
    refreshMyGames();
    setInterval(refreshMyGames, POLL_MS);
    document.addEventListener('visibilitychange', () => { if (!document.hidden) refreshMyGames(); });
    onSession(() => { turnIds = null; challIds = null; refreshMyGames(); });
  }
}

function drawBadge() {
  if (!badgeEl) return;
  const n = games ? games.filter((g) => g.your_turn).length : 0;
  const c = chall ? chall.incoming.length + (chall.rematches || []).length : 0;
  badgeEl.textContent = n + c ? String(n + c) : '';
  badgeEl.hidden = !(n + c);
  const title = [n ? t('nav.badge_title', { n }) : '', c ? t('nav.badge_challenges', { n: c }) : '']
    .filter(Boolean).join(' · ');
  badgeEl.title = title;
  badgeEl.setAttribute('aria-label', title);
  badgeEl.dataset.challenges = String(c);
}

// Notifications: asked for by the person (a checkbox), remembered per device.
export function notifyWanted() {
  try { return localStorage.getItem(NOTIFY_KEY) === '1'; } catch (e) { return false; }
}

export function notifySupported() { return typeof Notification !== 'undefined'; }

// The checkbox "Tell me on this device when it is my turn". Turning it on
// asks the browser's permission; refused, it says how to allow it.
export function notifyToggle() {
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.id = 'notify-toggle';
  box.checked = notifyWanted() && notifySupported() && Notification.permission === 'granted';
  const label = document.createElement('label');
  label.className = 'notify-toggle small';
  label.append(box, ' ', t('notify.ask'));
  const note = document.createElement('span');
  note.className = 'muted small notify-note';
  label.append(' ', note);
  box.addEventListener('change', async () => {
    if (!box.checked) { try { localStorage.setItem(NOTIFY_KEY, '0'); } catch (e) { /* private mode */ } return; }
    let p = notifySupported() ? Notification.permission : 'denied';
    if (p === 'default') p = await Notification.requestPermission();
    if (p !== 'granted') { box.checked = false; note.textContent = t('notify.denied'); return; }
    note.textContent = '';
    try { localStorage.setItem(NOTIFY_KEY, '1'); } catch (e) { /* private mode */ }
  });
  if (!notifySupported()) box.disabled = true;
  return label;
}

function notifyTurn(g) {
  // the game on screen already says so (a chime, the title: effects.js)
  if (!document.hidden && location.hash.includes(g.id)) return;
  notify(t('notify.your_turn'), {
    body: t('notify.body', { edition: t(`edition.${g.edition}`, { _default: g.edition }) }),
    tag: `turn-${g.id}`, icon: '/icon-192.png', data: { url: g.link },
  });
}

// A new challenge: answered in the lobby, where it is listed.
function notifyChallenge(c) {
  const ed = c.settings && c.settings.edition;
  notify(t('notify.challenge', { name: c.from }), {
    body: t('notify.challenge_body', { name: c.from, edition: t(`edition.${ed}`, { _default: ed || '' }) }),
    tag: `challenge-${c.id}`, icon: '/icon-192.png', data: { url: '/#/' },
  });
}

// A rematch offer: answered in the old game's end screen or the lobby.
function notifyRematch(o) {
  notify(t('notify.rematch', { name: o.by }), {
    body: t('notify.rematch_body', { name: o.by, edition: t(`edition.${o.edition}`, { _default: o.edition }) }),
    tag: `rematch-${o.id}`, icon: '/icon-192.png', data: { url: `/#/play/${o.game}` },
  });
}

function notify(title, opts) {
  if (!notifyWanted() || !notifySupported() || Notification.permission !== 'granted') return;
  const mark = (how) => {
    document.body.dataset.notified = String((+document.body.dataset.notified || 0) + 1);
    document.body.dataset.notifiedBy = how;
  };
  const fromPage = () => {
    const n = new Notification(title, opts);
    n.onclick = () => { window.focus(); location.hash = opts.data.url.replace(/^\/?#/, '#'); n.close(); };
    mark('page');
  };
  // through the service worker where there is one (phones need it), else
  // from the page
  const sw = navigator.serviceWorker;
  if (sw && sw.controller) {
    sw.ready.then((reg) => reg.showNotification(title, opts)).then(() => mark('worker')).catch(fromPage);
  } else {
    try { fromPage(); } catch (e) { /* no notification: the badge still tells */ }
  }
}
