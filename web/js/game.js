// game.js: the game page. It joins a seat (or watches) over the WebSocket of
// docs/protocol.md, draws every "state" frame the server sends (board, stock
// chart, players, hand, market, stock events, log) and turns the legal moves
// of that frame into things to click. It decides no rule: every move it sends
// is one entry of the frame's "legal" list, sent with the frame's decision
// number, and the server's answer (a new state or an error frame) is shown.
import { rematchBox } from './rematch.js';
import { h, clear } from './dom.js';
import { t, lang, has } from './i18n.js';
import { drawBoard } from './board.js';
import { Legal, plotMoves, parsePlay, cardName, describe, companyName, setCompanies, sentence } from './moves.js';
import { companyColor, inkOn, SEAT_COLORS } from './colors.js';
import { needSession } from './account.js';
import { ChatPanel } from './chat.js';

// Phases whose decision opens a dialog over the page (the others are answered
// on the board and in the decision panel).
const DIALOG_PHASES = new Set(['bid', 'auction', 'merge', 'merge-sell', 'offer', 'respond', 'coop',
  'veilinge', 'pick', 'lose', 'event', 'found', 'credit']);

export class GamePage {
  constructor(root, { game, token, watch, replay }) {
    this.root = root;
    this.game = game;
    this.token = token || null;
    this.watch = !!watch;
    this.frame = null;          // the last state frame
    this.sent = false;          // a move is on its way: wait for the answer
    this.levelFilter = null;    // a level card chosen in the hand
    this.dialogHidden = false;  // the player folded the decision dialog away
    this.lastDecision = -1;
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    this.replay = replay || null;
    this.build();
    if (!this.replay) this.connect();
  }

  destroy() {
    this.closed = true;
    if (this.ws) this.ws.close();
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    clearInterval(this.timerTick);
  }

  build() {
    clear(this.root);
    this.el = {};
    const E = this.el;
    E.status = h('div', { class: 'game-status', id: 'game-status' }, t('ui.loading'));
    E.conn = h('span', { class: 'conn', id: 'conn' });
    E.errors = h('div', { class: 'error-banner', id: 'error-banner', role: 'alert', hidden: true });
    E.board = h('div', { class: 'board-inner', id: 'board' });
    // on a phone the whole board is small: a button doubles it, to scroll
    const zoom = h('button', { class: 'small zoom', id: 'zoom', 'aria-pressed': 'false', title: t('ui.zoom'), 'aria-label': t('ui.zoom'),
      onclick: () => { const on = E.boardWrap.classList.toggle('zoomed'); zoom.setAttribute('aria-pressed', String(on)); } }, '2×');
    E.boardWrap = h('div', { class: 'board-wrap' }, zoom, E.board);
    E.decision = h('section', { class: 'panel decision', id: 'decision' });
    E.hand = h('section', { class: 'panel hand', id: 'hand' });
    E.market = h('section', { class: 'panel market', id: 'market' });
    E.chart = h('section', { class: 'panel chart', id: 'chart' });
    E.players = h('section', { class: 'panel players', id: 'players' });
    E.events = h('section', { class: 'panel events', id: 'events' });
    E.log = h('section', { class: 'panel log', id: 'log' });
    this.chat = new ChatPanel(this);
    E.dialog = h('div', { class: 'dialog-layer', id: 'dialog', hidden: true });
    E.chooser = h('div', { class: 'dialog-layer', id: 'chooser', hidden: true });
    this.root.appendChild(h('div', { class: 'game-page' },
      h('div', { class: 'game-top' }, E.status, E.conn),
      E.errors,
      E.layout = h('div', { class: 'game-layout', hidden: true },
        h('div', { class: 'main-col' }, E.boardWrap, E.decision, E.hand, E.market),
        h('aside', { class: 'side-col' }, E.chart, E.players, E.events, E.log, this.chat.el)),
      E.dialog, E.chooser));
  }

  // ---- the connection -------------------------------------------------
  async connect() {
    // a seat is played by a session: someone who opens a link without one
    // logs in or plays as a guest first (the cookie goes with the
    // WebSocket's upgrade, and the seat is bound to that session)
    if (!this.watch) await needSession(t(this.token ? 'account.invite_note' : 'account.seat_note'));
    if (this.closed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    this.setConn('connecting');
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.setConn('open');
      this.root.classList.remove('offline');
      const msg = this.watch ? { type: 'watch', game: this.game, lang: lang() }
        : Object.assign({ type: 'join', game: this.game, lang: lang() }, this.token ? { token: this.token } : {});
      ws.send(JSON.stringify(msg));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => { if (ws.readyState === 1) ws.send('{"type":"ping"}'); }, 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { this.showError(t('error.bad_frame')); return; }
      if (msg.type === 'state') this.onState(msg);
      else if (msg.type === 'error') this.onError(msg);
      else if (msg.type === 'chat') this.chat.add(msg.messages);
      else if (msg.type === 'muted') this.chat.onMuted(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.closed) return;
      this.sent = false;
      this.setConn('lost');
      // no moves while the connection is down: the state shown may be old
      this.root.classList.add('offline');
      this.root.dataset.myTurn = '0';
      // reconnect with backoff; the server sends the full view on rejoin
      const delay = Math.min(8000, 500 * 2 ** this.retry++);
      this.retryTimer = setTimeout(() => this.connect(), delay);
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  setConn(s) {
    this.connState = s;
    this.el.conn.textContent = t(`conn.${s}`);
    this.el.conn.className = `conn conn-${s}`;
  }

  // The language changed: draw again, and join again so the log's words
  // come in the new language too.
  relang() {
    if (this.replay) { this.render(); return; }
    this.setConn(this.connState || 'connecting');
    if (this.ws && this.ws.readyState === 1) {
      const msg = this.watch ? { type: 'watch', game: this.game, lang: lang() }
        : Object.assign({ type: 'join', game: this.game, lang: lang() }, this.token ? { token: this.token } : {});
      this.ws.send(JSON.stringify(msg));
    }
    this.render();
  }

  send(move) {
    if (!this.frame || this.sent) return;
    if (!this.legal.has(move)) {           // never send a move the server did not list
      this.showError(t('error.not_listed', { move }));
      return;
    }
    if (!this.ws || this.ws.readyState !== 1) { this.showError(t('error.offline')); return; }
    this.sent = true;
    this.root.dataset.myTurn = '0';
    this.root.classList.add('busy');
    this.ws.send(JSON.stringify({ type: 'move', move, decision: this.frame.decision }));
  }

  onError(msg) {
    this.sent = false;
    this.root.classList.remove('busy');
    if (this.frame) this.root.dataset.myTurn = this.legal && !this.legal.empty ? '1' : '0';
    this.root.dataset.errors = String((+this.root.dataset.errors || 0) + 1);
    const code = msg.code || 'error';
    const known = t(`error.${code}`, { _default: '' });
    this.showError(known ? `${known}: ${msg.message || ''}` : (msg.message || code));
    // refused before anything was shown (a wrong link): say so, and offer the lobby
    if (!this.frame) {
      clear(this.el.status).appendChild(h('a', { href: '#/', class: 'button', id: 'to-lobby' }, t('ui.to_lobby')));
    }
  }

  showError(text) {
    const E = this.el.errors;
    clear(E);
    E.appendChild(h('span', { class: 'error-text' }, text));
    E.appendChild(h('button', { class: 'close', 'aria-label': t('ui.close'), onclick: () => { E.hidden = true; } }, '×'));
    E.hidden = false;
  }

  onState(frame) {
    // the log comes in pieces: the last 50 entries after a join, then only
    // the new ones; entries are numbered, so a repeat replaces its earlier copy
    if (!this.logMap) this.logMap = new Map();
    for (const e of frame.log || []) this.logMap.set(e.n, e);
    // the board and the card table come once (and again only when they
    // change): every later view is completed with the copy kept here
    if (frame.static) this.staticPart = frame.static;
    frame.view = Object.assign({}, frame.view, this.staticPart);
    const newDecision = frame.decision !== this.lastDecision;
    this.frame = frame;
    this.lastDecision = frame.decision;
    this.sent = false;
    this.root.classList.remove('busy');
    if (newDecision) { this.levelFilter = null; this.dialogHidden = false; this.el.errors.hidden = true; this.closeChooser(); }
    this.render();
  }

  // ---- drawing --------------------------------------------------------
  seatName(i) {
    const s = this.frame && this.frame.seats && this.frame.seats.find((x) => x.seat === i);
    if (s && s.name) return s.name;
    if (s && s.kind === 'bot') return t('ui.bot_name', { n: i + 1, bot: s.bot || '' });
    return t('ui.player_n', { n: i + 1 });
  }

  render() {
    const f = this.frame;
    if (!f) { this.el.status.textContent = t('ui.loading'); return; }
    this.el.layout.hidden = false;
    const v = f.view;
    this.view = v;
    setCompanies(v);
    this.seat = typeof f.seat === 'number' ? f.seat : -1;
    this.legal = new Legal(f.legal);
    this.myTurn = !this.legal.empty && !this.sent;
    // the state in a few attributes, for style rules and for the browser tests
    Object.assign(this.root.dataset, { decision: f.decision, phase: this.view.turn.phase, status: f.status,
      seat: this.seat, myTurn: this.myTurn ? '1' : '0' });
    this.renderStatus();
    this.renderBoard();
    this.renderDecision();
    this.renderHand();
    this.renderMarket();
    this.renderChart();
    this.renderPlayers();
    this.renderEvents();
    this.renderLog();
    this.renderDialog();
  }

  renderStatus() {
    const f = this.frame, v = this.view;
    const E = clear(this.el.status);
    const deciders = (f.deciders || v.deciders || []).map((i) => this.seatName(i));
    const who = this.seat >= 0 ? t('ui.you_are', { name: this.seatName(this.seat) }) : t('ui.spectating');
    E.appendChild(h('span', { class: 'who' }, who));
    E.appendChild(h('span', { class: 'turn-no' }, t('ui.turn_n', { n: v.turn.number })));
    if (f.status === 'waiting') E.appendChild(h('span', { class: 'state-waiting' }, t('ui.waiting_players')));
    else if (f.status === 'over' || v.turn.over) E.appendChild(h('span', { class: 'state-over' }, t('ui.game_over')));
    else if (this.myTurn) E.appendChild(h('span', { class: 'your-turn' }, t('ui.your_decision')));
    else if (deciders.length && !this.replay) E.appendChild(h('span', { class: 'waiting-for' }, t('ui.waiting_for', { names: deciders.join(', ') })));
    E.appendChild(h('span', { class: 'phase' }, phaseName(v.turn.phase, v.edition)));
    // the turn timer: seconds left before a bot stands in for the deciders
    clearInterval(this.timerTick);
    const tm = f.timer;
    // the timer is about the people who decide now: shown only when one does
    const humanDecides = (f.deciders || []).some((i) => ((f.seats || []).find((x) => x.seat === i) || {}).kind === 'human');
    if (tm && tm.seconds && tm.deadline && humanDecides) {
      const span = h('span', { class: 'timer', id: 'timer' });
      const tick = () => {
        const left = Math.max(0, Math.round((tm.deadline - Date.now()) / 1000));
        span.textContent = t('ui.timer', { s: left });
      };
      tick();
      this.timerTick = setInterval(tick, 1000);
      E.appendChild(span);
    }
  }

  lastPlots() {
    const last = this.frame.last;
    const set = new Set();
    if (!last || !last.move) return set;
    const m = last.move;
    if (m.startsWith('play ')) { const p = parsePlay(m); set.add(p.plot); if (p.plot2) set.add(p.plot2); }
    else if (m.startsWith('hq ')) set.add(m.slice(3));
    else if (m.startsWith('free ')) m.slice(5).split(' + ').forEach((x) => set.add(x));
    return set;
  }

  renderBoard() {
    const v = this.view;
    const pm = this.myTurn ? plotMoves(this.legal) : new Map();
    let playable = new Set(pm.keys());
    if (this.levelFilter) {
      playable = new Set([...pm.entries()].filter(([, ms]) => ms.some((m) => parsePlay(m).level === this.levelFilter)).map(([p]) => p));
    }
    const me = this.seat >= 0 ? v.players[this.seat] : null;
    const hand = new Set(me && me.hand ? me.hand.map(cardName) : []);
    // the last move is animated once, when it arrives; later drawings of
    // the same state (a language change, a reconnect) only mark it
    const lastN = this.frame.last ? this.frame.last.n : null;
    const fresh = lastN !== this.animatedN;
    this.animatedN = lastN;
    const svg = drawBoard(v, {
      playable, last: this.lastPlots(), hand, fresh,
      onPlot: (name) => this.choose(pm.get(name).filter((m) => !this.levelFilter || parsePlay(m).level === this.levelFilter || !m.startsWith('play')), name),
    });
    const E = clear(this.el.board);
    E.appendChild(svg);
  }

  // One move: send it; several: ask which.
  choose(moves, title) {
    if (!moves || !moves.length) return;
    if (moves.length === 1) { this.send(moves[0]); return; }
    const C = clear(this.el.chooser);
    const box = h('div', { class: 'dialog chooser-box', role: 'dialog', 'aria-modal': 'true' },
      h('h3', {}, title || t('ui.choose')),
      h('div', { class: 'choices' }, moves.map((m) => this.moveButton(m))),
      h('button', { class: 'secondary', onclick: () => this.closeChooser() }, t('ui.cancel')));
    C.appendChild(box);
    C.hidden = false;
  }

  closeChooser() { this.el.chooser.hidden = true; clear(this.el.chooser); }

  moveButton(m, label, cls) {
    const co = companyOf(m, this.view);
    const b = h('button', {
      class: `move ${cls || ''}`, dataset: { move: m }, disabled: this.sent || !this.myTurn,
      onclick: () => { this.closeChooser(); this.send(m); },
    }, co ? h('span', { class: 'swatch', style: { background: companyColor(co, 0) } }) : null,
    label || describe(m, (i) => this.seatName(i)));
    b.title = m;
    return b;
  }

  // Moves the board, the hand and the market do not show, as buttons.
  renderDecision() {
    const E = clear(this.el.decision);
    const v = this.view;
    const phase = v.turn.phase;
    this.el.decision.hidden = false;
    if (this.frame.status === 'over' || v.turn.over) { E.appendChild(this.resultBox()); return; }
    if (this.replay) { this.el.decision.hidden = true; return; }
    if (!this.myTurn) {
      E.appendChild(h('p', { class: 'prompt' }, this.sent ? t('ui.sending') : t('ui.not_your_turn')));
      return;
    }
    E.appendChild(h('h2', {}, this.prompt(phase)));
    if (DIALOG_PHASES.has(phase)) {
      E.appendChild(h('button', { class: 'primary', id: 'open-dialog', onclick: () => { this.dialogHidden = false; this.renderDialog(); } }, t('ui.open_dialog')));
      return;
    }
    const handled = new Set(['play', 'take', 'draw', 'refresh']);
    const pm = plotMoves(this.legal);
    if (pm.size) E.appendChild(h('p', { class: 'hint' }, t('ui.hint_board')));
    if (this.legal.verb('take').length || this.legal.verb('draw').length) E.appendChild(h('p', { class: 'hint' }, t('ui.hint_market')));
    const rest = this.legal.otherVerbs(handled);
    E.appendChild(this.buttonGroups(rest));
    E.appendChild(this.rangeControls());
  }

  // The question of a phase; The Golden Age words a few differently (no
  // action cards, one card per purchase, no third option).
  prompt(phase) {
    const ga = this.view.edition === 'golden-age' ? `prompt.ga.${phase}` : null;
    if (ga && has(ga)) return t(ga);
    return t(`prompt.${phase}`, { _default: phaseName(phase, this.view.edition) });
  }

  // Buttons, grouped by their first word (sell / buy / action / pass ...).
  buttonGroups(moves) {
    const groups = new Map();
    for (const m of moves) {
      const k = m.split(' ')[0];
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(m);
    }
    return h('div', { class: 'move-groups' }, [...groups.values()].map((ms) => h('div', { class: 'move-group' }, ms.map((m) => this.moveButton(m)))));
  }

  // Amount moves ("range bid f0 f200", auction bids f10 apart): a number
  // field limited to what the list allows, and a button.
  rangeControls(prefixes) {
    const box = h('div', { class: 'amounts' });
    const pre = new Set(prefixes || [...this.legal.ranges.map((r) => r.prefix), ...this.legal.moves.filter((m) => /^bid f\d+$/.test(m)).map(() => 'bid')]);
    for (const p of pre) {
      const amounts = this.legal.amounts(p);
      if (!amounts.length) continue;
      box.appendChild(this.amountInput(p, amounts));
    }
    return box;
  }

  amountInput(prefix, amounts, label) {
    const lo = amounts[0], hi = amounts[amounts.length - 1];
    let step = 0;
    for (let i = 1; i < amounts.length; i++) step = gcd(step, amounts[i] - amounts[i - 1]);
    step = step || 1;
    const input = h('input', { type: 'number', min: lo, max: hi, step, value: lo, class: 'amount', id: `amount-${prefix}`, inputmode: 'numeric', 'aria-label': label || describe(`${prefix} f${lo}`) });
    const slider = h('input', { type: 'range', min: lo, max: hi, step, value: lo, class: 'amount-slider', 'aria-hidden': 'true', tabindex: '-1' });
    slider.addEventListener('input', () => { input.value = slider.value; });
    input.addEventListener('input', () => { slider.value = input.value; });
    const btn = h('button', {
      class: 'move primary', id: `send-${prefix}`, dataset: { prefix },
      disabled: this.sent || !this.myTurn,
      onclick: () => {
        const n = Number(input.value);
        if (!Number.isInteger(n) || !amounts.includes(n)) {
          this.showError(t('error.amount_range', { lo: `f${lo}`, hi: `f${hi}`, step: `f${step}` }));
          return;
        }
        this.send(`${prefix} f${n}`);
      },
    }, t(`amount.${prefix}`, { _default: prefix }));
    // quick picks: lowest, highest
    const quick = h('div', { class: 'quick' },
      h('button', { class: 'small', onclick: () => { input.value = lo; slider.value = lo; } }, `f${lo}`),
      h('button', { class: 'small', onclick: () => { input.value = hi; slider.value = hi; } }, `f${hi}`));
    return h('div', { class: 'amount-row' },
      h('label', { for: `amount-${prefix}` }, label || t(`amount_label.${prefix}`, { _default: prefix }), ' ',
        h('span', { class: 'range-note' }, t('ui.range', { lo: `f${lo}`, hi: `f${hi}` }))),
      h('div', { class: 'amount-controls' }, h('span', { class: 'fl' }, 'f'), input, btn), slider, quick);
  }

  renderHand() {
    const E = clear(this.el.hand);
    const v = this.view;
    if (this.seat < 0) { this.el.hand.hidden = true; return; }
    this.el.hand.hidden = false;
    const me = v.players[this.seat];
    const cards = me.hand || [];
    E.appendChild(h('h3', {}, t('ui.your_hand', { n: cards.length })));
    const pm = this.myTurn ? plotMoves(this.legal) : new Map();
    const plays = this.myTurn ? this.legal.verb('play') : [];
    const list = h('div', { class: 'cards' });
    for (const c of cards) {
      const name = cardName(c);
      const isLevel = /^L\d$/.test(name);
      let moves = [];
      if (isLevel) moves = plays.filter((m) => parsePlay(m).level === name);
      // a plot card: its plays, two-card foundings with it as either card included
      else moves = (pm.get(name) || []).filter((m) => m.startsWith('play ') && !parsePlay(m).level);
      const card = h('button', {
        class: `card${isLevel ? ' level' : ''}${moves.length ? ' playable' : ''}${this.levelFilter === name ? ' selected' : ''}`,
        dataset: { card: name }, disabled: !moves.length,
        onclick: () => {
          if (isLevel) { this.levelFilter = this.levelFilter === name ? null : name; this.render(); }
          else this.choose(moves, name);
        },
      }, isLevel ? h('span', { class: 'lvl' }, name) : name);
      list.appendChild(card);
    }
    if (!cards.length) list.appendChild(h('span', { class: 'muted' }, t('ui.empty_hand')));
    E.appendChild(list);
    if (this.levelFilter) E.appendChild(h('p', { class: 'hint' }, t('ui.hint_level', { level: this.levelFilter })));
  }

  renderMarket() {
    const E = clear(this.el.market);
    const v = this.view, p = v.piles;
    E.appendChild(h('h3', {}, t('ui.market')));
    const takes = this.myTurn ? this.legal.verb('take') : [];
    const row = h('div', { class: 'cards' });
    for (const c of p.market || []) {
      if (c === null) { row.appendChild(h('span', { class: 'card empty' }, '—')); continue; }
      const name = cardName(c);
      const mv = `take ${name}`;
      const ok = takes.includes(mv);
      row.appendChild(h('button', {
        class: `card${/^L\d$/.test(name) ? ' level' : ''}${ok ? ' playable' : ''}`, dataset: ok ? { move: mv } : { card: name },
        disabled: !ok, title: ok ? describe(mv) : name, onclick: () => this.send(mv),
      }, name));
    }
    E.appendChild(row);
    const btns = h('div', { class: 'move-group' });
    for (const m of ['draw', 'refresh']) if (this.myTurn && this.legal.has(m)) btns.appendChild(this.moveButton(m));
    E.appendChild(btns);
    const info = [t('ui.deck_count', { n: p.deck_count ?? '?' }), t('ui.discard_count', { n: (p.discard || []).length })];
    if (v.edition === 'amsterdam') info.push(t('ui.reserve_count', { n: p.reserve_count ?? 0 }));
    if (p.discard && p.discard.length) info.push(t('ui.discard_top', { card: cardName(p.discard[p.discard.length - 1]) }));
    E.appendChild(h('p', { class: 'muted small' }, info.join(' · ')));
  }

  renderChart() {
    const E = clear(this.el.chart);
    const v = this.view;
    E.appendChild(h('h3', {}, t('screen.chart')));
    const max = v.edition === 'amsterdam' ? 300 : Math.max(300, ...v.companies.map((c) => c.value));
    const list = h('div', { class: 'chart-rows' });
    v.companies.forEach((c, i) => {
      const col = companyColor(c.name, i);
      const pct = c.on_chart ? Math.max(3, Math.round(100 * c.value / max)) : 0;
      const row = h('div', { class: `chart-row${c.on_chart ? '' : ' off'}`, dataset: { company: c.name } },
        h('span', { class: 'co-name' }, h('span', { class: 'swatch', style: { background: col } }), companyName(c.name)),
        h('span', { class: 'bar' }, h('span', { class: 'fill', style: { width: `${pct}%`, background: col } })),
        h('span', { class: 'value' }, c.on_chart ? `f${c.value}` : t('ui.off_chart')),
        h('span', { class: 'bank', title: t('ui.bank_stocks') }, t('screen.bank', { n: c.bank })),
        c.flag !== null && c.flag !== undefined ? h('span', { class: 'flag', title: t('ui.flag_of', { name: this.seatName(c.flag) }) }, '⚑', this.seatName(c.flag)) : null);
      list.appendChild(row);
    });
    E.appendChild(list);
  }

  renderPlayers() {
    const E = clear(this.el.players);
    const v = this.view, f = this.frame;
    E.appendChild(h('h3', {}, t('screen.players')));
    const deciders = new Set(f.deciders || v.deciders || []);
    v.players.forEach((p, i) => {
      const seatInfo = (f.seats || []).find((s) => s.seat === i) || {};
      const tags = [];
      if (i === this.seat) tags.push(h('span', { class: 'tag you' }, t('ui.you')));
      if (seatInfo.kind === 'bot') tags.push(h('span', { class: 'tag bot' }, t('ui.bot_tag', { bot: seatInfo.bot || '' })));
      if (seatInfo.kind === 'human' && seatInfo.connected === false && !this.replay) tags.push(h('span', { class: 'tag off' }, t('ui.offline')));
      if (seatInfo.away && !this.replay) tags.push(h('span', { class: 'tag off' }, t('ui.away')));
      if (deciders.has(i)) tags.push(h('span', { class: 'tag deciding' }, t('ui.deciding')));
      if (v.turn.active === i) tags.push(h('span', { class: 'tag active' }, t('ui.active')));
      const stocks = p.stocks ? Object.entries(p.stocks).filter(([, n]) => n > 0)
        .map(([co, n]) => h('span', { class: 'stock', style: { background: companyColor(co, 0), color: inkOn(companyColor(co, 0)) } }, `${companyName(co)} ×${n}`))
        : [h('span', { class: 'muted' }, t('ui.stocks_hidden'))];
      const facts = [t('ui.cash', { n: p.cash }), t('ui.hand_count', { n: p.hand_count ?? (p.hand || []).length })];
      if (v.edition === 'amsterdam') {
        facts.push(t('ui.action_cards', { n: p.action_cards }));
        if (p.roofs) facts.push(t('ui.roofs', { n: p.roofs }));
      } else facts.push(t('ui.flags_left', { n: p.flags }));
      if (p.extra_turn_pending) facts.push(t('screen.extra_turn'));
      const bid = v.event && v.event.bids && (v.event.bids_revealed || i === this.seat) && v.event.kind && (v.event.bidders || []).includes(i) ? v.event.bids[i] : null;
      if (bid !== null && bid !== undefined) facts.push(t('ui.bid_is', { n: bid }));
      const known = (p.known || []).filter((c) => i !== this.seat);
      E.appendChild(h('div', { class: `player${deciders.has(i) ? ' deciding' : ''}`, dataset: { seat: i } },
        h('div', { class: 'pname' }, h('span', { class: 'dot', style: { background: SEAT_COLORS[i % SEAT_COLORS.length] } }), this.seatName(i), ...tags),
        h('div', { class: 'facts' }, facts.join(' · ')),
        h('div', { class: 'stocks' }, stocks.length ? stocks : h('span', { class: 'muted' }, t('ui.no_stocks'))),
        known.length ? h('div', { class: 'known small muted' }, t('ui.known_cards', { cards: known.map(cardName).join(', ') })) : null));
    });
  }

  renderEvents() {
    const E = clear(this.el.events);
    const v = this.view, p = v.piles;
    if (v.edition !== 'amsterdam') {
      if (!v.game.events_on) { this.el.events.hidden = true; return; }
    }
    this.el.events.hidden = false;
    E.appendChild(h('h3', {}, t('ui.stock_events')));
    if (v.edition === 'amsterdam') {
      E.appendChild(h('div', { class: 'event-cards' }, (p.event_open || []).map((e) => h('span', { class: 'event-card', title: t(`event_help.${e}`, { _default: e }) }, e || '—'))));
      E.appendChild(h('p', { class: 'muted small' }, t('ui.event_deck', { n: p.event_deck_count ?? 0 })));
    } else {
      E.appendChild(h('p', { class: 'muted small' }, t('ui.ga_events_on')));
    }
    if (v.event && v.event.kind) E.appendChild(h('p', {}, t('ui.event_now', { event: v.event.kind })));
  }

  renderLog() {
    const E = clear(this.el.log);
    E.appendChild(h('h3', {}, t('ui.log')));
    const list = h('ol', { class: 'log-list', id: 'log-list' });
    const entries = [...(this.logMap || new Map()).values()].sort((a, b) => a.n - b.n);
    let offerTo = null;
    entries.forEach((e, i) => {
      const om = /^offer P(\d+)$/.exec(e.move || '');
      if (om) offerTo = +om[1] - 1;
      if (i < entries.length - 200) return;
      const w = logWords(e, (k) => this.seatName(k), offerTo);
      const who = !w.withPlayer && e.player !== null && e.player !== undefined && e.player >= 0 ? this.seatName(e.player) : '';
      list.appendChild(h('li', { value: e.n + 1, dataset: { n: e.n, move: e.move || '' }, class: this.frame.last && this.frame.last.n === e.n ? 'last' : '' },
        who ? h('b', {}, who, ': ') : null, w.text));
    });
    E.appendChild(list);
    list.scrollTop = list.scrollHeight;
  }

  resultBox() {
    const r = this.frame.result;
    const box = h('div', { class: 'result', id: 'result' }, h('h2', {}, t('ui.game_over')));
    if (r && r.scores) {
      const winners = new Set(r.winners || []);
      box.appendChild(h('ol', { class: 'scores' }, r.scores.map((s, i) => [s, i]).sort((a, b) => b[0] - a[0]).map(([s, i]) =>
        h('li', { class: winners.has(i) ? 'winner' : '' }, `${this.seatName(i)}: f${s}`, winners.has(i) ? ` — ${t('ui.winner')}` : ''))));
    }
    if (!this.replay) box.appendChild(h('a', { href: `#/replay/${this.game}`, class: 'button', id: 'open-replay' }, t('ui.open_replay')));
    const rematch = rematchBox(this);
    if (rematch) box.appendChild(rematch);
    return box;
  }

  // ---- dialogs --------------------------------------------------------
  renderDialog() {
    const D = this.el.dialog;
    const v = this.view;
    const phase = v.turn.phase;
    if (!this.myTurn || !DIALOG_PHASES.has(phase) || this.dialogHidden || this.frame.status === 'over') {
      D.hidden = true; clear(D); return;
    }
    clear(D);
    const body = h('div', { class: 'dialog-body' });
    const box = h('div', { class: `dialog phase-${phase}`, role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'dialog-title' },
      h('div', { class: 'dialog-head' },
        h('h2', { id: 'dialog-title' }, this.prompt(phase)),
        h('button', { class: 'secondary small', id: 'hide-dialog', onclick: () => { this.dialogHidden = true; this.renderDialog(); } }, t('ui.show_board'))),
      body);
    const ev = v.event || {};
    const handled = new Set();
    switch (phase) {
      case 'bid': {
        body.appendChild(h('p', {}, t('dlg.sealed_bid', { event: ev.kind || '' })));
        body.appendChild(this.eventHelp(ev.kind));
        if (ev.bids_revealed) body.appendChild(this.bidsTable());
        body.appendChild(h('p', { class: 'muted' }, t('dlg.bids_in', { names: (ev.bids_in || []).map((i) => this.seatName(i)).join(', ') || '—' })));
        body.appendChild(this.amountInput('bid', this.legal.amounts('bid'), t('dlg.your_bid')));
        handled.add('bid');
        break;
      }
      case 'auction': {
        const a = ev.auction || {};
        body.appendChild(h('p', {}, t('dlg.auction', { item: this.auctionItem(a) })));
        body.appendChild(h('p', {}, a.high_bidder !== null && a.high_bidder !== undefined
          ? t('dlg.high_bid', { n: a.high, name: this.seatName(a.high_bidder) }) : t('dlg.no_bid_yet')));
        const amounts = this.legal.amounts('bid');
        if (amounts.length) body.appendChild(this.amountInput('bid', amounts, t('dlg.your_bid')));
        handled.add('bid');
        break;
      }
      case 'merge': case 'credit': case 'merge-sell': {
        body.appendChild(this.mergerInfo());
        break;
      }
      case 'offer': {
        body.appendChild(this.offerBuilder());
        ['give', 'ask', 'propose', 'withdraw'].forEach((x) => handled.add(x));
        break;
      }
      case 'respond': {
        body.appendChild(this.offerView(true));
        break;
      }
      case 'pick': {
        const look = v.piles.look || [];
        if (look.length) body.appendChild(h('p', {}, t('dlg.look', { cards: look.map(cardName).join(', ') })));
        break;
      }
      case 'coop': case 'lose': case 'veilinge': case 'event': {
        if (ev.kind) body.appendChild(this.eventHelp(ev.kind));
        if (phase === 'lose') body.appendChild(h('p', {}, t('dlg.lose_left', { n: ev.lose_left })));
        if (phase === 'event') {
          body.appendChild(h('p', {}, t('dlg.choose_event')));
          const kinds = [...new Set(this.legal.verb('event').map((m) => m.slice(6)).filter((k) => k !== 'deck'))];
          body.appendChild(h('ul', { class: 'event-list' }, kinds.map((k) => h('li', { class: 'small' }, t(`event_help.${k}`, { _default: k })))));
        }
        break;
      }
      case 'found': case 'hq': case 'free': {
        if (phase !== 'found') body.appendChild(h('p', { class: 'hint' }, t('ui.hint_board')));
        break;
      }
      default: break;
    }
    const rest = this.legal.moves.filter((m) => !handled.has(m.split(' ')[0]));
    if (rest.length) body.appendChild(this.buttonGroups(rest));
    const wasHidden = D.hidden;
    D.appendChild(box);
    D.hidden = false;
    // a dialog that just opened takes the keyboard focus (its first field or button)
    if (wasHidden) {
      const first = body.querySelector('input.amount, button.move:not([disabled])');
      if (first) first.focus({ preventScroll: true });
    }
  }

  eventHelp(kind) {
    if (!kind) return h('span');
    return h('p', { class: 'event-help muted' }, t(`event_help.${kind}`, { _default: kind }));
  }

  bidsTable() {
    const ev = this.view.event;
    return h('ul', { class: 'bids' }, (ev.bidders || []).map((i) => h('li', {}, `${this.seatName(i)}: ${ev.bids[i] === null ? '?' : 'f' + ev.bids[i]}`)));
  }

  auctionItem(a) {
    if (a.option === 1) return t('dlg.item_bank_stock', { company: companyName(a.item) });
    if (a.option === 2) return t('dlg.item_own_stock', { company: companyName(a.item) });
    if (a.option === 3) return t('dlg.item_deck');
    if (a.option === 4) return t('dlg.item_discard');
    return '—';
  }

  mergerInfo() {
    const v = this.view, m = v.merger;
    const box = h('div', { class: 'merger' });
    const co = (n) => { const c = v.companies.find((x) => x.name === n); return c ? `${companyName(n)} (f${c.value})` : companyName(n); };
    if (m.absorbed && m.absorber) box.appendChild(h('p', {}, t('dlg.merging', { a: co(m.absorbed), b: co(m.absorber) })));
    if ((m.pending || []).length) box.appendChild(h('p', {}, t('dlg.pending', { list: m.pending.map(co).join(', ') })));
    if (v.turn.phase === 'merge-sell' && m.absorbed && this.seat >= 0) {
      const mine = v.players[this.seat].stocks ? v.players[this.seat].stocks[m.absorbed] : null;
      if (mine !== null && mine !== undefined) box.appendChild(h('p', {}, t('dlg.you_hold', { n: mine, company: companyName(m.absorbed) })));
    }
    return box;
  }

  offerSide(side) {
    const o = this.view.event.offer[side];
    const parts = [];
    for (const c of o.cards || []) parts.push(cardName(c));
    if (o.hidden_cards) parts.push(t('screen.hidden_cards', { n: o.hidden_cards }));
    for (const [co, n] of Object.entries(o.stocks || {})) if (n > 0) parts.push(`${companyName(co)} ×${n}`);
    if (o.money) parts.push(`f${o.money}`);
    return parts.length ? parts.join(', ') : t('screen.nothing');
  }

  offerView(responding) {
    const v = this.view;
    const o = v.event.offer;
    const from = this.seatName(v.turn.active);
    return h('div', { class: 'offer-view', id: 'offer-view' },
      h('p', {}, responding ? t('dlg.offer_from', { name: from }) : t('dlg.offer_to', { name: o.to === null ? '—' : this.seatName(o.to) })),
      h('div', { class: 'offer-sides' },
        h('div', {}, h('h4', {}, responding ? t('dlg.you_get') : t('dlg.you_give')), h('p', { class: 'offer-give' }, this.offerSide('give'))),
        h('div', {}, h('h4', {}, responding ? t('dlg.you_pay') : t('dlg.you_ask')), h('p', { class: 'offer-ask' }, this.offerSide('ask')))));
  }

  offerBuilder() {
    const box = h('div', { class: 'offer-builder' });
    box.appendChild(this.offerView(false));
    const col = (verb) => {
      const items = this.legal.verb(verb).filter((m) => !/ f\d+$/.test(m));
      const cards = items.filter((m) => !this.view.companies.some((c) => m === `${verb} ${c.name}`));
      const stocks = items.filter((m) => !cards.includes(m));
      const amounts = this.legal.amounts(verb);
      return h('div', { class: `offer-col offer-${verb}` },
        h('h4', {}, t(`dlg.add_${verb}`)),
        stocks.length ? h('div', { class: 'move-group' }, stocks.map((m) => this.moveButton(m, null, 'small'))) : null,
        cards.length ? h('div', { class: 'move-group cards-list' }, cards.map((m) => this.moveButton(m, m.slice(verb.length + 1), 'small card-btn'))) : null,
        amounts.length ? this.amountInput(verb, amounts, t(`dlg.money_${verb}`)) : null);
    };
    box.appendChild(h('div', { class: 'offer-cols' }, col('give'), col('ask')));
    box.appendChild(h('div', { class: 'move-group' }, ['propose', 'withdraw'].filter((m) => this.legal.has(m)).map((m) => this.moveButton(m, null, m === 'propose' ? 'primary' : ''))));
    return box;
  }
}

// A log entry in words: the server's words when it has them (chx_describe_for,
// with the names and what the move did), else the client's own wording of
// the move with the shared catalogue's sentences; a masked entry ("hidden":
// the server left out what this seat may not see) says only what is public.
export function logWords(e, seatName, offerTo) {
  const m = e.move || '';
  if (e.text && e.text !== m) return { text: e.text, withPlayer: true };
  const s = sentence(e, seatName, offerTo);
  if (s) return { text: s, withPlayer: true };
  if (e.hidden) return { text: t(`hidden.${m.split(' ')[0]}`, { _default: m }), withPlayer: false };
  return { text: describe(m, seatName), withPlayer: false };
}

function gcd(a, b) { while (b) [a, b] = [b, a % b]; return Math.abs(a); }

// The Golden Age's own words where its decision differs (phase.ga.*, shared
// with the terminal client).
export function phaseName(phase, edition) {
  if (edition === 'golden-age' && has(`phase.ga.${phase}`)) return t(`phase.ga.${phase}`);
  return t(`phase.${phase}`, { _default: phase });
}

// The company a move is about (for a colour swatch on its button).
function companyOf(m, view) {
  if (!view) return null;
  const w = m.split(' ');
  if (!['found', 'credit', 'sell', 'keep', 'buy', 'flag', 'lose', 'give', 'ask', 'auction'].includes(w[0])) return null;
  const last = w.slice(w[0] === 'auction' ? 2 : 1).join(' ').replace(/^\d+ /, '');
  return view.companies.some((c) => c.name === last) ? last : null;
}
