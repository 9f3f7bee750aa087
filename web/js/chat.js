// chat.js: the chat panel of the game page (docs/protocol.md, "Chat"). A
// player writes to the table, a spectator to the spectators; messages come in
// "chat" frames (the history after a join, then each new one) and are shown
// as text only — never as HTML: h() makes text nodes, so "<b>" stays "<b>".
// A player may mute another seat (and unmute it) from a message's button, and
// an account may report another person's message to the moderators (⚑).
import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { who, onSession } from './session.js';
import { reportDialog } from './moderation.js';

export class ChatPanel {
  // A seat played by a guest session (the state frame's "guest"): its
  // messages say so, so that no guest passes for the account of that name.
  seatGuest(seat) {
    const f = this.page.frame;
    return !!(f && f.seats && (f.seats.find((x) => x.seat === seat) || {}).guest);
  }

  constructor(page) {
    this.page = page;
    this.msgs = new Map();      // n -> message
    this.muted = new Set();     // seats this player muted
    this.list = h('ol', { class: 'chat-list', id: 'chat-list', 'aria-live': 'polite' });
    this.input = h('input', { type: 'text', id: 'chat-input', maxlength: 500, 'aria-label': t('chat.write'), placeholder: t('chat.write') });
    this.form = h('form', { class: 'chat-form', id: 'chat-form', onsubmit: (e) => { e.preventDefault(); this.send(); } },
      this.input, h('button', { type: 'submit', class: 'small', id: 'chat-send' }, t('chat.send')));
    // the server takes chat only from a session (docs/identity.md): a
    // spectator without one is told how to join in, not offered a field
    // that is then refused (issue 31)
    this.noSession = h('p', { class: 'small muted', id: 'chat-no-session' }, t('chat.need_session'));
    this.el = h('section', { class: 'panel chat', id: 'chat' },
      h('h3', {}, t('chat.title')),
      this.list, this.form, this.noSession);
    this.syncForm();
    this.unsub = onSession(() => this.syncForm());
  }

  syncForm() {
    const none = (who() || { kind: 'none' }).kind === 'none';
    this.form.hidden = none;
    this.noSession.hidden = !none;
  }

  send() {
    const text = this.input.value.trim();
    const ws = this.page.ws;
    if (!text || !ws || ws.readyState !== 1) return;
    ws.send(JSON.stringify({ type: 'chat', text }));
    this.input.value = '';
  }

  // A "chat" frame's messages (repeats, after a reconnect, replace their copy).
  add(messages) {
    for (const m of messages || []) this.msgs.set(m.n, m);
    this.render();
  }

  // A "muted" frame: the server's answer to a mute.
  onMuted(msg) {
    if (msg.on) this.muted.add(msg.seat); else this.muted.delete(msg.seat);
    this.render();
  }

  toggle(seat) {
    const ws = this.page.ws;
    if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: 'mute', seat, on: !this.muted.has(seat) }));
  }

  render() {
    clear(this.list);
    const me = this.page.frame ? this.page.frame.seat : -1;
    const w = who() || { kind: 'none' };
    const all = [...this.msgs.values()].sort((a, b) => a.n - b.n).slice(-200);
    for (const m of all) {
      if (this.muted.has(m.seat)) continue;
      const canMute = me >= 0 && m.seat >= 0 && m.seat !== me;
      // reports come from accounts (docs/moderation.md); not of one's own lines
      const mine = (me >= 0 && m.seat === me && m.channel === 'table') || (!m.guest && m.name === w.name);
      const canReport = w.kind === 'account' && !mine;
      this.list.appendChild(h('li', { dataset: { n: m.n, seat: m.seat, channel: m.channel }, class: m.channel === 'spectators' ? 'spectator' : '' },
        h('b', { class: 'chat-name' }, m.name, m.channel === 'spectators' ? ` (${t('chat.spectator')})` : '',
          m.guest || (m.channel !== 'spectators' && this.seatGuest(m.seat)) ? ` (${t('ui.guest_tag')})` : '', ': '),
        h('span', { class: 'chat-text' }, m.text),
        canMute ? h('button', { type: 'button', class: 'small secondary chat-mute', dataset: { seat: m.seat }, title: t('chat.mute'), onclick: () => this.toggle(m.seat) }, t('chat.mute')) : null,
        canReport ? h('button', { type: 'button', class: 'small secondary chat-report', dataset: { n: m.n }, title: t('mod.report'), 'aria-label': t('mod.report'),
          onclick: () => reportDialog({ game: this.page.game, n: m.n, name: m.name, text: m.text }) }, '⚑') : null));
    }
    if (this.muted.size) {
      this.list.appendChild(h('li', { class: 'muted small' }, t('chat.muted_seats', { names: [...this.muted].map((s) => this.page.seatName(s)).join(', ') }), ' ',
        ...[...this.muted].map((s) => h('button', { type: 'button', class: 'small secondary chat-unmute', dataset: { seat: s }, onclick: () => this.toggle(s) }, t('chat.unmute')))));
    }
    this.list.scrollTop = this.list.scrollHeight;
  }
}
