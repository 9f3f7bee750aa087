// email.js: e-mail in the browser (issue 32; docs/protocol.md, "E-mail"):
//   - the account page's panel: the address, whether it is confirmed, and the
//     "your turn" messages switch (shown only when the server sends mail);
//   - "Forgot your password?" under the login form;
//   - the pages the messages' links open: #/email/confirm/TOKEN,
//     #/reset/TOKEN (a new password), #/unsubscribe/TOKEN.
// A token is sent only in the POST's body or path, never kept by the page.
import { h, clear, toast } from './dom.js';
import { t, lang } from './i18n.js';
import { api } from './api.js';
import { openForm } from './account.js';

const reason = (e) => e.message.replace(/^\d+: /, '');

export function emailPanel() {
  const box = h('section', { class: 'panel', id: 'email-panel', hidden: true });
  const draw = (info) => {
    clear(box);
    box.hidden = false;
    box.append(h('h3', {}, t('email.title')));
    if (!info.enabled) { box.append(h('p', { class: 'muted', id: 'email-off' }, t('email.off'))); return; }
    const input = h('input', { type: 'email', id: 'email-address', maxlength: 254, value: info.address || '', autocomplete: 'email', required: true });
    const err = h('p', { class: 'error', role: 'alert', hidden: true });
    box.append(
      h('p', { class: 'muted small' }, t('email.why')),
      info.address ? h('p', { id: 'email-status', class: info.confirmed ? '' : 'warn' },
        t(info.confirmed ? 'email.confirmed' : 'email.unconfirmed', { address: info.address })) : null,
      h('form', { id: 'email-form', onsubmit: async (e) => {
        e.preventDefault();
        err.hidden = true;
        try {
          await api('POST', '/api/email', { address: input.value.trim(), lang: lang() });
          toast(t('email.sent', { address: input.value.trim() }));
          load();
        } catch (x) { err.textContent = reason(x); err.hidden = false; }
      } },
      h('label', { class: 'field' }, h('span', {}, t('email.address')), input), err,
      h('button', { type: 'submit', class: 'primary', id: 'email-submit' }, t('email.save'))),
      info.address ? h('label', { class: 'small' }, h('input', { type: 'checkbox', id: 'email-turn', checked: info.turn_mail,
        onchange: async (e) => {
          try { await api('POST', '/api/email/prefs', { turn_mail: e.target.checked }); } catch (x) { toast(reason(x), 'error'); }
        } }), ' ', t('email.turn_mail')) : null);
  };
  const load = () => api('GET', '/api/email').then(draw).catch(() => { box.hidden = true; });
  load();
  return box;
}

// Under the login form: the name, and a link is mailed if the account has a
// confirmed address (the server answers the same either way).
export function forgotForm() {
  const name = h('input', { type: 'text', id: 'forgot-name', maxlength: 24, autocomplete: 'username', required: true });
  const out = h('p', { class: 'small', id: 'forgot-result', role: 'status' });
  const form = h('form', { class: 'forgot', id: 'forgot-form', hidden: true, onsubmit: async (e) => {
    e.preventDefault();
    try {
      await api('POST', '/api/password/forgot', { name: name.value.trim(), lang: lang() });
      out.textContent = t('email.forgot_sent');
    } catch (x) { out.textContent = reason(x); }
  } }, h('label', { class: 'field' }, h('span', {}, t('account.user_name')), name),
  h('button', { type: 'submit', class: 'small', id: 'forgot-submit' }, t('email.forgot_send')), out);
  const open = h('button', { type: 'button', class: 'link small', id: 'forgot-open',
    onclick: () => { form.hidden = false; open.hidden = true; name.focus(); } }, t('email.forgot'));
  return h('div', { class: 'forgot-box' }, open, form);
}

// The page a message's link opens.
export class MailLinkPage {
  constructor(root, { kind, token }) {
    this.root = root;
    this.kind = kind;
    this.token = token || '';
    this.render();
  }

  relang() { this.render(); }

  render() {
    const R = clear(this.root);
    const sec = h('section', { class: 'panel', id: 'mail-link' });
    R.appendChild(sec);
    const result = h('p', { id: 'mail-link-result', role: 'status' });
    const fail = (x) => { result.textContent = reason(x); result.className = 'error'; };
    if (this.kind === 'reset') {
      const pw = h('input', { type: 'password', id: 'reset-password', minlength: 8, maxlength: 256, autocomplete: 'new-password', required: true });
      sec.append(h('h2', {}, t('email.reset_title')),
        h('form', { id: 'reset-form', onsubmit: async (e) => {
          e.preventDefault();
          try {
            await api('POST', '/api/password/reset', { token: this.token, password: pw.value });
            pw.value = '';
            result.className = '';
            result.textContent = t('email.reset_done');
            sec.append(h('button', { type: 'button', class: 'primary', onclick: () => openForm('login') }, t('account.login')));
          } catch (x) { fail(x); }
        } }, h('label', { class: 'field' }, h('span', {}, t('account.password_new')), pw),
        h('p', { class: 'muted small' }, t('email.reset_note')),
        h('button', { type: 'submit', class: 'primary', id: 'reset-submit' }, t('email.reset_button'))), result);
      return;
    }
    const confirm = this.kind === 'confirm';
    sec.append(h('h2', {}, t(confirm ? 'email.confirm_title' : 'email.unsub_title')), result);
    result.textContent = t('ui.loading');
    const call = confirm ? api('POST', '/api/email/confirm', { token: this.token })
      : api('POST', `/api/unsubscribe/${encodeURIComponent(this.token)}`, {});
    call.then(() => { result.textContent = t(confirm ? 'email.confirm_done' : 'email.unsub_done'); }).catch(fail);
  }
}
