// session.js: who is using this browser, for the server (docs/protocol.md,
// "Accounts and sessions"). The session itself is an HttpOnly cookie the
// page never sees; this module asks the server who it is (GET /api/me),
// signs up, logs in and out, and starts a guest session when someone who
// has none takes a seat (a guest is a session too: the seat is bound to it;
// a guest who signs up keeps its seats: they become the account's). It also
// changes the password and lists and ends one's sessions (account page).
import { api } from './api.js';

let current = null;           // {kind: 'account'|'guest'|'none', name}
const listeners = new Set();

function set(who) {
  current = who || { kind: 'none' };
  for (const f of listeners) f(current);
  return current;
}

// Call f(who) whenever the session changes.
export function onSession(f) { listeners.add(f); return () => listeners.delete(f); }

export function who() { return current; }

export async function refresh() {
  try { return set(await api('GET', '/api/me')); } catch (e) { return set({ kind: 'none' }); }
}

export async function signup(name, password) { return set(await api('POST', '/api/signup', { name, password })); }
export async function login(name, password) { return set(await api('POST', '/api/login', { name, password })); }
export async function logout() { return set(await api('POST', '/api/logout')); }
export async function guest(name) { return set(await api('POST', '/api/guest', name ? { name } : {})); }

// The account's password changed: every other session of it ends, this one
// stays (docs/protocol.md, "Accounts and sessions").
export async function changePassword(password, newPassword) {
  return api('POST', '/api/password', { password, new_password: newPassword });
}
// The sessions of this account (a guest: its own), and ending one or all.
export async function sessions() { return (await api('GET', '/api/sessions')).sessions; }
export async function endSession(id) {
  const r = await api('POST', '/api/sessions/end', id ? { id } : { all: true });
  if (r.this_one) set({ kind: 'none' });
  return r;
}

// A session, made a guest's (named `name` when given) if there is none yet.
export async function ensure(name) {
  const w = current || await refresh();
  if (w.kind !== 'none') return w;
  return guest((name || '').trim() || undefined);
}
