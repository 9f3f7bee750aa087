// account.js: the session in the page (docs/identity.md). In the header: who
// you are, and buttons to log in, sign up, play as a guest, or log out (a
// guest is warned that it loses its seats, and offered the sign-up that keeps
// them; an account has a link to its account page, accountpage.js). A form
// for each (also shown on a seat's invite link opened without a session, so
// that the seat is bound to the person who means to play it). The session
// itself is an HttpOnly cookie; session.js talks to the server.
import { forgotForm } from './email.js';
import { h, clear, toast } from './dom.js';
import { t } from './i18n.js';
import * as S from './session.js';
import { bannedText } from './moderation.js';

// The header's account box: rendered into `el` now and whenever the session
// changes.
export function mountAccount(el) {
  const draw = (w) => {
    clear(el);
    el.className = 'account';
    if (!w || w.kind === 'none') {
      el.append(
        h('button', { type: 'button', class: 'small secondary', id: 'login-open', onclick: () => openForm('login') }, t('account.login')),
        h('button', { type: 'button', class: 'small secondary', id: 'signup-open', onclick: () => openForm('signup') }, t('account.signup')),
        h('button', { type: 'button', class: 'small secondary', id: 'guest-open', onclick: () => openForm('guest') }, t('account.guest')));
    } else {
      // an account's name links to its profile (profile.js); both link to
      // the account page (sessions, password: accountpage.js)
      el.append(w.kind === 'guest' ? h('a', { class: 'who guest', id: 'account-name', href: '#/account' }, t('account.guest_name', { name: w.name }))
        : h('a', { class: 'who', id: 'account-name', href: `#/player/${encodeURIComponent(w.name)}` }, w.name), ' ');
      if (w.kind === 'guest') {
        // a sign-up from a guest session keeps the guest's seats
        el.append(h('button', { type: 'button', class: 'small primary', id: 'signup-keep', title: t('account.signup_keep_hint'), onclick: () => openForm('signup', { note: t('account.signup_keep_hint') }) }, t('account.signup_keep')), ' ');
        el.append(h('button', { type: 'button', class: 'small secondary', id: 'login-open', onclick: () => openForm('login') }, t('account.login')), ' ');
      } else {
        el.append(h('a', { class: 'small', id: 'account-page', href: '#/account' }, t('account.page')), ' ');
      }
      el.append(h('button', { type: 'button', class: 'small secondary', id: 'logout', onclick: () => logout(w) }, t('account.logout')));
    }
  };
  if (el._unsub) el._unsub();
  el._unsub = S.onSession(draw);
  draw(S.who());
  if (!S.who()) S.refresh();
}

// A guest who logs out loses its seats (nothing else proves it is the same
// person): it is told so first, and offered the sign-up that keeps them.
async function logout(w) {
  if (w && w.kind === 'guest') {
    const choice = await guestLogoutDialog();
    if (choice === 'signup') { openForm('signup', { note: t('account.signup_keep_hint') }); return; }
    if (choice !== 'logout') return;
  }
  try { await S.logout(); toast(t('account.logged_out')); } catch (e) { toast(e.message, 'error'); }
}

function guestLogoutDialog() {
  document.getElementById('guest-logout-layer')?.remove();
  return new Promise((resolve) => {
    const close = (v) => { layer.remove(); resolve(v); };
    const box = h('div', { class: 'panel session-form', id: 'guest-logout', role: 'alertdialog', 'aria-labelledby': 'guest-logout-title' },
      h('h2', { id: 'guest-logout-title' }, t('account.guest_logout_title')),
      h('p', {}, t('account.guest_logout_warning')),
      h('div', { class: 'row-buttons' },
        h('button', { type: 'button', class: 'primary', id: 'guest-logout-signup', onclick: () => close('signup') }, t('account.signup_keep')),
        h('button', { type: 'button', class: 'secondary', id: 'guest-logout-confirm', onclick: () => close('logout') }, t('account.guest_logout_anyway')),
        h('button', { type: 'button', class: 'secondary', id: 'guest-logout-cancel', onclick: () => close(null) }, t('account.cancel'))));
    const layer = h('div', { class: 'dialog-layer session-layer', id: 'guest-logout-layer' }, box);
    layer.addEventListener('keydown', (e) => { if (e.key === 'Escape') close(null); });
    document.body.appendChild(layer);
    document.getElementById('guest-logout-signup').focus();
  });
}

// The form of `mode` (login, signup, guest) in a layer over the page. Resolves
// with the session once one exists, or null when closed without one.
export function openForm(mode, { note, closable = true } = {}) {
  document.getElementById('session-layer')?.remove();
  return new Promise((resolve) => {
    const err = h('p', { class: 'error', id: 'session-error', role: 'alert', hidden: true });
    const name = h('input', { type: 'text', id: 'session-name', maxlength: 24, autocomplete: mode === 'signup' ? 'username' : 'username', required: true });
    const pw = h('input', { type: 'password', id: 'session-password', maxlength: 256, autocomplete: mode === 'signup' ? 'new-password' : 'current-password', required: mode !== 'guest' });
    const close = (who) => { layer.remove(); resolve(who); };
    const tabs = h('div', { class: 'tabs', role: 'tablist' }, ['login', 'signup', 'guest'].map((m) =>
      h('button', { type: 'button', class: `small ${m === mode ? 'primary' : 'secondary'}`, id: `session-tab-${m}`, 'aria-selected': String(m === mode), role: 'tab',
        onclick: () => { layer.remove(); openForm(m, { note, closable }).then(resolve); } }, t(`account.${m}`))));
    const form = h('form', { class: 'panel session-form', id: 'session-form', dataset: { mode },
      onsubmit: async (e) => {
        e.preventDefault();
        err.hidden = true;
        try {
          const who = mode === 'login' ? await S.login(name.value.trim(), pw.value)
            : mode === 'signup' ? await S.signup(name.value.trim(), pw.value)
              : await S.guest(name.value.trim());
          close(who);
        } catch (x) {
          err.textContent = bannedText(x) || x.message.replace(/^\d+: /, '');
          err.hidden = false;
        }
      } },
    h('h2', {}, t(`account.${mode}_title`)),
    note ? h('p', { class: 'muted' }, note) : null,
    tabs,
    h('label', { class: 'field' }, h('span', {}, t(mode === 'guest' ? 'account.guest_name_label' : 'account.user_name')), name),
    mode !== 'guest' ? h('label', { class: 'field' }, h('span', {}, t('account.password')), pw) : null,
    mode === 'signup' ? h('p', { class: 'muted small' }, t('account.signup_rules')) : null,
    err,
    h('div', { class: 'row-buttons' },
      h('button', { type: 'submit', class: 'primary', id: 'session-submit' }, t(`account.${mode}`)),
      closable ? h('button', { type: 'button', class: 'secondary', id: 'session-cancel', onclick: () => close(null) }, t('account.cancel')) : null));
    // "Forgot your password?" is a form of its own, so it sits after the
    // login form (forms do not nest), inside the same panel
    const layer = h('div', { class: 'dialog-layer session-layer', id: 'session-layer' },
      mode === 'login' ? h('div', { class: 'panel session-wrap' }, form, forgotForm()) : form);
    document.body.appendChild(layer);
    name.focus();
  });
}

// A session for someone about to take a seat: the one there is, or the
// form (guest by default) until there is one.
export async function needSession(note) {
  let w = S.who() || await S.refresh();
  while (!w || w.kind === 'none') w = await openForm('guest', { note, closable: false });
  return w;
}
