// lobby.js: the lobby page. Create a game (edition, arrangement, preset,
// events, player count, each seat human or bot with a strength, names, turn
// timer) with POST /api/games, show the seat links to hand out, list open
// games (GET /api/games) to join a free seat, and finished games to replay.
// What can be chosen comes from GET /api/options, not from this file.
import { h, clear, toast } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';
import { ensure as ensureSession, onSession, who } from './session.js';
import { dateText } from './profile.js';
import { positionField, positionBody } from './position.js';
import { variantField, variantBody } from './variant.js';
import { formRatedText } from './rated.js';
import { onMyGames, myGames, refreshMyGames, onChallenges } from './badge.js';
import { yourGameRow } from './mygames.js';
import { followingPanel, mountFollowing } from './following.js';

export class LobbyPage {
  constructor(root) {
    this.root = root;
    this.options = null;
    this.created = null;
    this.form = { edition: 'amsterdam', players: 4, arrangement: '', preset: 'golden-age', events: false, seed: '', turn_timer: 0, seats: [] };
    this.load();
  }

  destroy() { clearInterval(this.poll); if (this.stopFollowing) this.stopFollowing(); if (this.unsubFollow) this.unsubFollow(); if (this.unsub) this.unsub(); if (this.unsubMine) this.unsubMine(); if (this.unsubChall) this.unsubChall(); }

  async load() {
    try {
      this.options = await api('GET', '/api/options');
    } catch (e) {
      clear(this.root).appendChild(h('p', { class: 'error-banner', role: 'alert' }, t('lobby.no_server', { why: e.message })));
      return;
    }
    this.fixSeats();
    this.render();
    this.refreshGames();
    // who may create and join changes with the session (account.js)
    this.unsub = onSession(() => this.render());
    this.poll = setInterval(() => this.refreshGames(), 5000);
    // one's own games in play (badge.js's poll): "Your games" at the top,
    // and never offered as Watch in the open games (issue 32)
    this.unsubMine = onMyGames(() => { this.renderMine(); this.renderGames(); });
    // challenges by name (badge.js's poll; docs/protocol.md, "Challenges"):
    // at the very top, to accept or decline, and one's own to cancel
    this.unsubChall = onChallenges((c) => { this.challenges = c; this.renderChallenges(); });
    refreshMyGames();
    // the people one follows (following.js): read now and every 30 s, and
    // again when the session changes
    this.stopFollowing = followingPanel();
    this.unsubFollow = onSession(() => { if (this.stopFollowing) this.stopFollowing(); this.stopFollowing = followingPanel(); mountFollowing(document.getElementById('following')); });
  }

  renderChallenges() {
    const C = document.getElementById('challenges');
    if (!C) return;
    const c = this.challenges || { incoming: [], outgoing: [] };
    clear(C);
    const rem = c.rematches || [];
    C.hidden = !c.incoming.length && !c.outgoing.length && !rem.length;
    if (C.hidden) return;
    const what = (x) => {
      const s = x.settings || {};
      const pace = s.mode === 'turn-based' ? t('mygames.days', { n: s.days || 1 }) : t('mygames.live');
      return `${t(`edition.${s.edition}`, { _default: s.edition || '' })} · ${pace}`;
    };
    const act = async (x, verb) => {
      try {
        const r = await api('POST', `/api/challenges/${x.id}/${verb}`, {});
        if (verb === 'accept' && r.link) { location.hash = r.link.replace(/^\/?#/, '#'); return; }
      } catch (e) { toast(e.message, 'error'); }
      refreshMyGames();
    };
    C.appendChild(h('h2', {}, t('challenge.title')));
    for (const x of c.incoming) {
      C.appendChild(h('div', { class: 'game-row challenge-in', dataset: { challenge: x.id } },
        h('div', {}, h('b', {}, t('challenge.from', { name: x.from })), ' · ', what(x)),
        h('div', { class: 'row-buttons' },
          h('button', { type: 'button', class: 'primary small challenge-accept', onclick: () => act(x, 'accept') }, t('challenge.accept')),
          h('button', { type: 'button', class: 'small challenge-decline', onclick: () => act(x, 'decline') }, t('challenge.decline')))));
    }
    // rematch offers this person is asked (rematch.js; "Rematch")
    for (const o of rem) {
      const answer = async (verb) => {
        try {
          const r = await api('POST', `/api/rematches/${o.id}/${verb}`, {});
          if (r.status === 'started' && r.link) { location.hash = r.link.replace(/^\/?#/, '#'); return; }
        } catch (e) { toast(e.message, 'error'); }
        refreshMyGames();
      };
      C.appendChild(h('div', { class: 'game-row rematch-in', dataset: { offer: o.id } },
        h('div', {}, h('b', {}, t('rematch.asked', { name: o.by })), ' · ', t(`edition.${o.edition}`, { _default: o.edition }), ' · ',
          h('a', { href: `#/play/${o.game}` }, t('rematch.old_game'))),
        h('div', { class: 'row-buttons' },
          h('button', { type: 'button', class: 'primary small rematch-accept', onclick: () => answer('accept') }, t('rematch.accept')),
          h('button', { type: 'button', class: 'small rematch-decline', onclick: () => answer('decline') }, t('rematch.decline')))));
    }
    for (const x of c.outgoing) {
      C.appendChild(h('div', { class: 'game-row challenge-out', dataset: { challenge: x.id } },
        h('div', {}, t('challenge.to', { name: x.to }), ' · ', what(x), ' · ',
          h('span', { class: 'muted' }, t(x.status === 'accepted' ? 'challenge.accepted' : 'challenge.pending'))),
        x.link ? h('a', { class: 'button small', href: x.link }, t('lobby.resume'))
          : h('button', { type: 'button', class: 'small challenge-cancel', onclick: () => act(x, 'cancel') }, t('challenge.cancel'))));
    }
  }

  renderMine() {
    const M = document.getElementById('your-games');
    if (!M) return;
    const mine = myGames() || [];
    M.hidden = !mine.length;
    clear(M);
    if (!mine.length) return;
    M.appendChild(h('h2', {}, t('lobby.your_games')));
    for (const g of mine) M.appendChild(yourGameRow(g, t('lobby.resume')));
  }

  relang() { if (this.options) { this.render(); this.renderGames(); } }

  edition() { return this.options.editions.find((e) => e.id === this.form.edition) || this.options.editions[0]; }

  fixSeats() {
    const ed = this.edition();
    const [lo, hi] = ed.players;
    this.form.players = Math.min(hi, Math.max(lo, this.form.players));
    const seats = this.form.seats;
    while (seats.length < this.form.players) {
      seats.push(seats.length === 0 ? { kind: 'human', name: '' } : { kind: 'bot', bot: 'greedy', strength: 2, name: '' });
    }
    seats.length = this.form.players;
    if (!ed.arrangements || !ed.arrangements.includes(this.form.arrangement)) this.form.arrangement = '';
  }

  render() {
    const R = clear(this.root);
    const F = this.form, ed = this.edition();
    const sel = (id, value, choices, onchange, label) => h('label', { class: 'field' }, h('span', {}, label),
      h('select', { id, onchange: (e) => onchange(e.target.value) },
        choices.map(([v, text]) => h('option', { value: v, selected: String(v) === String(value) }, text))));
    const form = h('form', { class: 'panel create', id: 'create-form', onsubmit: (e) => { e.preventDefault(); this.create(); } },
      h('h2', {}, t('lobby.create')),
      h('div', { class: 'fields' },
        sel('edition', F.edition, this.options.editions.map((e) => [e.id, t(`edition.${e.id}`, { _default: e.id })]),
          (v) => { F.edition = v; this.fixSeats(); this.render(); }, t('lobby.edition')),
        sel('players', F.players, range(ed.players[0], ed.players[1]).map((n) => [n, String(n)]),
          (v) => { F.players = +v; this.fixSeats(); this.render(); }, t('lobby.players')),
        ed.arrangements ? sel('arrangement', F.arrangement, [['', t('lobby.default')], ...ed.arrangements.map((a) => [a, t(`arrangement.${a}`, { _default: a })])],
          (v) => { F.arrangement = v; }, t('lobby.arrangement')) : null,
        ed.presets ? sel('preset', F.preset, ed.presets.map((p) => [p, t(`preset.${p}`, { _default: p })]),
          (v) => { F.preset = v; }, t('lobby.preset')) : null,
        ed.events ? h('label', { class: 'field check' }, h('input', { type: 'checkbox', id: 'events', checked: F.events, onchange: (e) => { F.events = e.target.checked; } }), h('span', {}, t('lobby.events'))) : null,
        // live, or turn-based with 1, 2, 3 or 7 days per move (docs/protocol.md)
        sel('mode', F.mode || 'live', [['live', t('lobby.mode_live')], ...[1, 2, 3, 7].map((n) => [String(n), t('lobby.mode_days', { n })])],
          (v) => { F.mode = v; this.render(); }, t('lobby.mode')),
        (F.mode || 'live') !== 'live' ? null : h('label', { class: 'field' }, h('span', {}, t('lobby.turn_timer')),
          h('input', { type: 'number', id: 'turn-timer', min: 0, max: (this.options.limits && this.options.limits.turn_timer_max) || 86400, value: F.turn_timer, oninput: (e) => { F.turn_timer = e.target.value; } })),
        h('label', { class: 'field' }, h('span', {}, t('lobby.seed')),
          h('input', { type: 'text', id: 'seed', inputmode: 'numeric', placeholder: t('lobby.seed_random'), value: F.seed, oninput: (e) => { F.seed = e.target.value.trim(); this.sayRated(); } }))),
      // or start from a position (position.js): it names edition and players
      positionField(F, (hdr) => { if (this.options.editions.some((e) => e.id === hdr.edition)) F.edition = hdr.edition; F.players = hdr.players; this.fixSeats(); this.render(); }),
      // or play a variant (variant.js): it may name edition and players
      variantField(F, (hdr) => {
        if (this.options.editions.some((e) => e.id === hdr.edition)) F.edition = hdr.edition;
        if (hdr.players) F.players = hdr.players;
        this.fixSeats();
        this.render();
      }),
      h('h3', {}, t('lobby.seats')),
      h('div', { class: 'seats' }, F.seats.map((s, i) => this.seatRow(s, i))),
      // rated or not, as the server will decide it (rated.js, docs/ratings.md)
      h('p', { class: 'small rated-note', id: 'rated-form', 'aria-live': 'polite' }, formRatedText(F)),
      h('button', { type: 'submit', class: 'primary', id: 'create' }, t('lobby.create_button')));
    // the first thing a newcomer reads (issue 31): what the game is, each
    // edition in a sentence, and the ways in: the tutorial, bots in one click, friends
    // (the create form below, set to people), the rules of each edition
    const solo = h('section', { class: 'panel welcome', id: 'welcome' },
      h('h2', {}, t('welcome.title')),
      h('p', { id: 'welcome-game' }, t('welcome.game')),
      h('ul', { class: 'editions' },
        h('li', { id: 'welcome-ba' }, h('strong', {}, t('edition.amsterdam')), ': ', t('welcome.ba')),
        h('li', { id: 'welcome-ga' }, h('strong', {}, t('edition.golden-age')), ': ', t('welcome.ga'))),
      h('div', { class: 'ways' },
        // the tutorial of each edition (tutorial.js)
        h('div', { class: 'way', id: 'learn-panel' },
          h('h3', {}, t('tutorial.learn')),
          h('p', { class: 'muted small' }, t('tutorial.learn_help')),
          h('a', { class: 'button primary', id: 'learn', href: '#/learn' }, t('tutorial.learn'))),
        h('div', { class: 'way', id: 'solo-panel' },
          h('h3', {}, t('welcome.bots')),
          h('p', { class: 'muted small' }, t('lobby.solo_help')),
          h('div', { class: 'row-buttons' },
            h('button', { type: 'button', class: 'primary', id: 'solo', onclick: () => this.solo('amsterdam') }, t('lobby.solo_ba')),
            h('button', { type: 'button', class: 'primary', id: 'solo-ga', onclick: () => this.solo('golden-age') }, t('lobby.solo_ga')))),
        h('div', { class: 'way' },
          h('h3', {}, t('welcome.friends')),
          h('p', { class: 'muted small' }, t('welcome.friends_help')),
          h('button', { type: 'button', id: 'friends', onclick: () => this.friends() }, t('welcome.friends_button'))),
        h('div', { class: 'way' },
          h('h3', {}, t('welcome.rules')),
          h('p', { class: 'muted small' }, t('welcome.rules_help')),
          h('div', { class: 'row-buttons' },
            h('a', { class: 'button', id: 'rules-ba', href: '#/rules/amsterdam' }, t('edition.amsterdam')),
            h('a', { class: 'button', id: 'rules-ga', href: '#/rules/golden-age' }, t('edition.golden-age'))))));
    R.appendChild(h('div', { class: 'lobby' },
      h('section', { class: 'panel games', id: 'challenges', hidden: true }),
      h('section', { class: 'panel games', id: 'your-games', hidden: true }),
      h('section', { class: 'panel games', id: 'following', hidden: true }),
      solo,
      form,
      this.created ? this.createdBox() : null,
      h('section', { class: 'panel games', id: 'open-games' }, h('h2', {}, t('lobby.open_games')),
        // without a session, the name a guest session gets on joining
        (who() || { kind: 'none' }).kind === 'none' ? h('label', { class: 'field' }, h('span', {}, t('lobby.your_name')),
          h('input', { type: 'text', id: 'join-name', maxlength: 24, value: this.joinName || '', oninput: (e) => { this.joinName = e.target.value; } }))
          : h('p', { class: 'muted', id: 'joining-as' }, t('account.joining_as', { name: who().name })),
        h('div', { id: 'games-list' }, t('ui.loading'))),
      h('section', { class: 'panel games', id: 'old-games' }, h('h2', {}, t('lobby.finished_games')), h('div', { id: 'old-list' }, t('ui.loading')))));
    this.renderMine();
    this.renderChallenges();
    this.renderGames();
    mountFollowing(document.getElementById('following'));
  }

  seatRow(s, i) {
    const bots = this.options.bots;
    const bot = bots.find((b) => b.id === s.bot) || bots[0];
    return h('div', { class: 'seat-row', dataset: { seat: i } },
      h('span', { class: 'seat-no' }, t('ui.player_n', { n: i + 1 })),
      h('select', { class: 'seat-kind', 'aria-label': t('lobby.seat_kind'), onchange: (e) => { s.kind = e.target.value; if (s.kind === 'bot' && !s.bot) s.bot = bots[0].id; this.render(); } },
        h('option', { value: 'human', selected: s.kind === 'human' }, t('lobby.human')),
        h('option', { value: 'bot', selected: s.kind === 'bot' }, t('lobby.bot'))),
      s.kind === 'human'
        ? [h('input', { type: 'text', class: 'seat-name', maxlength: 24, placeholder: t('lobby.name'), 'aria-label': t('lobby.name'), value: s.name || '', oninput: (e) => { s.name = e.target.value; } }),
          // seat 0 is the creator's; another human seat is open (anyone may
          // take it from the lobby) or reserved (only through its invite link)
          i > 0 ? h('select', { class: 'seat-access', 'aria-label': t('lobby.access'), onchange: (e) => { s.access = e.target.value; } },
            h('option', { value: 'open', selected: (s.access || 'open') === 'open' }, t('lobby.access_open')),
            h('option', { value: 'reserved', selected: s.access === 'reserved' }, t('lobby.access_reserved'))) : null]
        : h('span', { class: 'bot-fields' },
          h('select', { class: 'seat-bot', 'aria-label': t('lobby.bot'), onchange: (e) => { s.bot = e.target.value; this.render(); } },
            bots.map((b) => h('option', { value: b.id, selected: b.id === s.bot }, t(`bot.${b.id}`, { _default: b.id })))),
          bot && bot.strengths ? h('select', { class: 'seat-strength', 'aria-label': t('lobby.strength'), onchange: (e) => { s.strength = +e.target.value; } },
            bot.strengths.map((n) => h('option', { value: n, selected: n === (s.strength || 2) }, t('lobby.strength_n', { n })))) : null));
  }

  sayRated() {
    const e = document.getElementById('rated-form');
    if (e) e.textContent = formRatedText(this.form);
  }

  // "Play with friends": every seat but the creator's becomes an open seat
  // for a person, and the form (already on the page) is brought into view
  // with its first field focused: one click from the first screen.
  friends() {
    this.form.seats.forEach((s, i) => { if (i > 0) { s.kind = 'human'; s.access = s.access || 'open'; } });
    this.render();
    const f = document.getElementById('create-form');
    f.scrollIntoView({ block: 'start' });
    document.getElementById('edition').focus({ preventScroll: true });
  }

  // A solo game: the player and three bots (greedy, greedy, ISMCTS), then
  // straight to the player's seat.
  async solo(edition) {
    const ed = this.options.editions.find((e) => e.id === edition);
    const n = Math.min(4, ed ? ed.players[1] : 4);
    const seats = [{ kind: 'human', name: (this.joinName || '').trim() || undefined }];
    for (let i = 1; i < n; i++) seats.push(i === n - 1 ? { kind: 'bot', bot: 'ismcts', strength: 1 } : { kind: 'bot', bot: 'greedy' });
    const body = { edition, players: n, seats };
    if (edition === 'golden-age') body.events = true;
    try {
      // the creator plays seat 0 at once: as themselves, or as a guest
      await ensureSession((this.joinName || '').trim());
      const g = await api('POST', '/api/games', body);
      const mine = g.seats.find((s) => s.you) || g.seats.find((s) => s.kind === 'human');
      location.hash = mine.link.replace(/^\/?#/, '#');
    } catch (e) {
      toast(t('lobby.create_failed', { why: e.message }), 'error');
    }
  }

  async create() {
    const F = this.form;
    const body = { edition: F.edition, players: F.players, turn_timer: Number(F.turn_timer) || 0 };
    if (F.mode && F.mode !== 'live') { body.mode = 'turn-based'; body.days = Number(F.mode); delete body.turn_timer; }
    if (F.arrangement) body.arrangement = F.arrangement;
    if (F.edition === 'golden-age') { body.preset = F.preset; body.events = !!F.events; }
    if (F.seed !== '') {
      if (!/^\d+$/.test(F.seed)) { toast(t('lobby.bad_seed'), 'error'); return; }
      body.seed = Number(F.seed);
    }
    body.seats = F.seats.map((s, i) => s.kind === 'human' ? { kind: 'human', name: s.name || undefined, access: i === 0 ? 'reserved' : (s.access || 'open') }
      : Object.assign({ kind: 'bot', bot: s.bot }, this.options.bots.find((b) => b.id === s.bot && b.strengths) ? { strength: s.strength || 2 } : {}));
    try {
      // the creator plays seat 0 at once: as themselves, or as a guest
      // named like that seat
      await ensureSession(F.seats[0] && F.seats[0].kind === 'human' ? F.seats[0].name : '');
      if (F.seats.some((s) => s.kind === 'human')) body.seat = F.seats.findIndex((s) => s.kind === 'human');
      if ((F.position || '').trim()) positionBody(body, F.position);
      else if ((F.variant || '').trim()) variantBody(body, F.variant);
      this.created = await api('POST', '/api/games', body);
      this.render();
      this.refreshGames();
    } catch (e) {
      toast(t('lobby.create_failed', { why: e.message }), 'error');
    }
  }

  createdBox() {
    const c = this.created;
    const abs = (link) => new URL(link, location.href).href;
    return h('section', { class: 'panel created', id: 'created' },
      h('h2', {}, t('lobby.created', { id: c.id })),
      h('p', {}, t('lobby.share_links')),
      h('ul', { class: 'links' }, c.seats.map((s) => h('li', { dataset: { seat: s.seat } },
        // a person's seat: "Player 2 (Bram): link"; a bot's: "Player 3:
        // ISMCTS 3, a bot (ISMCTS, strength 2)", not "Player 3 (ISMCTS 3):
        // bot ismcts 2" (issue 31)
        h('b', {}, t('ui.player_n', { n: s.seat + 1 }), s.name && s.kind === 'human' ? ` (${s.name})` : '', ': '),
        s.kind === 'human' && !s.link ? h('span', { class: 'muted open-seat-note' }, t('lobby.open_seat_note'))
          : s.kind === 'human'
          ? [h('input', { type: 'text', readonly: true, class: 'link', value: abs(s.link), onclick: (e) => e.target.select() }),
            h('button', { type: 'button', class: 'small copy', onclick: () => copy(abs(s.link)) }, t('lobby.copy')),
            h('a', { class: 'button small open-seat', href: s.link, target: '_blank', rel: 'noopener' }, t('lobby.open'))]
          : h('span', { class: 'seat-bot-label' }, t(s.strength ? 'lobby.seat_bot_strength' : 'lobby.seat_bot',
            { name: s.name || t('lobby.bot'), bot: t(`bot.${s.bot}`, { _default: s.bot }), n: s.strength }))))),
      c.spectate ? h('p', {}, t('lobby.spectate'), ' ', h('a', { href: c.spectate, class: 'spectate' }, abs(c.spectate))) : null);
  }

  async refreshGames() {
    try {
      const [open, over] = await Promise.all([api('GET', '/api/games'), api('GET', '/api/games?status=over')]);
      this.games = open.games || [];
      this.oldGames = over.games || [];
    } catch (e) {
      this.gamesError = e.message;
    }
    this.renderGames();
  }

  renderGames() {
    const L = document.getElementById('games-list'), O = document.getElementById('old-list');
    if (!L || !O) return;
    clear(L); clear(O);
    if (this.gamesError && !this.games) { L.textContent = this.gamesError; return; }
    if (!this.games) return;
    if (!this.games.length) L.appendChild(h('p', { class: 'muted' }, t('lobby.no_games')));
    for (const g of this.games) {
      // only open seats can be taken from the lobby: a reserved seat is
      // taken through its invite link
      const free = g.seats.filter((s) => s.kind === 'human' && !s.claimed && s.access === 'open');
      // a game of one's own is resumed at one's seat, not watched or joined again
      const own = (myGames() || []).find((m) => m.id === g.id);
      L.appendChild(h('div', { class: 'game-row', dataset: { game: g.id } },
        h('div', {}, h('b', {}, t(`edition.${g.edition}`, { _default: g.edition })), ' · ', g.arrangement ? t(`arrangement.${g.arrangement}`, { _default: g.arrangement }) : '', ' · ',
          t('lobby.n_players', { n: g.players }), ' · ', t(`status.${g.status}`, { _default: g.status }), hintTag(g)),
        h('div', { class: 'muted small' }, g.seats.map((s) => s.kind === 'bot' ? (s.name || s.bot) : (s.name || '?') + (s.claimed ? '' : ` (${t('lobby.free')})`)).join(', ')),
        own ? h('div', { class: 'row-buttons' }, h('a', { class: 'button small resume', href: own.link }, t('lobby.resume')))
          : h('div', { class: 'row-buttons' },
            free.map((s) => h('button', { class: 'small join', dataset: { seat: s.seat }, onclick: () => this.join(g.id, s.seat) }, t('lobby.join_seat', { n: s.seat + 1 }))),
            h('a', { class: 'button small secondary', href: `#/watch/${g.id}` }, t('lobby.watch')))));
    }
    if (!(this.oldGames || []).length) O.appendChild(h('p', { class: 'muted' }, t('lobby.no_games')));
    for (const g of (this.oldGames || []).slice(0, 30)) {
      // date, winner and scores (from the stored result: docs/protocol.md)
      const who = (s) => s.name || s.bot || '?';
      const winners = (g.winners || []).map((w) => who(g.seats[w])).join(', ');
      const abandoned = g.status === 'abandoned' || g.abandoned;
      O.appendChild(h('div', { class: `game-row${abandoned ? ' abandoned' : ''}`, dataset: { game: g.id } },
        h('div', {}, h('b', {}, t(`edition.${g.edition}`, { _default: g.edition })),
          abandoned ? [' · ', h('span', { class: 'tag off' }, t('status.abandoned'))] : null,
          g.status === 'aborted' ? [' · ', h('span', { class: 'tag off' }, t('status.aborted'))] : null,
          g.finished ? [' · ', h('span', { class: 'finished' }, t('lobby.finished_on', { date: dateText(g.finished) }))] : null,
          winners ? [' · ', h('span', { class: 'winner' }, t('lobby.winner', { name: winners }))] : null, hintTag(g)),
        h('div', { class: 'muted small scores scores-line' }, g.seats.map((s, i) => who(s) + (g.scores ? ` f${g.scores[i]}` : '')).join(', ')),
        h('a', { class: 'button small', href: `#/replay/${g.id}` }, t('lobby.replay'))));
    }
  }

  async join(id, seat) {
    const name = (this.joinName || '').trim();
    try {
      await ensureSession(name);
      const r = await api('POST', `/api/games/${id}/join`, { seat });
      location.hash = r.link.replace(/^\/?#/, '#');
    } catch (e) {
      toast(t('lobby.join_failed', { why: e.message }), 'error');
      this.refreshGames();
    }
  }
}

// A game in which a hint was used is marked (issue 33: seats carry "hints").
function hintTag(g) {
  const n = (g.seats || []).reduce((k, s) => k + (s.hints || 0), 0);
  return n ? [' · ', h('span', { class: 'tag hinted', title: t('hint.used_title') }, t('hint.used_n', { n }))] : null;
}

function range(a, b) { const r = []; for (let i = a; i <= b; i++) r.push(i); return r; }

async function copy(text) {
  try { await navigator.clipboard.writeText(text); toast(t('lobby.copied')); } catch (e) { toast(text); }
}
