// moderation.js: reports and the moderation page (issue 35; docs/moderation.md,
// docs/protocol.md "Moderation").
//   reportDialog({game, n} | {name})   a player reports a chat message or a player
//   reportButton(name)                 a profile's "Report" button
//   mountModLink(nav)                  the header's "Moderation" link, for moderators and admins
//   ModerationPage (#/mod)             the reports queue with each message among the lines
//                                      around it, actions (mute, ban, revoke, abort, resolve,
//                                      dismiss; grant for admins), sanctions in force, audit log
//   bannedText(err)                    a refused login's ban in the page's language
// The page only shows what the server answers: every /api/mod route checks the
// session's role itself (403 for anyone else).
import { h, clear, toast } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { who, onSession } from './session.js';

const REASONS = ['abuse', 'cheating', 'spam', 'name', 'other'];
// the ends a moderator picks from (ms; 0: permanent)
const ENDS = [['1h', 3600e3], ['1d', 86400e3], ['7d', 7 * 86400e3], ['30d', 30 * 86400e3], ['permanent', 0]];

const isMod = (w) => !!w && (w.role === 'moderator' || w.role === 'admin');

function when(ms) { return new Date(ms).toLocaleString(); }

export function bannedText(err) {
  const d = err && err.data;
  if (!d || d.code !== 'banned') return null;
  return d.until ? t('mod.banned_until', { until: when(d.until), reason: d.reason || '' })
    : t('mod.banned_forever', { reason: d.reason || '' });
}

// A report of a chat message ({game, n, name}) or a player ({name}).
export function reportDialog(target) {
  document.getElementById('report-layer')?.remove();
  const reason = h('select', { id: 'report-reason' },
    REASONS.map((r) => h('option', { value: r }, t(`mod.reason.${r}`))));
  const details = h('textarea', { id: 'report-details', maxlength: 1000, rows: 3 });
  const err = h('p', { class: 'error', id: 'report-error', role: 'alert', hidden: true });
  const close = () => layer.remove();
  const form = h('form', { class: 'panel', id: 'report-form', onsubmit: async (e) => {
    e.preventDefault();
    err.hidden = true;
    const body = target.game ? { game: target.game, n: target.n } : { name: target.name };
    body.reason = reason.value;
    body.details = details.value.trim();
    try {
      await api('POST', '/api/reports', body);
      close();
      toast(t('mod.reported'));
    } catch (x) {
      err.textContent = x.status === 429 ? t('mod.report_limit') : x.status === 401 ? t('mod.report_account')
        : x.message.replace(/^\d+: /, '');
      err.hidden = false;
    }
  } },
  h('h2', {}, target.game ? t('mod.report_message', { name: target.name || '?' }) : t('mod.report_player', { name: target.name })),
  target.text ? h('blockquote', { class: 'report-quote' }, target.text) : null,
  h('label', { class: 'field' }, h('span', {}, t('mod.reason')), reason),
  h('label', { class: 'field' }, h('span', {}, t('mod.details')), details),
  err,
  h('div', { class: 'row-buttons' },
    h('button', { type: 'submit', class: 'primary', id: 'report-send' }, t('mod.send_report')),
    h('button', { type: 'button', class: 'secondary', onclick: close }, t('account.cancel'))));
  const layer = h('div', { class: 'dialog-layer', id: 'report-layer' }, form);
  document.body.appendChild(layer);
  reason.focus();
}

// A profile's "Report" button: for an account, on another person's page.
export function reportButton(name) {
  const me = who();
  if (!me || me.kind !== 'account' || me.name.toLowerCase() === name.toLowerCase()) return null;
  return h('button', { type: 'button', class: 'small secondary', id: 'report-player', onclick: () => reportDialog({ name }) }, t('mod.report_button'));
}

// The header's link, shown while the session is a moderator's or an admin's.
export function mountModLink(nav) {
  const a = h('a', { href: '#/mod', id: 'nav-mod', hidden: true }, t('mod.nav'));
  nav.appendChild(a);
  const sync = () => { a.hidden = !isMod(who()); };
  sync();
  onSession(sync);
}

export class ModerationPage {
  constructor(root) {
    this.root = root;
    this.filter = 'open';
    this.el = {
      reports: h('div', { id: 'mod-reports' }),
      sanctions: h('div', { id: 'mod-sanctions' }),
      audit: h('div', { id: 'mod-audit' }),
      msg: h('p', { class: 'muted', id: 'mod-msg' }),
    };
    this.render();
    this.load();
  }

  destroy() {}

  relang() { this.render(); this.load(); }

  // the reason and end fields shared by an action's buttons
  fields(prefix) {
    const reason = h('input', { type: 'text', class: 'mod-reason', id: `${prefix}-reason`, maxlength: 500, placeholder: t('mod.action_reason'), 'aria-label': t('mod.action_reason') });
    const end = h('select', { class: 'mod-end', id: `${prefix}-end`, 'aria-label': t('mod.end') },
      ENDS.map(([k, ms]) => h('option', { value: String(ms), selected: k === '7d' }, t(`mod.end.${k}`))));
    return { reason, end };
  }

  async act(body, f) {
    body.reason = f.reason.value.trim();
    if (!body.reason) { toast(t('mod.need_reason'), 'error'); f.reason.focus(); return; }
    if (body.action === 'ban' || body.action === 'mute') {
      const ms = +f.end.value;
      if (ms) body.until = Date.now() + ms; else body.permanent = true;
    }
    try {
      await api('POST', '/api/mod/actions', body);
      toast(t('mod.done', { action: t(`mod.action.${body.action}`) }));
      this.load();
    } catch (x) {
      toast(x.message.replace(/^\d+: /, ''), 'error');
    }
  }

  render() {
    const w = who();
    const admin = w && w.role === 'admin';
    // an action on any account or game, not from a report
    const f = this.fields('mod-free');
    const target = h('input', { type: 'text', id: 'mod-target', maxlength: 24, placeholder: t('mod.target'), 'aria-label': t('mod.target') });
    const actions = ['ban', 'unban', 'mute', 'unmute', 'revoke', 'abort'].concat(admin ? ['grant'] : []);
    const action = h('select', { id: 'mod-action', 'aria-label': t('mod.action') },
      actions.map((a) => h('option', { value: a }, t(`mod.action.${a}`))));
    const role = h('select', { id: 'mod-role', 'aria-label': t('mod.role'), hidden: true },
      ['moderator', 'admin', 'player'].map((r) => h('option', { value: r }, t(`mod.role.${r}`))));
    action.addEventListener('change', () => { role.hidden = action.value !== 'grant'; });
    const free = h('form', { class: 'panel', id: 'mod-free', onsubmit: (e) => {
      e.preventDefault();
      const body = { action: action.value };
      if (action.value === 'abort') body.game = target.value.trim(); else body.name = target.value.trim();
      if (action.value === 'grant') body.role = role.value;
      this.act(body, f);
    } },
    h('h3', {}, t('mod.act_title')),
    h('div', { class: 'row-buttons' }, action, target, role, f.reason, f.end,
      h('button', { type: 'submit', class: 'primary', id: 'mod-free-go' }, t('mod.apply'))));
    const filter = h('select', { id: 'mod-filter', 'aria-label': t('mod.filter') },
      ['open', 'resolved', 'dismissed', 'all'].map((s) => h('option', { value: s, selected: s === this.filter }, t(`mod.status.${s}`))));
    filter.addEventListener('change', () => { this.filter = filter.value; this.load(); });
    clear(this.root).appendChild(h('section', { class: 'mod-page', id: 'mod-page' },
      h('h2', {}, t('mod.title')),
      this.el.msg,
      h('section', { class: 'panel' }, h('h3', {}, t('mod.reports'), ' ', filter), this.el.reports),
      free,
      h('section', { class: 'panel' }, h('h3', {}, t('mod.sanctions')), this.el.sanctions),
      h('section', { class: 'panel' }, h('h3', {}, t('mod.audit')), this.el.audit)));
  }

  async load() {
    const path = this.filter === 'open' ? '/api/mod/reports' : `/api/mod/reports/${this.filter}`;
    try {
      const [r, s, a] = await Promise.all([api('GET', path), api('GET', '/api/mod/sanctions'), api('GET', '/api/mod/audit')]);
      this.el.msg.textContent = '';
      this.showReports(r.reports);
      this.showSanctions(s.sanctions);
      this.showAudit(a.audit);
    } catch (x) {
      this.el.msg.textContent = x.status === 403 || x.status === 401 ? t('mod.forbidden') : x.message;
      this.el.msg.className = 'error';
    }
  }

  showReports(list) {
    const R = clear(this.el.reports);
    if (!list.length) { R.appendChild(h('p', { class: 'muted', id: 'mod-no-reports' }, t('mod.no_reports'))); return; }
    for (const r of list) {
      const f = this.fields(`mod-r${r.id}`);
      const open = r.status === 'open';
      const btn = (action, extra = {}) => h('button', { type: 'button', class: `small ${action === 'dismiss' ? 'secondary' : ''} mod-${action}`,
        dataset: { action }, onclick: () => this.act({ action, report: r.id, ...extra }, f) }, t(`mod.action.${action}`));
      R.appendChild(h('article', { class: `mod-report ${r.status}`, dataset: { id: r.id } },
        h('div', {}, h('b', {}, `#${r.id}`), ' ', when(r.created), ' · ',
          t('mod.reported_by', { reporter: r.reporter, target: r.target }), ' · ',
          h('b', { class: 'mod-reason-tag' }, t(`mod.reason.${r.reason}`, { _default: r.reason })),
          r.status !== 'open' ? [' · ', t(`mod.status.${r.status}`), r.handled_by ? ` (${r.handled_by}: ${r.resolution || ''})` : ''] : null),
        r.details ? h('p', { class: 'mod-details' }, r.details) : null,
        r.game ? h('div', { class: 'small' }, h('a', { href: `#/watch/${r.game}` }, t('mod.game', { id: r.game }))) : null,
        r.context ? h('ol', { class: 'mod-context chat-list' }, r.context.map((m) =>
          h('li', { class: m.n === r.chat_n ? 'reported' : '', dataset: { n: m.n } },
            h('b', {}, m.name, m.guest ? ` (${t('ui.guest_tag')})` : '', m.channel === 'spectators' ? ` (${t('chat.spectator')})` : '', ': '),
            h('span', { class: 'chat-text' }, m.text)))) : null,
        open ? h('div', { class: 'row-buttons' }, f.reason, f.end,
          r.account ? [btn('mute', { name: r.target }), btn('ban', { name: r.target }), btn('revoke', { name: r.target })] : null,
          r.game ? btn('abort', { game: r.game }) : null,
          btn('resolve'), btn('dismiss')) : null));
    }
  }

  showSanctions(list) {
    const S = clear(this.el.sanctions);
    if (!list.length) { S.appendChild(h('p', { class: 'muted' }, t('mod.no_sanctions'))); return; }
    S.appendChild(h('ul', {}, list.map((s) => h('li', { dataset: { name: s.name, kind: s.kind } },
      h('b', {}, s.name), ' · ', t(`mod.action.${s.kind}`), ' · ',
      s.until ? t('mod.until', { when: when(s.until) }) : t('mod.end.permanent'), ' · ', s.reason, ` (${s.by})`))));
  }

  showAudit(list) {
    const A = clear(this.el.audit);
    if (!list.length) { A.appendChild(h('p', { class: 'muted' }, t('mod.no_audit'))); return; }
    A.appendChild(h('table', { class: 'mod-audit', id: 'mod-audit-table' },
      h('thead', {}, h('tr', {}, ['when', 'who', 'what', 'target', 'why'].map((k) => h('th', {}, t(`mod.col.${k}`))))),
      h('tbody', {}, list.map((x) => h('tr', { dataset: { action: x.action } },
        h('td', {}, when(x.at)), h('td', {}, x.actor),
        h('td', {}, t(`mod.action.${x.action}`, { _default: x.action }), x.until ? ` (${t('mod.until', { when: when(x.until) })})` : ''),
        h('td', {}, x.target || (x.game ? t('mod.game', { id: x.game }) : ''), x.report ? ` #${x.report}` : ''),
        h('td', {}, x.reason))))));
  }
}

export { isMod };
