// invites.js: the invite links of a game's reserved seats that nobody has
// taken yet, for the game's creator (GET /api/games/ID/invites; the server
// checks the session and gives anyone else an empty list), with a button
// that makes a seat a new link and ends the old one, for a link that leaked
// (POST /api/games/ID/invites). Shown on the game page while the game waits
// for its players and in "My games" (issue 28: a link shown once in the
// lobby was lost with the lobby page).
import { h, clear, toast } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';

const abs = (link) => new URL(link, location.href).href;

async function copy(text) {
  try { await navigator.clipboard.writeText(text); toast(t('lobby.copied')); } catch (e) { toast(text); }
}

export class InviteLinks {
  // game: its id; el: the element to draw into (hidden while there is
  // nothing to show)
  constructor(game, el) {
    this.game = game;
    this.el = el || h('section', { class: 'panel invites' });
    this.data = null;
    this.render();
  }

  attach(el) { this.el = el; this.render(); }

  async load() {
    try {
      this.data = await api('GET', `/api/games/${this.game}/invites`);
    } catch (e) {
      this.data = null; // no session, a game gone: nothing to show
    }
    this.render();
  }

  async renew(seat) {
    try {
      await api('POST', `/api/games/${this.game}/invites`, { seat });
      toast(t('invites.renewed', { n: seat + 1 }));
    } catch (e) {
      toast(t('invites.renew_failed', { why: e.message }), 'error');
    }
    await this.load();
  }

  render() {
    const E = clear(this.el);
    const list = (this.data && this.data.invites) || [];
    E.hidden = !list.length;
    E.dataset.game = this.game;
    if (!list.length) return;
    E.classList.add('invites');
    E.appendChild(h('h2', {}, t('invites.title')));
    E.appendChild(h('p', { class: 'muted small' }, t('invites.note')));
    E.appendChild(h('ul', { class: 'links' }, list.map((s) => h('li', { dataset: { seat: s.seat } },
      h('b', {}, t('ui.player_n', { n: s.seat + 1 }), s.name ? ` (${s.name})` : '', ': '),
      s.link
        ? [h('input', { type: 'text', readonly: true, class: 'link', value: abs(s.link), 'aria-label': t('invites.link_of', { n: s.seat + 1 }), onclick: (e) => e.target.select() }),
          h('button', { type: 'button', class: 'small copy', onclick: () => copy(abs(s.link)) }, t('lobby.copy'))]
        : h('span', { class: 'muted lost' }, t('invites.lost')),
      h('button', { type: 'button', class: 'small secondary renew', onclick: () => this.renew(s.seat) }, t('invites.renew'))))));
  }
}
