// accountpage.js: the account page (#/account, docs/identity.md): the
// password changed (the current one asked; every other session of the
// account ends), and the list of one's sessions (made, last seen, network,
// browser, "this device") with "log out" for one and "log out everywhere".
// A guest sees its one session and the sign-up that keeps its seats.
import { h, clear, toast } from './dom.js';
import { t } from './i18n.js';
import * as S from './session.js';
import { openForm } from './account.js';
import { emailPanel } from './email.js';

const when = (s) => new Date(s * 1000).toLocaleString();

export class AccountPage {
  constructor(root) {
    this.root = root;
    this.unsub = S.onSession(() => this.load());
    this.load();
  }

  destroy() { if (this.unsub) this.unsub(); }

  relang() { this.render(); }

  async load() {
    this.who = S.who() || await S.refresh();
    this.error = null;
    this.list = null;
    if (this.who.kind !== 'none') {
      try { this.list = await S.sessions(); } catch (e) { this.error = e.message.replace(/^\d+: /, ''); }
    }
    this.render();
  }

  async end(id) {
    try {
      const r = await S.endSession(id);
      toast(t(id ? 'account.session_ended' : 'account.sessions_ended', { n: r.ended }));
      if (!r.this_one) this.load();
    } catch (e) { toast(e.message, 'error'); }
  }

  passwordForm() {
    const err = h('p', { class: 'error', id: 'password-error', role: 'alert', hidden: true });
    const cur = h('input', { type: 'password', id: 'password-current', maxlength: 256, autocomplete: 'current-password', required: true });
    const nw = h('input', { type: 'password', id: 'password-new', maxlength: 256, minlength: 8, autocomplete: 'new-password', required: true });
    return h('form', { class: 'panel', id: 'password-form',
      onsubmit: async (e) => {
        e.preventDefault();
        err.hidden = true;
        try {
          const r = await S.changePassword(cur.value, nw.value);
          cur.value = '';
          nw.value = '';
          toast(t('account.password_changed', { n: r.ended }));
          this.load();
        } catch (x) {
          err.textContent = x.message.replace(/^\d+: /, '');
          err.hidden = false;
        }
      } },
    h('h3', {}, t('account.password_title')),
    h('p', { class: 'muted small' }, t('account.password_note')),
    h('label', { class: 'field' }, h('span', {}, t('account.password_current')), cur),
    h('label', { class: 'field' }, h('span', {}, t('account.password_new')), nw),
    err,
    h('div', { class: 'row-buttons' }, h('button', { type: 'submit', class: 'primary', id: 'password-submit' }, t('account.password_change'))));
  }

  render() {
    const R = clear(this.root);
    const w = this.who || { kind: 'none' };
    const sec = h('section', { class: 'panel', id: 'account-page' }, h('h2', {}, t('account.page_title')));
    R.appendChild(sec);
    if (w.kind === 'none') {
      sec.append(h('p', { class: 'muted' }, t('account.page_none')),
        h('button', { type: 'button', class: 'primary', onclick: () => openForm('login') }, t('account.login')));
      return;
    }
    sec.append(h('p', {}, w.kind === 'guest' ? t('account.guest_name', { name: w.name }) : w.name));
    if (w.kind === 'guest') {
      sec.append(h('p', { class: 'muted' }, t('account.signup_keep_hint')),
        h('button', { type: 'button', class: 'primary', id: 'account-signup-keep', onclick: () => openForm('signup', { note: t('account.signup_keep_hint') }) }, t('account.signup_keep')));
    } else {
      R.appendChild(this.passwordForm());
      R.appendChild(emailPanel());
    }
    const list = h('section', { class: 'panel', id: 'sessions' }, h('h3', {}, t('account.sessions_title')));
    R.appendChild(list);
    if (this.error) list.append(h('p', { class: 'error-banner', role: 'alert' }, this.error));
    if (!this.list) { if (!this.error) list.append(h('p', {}, t('ui.loading'))); return; }
    const rows = this.list.map((s) => h('tr', { dataset: { session: s.id }, class: s.current ? 'current' : '' },
      h('td', {}, s.agent || t('account.session_unknown'), s.current ? h('span', { class: 'tag you' }, t('account.this_device')) : null),
      h('td', {}, s.address),
      h('td', {}, when(s.created)),
      h('td', {}, when(s.last_seen)),
      // a guest logs out from the header, which warns that its seats are lost
      h('td', {}, w.kind === 'account' ? h('button', { type: 'button', class: 'small secondary session-end', onclick: () => this.end(s.id) }, t('account.logout')) : null)));
    list.append(h('table', { class: 'sessions' },
      h('thead', {}, h('tr', {}, ['account.session_agent', 'account.session_address', 'account.session_created', 'account.session_seen', 'account.session_action'].map((k) => h('th', {}, t(k))))),
      h('tbody', {}, rows)));
    if (w.kind === 'account') {
      list.append(h('div', { class: 'row-buttons' },
        h('button', { type: 'button', class: 'secondary', id: 'logout-everywhere', onclick: () => this.end(null) }, t('account.logout_everywhere'))));
    }
  }
}
