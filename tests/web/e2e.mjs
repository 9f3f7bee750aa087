// e2e.mjs: the browser end-to-end test of the web client (web/), run by
// tests/web/run.sh against a real `chartered serve`. Playwright drives
// Debian's chromium headless. Two browser contexts (two people) create and
// join a Building Amsterdam game with two bots from the lobby, and play it to
// the end through clicks only: every move is a click on a highlighted plot, a
// move button, a market card, or an amount typed into a dialog's field and
// sent with its button. The click policy steers the game into a merger, a
// sealed bid and a trade between the two people, and the test checks from
// the game's log (the replay API) that each happened. On the way: a reload
// that must get the seat back, a wrong token that must show the server's
// error, a language switch, a phone-sized screen, the replay viewer.
// Screenshots go to $CH_ARTIFACTS.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';

const BASE = process.env.CH_BASE;
const ART = process.env.CH_ARTIFACTS || path.join(process.cwd(), 'artifacts');
const SEED = Number(process.env.CH_SEED || 11);
const LIMIT_MS = Number(process.env.CH_TIME_LIMIT_MS || 300000);
if (!BASE) { console.error('CH_BASE (the server address) is not set'); process.exit(2); }
fs.mkdirSync(ART, { recursive: true });

const started = Date.now();
let rngState = SEED * 2654435761 % 4294967296 || 1;
function rand() { rngState ^= rngState << 13; rngState >>>= 0; rngState ^= rngState >>> 17; rngState ^= rngState << 5; rngState >>>= 0; return rngState / 4294967296; }
function pick(list) { return list[Math.floor(rand() * list.length)]; }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const failures = [];
function check(ok, what) { console.log(`${ok ? 'ok' : 'FAIL'} - ${what}`); if (!ok) failures.push(what); }
async function shot(page, name) { await page.screenshot({ path: path.join(ART, `${name}.png`), fullPage: false }); }

// Playwright starts chromium with a fresh temporary profile (--user-data-dir)
// of its own, and every context below is a separate, empty browser profile.
const browser = await chromium.launch({
  executablePath: process.env.CH_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--disable-dev-shm-usage'],
});
const pageErrors = [];
async function newPage(opts, label) {
  // bypassCSP: Playwright's waitForFunction runs its predicate through eval() in
  // the page, which the server's Content-Security-Policy (script-src 'self')
  // refuses; invites.mjs runs the pages under the policy.
  const ctx = await browser.newContext(Object.assign({ viewport: { width: 1280, height: 900 }, locale: 'en-US', bypassCSP: true }, opts || {}));
  const page = await ctx.newPage();
  // every view patch is checked against a whole view at random points (web/js/frames.js)
  await ctx.addInitScript(() => { try { localStorage.setItem('chartered.deltaCheck', '1'); } catch (e) { /* none */ } });
  page.on('pageerror', (e) => { pageErrors.push(`${label}: ${e.message}`); console.log(`pageerror ${label}: ${e.message}`); });
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 404/.test(m.text())) console.log(`console ${label}: ${m.text()}`); });
  return page;
}

try {
  // ---- the lobby: create a game with two people and two bots ----------
  const A = await newPage({}, 'A');
  const B = await newPage({ locale: 'nl-NL' }, 'B');
  // (Guests: accounts.mjs, run before on the same server, signs up anke and
  // bram, and a guest may not take an account's name: docs/identity.md.)
  // Anouk creates the game in the lobby and takes her seat by its link; Bas
  // joins the open game from the lobby's list. Returns the game's id.
  async function newGame(attempt) {
    await A.goto(`${BASE}/#/`);
    await A.waitForSelector('#create-form');
    await A.selectOption('#edition', 'amsterdam');
    await A.selectOption('#players', '4');
    await A.fill('#seed', String(SEED + attempt));
    const rows = A.locator('.seat-row');
    await rows.nth(0).locator('.seat-name').fill('Anouk');
    await rows.nth(1).locator('.seat-kind').selectOption('human');
    await rows.nth(1).locator('.seat-name').fill('Bas');
    await rows.nth(2).locator('.seat-bot').selectOption('greedy');
    await rows.nth(3).locator('.seat-bot').selectOption('random');
    if (attempt === 0) await shot(A, '01-lobby');
    await A.click('#create');
    await A.waitForSelector('#created');
    const linkA = await A.locator('#created li[data-seat="0"] input.link').inputValue();
    const gameId = (/#\/play\/([^/]+)/.exec(linkA) || [])[1];
    check(!!gameId, `the lobby shows seat links (${linkA})`);
    if (attempt === 0) {
      await shot(A, '02-created');
      // a wrong token: the server's error frame is shown to the user
      const E = await newPage({}, 'E');
      await E.goto(`${BASE}/#/play/${gameId}/00000000000000000000000000000000`);
      // an invite link without a session asks for one first (a guest here)
      await E.fill('#session-name', 'Eve', { timeout: 10000 });
      await E.click('#session-submit');
      const banner = await E.waitForSelector('#error-banner:not([hidden])', { timeout: 10000 }).then(() => E.textContent('#error-banner')).catch(() => '');
      check(/token|seat/i.test(banner), `a wrong token shows the server's error: "${banner.trim()}"`);
      await shot(E, '03-bad-token');
      await E.context().close();
    }
    await A.goto(linkA);
    await B.goto(`${BASE}/#/`);
    await B.waitForSelector(`#games-list .game-row[data-game="${gameId}"] button.join[data-seat="1"]`, { timeout: 15000 });
    // the first time Bas has no session and names the guest he joins as; in
    // a later game his guest session is already there and the lobby says so
    if (attempt === 0) await B.fill('#join-name', 'Bas');
    else await B.waitForSelector('#joining-as', { timeout: 10000 });
    await B.click(`#games-list .game-row[data-game="${gameId}"] button.join[data-seat="1"]`);
    await B.waitForFunction(() => location.hash.startsWith('#/play/'));
    for (const p of [A, B]) await p.waitForSelector('#app[data-status="playing"]', { timeout: 20000 });
    check(true, `both people joined game ${gameId} and it started`);
    return gameId;
  }
  let gameId = await newGame(0);
  check(await A.evaluate(() => document.compatMode) === 'CSS1Compat', 'the page renders in standards mode');
  const linkB = await B.evaluate(() => location.href);
  check(await B.evaluate(() => document.documentElement.lang) === 'nl', 'a Dutch browser gets the Dutch page');
  await shot(A, '04-start-anke');
  await shot(B, '05-start-bram-nl');
  // Bas switches to Japanese with the language picker, and to English
  await B.selectOption('#lang', 'ja');
  await B.waitForFunction(() => document.querySelector('#nav-lobby').textContent === 'ロビー');
  await shot(B, '06-bram-ja');
  await B.selectOption('#lang', 'en');
  await B.waitForFunction(() => document.querySelector('#nav-lobby').textContent === 'Lobby');
  check(true, 'the language picker switches between Dutch, Japanese and English');

  // ---- play to the end, by clicks ------------------------------------
  const people = [{ page: A, seat: 0, name: 'Anouk' }, { page: B, seat: 1, name: 'Bas' }];
  const goal = { trade: false, bid: false };
  const shots = new Set();
  let reloaded = false, watched = false, phoneDone = false, restarted = !process.env.CH_SERVER_CMD, moves = 0, lastProgress = Date.now(), lastDecision = -1;

  async function info(page) {
    return page.evaluate(() => {
      const app = document.querySelector('#app');
      if (!document.querySelector('.game-page') || !app.dataset.status) return null;
      const vis = (e) => e && !e.closest('[hidden]') && e.offsetParent !== null;
      const moveBtns = (sel) => [...document.querySelectorAll(`${sel} button[data-move]`)].filter((b) => vis(b) && !b.disabled).map((b) => b.dataset.move);
      const chooserOpen = !document.querySelector('#chooser').hidden;
      const dialogOpen = !document.querySelector('#dialog').hidden;
      const amount = (p) => { const i = document.querySelector(`#amount-${p}`); return vis(i) ? { min: +i.min, max: +i.max, step: +i.step } : null; };
      return {
        decision: +app.dataset.decision, phase: app.dataset.phase,
        status: app.dataset.status, myTurn: app.dataset.myTurn === '1',
        chooserOpen, dialogOpen,
        chooser: moveBtns('#chooser'), dialog: moveBtns('#dialog'), page: moveBtns('.game-layout'),
        plots: [...document.querySelectorAll('#board .plot.playable')].map((g) => g.dataset.plot),
        bid: amount('bid'), give: amount('give'), ask: amount('ask'),
        offerText: (document.querySelector('#offer-view') || {}).textContent || '',
      };
    });
  }

  async function clickMove(page, scope, move) {
    await page.locator(`${scope} button[data-move="${move}"]`).first().click({ timeout: 5000 });
  }
  async function sendAmount(page, prefix, value) {
    await page.fill(`#amount-${prefix}`, String(value));
    await page.click(`#send-${prefix}`, { timeout: 5000 });
  }

  let offerItems = 0, sealedBids = 0;
  async function act(who, st) {
    const { page } = who;
    const other = people.find((p) => p !== who);
    if (st.chooserOpen && st.chooser.length) {
      const plain = st.chooser.filter((m) => !m.endsWith(' roof'));
      await clickMove(page, '#chooser', pick(plain.length ? plain : st.chooser));
      return;
    }
    const inDialog = st.dialogOpen;
    const scope = inDialog ? '#dialog' : '.game-layout';
    const list = inDialog ? st.dialog : st.page;
    const has = (m) => list.includes(m);
    if (inDialog && !shots.has(st.phase)) { shots.add(st.phase); await shot(page, `dlg-${st.phase}-${who.name}`); }
    switch (st.phase) {
      case 'bid': {
        sealedBids++;
        const hi = Math.min(st.bid.max, st.bid.min + 25);
        await sendAmount(page, 'bid', st.bid.min + Math.floor(rand() * (hi - st.bid.min + 1)));
        return;
      }
      case 'auction': {
        if (st.bid && rand() < 0.4) { await sendAmount(page, 'bid', st.bid.min); return; }
        if (has('pass')) { await clickMove(page, scope, 'pass'); return; }
        break;
      }
      case 'event': {
        // a trade first (Coopmanscappen), then a sealed bid; without either
        // in the open row, a bid event or the deck's top card, which may be one
        const bidEvents = ['event Verlappen', 'event Aenleggen', 'event Dreighinghe'];
        const want = [...(!goal.trade ? ['event Coopmanscappen'] : []), ...(!goal.bid ? bidEvents : []), ...(!goal.trade ? ['event deck'] : [])];
        const m = want.find(has);
        if (m) { await clickMove(page, scope, m); return; }
        break;
      }
      case 'coop': {
        const offer = `offer P${other.seat + 1}`;
        if (!goal.trade && has(offer)) { offerItems = 0; await clickMove(page, scope, offer); return; }
        if (has('done')) { await clickMove(page, scope, 'done'); return; }
        break;
      }
      case 'offer': {
        if (offerItems === 0 && st.give && st.give.max >= 1) { offerItems++; await sendAmount(page, 'give', Math.min(st.give.max, 5)); return; }
        if (offerItems <= 1) { const g = list.find((m) => m.startsWith('give ')); offerItems = 2; if (g) { await clickMove(page, scope, g); return; } }
        if (has('propose')) { await clickMove(page, scope, 'propose'); return; }
        break;
      }
      case 'respond': {
        if (has('accept')) { await clickMove(page, scope, 'accept'); return; }
        break;
      }
      case 'trade': {
        if ((!goal.trade || !goal.bid) && has('action event')) { await clickMove(page, scope, 'action event'); return; }
        const buys = list.filter((m) => m.startsWith('buy '));
        if (buys.length && rand() < 0.6) { await clickMove(page, scope, pick(buys)); return; }
        if (has('done')) { await clickMove(page, scope, 'done'); return; }
        break;
      }
      case 'turn': case 'purchase': case 'forced': {
        if (st.plots.length && rand() < 0.85) {
          await page.locator(`#board .plot.playable[data-plot="${pick(st.plots)}"]`).click({ timeout: 5000 });
          return;
        }
        const buy = list.filter((m) => m === 'draw' || m.startsWith('take '));
        if (buy.length && rand() < 0.9) { await clickMove(page, scope, pick(buy)); return; }
        const rest = list.filter((m) => m !== 'refresh' && (m !== 'pass' || list.length === 1));
        if (rest.length) { await clickMove(page, scope, pick(rest)); return; }
        break;
      }
      default: break;
    }
    // any other decision: a move button of the dialog or the page
    if (!inDialog && st.plots.length && !list.length) {
      await page.locator(`#board .plot.playable[data-plot="${pick(st.plots)}"]`).click({ timeout: 5000 });
      return;
    }
    const choices = list.filter((m) => m !== 'withdraw' && m !== 'refresh');
    if (choices.length) { await clickMove(page, scope, pick(choices)); return; }
    if (list.length) { await clickMove(page, scope, pick(list)); return; }
    if (st.bid) { await sendAmount(page, 'bid', st.bid.min); return; }
    if (!inDialog && (await page.locator('#open-dialog').count())) { await page.click('#open-dialog'); return; }
    throw new Error(`no way to decide in phase ${st.phase}: ${JSON.stringify(st)}`);
  }

  async function goalsFromLog() {
    // the game's own log, as the replay and the state frames carry it
    const entries = await A.evaluate(() => [...document.querySelectorAll('#log-list li')].map((li) => li.dataset.move));
    if (entries.includes('accept')) goal.trade = true;
    if (entries.some((m) => /^bid f\d+$/.test(m) || m === 'bid')) goal.bid = true;
  }

  // A click can miss while the page is being redrawn for a new state: the
  // same decision is then tried again, a few times at most. More failures
  // of one decision (same person, decision number, phase, open dialog) are
  // a bug the test must report, not retry forever.
  const MAX_TRIES = 3;
  const tries = new Map();
  function failedTry(who, st, e) {
    const key = `${who.name}:${st.decision}:${st.phase}:${st.chooserOpen}:${st.dialogOpen}`;
    const n = (tries.get(key) || 0) + 1;
    tries.set(key, n);
    console.log(`retry ${n}/${MAX_TRIES} (${who.name}, decision ${st.decision}, phase ${st.phase}): ${e.message.split('\n')[0]}`);
    if (n >= MAX_TRIES)
      throw new Error(`${who.name} failed ${n} times at decision ${st.decision} (phase ${st.phase}): ${e.message.split('\n')[0]}`);
  }

  async function playGame(first) {
    moves = 0; lastProgress = Date.now(); lastDecision = -1;
    reloaded = reloaded || !first; watched = watched || !first; phoneDone = phoneDone || !first; restarted = restarted || !first;
    while (true) {
      if (Date.now() - started > LIMIT_MS) throw new Error(`time limit reached after ${moves} clicks`);
      const states = await Promise.all(people.map((p) => info(p.page).catch(() => null)));
      if (states.every((s) => s && s.status === 'over')) break;
      let acted = false;
      for (let i = 0; i < people.length; i++) {
        const st = states[i];
        if (!st || !st.myTurn || st.status !== 'playing') continue;
        try {
          await act(people[i], st);
          acted = true;
          moves++;
        } catch (e) {
          failedTry(people[i], st, e);
        }
      }
      const d = Math.max(...states.filter(Boolean).map((s) => s.decision));
      if (d !== lastDecision) { lastDecision = d; lastProgress = Date.now(); }
      if (Date.now() - lastProgress > 30000) throw new Error(`no progress for 30 s at decision ${d}: ${JSON.stringify(states)}`);
      if (moves % 10 === 0) await goalsFromLog();

      // a reload in the middle of the game gets the seat back with the full view
      if (!reloaded && d > 80) {
        reloaded = true;
        const before = await A.evaluate(() => +document.querySelector('#app').dataset.decision);
        await A.reload();
        await A.waitForFunction(() => document.querySelector('#app').dataset.seat === '0', null, { timeout: 15000 });
        const who = await A.textContent('#game-status .who');
        const after = await A.evaluate(() => +document.querySelector('#app').dataset.decision);
        const hand = await A.locator('#hand .card').count();
        check(/Anouk/.test(who) && after >= before && hand > 0, `a reload at decision ${before} rejoins the seat ("${who}", decision ${after}, ${hand} cards in hand)`);
        await shot(A, '07-after-reload');
      }
      // the server dies (kill -9) and comes back: both pages notice the lost
      // connection, reconnect by themselves and show the full current view
      if (!restarted && d > 160) {
        restarted = true;
        const pidFile = process.env.CH_SERVER_PIDFILE;
        const before = await A.evaluate(() => +document.querySelector('#app').dataset.decision);
        process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGKILL');
        await Promise.all(people.map((p) => p.page.waitForSelector('#conn.conn-lost', { timeout: 15000 })));
        await shot(B, '07b-connection-lost');
        const cmd = JSON.parse(process.env.CH_SERVER_CMD);
        const out = fs.openSync(process.env.CH_SERVER_LOG, 'a');
        const child = spawn(cmd[0], cmd.slice(1), { stdio: ['ignore', out, out] });
        fs.writeFileSync(pidFile, String(child.pid));
        await Promise.all(people.map((p) => p.page.waitForSelector('#conn.conn-open', { timeout: 30000 })));
        const after = await Promise.all(people.map((p) => p.page.evaluate(() => +document.querySelector('#app').dataset.decision)));
        check(after.every((x) => x >= before), `after kill -9 and a restart both pages reconnect by themselves (decision ${before} -> ${after.join(', ')})`);
        lastProgress = Date.now();
      }
      // a spectator sees the game without any hand
      if (!watched && d > 100) {
        watched = true;
        const W = await newPage({}, 'watch');
        await W.goto(`${BASE}/#/watch/${gameId}`);
        await W.waitForSelector('#app[data-seat="-1"]', { timeout: 15000 });
        const hands = await W.evaluate(() => ({ panel: document.querySelector('#hand').hidden, cards: document.querySelectorAll('#hand .card').length }));
        check(hands.panel && hands.cards === 0, 'a spectator link shows the game with no hand');
        await shot(W, '07c-spectator');
        await W.context().close();
      }
      // the same seat on a phone-sized screen (a second connection to the seat)
      if (!phoneDone && d > 120) {
        phoneDone = true;
        // (Bas's browser profile: his session's cookie plays his seat)
        const P = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2, storageState: await B.context().storageState() }, 'phone');
        await P.goto(linkB);
        await P.waitForFunction(() => document.querySelector('#app').dataset.seat === '1', null, { timeout: 15000 });
        // the page never scrolls sideways; the board keeps its plots at least
        // 36 px wide (issue 31) and scrolls sideways inside its own frame
        const sizes = await P.evaluate(() => {
          const frame = document.querySelector('#board');
          // a plot is a 48-unit cell of the board's SVG (board.js CELL)
          const svg = document.querySelector('#board svg.board');
          return { doc: document.documentElement.scrollWidth, win: window.innerWidth, frame: frame.getBoundingClientRect().width,
            scrolls: getComputedStyle(frame).overflowX === 'auto', plot: svg ? 48 * svg.getScreenCTM().a : 0 };
        });
        check(sizes.doc <= sizes.win + 1 && sizes.frame <= sizes.win && sizes.scrolls && sizes.plot >= 36,
          `the phone page fits the screen width (page ${sizes.doc}px, board frame ${Math.round(sizes.frame)}px scrolling, plots ${Math.round(sizes.plot)}px, screen ${sizes.win}px)`);
        await P.screenshot({ path: path.join(ART, '08-phone.png'), fullPage: true });
        // a decision's dialog is a sheet over the page: fold it away first
        if (await P.locator('#hide-dialog').isVisible()) await P.click('#hide-dialog', { timeout: 5000 });
        await P.click('#zoom', { timeout: 5000 });
        const zoomed = await P.evaluate(() => document.querySelector('#board svg').getBoundingClientRect().width);
        check(zoomed > sizes.win, `the zoom button enlarges the board on a phone (${Math.round(zoomed)}px)`);
        await P.screenshot({ path: path.join(ART, '08-phone-zoomed.png') });
        await P.context().close();
      }
      if (!acted) await sleep(60);
    }
    console.log(`game over after ${moves} clicks by the two people, ${Math.round((Date.now() - started) / 1000)} s`);
    // every move the pages sent was one the server accepted: no error frame
    for (const p of people) {
      const errs = await p.page.evaluate(() => ({ n: +(document.querySelector('#app').dataset.errors || 0), text: document.querySelector('#error-banner').textContent }));
      check(errs.n === 0, `${p.name}'s page got no error frame from the server during game ${gameId} (${errs.n}${errs.n ? `: ${errs.text}` : ''})`);
    }
    for (const p of people) {
      await p.page.waitForSelector('#result', { timeout: 10000 });
      if (first) { await p.page.evaluate(() => window.scrollTo(0, 0)); await p.page.screenshot({ path: path.join(ART, `09-final-${p.name}.png`), fullPage: true }); }
    }
    check(true, `both people see the result of game ${gameId}`);
  }

  // ---- what happened, from the game's log -----------------------------
  // A game's course depends on the bots and the cards, so the three things
  // the test wants seen (a merger, the people's bids, a trade between them)
  // may not all come up in one game; then the people play another (at most
  // three games), and each must have happened in one of them.
  const seen = {};
  async function analyse(id) {
    const rep = await (await fetch(`${BASE}/api/games/${id}/replay`)).json();
    const log = rep.moves || [];
    const human = (e) => e.player === 0 || e.player === 1;
    const merger = log.filter((e) => /^(credit|merge) /.test(e.move));
    const bids = log.filter((e) => human(e) && /^bid f\d+$/.test(e.move));
    const offers = log.filter((e) => human(e) && /^offer P[12]$/.test(e.move));
    const accepted = log.filter((e) => human(e) && e.move === 'accept');
    if (merger.length) seen.merger = seen.merger || `game ${id}: ${merger.length} merger decisions, e.g. "${merger[0].move}"`;
    if (bids.length && sealedBids) seen.bid = seen.bid || `game ${id}: ${bids.length} bids (${sealedBids} sealed-bid dialogs answered), e.g. "${bids[0].move}"`;
    if (offers.length && accepted.length) seen.trade = seen.trade || `game ${id}: ${offers.length} offers, ${accepted.length} accepted`;
    const n0 = log.filter((e) => e.player === 0).length, n1 = log.filter((e) => e.player === 1).length;
    check(n0 > 20 && n1 > 20, `both people made moves in game ${id} (${n0} and ${n1} of ${log.length})`);
  }
  await playGame(true);
  await analyse(gameId);
  const firstGame = gameId;
  for (let attempt = 1; attempt < 3 && !(seen.merger && seen.bid && seen.trade) && Date.now() - started < LIMIT_MS - 120000; attempt++) {
    console.log(`# not yet seen: ${['merger', 'bid', 'trade'].filter((k) => !seen[k]).join(', ')}; another game`);
    goal.trade = !!seen.trade; goal.bid = !!seen.bid;
    gameId = await newGame(attempt);
    await playGame(false);
    await analyse(gameId);
  }
  check(!!seen.merger, `a merger happened (${seen.merger || 'none'})`);
  check(!!seen.bid, `the people made sealed bids (${seen.bid || 'none'})`);
  check(!!seen.trade, `a trade between the people (${seen.trade || 'none'})`);
  gameId = firstGame;

  // ---- the replay viewer, opened from the lobby's finished games -------
  await A.goto(`${BASE}/#/`);
  await A.click(`#old-list .game-row[data-game="${gameId}"] a`, { timeout: 15000 });
  await A.waitForSelector('#replay-pos');
  await A.click('#replay-first');
  await A.waitForFunction(() => /^move 0 /.test(document.querySelector('#replay-pos').textContent));
  for (let i = 0; i < 3; i++) { const prev = await A.textContent('#replay-pos'); await A.click('#replay-next'); await A.waitForFunction((p) => document.querySelector('#replay-pos').textContent !== p, prev); }
  const pos = await A.textContent('#replay-pos');
  check(/^move 3 of \d+/.test(pos), `the replay viewer steps through the moves (${pos})`);
  await shot(A, '10-replay');

  // ---- The Golden Age: one person against two bots, in Japanese --------
  // created in the lobby: edition, rules preset, event cards, seats
  const G = await newPage({ locale: 'ja-JP' }, 'G');
  await G.goto(`${BASE}/#/`);
  await G.waitForSelector('#create-form');
  await G.selectOption('#edition', 'golden-age');
  await G.selectOption('#players', '3');
  await G.selectOption('#preset', 'golden-age-first');
  await G.check('#events');
  await G.fill('#seed', String(SEED));
  const gaRows = G.locator('.seat-row');
  await gaRows.nth(0).locator('.seat-name').fill('Cees');
  await gaRows.nth(2).locator('.seat-bot').selectOption('random');
  await G.click('#create');
  await G.waitForSelector('#created');
  const gaLink = await G.locator('#created li[data-seat="0"] a.open-seat').getAttribute('href');
  const gaId = (/#\/play\/([^/]+)/.exec(gaLink) || [])[1];
  const gaInfo = await (await fetch(`${BASE}/api/games/${gaId}`)).json();
  check(gaInfo.edition === 'golden-age' && gaInfo.preset === 'golden-age-first' && gaInfo.players === 3,
    `the lobby creates a Golden Age game with the chosen rules (${gaInfo.edition}, ${gaInfo.preset}, ${gaInfo.players} players)`);
  await G.goto(`${BASE}/${gaLink.replace(/^\//, '')}`);
  await G.waitForSelector('#app[data-status="playing"]', { timeout: 20000 });
  check(await G.evaluate(() => document.documentElement.lang) === 'ja', 'a Japanese browser gets the Japanese page');
  const cees = { page: G, seat: 0, name: 'Cees' };
  // Cees acts 30 times (or the game ends first): each time the test
  // waits for the page to say it is Cees's turn (or over), as an event,
  // bounded by 60 s, not by a count of idle polls.
  const gaPhases = new Set();
  let gaDecisions = 0, gaOver = false; /* actions: a move, or a click that opens a chooser */
  while (gaDecisions < 30) {
    await G.waitForFunction(() => {
      const app = document.querySelector('#app');
      return app.dataset.status === 'over' || app.dataset.myTurn === '1';
    }, null, { timeout: 60000 }).catch(() => { throw new Error(`The Golden Age: Cees's turn did not come within 60 s after ${gaDecisions} actions (phases ${[...gaPhases].join(', ')})`); });
    const st = await info(G).catch(() => null);
    if (st && st.status === 'over') { gaOver = true; break; }
    if (!st || !st.myTurn) continue; /* redrawn in between: look again */
    gaPhases.add(st.phase);
    const before = st.decision;
    try {
      await act(cees, st);
      gaDecisions++;
      // the click took effect once the page shows a later decision, another
      // player's turn, or (a plot or a button that opens a chooser or a
      // dialog) the chooser or dialog opened or closed: wait for that
      await G.waitForFunction(([d, chooser, dialog]) => {
        const app = document.querySelector('#app');
        return +app.dataset.decision > d || app.dataset.myTurn !== '1' || app.dataset.status === 'over' ||
          !document.querySelector('#chooser').hidden !== chooser || !document.querySelector('#dialog').hidden !== dialog;
      }, [before, st.chooserOpen, st.dialogOpen], { timeout: 30000 });
    } catch (e) { failedTry(cees, st, e); }
    if (gaDecisions === 12) await shot(G, '11-golden-age-ja');
  }
  const GA_PHASES = ['turn', 'purchase', 'hq', 'found', 'credit', 'merge', 'merge-sell', 'trade', 'sell',
    'free', 'forced', 'event-sell', 'evsell', 'lose', 'pick', 'auction', 'veilinge', 'respond', 'offer', 'coop', 'bid', 'event'];
  check(gaOver || gaDecisions === 30, `The Golden Age: Cees acted 30 times (${gaDecisions}${gaOver ? ', then the game ended' : ''})`);
  check(gaPhases.has('turn') && gaPhases.size >= 3 && [...gaPhases].every((p) => GA_PHASES.includes(p)),
    `The Golden Age: Cees decided in the turn phase and at least two others, all known (${[...gaPhases].join(', ')})`);
  const gaView = await G.evaluate(() => ({ plots: document.querySelectorAll('#board .plot').length, built: document.querySelectorAll('#board .warehouse').length }));
  check(gaView.plots === 60 && gaView.built > 0, `The Golden Age's harbour side is drawn (${gaView.plots} lots, ${gaView.built} warehouses) after decisions in ${[...gaPhases].join(', ')}`);
  await G.screenshot({ path: path.join(ART, '12-golden-age-ja-full.png'), fullPage: true });

  // ---- the turn timer: its count-down, and a bot standing in once it runs out
  const tg = await (await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ edition: 'amsterdam', players: 2, seed: SEED, turn_timer: 3,
      seats: [{ kind: 'human', name: 'Dirk' }, { kind: 'bot', bot: 'random' }] }) })).json();
  await G.selectOption('#lang', 'en');
  await G.goto(`${BASE}/${tg.seats[0].link.replace(/^\//, '')}`);
  await G.waitForSelector('#app[data-status="playing"]', { timeout: 20000 });
  await G.waitForFunction(() => document.querySelector('#app').dataset.myTurn === '1', null, { timeout: 20000 });
  const timerText = await G.textContent('#timer').catch(() => '');
  check(/\d+ s left/.test(timerText), `the turn timer counts down on the page ("${timerText}")`);
  await G.waitForSelector('.player[data-seat="0"] .tag.off', { timeout: 20000 }).catch(() => {});
  const away = await G.locator('.player[data-seat="0"] .tag.off').count();
  check(away > 0, 'when the timer runs out the page shows the seat as away (a bot plays it)');
  await shot(G, '13-timer-away');

  check(pageErrors.length === 0, `no script errors in the pages (${pageErrors.length})`);
} catch (e) {
  failures.push(e.message);
  console.log(`FAIL - ${e.stack || e.message}`);
  for (const [i, ctx] of browser.contexts().entries()) for (const [j, p] of ctx.pages().entries()) await p.screenshot({ path: path.join(ART, `failure-${i}-${j}.png`) }).catch(() => {});
} finally {
  await browser.close();
}
console.log(`${failures.length ? 'FAILED' : 'passed'} in ${Math.round((Date.now() - started) / 1000)} s; screenshots in ${ART}`);
process.exit(failures.length ? 1 : 0);
