// game.js: the game page. It joins a seat (or watches) over the WebSocket of
// docs/protocol.md, draws every "state" frame the server sends (board, stock
// chart, players, hand, market, stock events, log) and turns the legal moves
// of that frame into things to click. It decides no rule: every move it sends
// is one entry of the frame's "legal" list, sent with the frame's decision
// number, and the server's answer (a new state or an error frame) is shown.
import { duration, urgent } from './clock.js';
import { rematchBox } from './rematch.js';
import { h, clear } from './dom.js';
import { t, lang, has, placeName } from './i18n.js';
import { drawBoard, drawLegend } from './board.js';
import { Legal, plotMoves, parsePlay, cardName, describe, companyName, setCompanies, sentence } from './moves.js';
import { companyColor, inkOn, SEAT_COLORS, swatchSVG } from './colors.js';
import { needSession } from './account.js';
import { ChatPanel } from './chat.js';
import { prefs, togglePref, turnAlert, moneyFly } from './effects.js';
import { copyPositionButton } from './position.js';
import { FrameState } from './frames.js';
import { InviteLinks } from './invites.js';
import { citeHref } from './rules.js';
import { gameRated, endRatings } from './rated.js';
import { hintOffered, hintBox } from './analysis.js';
import { mergerInfo, flagInfo } from './merger.js';
import { installTapTips } from './tips.js';

// Phases whose decision opens a dialog over the page (the others are answered
// on the board and in the decision panel).
const DIALOG_PHASES = new Set(['bid', 'auction', 'merge', 'merge-sell', 'offer', 'respond', 'coop',
  'veilinge', 'pick', 'lose', 'event', 'found', 'credit']);

// The help text of a decision (the terminal's, the shared catalogue's
// help.*): The Golden Age's own where it words one differently.
export function helpKey(edition, phase) {
  return edition === 'golden-age' && has(`help.ga.${phase}`) ? `help.ga.${phase}` : `help.${phase}`;
}

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
    // titles shown on a tap too, on a touch screen (tips.js)
    installTapTips();
    this.build();
    if (!this.replay) this.connect();
  }

  destroy() {
    this.closed = true;
    if (this.chat && this.chat.unsub) this.chat.unsub();
    if (this.ws) this.ws.close();
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    clearInterval(this.timerTick);
    if (this.sizeWatch) this.sizeWatch.disconnect();
    document.documentElement.style.removeProperty('--decision-h');
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
    E.legend = h('details', { class: 'legend panel', id: 'legend' });
    E.live = h('div', { class: 'sr-only', id: 'live', 'aria-live': 'polite', role: 'log' });
    E.settings = h('div', { class: 'settings', id: 'settings' });
    E.settingsBox = h('details', { class: 'settings-box' }, h('summary', { 'aria-label': t('ui.settings') }, '⚙ ', t('ui.settings')), E.settings);
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
    // on a phone the panels stand in one column: a row of buttons at the
    // top (sticky) brings each into view, and the decision panel stays at
    // the bottom of the screen (style.css); its height is kept in
    // --decision-h so that what Tab reaches scrolls above it
    const go = (key, label) => h('button', { type: 'button', class: 'small', dataset: { to: key }, onclick: () => { const x = E[key]; if (x) x.scrollIntoView({ block: 'start', behavior: 'auto' }); } }, label);
    E.phoneNav = h('nav', { class: 'phone-nav', id: 'phone-nav', 'aria-label': t('nav.sections') },
      go('boardWrap', t('nav.board')), go('hand', t('nav.hand')), go('market', t('ui.market')), go('players', t('screen.players')),
      go('chart', t('screen.chart')), go('log', t('ui.log')), go('chatEl', t('chat.title')));
    if (this.sizeWatch) this.sizeWatch.disconnect();
    if (window.ResizeObserver) {
      this.sizeWatch = new ResizeObserver(() => {
        const fixed = getComputedStyle(E.decision).position === 'fixed';
        document.documentElement.style.setProperty('--decision-h', fixed ? `${E.decision.offsetHeight + 8}px` : '0px');
      });
      this.sizeWatch.observe(E.decision);
    }
    E.chatEl = this.chat.el;
    this.root.appendChild(h('div', { class: 'game-page' },
      h('div', { class: 'game-top' }, E.status, E.conn, this.replay ? null : copyPositionButton(this.game), E.settingsBox),
      this.replay ? null : E.phoneNav,
      E.live,
      E.errors,
      E.invites = h('section', { class: 'panel invites', id: 'invites', hidden: true }),
      E.layout = h('div', { class: 'game-layout', hidden: true },
        h('div', { class: 'main-col' }, E.boardWrap, E.decision, E.hand, E.market, E.legend),
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
    // ?game= lets a load balancer send every connection of a game to one
    // node; &node= is the node that plays it, when one said so ("moved",
    // docs/cluster.md)
    const q = `?game=${encodeURIComponent(this.game)}${this.node ? `&node=${encodeURIComponent(this.node)}` : ''}`;
    const ws = new WebSocket(`${proto}//${location.host}/ws${q}`);
    this.ws = ws;
    // views come as patches after the first: frames.js completes each frame
    this.frames = new FrameState((m) => { if (ws.readyState === 1) ws.send(JSON.stringify(m)); });
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
      else if (msg.type === 'moved') { this.node = msg.node; this.retry = 0; } // the server closes; we reconnect there
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
  // Everything built once (the chat's heading and field, the settings, the
  // zoom button, "Copy position") is built again in the new language, with
  // the chat's messages kept; the log's entries lose the words the server
  // wrote in the old language, so that the page words them until the server
  // sends them again (the last 50, after the join below) in the new one
  // (issue 31: a switch left the log, the chat and some buttons in the old
  // language until a reload).
  relang() {
    const chat = this.chat;
    this.build();
    this.chat.msgs = chat.msgs;
    this.chat.muted = chat.muted;
    if (chat.unsub) chat.unsub();
    this.chat.render();
    this.invites = null;
    this.invitesFor = null;
    this.chartKey = this.logKey = this.legendKey = null;
    if (this.logMap) for (const [n, e] of this.logMap) if (e.text) { const { text, ...rest } = e; this.logMap.set(n, rest); }
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
    // the view from its patch, the members a delta frame leaves out, the
    // board and card table (sent once): frames.js; null while a resync the
    // frame asked for is on its way
    frame = this.frames.receive(frame);
    if (!frame) return;
    const newDecision = frame.decision !== this.lastDecision;
    this.announce(frame);
    const wasMine = this.frame && (this.frame.legal || []).length > 0;
    this.frame = frame;
    this.lastDecision = frame.decision;
    // a move on its way stays on its way until the game moves on, or an
    // error or a lost connection says it was not taken: a frame of the same
    // decision (a seat joined, a timer, a resync) must not let it be sent
    // twice (the second would be refused as late)
    if (newDecision) {
      this.sent = false;
      this.root.classList.remove('busy');
    }
    if (newDecision) { this.levelFilter = null; this.freeFirst = null; this.dialogHidden = false; this.el.errors.hidden = true; this.closeChooser(); }
    this.render();
    // it became this seat's turn: a sound and the page's title (switchable)
    const isMine = (frame.legal || []).length > 0;
    if (isMine && !wasMine) turnAlert(true); else if (!isMine) turnAlert(false);
  }

  // The live region says what the others did, in words, for screen readers.
  announce(frame) {
    const fresh = (frame.log || []).filter((e) => e.n > (this.announcedN ?? Infinity) && e.player !== frame.seat);
    if (this.announcedN === undefined || this.announcedN === null) { this.announcedN = Math.max(-1, ...(frame.log || []).map((e) => e.n)); return; }
    for (const e of frame.log || []) this.announcedN = Math.max(this.announcedN, e.n);
    if (!fresh.length || !this.el.live) return;
    const words = fresh.slice(-3).map((e) => logWords(e, (k) => this.seatName(k)).text).join('. ');
    this.el.live.textContent = words;
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
    setMarkCompanies(v);
    this.seat = typeof f.seat === 'number' ? f.seat : -1;
    this.legal = new Legal(f.legal);
    this.myTurn = !this.legal.empty && !this.sent;
    // the state in a few attributes, for style rules and for the browser tests
    Object.assign(this.root.dataset, { decision: f.decision, phase: this.view.turn.phase, status: f.status,
      seat: this.seat, myTurn: this.myTurn ? '1' : '0' });
    const focused = document.activeElement;
    const focus = { key: focusKey(focused), value: focused && focused.tagName === 'INPUT' ? focused.value : null };
    this.renderStatus();
    this.renderInvites();
    this.renderSettings();
    this.renderBoard();
    this.renderLegend();
    this.renderDecision();
    this.renderHand();
    this.renderMarket();
    this.renderChart();
    this.renderPlayers();
    this.renderEvents();
    this.renderLog();
    this.renderDialog();
    this.restoreFocus(focus);
  }

  // Keyboard play: the panels are drawn again at every frame, which would
  // drop the focus on the page's body. The focused control is found again
  // (the same move, plot, card or field); when it is gone (its move was
  // made) and the player decides again, the focus goes to the decision's
  // heading, so Tab goes on from there instead of from the top of the page.
  // A field keeps what was typed into it (an amount, a search).
  restoreFocus({ key, value }) {
    const a = document.activeElement;
    if (a && a !== document.body && document.contains(a)) return;
    const again = key ? document.querySelector(key) : null;
    if (again && !again.disabled && (again instanceof SVGElement || again.offsetParent !== null)) {
      if (value !== null && again.tagName === 'INPUT' && again.value !== value) { again.value = value; again.dispatchEvent(new Event('input')); }
      again.focus({ preventScroll: true });
      return;
    }
    if (key && this.myTurn) {
      const head = this.el.dialog.hidden ? this.el.decision.querySelector('h2') : this.el.dialog.querySelector('input.amount, button.move:not([disabled])');
      if (head) head.focus({ preventScroll: true });
    }
  }

  // The creator's invite links while the game waits for its players
  // (invites.js): asked again whenever a seat is taken, since its link is
  // then gone; the server shows them to the creator only.
  renderInvites() {
    const f = this.frame;
    if (this.replay || this.watch || f.status !== 'waiting' || this.seat < 0) {
      this.el.invites.hidden = true;
      return;
    }
    const taken = (f.seats || []).map((s) => (s.claimed ? 1 : 0)).join('');
    if (!this.invites) this.invites = new InviteLinks(this.game, this.el.invites);
    if (this.invitesFor !== taken) { this.invitesFor = taken; this.invites.load(); }
  }

  // The game has ended: by the rules ("over"), or without a result
  // (abandoned, or aborted by a moderator: docs/protocol.md "Abandoned games").
  ended() {
    const s = this.frame && this.frame.status;
    return s === 'over' || s === 'abandoned' || s === 'aborted' || !!(this.view && this.view.turn.over);
  }

  renderStatus() {
    const f = this.frame, v = this.view;
    const E = clear(this.el.status);
    const deciders = (f.deciders || v.deciders || []).map((i) => this.seatName(i));
    const who = this.seat >= 0 ? t('ui.you_are', { name: this.seatName(this.seat) }) : t('ui.spectating');
    E.appendChild(h('span', { class: 'who' }, who));
    E.appendChild(h('span', { class: 'turn-no' }, t('ui.turn_n', { n: v.turn.number })));
    if (f.status === 'waiting') E.appendChild(h('span', { class: 'state-waiting' }, t('ui.waiting_players')));
    else if (f.status === 'abandoned' || f.status === 'aborted') E.appendChild(h('span', { class: 'state-over', id: 'state-no-result' }, t(`ui.game_${f.status}`)));
    else if (this.ended()) E.appendChild(h('span', { class: 'state-over' }, t('ui.game_over')));
    else if (this.myTurn) E.appendChild(h('span', { class: 'your-turn' }, t('ui.your_decision')));
    else if (deciders.length && !this.replay) E.appendChild(h('span', { class: 'waiting-for' }, t('ui.waiting_for', { names: deciders.join(', ') })));
    // rated or not (rated.js: the server's rule, docs/ratings.md)
    // once the server's record of a finished game is read (rated.js
    // endRatings), the status says what it recorded
    const rec = this.ratingsShown && this.ratingsShown.done && this.ratingsShown.game === this.game && !this.ratingsShown.unknown ? this.ratingsShown : null;
    const rated = rec ? { rated: rec.rated, text: t(rec.rated ? 'rated.done_yes' : 'rated.was_not') } : gameRated(f);
    E.appendChild(h('span', { class: `rated rated-${rated.rated}`, id: 'rated-note', title: rated.text }, rated.text));
    // once over, "The game is over" says it: the phase's name would repeat it
    if (!this.ended()) E.appendChild(h('span', { class: 'phase' }, phaseName(v.turn.phase, v.edition)));
    // the turn timer: seconds left before a bot stands in for the deciders
    clearInterval(this.timerTick);
    const tm = f.timer;
    // the timer is about the people who decide now: shown only when one does
    const humanDecides = (f.deciders || []).some((i) => ((f.seats || []).find((x) => x.seat === i) || {}).kind === 'human');
    if (tm && tm.seconds && tm.deadline && humanDecides) {
      const span = h('span', { class: 'timer', id: 'timer' });
      const tick = () => {
        const left = Math.max(0, Math.round((tm.deadline - Date.now()) / 1000));
        span.textContent = t('ui.timer', { time: duration(left) });
        span.classList.toggle('urgent', urgent(left, tm.seconds));
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
    // The Golden Age's two free warehouses: a click on one plot, then on a
    // second among those that make a listed pair with it
    const frees = this.myTurn ? this.legal.verb('free') : [];
    if (frees.length && this.freeFirst) {
      const pairs = frees.filter((m) => m.slice(5).split(' + ').includes(this.freeFirst));
      playable = new Set(pairs.flatMap((m) => m.slice(5).split(' + ')).filter((x) => x !== this.freeFirst));
    }
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
    const shown = this.shownLog ? movePlots(this.shownLog.move || '') : null;
    const svg = drawBoard(v, {
      playable, last: shown || this.lastPlots(), hand, fresh: fresh && !shown && prefs.anim,
      highlight: this.highlightCo || (this.shownLog ? companyOf(this.shownLog.move || '', v) : null),
      companyName, mark: (co) => companyMark(co),
      onPlot: (name) => {
        if (frees.length) { this.pickFree(name, frees); return; }
        this.choose(pm.get(name).filter((m) => !this.levelFilter || parsePlay(m).level === this.levelFilter || !m.startsWith('play')), placeName(name));
      },
    });
    if (this.freeFirst) {
      // the first free warehouse's plot, ringed until the second is chosen
      const g = svg.querySelector(`.plot[data-plot="${CSS.escape(this.freeFirst)}"]`);
      if (g) {
        const ring = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
        for (const [k, x] of Object.entries({ x: 2, y: 2, width: 44, height: 44, rx: 5, class: 'first-free' })) ring.setAttribute(k, x);
        g.appendChild(ring);
        g.classList.add('chosen');
      }
    }
    const E = clear(this.el.board);
    E.appendChild(svg);
  }

  // The first free warehouse chosen, then the second: the pair is sent.
  pickFree(plot, frees) {
    if (!this.freeFirst) {
      this.freeFirst = plot;
      this.renderBoard();
      this.renderDecision();
      return;
    }
    if (plot === this.freeFirst) { this.freeFirst = null; this.renderBoard(); this.renderDecision(); return; }
    const m = frees.find((x) => { const [a, b] = x.slice(5).split(' + '); return (a === this.freeFirst && b === plot) || (b === this.freeFirst && a === plot); });
    this.freeFirst = null;
    if (m) this.send(m);
  }

  renderLegend() {
    const E = this.el.legend;
    // drawn again only when the language or the edition changes
    const key = `${lang()}|${this.view.edition}|${this.view.companies.map((c) => c.name).join(',')}`;
    if (this.legendKey === key) return;
    this.legendKey = key;
    const open = E.open;
    clear(E);
    E.appendChild(h('summary', {}, t('legend.title')));
    E.appendChild(drawLegend(this.view, { mark: (co) => companyMark(co) }));
    const cos = h('div', { class: 'legend-companies' });
    this.view.companies.forEach((c, i) => {
      const item = h('span', { class: 'legend-company', tabindex: '0', title: companyName(c.name), dataset: { company: c.name } }, swatchSVG(c.name, i, companyMark(c.name)), companyName(c.name));
      this.hoverCompany(item, c.name);
      cos.appendChild(item);
    });
    E.appendChild(cos);
    if (this.legendOpened === undefined) { this.legendOpened = true; E.open = window.innerWidth >= 900; } else E.open = open;
  }

  // A hover, a focus or a tap on a company shows its warehouses on the board.
  hoverCompany(node, name) {
    const on = () => { if (this.highlightCo !== name) { this.highlightCo = name; this.renderBoard(); } };
    const off = () => { if (this.highlightCo === name) { this.highlightCo = null; this.renderBoard(); } };
    node.addEventListener('mouseenter', on);
    node.addEventListener('mouseleave', off);
    node.addEventListener('focus', on);
    node.addEventListener('blur', off);
    node.addEventListener('click', () => { if (this.highlightCo === name) off(); else on(); });
  }

  renderSettings() {
    const E = clear(this.el.settings);
    const box = (key, label) => h('label', {}, h('input', { type: 'checkbox', id: `pref-${key}`, checked: prefs[key], onchange: () => { togglePref(key); this.root.classList.toggle('no-anim', !prefs.anim); } }), ' ', label);
    E.appendChild(box('anim', t('ui.pref_anim')));
    E.appendChild(box('sound', t('ui.pref_sound')));
    E.appendChild(box('title', t('ui.pref_title')));
    this.root.classList.toggle('no-anim', !prefs.anim);
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
    box.addEventListener('keydown', (e) => { if (e.key === 'Escape') this.closeChooser(); });
    const first = box.querySelector('button.move');
    if (first) first.focus();
  }

  closeChooser() { this.el.chooser.hidden = true; clear(this.el.chooser); }

  moveButton(m, label, cls) {
    const co = companyOf(m, this.view);
    const b = h('button', {
      class: `move ${cls || ''}`, dataset: { move: m }, disabled: this.sent || !this.myTurn,
      onclick: () => { this.closeChooser(); this.send(m); },
    }, co ? swatchSVG(co, this.view.companies.findIndex((c) => c.name === co), companyMark(co)) : null,
    label || describe(m, (i) => this.seatName(i)), this.priceTag(m));
    const tip = this.priceTip(m);
    if (tip) b.title = tip;
    return b;
  }

  // The tooltip of a move that costs or brings money: the move in words and
  // the amount ("Buy a stock of Tea: you pay f60").
  priceTip(m) {
    const p = this.frame && this.frame.prices ? this.frame.prices[m] : undefined;
    if (!p) return null;
    return t(p > 0 ? 'tip.gain' : 'tip.cost', { move: describe(m, (i) => this.seatName(i)), amount: `f${Math.abs(p)}` });
  }

  // What a move costs or brings (the server's "prices", from the engine).
  priceTag(m) {
    const p = this.frame && this.frame.prices ? this.frame.prices[m] : undefined;
    if (p === undefined || p === null || p === 0) return null;
    return h('span', { class: `price ${p > 0 ? 'gain' : 'cost'}` }, p > 0 ? `+f${p}` : `−f${-p}`);
  }

  // Moves the board, the hand and the market do not show, as buttons.
  renderDecision() {
    const E = clear(this.el.decision);
    const v = this.view;
    const phase = v.turn.phase;
    this.el.decision.hidden = false;
    // an abandoned game ends too: its end screen offers the rematch
    if (this.ended()) {
      // the end screen comes first, above the board
      if (this.el.boardWrap.previousSibling !== this.el.decision) this.el.boardWrap.before(this.el.decision);
      E.appendChild(this.resultBox());
      return;
    }
    if (this.replay) { this.el.decision.hidden = true; return; }
    if (!this.myTurn) {
      E.appendChild(h('p', { class: 'prompt' }, this.sent ? t('ui.sending') : this.seat < 0 ? t('ui.watching') : t('ui.not_your_turn')));
      return;
    }
    E.appendChild(h('h2', { tabindex: '-1' }, this.prompt(phase)));
    E.appendChild(this.ruleRef(phase));
    // a hint from the bot, in unrated games against bots and the tutorial
    // (analysis.js; the server refuses it in rated games)
    if (hintOffered(this)) E.appendChild(hintBox(this, (m) => describe(m, (i) => this.seatName(i))));
    if (DIALOG_PHASES.has(phase)) {
      E.appendChild(h('button', { class: 'primary', id: 'open-dialog', onclick: () => { this.dialogHidden = false; this.renderDialog(); } }, t('ui.open_dialog')));
      return;
    }
    // (a dialog's decision shows its help in the dialog)
    E.appendChild(this.decisionHelp(phase));
    // The Golden Age's flags: what one is, costs and scores, where one can be bought
    const flags = flagInfo(this);
    if (flags) E.appendChild(flags);
    const handled = new Set(['play', 'take', 'draw', 'refresh', 'free']);
    const pm = plotMoves(this.legal);
    if (pm.size) E.appendChild(h('p', { class: 'hint' }, this.legal.verb('free').length ? (this.freeFirst ? t('ui.hint_free_second', { plot: placeName(this.freeFirst) }) : t('ui.hint_free_first')) : t('ui.hint_board')));
    if (this.legal.verb('take').length || this.legal.verb('draw').length) E.appendChild(h('p', { class: 'hint' }, t('ui.hint_market')));
    const rest = this.legal.otherVerbs(handled);
    E.appendChild(this.buttonGroups(rest));
    E.appendChild(this.rangeControls());
  }

  // The rulebook's section behind a decision, named as the rulebook in the
  // page's language names it (the shared catalogue's section.*, which the
  // terminal's help cites too).
  ruleRef(phase) {
    const ga = this.view.edition === 'golden-age' && has(`section.ga.${phase}`) ? `section.ga.${phase}` : `section.${phase}`;
    if (!has(ga)) return null;
    const text = t(this.view.edition === 'golden-age' ? 'ui.rule_ref_ga' : 'ui.rule_ref', { section: t(ga) });
    // a link to that section of the rules page (rules.js), in a new tab so
    // that the game stays open
    const href = citeHref(this.view.edition, phase);
    return h('p', { class: 'rule-ref small muted' }, href ? h('a', { href, target: '_blank', rel: 'noopener', dataset: { phase } }, text) : text);
  }

  // What a decision is about (the terminal's help text for it, the shared
  // catalogue's help.*) and what each choice costs or brings (the server's
  // prices, from the engine): the dearest and the best paid first, a few
  // of them, since every button and plot also shows its own amount.
  decisionHelp(phase) {
    const key = helpKey(this.view.edition, phase);
    const box = h('div', { class: 'decision-help', id: 'decision-help' });
    if (has(key)) box.appendChild(h('p', { class: 'small', id: 'help-text', dataset: { key } }, t(key)));
    const prices = (this.frame && this.frame.prices) || {};
    const priced = this.legal.moves.filter((m) => prices[m]).sort((a, b) => Math.abs(prices[b]) - Math.abs(prices[a]));
    if (priced.length) {
      const shown = priced.slice(0, 6);
      box.appendChild(h('p', { class: 'small prices-head' }, t('choice.prices_head')));
      box.appendChild(h('ul', { class: 'choice-prices small', id: 'choice-prices' }, shown.map((m) => h('li', { dataset: { move: m } },
        describe(m, (i) => this.seatName(i)), ': ', this.priceTag(m), ' ', h('span', { class: 'muted' }, prices[m] > 0 ? t('choice.you_receive') : t('choice.you_pay'))))));
      if (priced.length > shown.length) box.appendChild(h('p', { class: 'small muted' }, t('choice.more_prices', { n: priced.length - shown.length })));
    }
    return box;
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
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); btn.click(); } });
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
    // the limits and the step, and quick picks of the lowest and highest
    const quick = h('div', { class: 'quick' },
      h('button', { class: 'small', onclick: () => { input.value = lo; } }, t('ui.lowest', { amount: `f${lo}` })),
      h('button', { class: 'small', onclick: () => { input.value = hi; } }, t('ui.highest', { amount: `f${hi}` })));
    return h('div', { class: 'amount-row' },
      h('label', { for: `amount-${prefix}` }, label || t(`amount_label.${prefix}`, { _default: prefix }), ' ',
        h('span', { class: 'range-note', id: `range-${prefix}` }, t('ui.range_step', { lo: `f${lo}`, hi: `f${hi}`, step: `f${step}` }))),
      h('div', { class: 'amount-controls' }, h('span', { class: 'fl' }, 'f'), input, btn), quick);
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
        class: `card${isLevel ? ' level' : ' plotcard'}${moves.length ? ' playable' : ''}${this.levelFilter === name ? ' selected' : ''}`,
        dataset: { card: name }, disabled: !moves.length,
        onclick: () => {
          if (isLevel) { this.levelFilter = this.levelFilter === name ? null : name; this.render(); }
          else this.choose(moves, name);
        },
      }, isLevel ? h('span', { class: 'lvl' }, name) : cardFace(name));
      if (!isLevel) card.setAttribute('aria-label', placeName(name));
      card.title = cardTip(name);
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
        class: `card${/^L\d$/.test(name) ? ' level' : ' plotcard'}${ok ? ' playable' : ''}`, dataset: ok ? { move: mv } : { card: name },
        disabled: !ok, title: ok ? `${this.priceTip(mv) || describe(mv)}. ${cardTip(name)}` : cardTip(name), 'aria-label': ok ? describe(mv) : placeName(name), onclick: () => this.send(mv),
      }, /^L\d$/.test(name) ? h('span', { class: 'lvl' }, name) : cardFace(name), ok ? this.priceTag(mv) : null));
    }
    E.appendChild(row);
    const btns = h('div', { class: 'move-group' });
    // The Golden Age's printed rules: the event cards' backs differ, so every
    // player sees whether the top card of the deck is one (docs/rules.md,
    // Ruling G-07; the view's piles.deck_top_event, absent when not seen)
    if (typeof p.deck_top_event === 'boolean') {
      const what = t(p.deck_top_event ? 'ui.deck_top_event' : 'ui.deck_top_building');
      btns.appendChild(h('span', {
        class: `card deck-back ${p.deck_top_event ? 'event-back' : 'building-back'}`, id: 'deck-top',
        role: 'img', title: what, 'aria-label': what, dataset: { top: p.deck_top_event ? 'event' : 'building' },
      }, what));
    }
    for (const m of ['draw', 'refresh']) if (this.myTurn && this.legal.has(m)) btns.appendChild(this.moveButton(m));
    E.appendChild(btns);
    const info = [t('ui.deck_count', { n: p.deck_count ?? '?' }), t('ui.discard_count', { n: (p.discard || []).length })];
    if (v.edition === 'amsterdam') info.push(t('ui.reserve_count', { n: p.reserve_count ?? 0 }));
    if (p.discard && p.discard.length) info.push(t('ui.discard_top', { card: placeName(cardName(p.discard[p.discard.length - 1])) }));
    E.appendChild(h('p', { class: 'muted small' }, info.join(' · ')));
  }

  renderChart() {
    const v = this.view;
    // drawn again only when a value, a bank or a flag changes, or the language
    const key = `${lang()}|${v.companies.map((c) => `${c.name}:${c.on_chart}:${c.value}:${c.bank}:${c.flag}`).join(',')}|${(this.frame.seats || []).map((x) => x.name).join(',')}`;
    if (key === this.chartKey && this.el.chart.firstChild) return;
    this.chartKey = key;
    const E = clear(this.el.chart);
    E.appendChild(h('h3', {}, t('screen.chart')));
    const max = v.edition === 'amsterdam' ? 300 : Math.max(300, ...v.companies.map((c) => c.value));
    E.appendChild(stockChart(v, max));
    const list = h('div', { class: 'chart-rows' });
    v.companies.forEach((c, i) => {
      const col = companyColor(c.name, i);
      const pct = c.on_chart ? Math.max(3, Math.round(100 * c.value / max)) : 0;
      const row = h('div', { class: `chart-row${c.on_chart ? '' : ' off'}`, dataset: { company: c.name }, tabindex: '0',
        title: c.on_chart ? t('tip.company', { company: companyName(c.name), value: `f${c.value}`, n: c.bank }) : t('tip.company_off', { company: companyName(c.name), n: c.bank }) },
        h('span', { class: 'co-name' }, swatchSVG(c.name, i, companyMark(c.name)), companyName(c.name)),
        h('span', { class: 'bar' }, h('span', { class: 'fill', style: { width: `${pct}%`, background: col } })),
        h('span', { class: 'value' }, c.on_chart ? `f${c.value}` : t('ui.off_chart')),
        h('span', { class: 'bank', title: t('ui.bank_stocks') }, t('screen.bank', { n: c.bank })),
        c.flag !== null && c.flag !== undefined ? h('span', { class: 'flag', title: t('ui.flag_of', { name: this.seatName(c.flag) }) }, '⚑', this.seatName(c.flag)) : null);
      this.hoverCompany(row, c.name);
      list.appendChild(row);
    });
    E.appendChild(list);
  }

  renderPlayers() {
    const E = clear(this.el.players);
    const v = this.view, f = this.frame;
    // cash as last drawn, for the money animation (a redraw without a
    // change, such as a language change or a reconnect, shows none)
    const before = this.cashShown || [];
    this.cashShown = v.players.map((p) => p.cash);
    E.appendChild(h('h3', {}, t('screen.players')));
    const deciders = new Set(f.deciders || v.deciders || []);
    v.players.forEach((p, i) => {
      const seatInfo = (f.seats || []).find((s) => s.seat === i) || {};
      const tags = [];
      if (i === this.seat) tags.push(h('span', { class: 'tag you' }, t('ui.you')));
      if (seatInfo.kind === 'bot') tags.push(h('span', { class: 'tag bot' }, t('ui.bot_tag', { bot: seatInfo.bot || '' })));
      if (seatInfo.guest) tags.push(h('span', { class: 'tag guest' }, t('ui.guest_tag')));
      if (seatInfo.hints) tags.push(h('span', { class: 'tag hinted', title: t('hint.used_title') }, t('hint.used_n', { n: seatInfo.hints })));
      if (seatInfo.kind === 'human' && seatInfo.connected === false && !this.replay) tags.push(h('span', { class: 'tag off' }, t('ui.offline')));
      if (seatInfo.away && !this.replay) tags.push(h('span', { class: 'tag off' }, t('ui.away')));
      if (deciders.has(i)) tags.push(h('span', { class: 'tag deciding' }, t('ui.deciding')));
      if (v.turn.active === i && !this.ended()) tags.push(h('span', { class: 'tag active' }, t('ui.active')));
      const stocks = p.stocks ? Object.entries(p.stocks).filter(([, n]) => n > 0)
        .map(([co, n]) => { const ci = v.companies.findIndex((c) => c.name === co); const cv = (v.companies[ci] || {}).value || 0; const chip = h('span', { class: 'stock', tabindex: '0', title: t('tip.holding', { n, company: companyName(co), value: `f${cv}`, worth: `f${n * cv}` }), dataset: { company: co }, style: { background: companyColor(co, ci), color: inkOn(companyColor(co, ci)) } }, `${companyMark(co)} ${companyName(co)} ×${n}`); this.hoverCompany(chip, co); return chip; })
        : [h('span', { class: 'muted' }, t('ui.stocks_hidden'))];
      const facts = [t('ui.cash', { n: p.cash }), t('ui.hand_count', { n: p.hand_count ?? (p.hand || []).length })];
      // action cards, broken roofs and flags: what they are, in a title
      // (hover, or a tap on a touch screen)
      if (v.edition === 'amsterdam') {
        facts.push(h('span', { class: 'fact-tip', title: t('tip.action_cards') }, t('ui.action_cards', { n: p.action_cards })));
        if (p.roofs) facts.push(h('span', { class: 'fact-tip', title: t('tip.roofs') }, t('ui.roofs', { n: p.roofs })));
      } else facts.push(h('span', { class: 'fact-tip', title: t('flag.what') }, t('ui.flags_left', { n: p.flags })));
      if (p.extra_turn_pending) facts.push(t('screen.extra_turn'));
      const bid = v.event && v.event.bids && (v.event.bids_revealed || i === this.seat) && v.event.kind && (v.event.bidders || []).includes(i) ? v.event.bids[i] : null;
      if (bid !== null && bid !== undefined) facts.push(t('ui.bid_is', { n: bid }));
      const known = (p.known || []).filter((c) => i !== this.seat);
      E.appendChild(h('div', { class: `player${deciders.has(i) ? ' deciding' : ''}`, dataset: { seat: i } },
        h('div', { class: 'pname' }, h('span', { class: 'dot', style: { background: SEAT_COLORS[i % SEAT_COLORS.length] } }), this.seatName(i), ...tags),
        h('div', { class: 'facts' }, facts.flatMap((x, k) => (k ? [' · ', x] : [x]))),
        h('div', { class: 'stocks' }, stocks.length ? stocks : h('span', { class: 'muted' }, t('ui.no_stocks'))),
        known.length ? h('div', { class: 'known small muted' }, t('ui.known_cards', { cards: known.map((c) => placeName(cardName(c))).join(', ') })) : null));
    });
    if (before.length === v.players.length && !this.replay) {
      v.players.forEach((p, i) => { if (before[i] !== undefined && p.cash !== before[i]) moneyFly(E.querySelector(`.player[data-seat="${i}"] .facts`), p.cash - before[i]); });
    }
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
    if (v.event && v.event.kind) E.appendChild(h('p', { title: t(`event_help.${v.event.kind}`, { _default: v.event.kind }) }, t('ui.event_now', { event: v.event.kind })));
  }

  renderLog() {
    // drawn again only when an entry, the language or the shown line changes
    const entriesKey = `${lang()}|${this.logMap ? this.logMap.size : 0}|${this.frame.last ? this.frame.last.n : ''}|${this.shownLog ? this.shownLog.n : ''}`;
    if (entriesKey === this.logKey && this.el.log.firstChild) return;
    this.logKey = entriesKey;
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
      const li = h('li', { value: e.n + 1, tabindex: '0', dataset: { n: e.n, move: e.move || '' }, class: `${this.frame.last && this.frame.last.n === e.n ? 'last' : ''}${this.shownLog && this.shownLog.n === e.n ? ' shown' : ''}` },
        who ? h('b', {}, who, ': ') : null, w.text);
      // a click (or Enter) on a move shows on the board what it changed
      const show = () => { this.shownLog = this.shownLog && this.shownLog.n === e.n ? null : e; this.renderBoard(); list.querySelectorAll('li.shown').forEach((x) => x.classList.remove('shown')); if (this.shownLog) li.classList.add('shown'); };
      li.addEventListener('click', show);
      li.addEventListener('keydown', (ev) => { if (ev.key === 'Enter') { ev.preventDefault(); show(); } });
      list.appendChild(li);
    });
    E.appendChild(list);
    list.scrollTop = list.scrollHeight;
  }

  resultBox() {
    const r = this.frame.result;
    if (this.frame.status === 'abandoned' || this.frame.status === 'aborted') {
      // ended with nobody at the table, or by a moderator (docs/moderation.md):
      // no result, no winner, not rated (docs/protocol.md, "Abandoned games");
      // the same people may play again
      const ab = this.frame.status === 'aborted' ? 'aborted' : 'abandoned';
      const box = h('div', { class: 'result endscreen', id: 'result' }, h('h2', {}, t(`ui.game_${ab}`)),
        h('p', { class: 'small', id: `end-${ab}` }, t(`ui.game_${ab}_note`)));
      const rematch = rematchBox(this);
      if (rematch) box.appendChild(rematch);
      return box;
    }
    const box = h('div', { class: 'result endscreen', id: 'result' }, h('h2', {}, t('ui.game_over')));
    if (r && r.parts) box.appendChild(this.endTable(r));
    else if (r && r.scores) {
      const winners = new Set(r.winners || []);
      box.appendChild(h('ol', { class: 'scores' }, r.scores.map((s, i) => [s, i]).sort((a, b) => b[0] - a[0]).map(([s, i]) =>
        h('li', { class: winners.has(i) ? 'winner' : '' }, `${this.seatName(i)}: f${s}`, winners.has(i) ? ` — ${t('ui.winner')}` : ''))));
    }
    // (once the server's record is read, endRatings says it instead)
    const recorded = this.ratingsShown && this.ratingsShown.done && this.ratingsShown.game === this.game && !this.ratingsShown.unknown;
    if (!recorded) box.appendChild(h('p', { class: 'small', id: 'end-rated' }, gameRated(this.frame).text));
    // rated or not as the server recorded it, and each rating's change
    const changes = endRatings(this, () => { if (this.frame && (this.frame.status === 'over' || this.view.turn.over)) { this.renderStatus(); this.renderDecision(); } });
    if (changes) box.appendChild(changes);
    if (!this.replay) box.appendChild(h('a', { href: `#/replay/${this.game}`, class: 'button', id: 'open-replay' }, t('ui.open_replay')));
    const rematch = rematchBox(this);
    if (rematch) box.appendChild(rematch);
    return box;
  }

  // The end-of-game table: the engine's breakdown of every score (the
  // result's "parts": cash, each holding at its final value, The Golden
  // Age's flags and fine, total, rank); the page only lays it out.
  endTable(r) {
    const ga = this.view.edition === 'golden-age';
    const order = r.parts.map((p, i) => [p, i]).sort((a, b) => a[0].rank - b[0].rank || a[1] - b[1]);
    const ranks = r.parts.map((p) => p.rank);
    const head = [t('end.rank'), t('end.player'), t('end.cash'), t('end.holdings')];
    if (ga) head.push(t('end.flags'), t('end.fine'));
    head.push(t('end.total'));
    const holding = (x) => h('span', { class: 'holding' }, swatchSVG(x.company, this.view.companies.findIndex((c) => c.name === x.company), companyMark(x.company)), ' ',
      x.value ? t('end.holding', { n: x.stocks, company: companyName(x.company), value: `f${x.value}`, worth: `f${x.worth}` })
        : t('end.holding_off', { n: x.stocks, company: companyName(x.company) }));
    const rows = order.map(([p, i]) => {
      const tied = ranks.filter((k) => k === p.rank).length > 1;
      const stocks = p.holdings.filter((x) => x.stocks > 0);
      const flags = p.holdings.filter((x) => x.flag > 0);
      const cells = [
        h('td', { class: 'rank' }, `${p.rank}${tied ? '=' : ''}`),
        h('td', {}, this.seatName(i), p.rank === 1 ? ` — ${t('ui.winner')}` : '', tied ? h('div', { class: 'small muted' }, t('end.tied')) : null),
        h('td', {}, `f${p.cash}`),
        h('td', {}, stocks.length ? stocks.map(holding) : '—'),
      ];
      if (ga) {
        cells.push(h('td', {}, flags.length ? flags.map((x) => h('span', { class: 'holding' }, t('end.flag', { company: companyName(x.company), worth: `f${x.flag}` }))) : '—'));
        cells.push(h('td', {}, p.fine ? t('end.fine_n', { n: p.hand, amount: `f${p.fine}` }) : '—'));
      }
      cells.push(h('td', { class: 'total' }, h('b', {}, `f${p.total}`)));
      return h('tr', { class: p.rank === 1 ? 'winner' : '', dataset: { seat: i } }, cells);
    });
    const wrap = h('div', { class: 'table-wrap' }, h('table', { id: 'end-table' }, h('thead', {}, h('tr', {}, head.map((x) => h('th', {}, x)))), h('tbody', {}, rows)));
    const winners = (r.winners || []).map((i) => this.seatName(i));
    return h('div', {}, h('p', { class: 'end-summary' }, winners.length > 1 ? t('end.shared_win', { names: winners.join(', ') }) : t('end.win', { name: winners[0] || '—' })), wrap,
      // the tie-break is said only when it decided something: two players
      // with equal money (docs/rules.md; rule of the rulebook's "Game end")
      !ga && r.parts.some((p, i) => r.parts.some((q, j) => j !== i && q.total === p.total)) ? h('p', { class: 'small muted', id: 'tiebreak-note' }, t('end.tiebreak_ba')) : null);
  }

  // ---- dialogs --------------------------------------------------------
  renderDialog() {
    const D = this.el.dialog;
    const v = this.view;
    const phase = v.turn.phase;
    if (!this.myTurn || !DIALOG_PHASES.has(phase) || this.dialogHidden || this.ended()) {
      D.hidden = true; clear(D); return;
    }
    clear(D);
    const body = h('div', { class: 'dialog-body' });
    const box = h('div', { class: `dialog phase-${phase}`, role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'dialog-title' },
      h('div', { class: 'dialog-head' },
        h('h2', { id: 'dialog-title' }, this.prompt(phase)),
        h('button', { class: 'secondary small', id: 'hide-dialog', onclick: () => { this.dialogHidden = true; this.renderDialog(); } }, t('ui.show_board'))),
      this.ruleRef(phase), this.decisionHelp(phase), body);
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
        if (look.length) body.appendChild(h('p', {}, t('dlg.look', { cards: look.map((c) => placeName(cardName(c))).join(', ') })));
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

  // A merger explained (merger.js): who absorbs whom, the survivor's value,
  // the builder's payout and when, each holder's sell and keep.
  mergerInfo() { return mergerInfo(this); }

  // helpers for merger.js: a company's mark, a move in words
  mark(co) { return companyMark(co); }
  describeMove(m) { return describe(m, (i) => this.seatName(i)); }

  offerSide(side) {
    const o = this.view.event.offer[side];
    const parts = [];
    for (const c of o.cards || []) parts.push(placeName(cardName(c)));
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

  // The cards of an offer: grouped (cards the partner is known to hold
  // first, then by district, level cards last) with a search field that
  // narrows every group, so a long list stays short to read.
  cardPicker(verb, moves) {
    const v = this.view;
    const partner = v.event && v.event.offer ? v.event.offer.to : null;
    const known = new Set(verb === 'ask' && partner !== null && partner !== undefined ? (v.players[partner].known || []).map(cardName) : []);
    const groups = new Map();
    const add = (k, m) => { if (!groups.has(k)) groups.set(k, []); groups.get(k).push(m); };
    for (const m of moves) {
      const c = m.slice(verb.length + 1);
      if (known.has(c)) add(t('dlg.group_known'), m);
      else if (/^L\d$/.test(c)) add(t('dlg.group_levels'), m);
      else { const pl = placeName(c); const d = pl.includes(' ') ? pl.slice(0, pl.lastIndexOf(' ')) : t('dlg.group_lots'); add(d, m); }
    }
    const search = h('input', { type: 'search', class: 'offer-search', id: `search-${verb}`, placeholder: t('dlg.search_cards'), 'aria-label': t('dlg.search_cards') });
    const body = h('div', { class: 'card-groups' });
    for (const [name, ms] of groups) {
      body.appendChild(h('div', { class: 'offer-group' }, h('h5', {}, name),
        h('div', { class: 'move-group cards-list' }, ms.map((m) => { const b = this.moveButton(m, placeName(m.slice(verb.length + 1)), 'small card-btn'); b.dataset.words = placeName(m.slice(verb.length + 1)).toLowerCase(); return b; }))));
    }
    search.addEventListener('input', () => {
      const q = search.value.trim().toLowerCase();
      body.querySelectorAll('.offer-group').forEach((g) => {
        let any = false;
        g.querySelectorAll('button').forEach((b) => { const ok = !q || b.dataset.words.includes(q) || b.dataset.move.toLowerCase().includes(q); b.hidden = !ok; any = any || ok; });
        g.hidden = !any;
      });
    });
    return h('div', { class: 'card-picker' }, moves.length > 8 ? search : null, body);
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
        cards.length ? this.cardPicker(verb, cards) : null,
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

// The plots a move changed, for the board's highlight of a log entry.
function movePlots(m) {
  const set = new Set();
  if (m.startsWith('play ')) { const p = parsePlay(m); set.add(p.plot); if (p.plot2) set.add(p.plot2); }
  else if (m.startsWith('hq ')) set.add(m.slice(3));
  else if (m.startsWith('free ')) m.slice(5).split(' + ').forEach((x) => set.add(x));
  return set.size ? set : null;
}

// A company's short mark, shown on its buildings and swatches beside its
// colour and pattern: the first two letters of its name in the page's
// language (one in Japanese), unique among the edition's companies: where
// another company's name starts alike (Silver and Silk: "Si"), the first
// letter and the first letter where the two names differ ("Sv", "Sk";
// issue 31).
const marks = new Map();
let markNames = [];
export function setMarkCompanies(view) {
  const names = view && view.companies ? view.companies.map((c) => c.name) : [];
  if (names.join('|') !== markNames.join('|')) { markNames = names; marks.clear(); }
}
function plainMark(full, n) {
  const m = [...full.replace(/\s+/g, '')].slice(0, n).join('');
  return m.charAt(0).toUpperCase() + m.slice(1);
}
export function companyMark(name) {
  const full = companyName(name);
  const key = `${lang()}|${full}`;
  if (marks.has(key)) return marks.get(key);
  const n = lang() === 'ja' ? 1 : 2;
  let m = plainMark(full, n);
  const others = markNames.map(companyName).filter((o) => o !== full && plainMark(o, n) === m);
  if (others.length) {
    const a = [...full.replace(/\s+/g, '')];
    let at = 1;
    while (at < a.length && others.some((o) => [...o.replace(/\s+/g, '')][at] === a[at])) at++;
    if (at < a.length) m = a[0].toUpperCase() + a[at].toLowerCase();
  }
  marks.set(key, m);
  return m;
}

// The stock chart, drawn: one column per company from f0 up to its value,
// in its colour and pattern, with grid lines every f50 and the value on top.
function stockChart(v, max) {
  const NS = 'http://www.w3.org/2000/svg';
  const n = v.companies.length, W = 34 * n + 24, H = 110, top = 10, bottom = 14;
  const y = (val) => H - bottom - (H - bottom - top) * Math.min(val, max) / max;
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'stock-chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', v.companies.map((c) => `${companyName(c.name)} ${c.on_chart ? 'f' + c.value : '—'}`).join(', '));
  const mk = (tag, attrs, text) => { const e = document.createElementNS(NS, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); if (text !== undefined) e.textContent = text; svg.appendChild(e); return e; };
  for (let val = 0; val <= max; val += 50) {
    mk('line', { x1: 20, x2: W, y1: y(val), y2: y(val), class: 'grid' });
    mk('text', { x: 1, y: y(val) + 3, class: 'axis' }, String(val));
  }
  v.companies.forEach((c, i) => {
    const x = 28 + 34 * i, col = companyColor(c.name, i);
    if (c.on_chart) {
      mk('rect', { x, y: y(c.value), width: 22, height: H - bottom - y(c.value), fill: col, class: 'co-bar' });
      if (i % 9) mk('rect', { x, y: y(c.value), width: 22, height: H - bottom - y(c.value), fill: `url(#pat-${i})`, class: 'co-pat' });
      mk('text', { x: x + 11, y: y(c.value) - 2, class: 'co-val', 'text-anchor': 'middle' }, String(c.value));
    }
    mk('text', { x: x + 11, y: H - 3, class: 'axis', 'text-anchor': 'middle' }, companyMark(c.name));
  });
  return svg;
}

// What a card is, for its title: a building card builds on its plot; a
// level card N builds level N on a warehouse of level N-1 and adds 10 x N
// to its company (Building Amsterdam "Level cards"; The Golden Age "Level
// cards": "the number of the level times ten").
function cardTip(name) {
  const lv = /^L(\d)$/.exec(name);
  if (lv) return t('tip.level_card', { level: name, n: +lv[1], prev: +lv[1] - 1, value: `f${10 * +lv[1]}` });
  return t('tip.plot_card', { plot: placeName(name) });
}

// A building card's face: its district small, its lot large.
function cardFace(name) {
  const pl = placeName(name);
  const cut = pl.lastIndexOf(' ');
  if (cut < 0) return h('span', { class: 'card-lot' }, pl);
  return [h('span', { class: 'card-district' }, pl.slice(0, cut)), h('span', { class: 'card-lot' }, pl.slice(cut + 1))];
}

// A selector that finds a focused control again after the page is drawn
// anew (restoreFocus), or null.
function focusKey(el) {
  if (!el || el === document.body || !el.closest) return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  const scope = el.closest('#chooser') ? '#chooser ' : el.closest('#dialog') ? '#dialog ' : '';
  if (el.dataset && el.dataset.move) return `${scope}[data-move="${CSS.escape(el.dataset.move)}"]`;
  if (el.dataset && el.dataset.plot) return `#board .plot.playable[data-plot="${CSS.escape(el.dataset.plot)}"]`;
  if (el.dataset && el.dataset.card) return `#hand [data-card="${CSS.escape(el.dataset.card)}"]`;
  if (el.dataset && el.dataset.company) return `${el.classList.contains('chart-row') ? '.chart-row' : '[data-company]'}[data-company="${CSS.escape(el.dataset.company)}"]`;
  return null;
}
