// ux.mjs: the browser test of issue 16's player-facing features, run by
// tests/web/run.sh after e2e.mjs against the same `chartered serve`.
// Playwright drives Debian's chromium headless:
//   - one click in the lobby starts a solo game against bots (the player is
//     seated at once), and the bots have unique names ("Greedy 2");
//   - keyboard only: a build turn (a plot), a purchase turn (a market card or
//     the deck) and a dialog decision are made with Tab and Enter alone;
//   - a whole Building Amsterdam game and a whole Golden Age game (the two
//     free warehouses picked by clicking two plots) are played by clicking,
//     every decision type met is screenshotted;
//   - the end screen shows every player's cash and holdings at final value
//     (flags and fines in The Golden Age), and its totals are the engine's;
//   - the legend, prices on the money buttons, a company's warehouses shown
//     on hover, a log line's move shown on the board;
//   - in English, Dutch and Japanese at desktop and phone widths: no English
//     district or company name on a Dutch or Japanese page, no "1 cards";
//   - the replay: slider, jump to a move, play and pause, the move in words.
// Screenshots go to $CH_ARTIFACTS/ux.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const BASE = process.env.CH_BASE;
const ART = path.join(process.env.CH_ARTIFACTS || path.join(process.cwd(), 'artifacts'), 'ux');
const LIMIT_MS = Number(process.env.CH_UX_LIMIT_MS || 300000);
if (!BASE) { console.error('CH_BASE (the server address) is not set'); process.exit(2); }
fs.mkdirSync(ART, { recursive: true });

const started = Date.now();
let seed = 7;
function rand() { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; }
const pick = (list) => list[Math.floor(rand() * list.length)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const failures = [];
function check(ok, what) { console.log(`${ok ? 'ok' : 'FAIL'} - ${what}`); if (!ok) failures.push(what); }
async function shot(page, name, full) { await page.screenshot({ path: path.join(ART, `${name}.png`), fullPage: !!full }); }

const browser = await chromium.launch({
  executablePath: process.env.CH_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--autoplay-policy=no-user-gesture-required'],
});
const pageErrors = [];
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
async function newPage(locale, size, label) {
  // bypassCSP: Playwright's waitForFunction runs its predicate through eval() in
  // the page, which the server's Content-Security-Policy (script-src 'self')
  // refuses; invites.mjs runs the pages under the policy.
  const ctx = await browser.newContext(Object.assign({ locale, bypassCSP: true }, size));
  const page = await ctx.newPage();
  // every view patch is checked against a whole view at random points (web/js/frames.js)
  await ctx.addInitScript(() => { try { localStorage.setItem('chartered.deltaCheck', '1'); } catch (e) { /* none */ } });
  page.on('pageerror', (e) => { pageErrors.push(`${label}: ${e.message}`); console.log(`pageerror ${label}: ${e.message}`); });
  return page;
}

// The English names of districts and companies that Dutch or Japanese name
// differently, from the shared catalogues the server serves.
async function englishNames(lang) {
  const en = await (await fetch(`${BASE}/i18n/en.json`)).json();
  const other = await (await fetch(`${BASE}/i18n/${lang}.json`)).json();
  return [...new Set(Object.keys(en).filter((k) => /^(company\.(ba|ga)\.\d+|district\.\w+)$/.test(k) && other[k] !== en[k]).map((k) => en[k]))];
}

async function info(page) {
  return page.evaluate(() => {
    const app = document.querySelector('#app');
    if (!document.querySelector('.game-page') || !app.dataset.status) return null;
    const vis = (e) => e && !e.closest('[hidden]') && e.offsetParent !== null;
    const moveBtns = (sel) => [...document.querySelectorAll(`${sel} button[data-move]`)].filter((b) => vis(b) && !b.disabled).map((b) => b.dataset.move);
    const amount = (p) => { const i = document.querySelector(`#amount-${p}`); return vis(i) ? { min: +i.min, max: +i.max } : null; };
    return {
      decision: +app.dataset.decision, phase: app.dataset.phase, status: app.dataset.status, myTurn: app.dataset.myTurn === '1',
      chooserOpen: !document.querySelector('#chooser').hidden, dialogOpen: !document.querySelector('#dialog').hidden,
      chooser: moveBtns('#chooser'), dialog: moveBtns('#dialog'), page: moveBtns('.game-layout'),
      plots: [...document.querySelectorAll('#board .plot.playable')].map((g) => g.dataset.plot),
      bid: amount('bid'), give: amount('give'),
    };
  });
}

// One decision by clicking: a chooser's first plain choice, an amount at its
// lowest, a plot of the board, a market card, or a move button.
const shots = new Set();
async function act(page, st, tag) {
  if (st.chooserOpen && st.chooser.length) {
    const plain = st.chooser.filter((m) => !m.endsWith(' roof'));
    await page.locator(`#chooser button[data-move="${pick(plain.length ? plain : st.chooser)}"]`).first().click({ timeout: 5000 });
    return;
  }
  const scope = st.dialogOpen ? '#dialog' : '.game-layout';
  const list = st.dialogOpen ? st.dialog : st.page;
  if (!shots.has(`${tag}-${st.phase}`)) { shots.add(`${tag}-${st.phase}`); await shot(page, `${tag}-${st.phase}`); }
  if (st.phase === 'offer' && list.includes('propose') && rand() < 0.7) { await page.click(`${scope} button[data-move="propose"]`); return; }
  if (st.bid && (st.phase === 'bid' || !list.length || rand() < 0.3)) {
    await page.fill('#amount-bid', String(st.bid.min));
    await page.click('#send-bid', { timeout: 5000 });
    return;
  }
  if (!st.dialogOpen && st.plots.length && (rand() < 0.85 || !list.length)) {
    await page.locator(`#board .plot.playable[data-plot="${pick(st.plots)}"]`).click({ timeout: 5000 });
    return;
  }
  const good = list.filter((m) => m !== 'withdraw' && m !== 'refresh' && !(m === 'pass' && list.length > 1) && !m.startsWith('offer '));
  const m = pick(good.length ? good : list);
  if (m) { await page.locator(`${scope} button[data-move="${m}"]`).first().click({ timeout: 5000 }); return; }
  if (!st.dialogOpen && (await page.locator('#open-dialog').count())) { await page.click('#open-dialog'); return; }
  throw new Error(`no way to decide in phase ${st.phase}`);
}

async function playToEnd(page, tag, onStep) {
  let last = -1, since = Date.now(), n = 0;
  for (;;) {
    if (Date.now() - started > LIMIT_MS) throw new Error(`time limit reached in ${tag} after ${n} decisions`);
    const st = await info(page).catch(() => null);
    if (st && st.status === 'over') return n;
    if (st && st.decision !== last) { last = st.decision; since = Date.now(); }
    if (Date.now() - since > 60000) throw new Error(`no progress for 60 s in ${tag} at decision ${last}`);
    if (!st || !st.myTurn) { await sleep(40); continue; }
    try { if (!(onStep && await onStep(st))) await act(page, st, tag); n++; } catch (e) { console.log(`retry (${tag}, ${st.phase}): ${e.message.split('\n')[0]}`); await sleep(50); }
  }
}

// Tab until the focused element matches sel (at most 300 presses), then Enter.
async function keyTo(page, sel) {
  await page.evaluate(() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); });
  for (let i = 0; i < 300; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => !!(document.activeElement && document.activeElement.matches(s)), sel)) {
      await page.keyboard.press('Enter');
      return true;
    }
  }
  return false;
}
async function waitDecisionAfter(page, d) {
  await page.waitForFunction((x) => +document.querySelector('#app').dataset.decision > x, d, { timeout: 30000 });
}

try {
  // ---- one click in the lobby: a solo game, seated at once -------------
  const A = await newPage('en-US', DESKTOP, 'solo');
  await A.goto(`${BASE}/#/`);
  await A.waitForSelector('#solo');
  await shot(A, '01-lobby');
  await A.click('#solo');
  await A.waitForSelector('#app[data-status="playing"]', { timeout: 20000 });
  const seatNames = await A.evaluate(() => [...document.querySelectorAll('#players .player .pname')].map((e) => e.firstChild && e.childNodes[1] ? e.childNodes[1].textContent : e.textContent));
  check(new Set(seatNames).size === seatNames.length && seatNames.some((n) => /^Greedy \d$/.test(n)) && seatNames.some((n) => /^ISMCTS \d$/.test(n)),
    `one click starts a solo game with uniquely named bots (${seatNames.join(', ')})`);
  const gameId = await A.evaluate(() => location.hash.split('/')[2]);

  // ---- keyboard only: a build, a purchase, a dialog ----------------------
  const kinds = new Set();
  // until a build and a purchase are made ('other' and 'dialog' moves do not
  // count: three kinds of any sort ended the loop before a purchase once)
  for (let tries = 0; tries < 40 && !(kinds.has('build') && kinds.has('purchase')); tries++) {
    await A.waitForFunction(() => document.querySelector('#app').dataset.myTurn === '1' || document.querySelector('#app').dataset.status === 'over', null, { timeout: 60000 });
    const st = await info(A);
    if (st.status === 'over') break;
    const d = st.decision;
    let ok = false, kind = null;
    if (st.dialogOpen || st.chooserOpen) {
      // a dialog takes the focus itself: its first button or amount field
      kind = 'dialog';
      await A.keyboard.press('Enter');
      ok = true;
    } else if (st.phase === 'turn' && st.plots.length && !kinds.has('build')) {
      kind = 'build';
      ok = await keyTo(A, '#board .plot.playable');
      if (ok && await A.evaluate(() => !document.querySelector('#chooser').hidden)) await A.keyboard.press('Enter');
    } else if ((st.phase === 'turn' || st.phase === 'purchase') && st.page.some((m) => m === 'draw' || m.startsWith('take '))) {
      kind = 'purchase';
      ok = await keyTo(A, '#market button.card.playable, #market button[data-move="draw"]');
    } else {
      kind = 'other';
      ok = await keyTo(A, '#decision button.move:not([disabled]), #board .plot.playable');
      if (ok && await A.evaluate(() => !document.querySelector('#chooser').hidden)) await A.keyboard.press('Enter');
    }
    if (!ok) continue;
    await waitDecisionAfter(A, d).catch(() => {});
    const after = await A.evaluate(() => +document.querySelector('#app').dataset.decision);
    if (after > d) { kinds.add(kind); if (kind !== 'other') await shot(A, `02-keyboard-${kind}`); }
  }
  check(kinds.has('build') && kinds.has('purchase'), `keyboard only: a build and a purchase made with Tab and Enter (${[...kinds].join(', ')})`);

  // ---- explanations: legend, prices, company hover, log line -------------
  const legend = await A.evaluate(() => document.querySelectorAll('#legend .legend-item').length);
  check(legend >= 8, `the board has a legend (${legend} signs)`);
  await A.evaluate(() => { document.querySelector('#legend').open = true; });
  const co = A.locator('#legend .legend-company').first();
  await co.hover();
  const lit = await A.evaluate(() => document.querySelector('#board svg').classList.contains('highlighting'));
  check(lit, 'a hover on a company shows its warehouses on the board');
  await A.mouse.move(0, 0);
  const li = A.locator('#log-list li[data-move^="play "]').first();
  if (await li.count()) {
    const mv = await li.getAttribute('data-move');
    await li.click();
    const marked = await A.evaluate(() => [...document.querySelectorAll('#board .plot.last')].map((g) => g.dataset.plot));
    check(marked.some((p) => mv.includes(p)), `a click on a log line shows its move on the board (${mv} -> ${marked.join(', ')})`);
    await shot(A, '03-log-highlight');
    await li.click();
  }
  let priced = false;
  const priceSeen = async () => { priced = priced || await A.evaluate(() => [...document.querySelectorAll('button[data-move] .price')].some((p) => /f\d+/.test(p.textContent))); };

  // ---- the whole game by clicking ----------------------------------------
  const n1 = await playToEnd(A, 'ba', async () => { if (!priced) await priceSeen(); return false; });
  check(priced, 'a money move\'s button shows its price');
  await A.waitForSelector('#end-table');
  await A.evaluate(() => window.scrollTo(0, 0));
  await shot(A, '09-end-ba', true);
  // the two small pictures the README shows (docs/screenshots/)
  await A.locator('.board-wrap').screenshot({ path: path.join(ART, 'readme-board.png') });
  // scrolled to below the sticky header (scroll-padding), then taken
  await A.evaluate(() => document.querySelector('#result').scrollIntoView({ block: 'start' }));
  await A.locator('#result').screenshot({ path: path.join(ART, 'readme-end.png') });
  const rep = await (await fetch(`${BASE}/api/games/${gameId}/replay`)).json();
  const shown = await A.evaluate(() => [...document.querySelectorAll('#end-table tbody tr')].map((tr) => ({ seat: +tr.dataset.seat, total: tr.querySelector('.total').textContent, cells: tr.children.length })));
  check(shown.length === 4 && shown.every((r) => r.total === `f${rep.result.scores[r.seat]}`),
    `the end screen shows each player's total as the engine scored it (${shown.map((r) => r.total).join(', ')}; ${n1} decisions clicked)`);
  const holdings = await A.evaluate(() => document.querySelectorAll('#end-table .holding').length);
  const parts = rep.result.parts.reduce((k, p) => k + p.holdings.filter((x) => x.stocks > 0).length, 0);
  check(holdings === parts, `the end screen lists every holding at its final value (${holdings} of ${parts})`);

  // ---- the replay: slider, jump, play/pause, words ------------------------
  await A.click('#open-replay');
  await A.waitForSelector('#replay-slider');
  await A.fill('#replay-jump', '12');
  await A.press('#replay-jump', 'Enter');
  await A.waitForFunction(() => /^move 12 /.test(document.querySelector('#replay-pos').textContent));
  const now = await A.textContent('#replay-now');
  check(/^Move 12: /.test(now), `the replay jumps to a move and says it in words ("${now.trim()}")`);
  await A.$eval('#replay-slider', (s) => { s.value = '30'; s.dispatchEvent(new Event('change')); });
  await A.waitForFunction(() => /^move 30 /.test(document.querySelector('#replay-pos').textContent));
  await A.click('#replay-play');
  await A.waitForFunction(() => /^move 3[2-9] /.test(document.querySelector('#replay-pos').textContent), null, { timeout: 15000 });
  await A.click('#replay-play');
  const p1 = await A.textContent('#replay-pos');
  await sleep(1500);
  check(p1 === await A.textContent('#replay-pos'), `the replay plays and pauses (${p1})`);
  await shot(A, '10-replay');

  // ---- The Golden Age, in Japanese on a phone ------------------------------
  // the solo button starts a Golden Age game too; the whole game is played
  // with three players (the harbour side: a shorter game than the solo's four)
  const G = await newPage('ja-JP', PHONE, 'ga');
  await G.goto(`${BASE}/#/`);
  await G.waitForSelector('#solo-ga');
  await G.click('#solo-ga');
  await G.waitForSelector('#app[data-status="playing"]', { timeout: 20000 });
  check(await G.evaluate(() => document.querySelector('#app').dataset.seat === '0'), 'one click starts a solo Golden Age game, seated at once');
  const ga = await (await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ edition: 'golden-age', players: 3, events: true, seats: [{ kind: 'human', name: 'Cees' }, { kind: 'bot', bot: 'greedy' }, { kind: 'bot', bot: 'greedy' }] }) })).json();
  await G.goto(`${BASE}/${ga.seats[0].link.replace(/^\//, '')}`);
  await G.waitForSelector('#app[data-status="playing"]', { timeout: 20000 });
  let freePicks = 0;
  const freeStep = async (st) => {
    if (st.phase === 'free' && !st.dialogOpen && st.plots.length) {
      // two clicks on the board: the first plot, then one of its partners
      const d = st.decision;
      await G.locator(`#board .plot.playable[data-plot="${pick(st.plots)}"]`).click();
      await G.waitForFunction(() => /\S/.test(document.querySelector('#decision .hint').textContent));
      await shot(G, 'ga-free-first');
      const second = await G.evaluate(() => [...document.querySelectorAll('#board .plot.playable')].map((g) => g.dataset.plot));
      await G.locator(`#board .plot.playable[data-plot="${pick(second)}"]`).click();
      await waitDecisionAfter(G, d);
      freePicks++;
      return true;   // this decision is made
    }
    return false;
  };
  const n2 = await playToEnd(G, 'ga', freeStep);
  await G.waitForSelector('#end-table');
  const gaHead = await G.evaluate(() => document.querySelectorAll('#end-table thead th').length);
  check(gaHead === 7, `The Golden Age's end screen has flags and fines (${gaHead} columns)`);
  await G.evaluate(() => window.scrollTo(0, 0));
  await shot(G, '09-end-ga-ja-phone', true);
  if (!freePicks) {
    // the random game never founded at the player's turn: a position
    // (docs/formats.md) where any build on the empty harbour founds
    const pos = ['edition golden-age', 'players 3', 'seed 3', 'turn 3 player 1 phase turn', 'warehouse Harbour 4 height 2 Gold hq',
      'warehouse Harbour 5 Gold', 'company Gold f40', 'player 1 cash f300 flags 2', 'hand 1 random 4', 'player 2 cash f200 flags 2',
      'hand 2 random 5', 'player 3 cash f200 flags 2', 'hand 3 random 5'].join('\n');
    const pg = await (await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ position: pos, seats: [{ kind: 'human', name: 'Cees' }, { kind: 'bot', bot: 'greedy' }, { kind: 'bot', bot: 'greedy' }] }) })).json();
    await G.goto(`${BASE}/${pg.seats[0].link.replace(/^\//, '')}`);
    await G.waitForSelector('#app[data-status="playing"]', { timeout: 20000 });
    for (let k = 0; k < 20 && !freePicks; k++) {
      await G.waitForFunction(() => document.querySelector('#app').dataset.myTurn === '1', null, { timeout: 60000 });
      const st = await info(G);
      if (st.phase === 'turn' && st.plots.length) { await G.locator(`#board .plot.playable[data-plot="${st.plots[0]}"]`).click(); await waitDecisionAfter(G, st.decision); continue; }
      if (!(await freeStep(st))) { await act(G, st, 'gafree'); await waitDecisionAfter(G, st.decision).catch(() => {}); }
    }
  }
  check(freePicks > 0, `The Golden Age's free warehouses are picked by clicking two plots (${freePicks} times; ${n2} decisions of a whole game clicked)`);

  // ---- three languages, two widths: names and plurals ----------------------
  for (const [locale, lang] of [['en-US', 'en'], ['nl-NL', 'nl'], ['ja-JP', 'ja']]) {
    const names = lang === 'en' ? [] : await englishNames(lang);
    for (const [size, wname] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
      const P = await newPage(locale, size, `${lang}-${wname}`);
      // both editions: the finished Building Amsterdam game (watched and
      // replayed) and the finished Golden Age game (watched)
      for (const where of [`#/watch/${gameId}`, `#/replay/${gameId}`, `#/watch/${ga.id}`]) {
        await P.goto(`${BASE}/${where}`);
        await P.waitForSelector('#board svg .plot', { timeout: 15000 });
        await P.waitForFunction((l) => document.documentElement.lang === l, lang);
        await sleep(300);
        const text = await P.evaluate(() => document.body.innerText + '\n' + [...document.querySelectorAll('svg text, svg title, [aria-label], [title]')].map((e) => e.textContent + ' ' + (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || '')).join('\n'));
        if (names.length) {
          const m = new RegExp(`\\b(${names.join('|')})\\b`).exec(text);
          check(!m, `${lang} ${wname} ${where.split('/')[1]}: no English district or company name on the page${m ? ` ("${m[1]}" in "${text.slice(Math.max(0, m.index - 40), m.index + 40).replace(/\n/g, ' ')}")` : ''}`);
        }
        const bad = { en: /(^|[^\d])1 (cards|action cards|broken roofs|flags left|players|stocks)\b/, nl: /(^|[^\d])1 (kaarten|actiekaarten|kapotte daken|vlaggen|spelers|aandelen)\b/, ja: null }[lang];
        if (bad) { const m = bad.exec(text); check(!m, `${lang} ${wname} ${where.split('/')[1]}: plurals agree with their number${m ? ` ("${m[0]}")` : ''}`); }
        if (where.startsWith('#/watch')) {
          const fits = await P.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
          const ed = where.endsWith(gameId) ? 'ba' : 'ga';
          check(fits, `${lang} ${wname} ${ed}: the page fits the screen width`);
          await shot(P, `11-end-${ed}-${lang}-${wname}`);
        }
      }
      await P.context().close();
    }
  }
  // the lobby lists the finished game with its date, winner and scores
  await A.goto(`${BASE}/#/`);
  await A.waitForSelector(`#old-list .game-row[data-game="${gameId}"] .scores-line`, { timeout: 15000 });
  const row = await A.textContent(`#old-list .game-row[data-game="${gameId}"]`);
  const dated = await A.locator(`#old-list .game-row[data-game="${gameId}"] .finished`).count();
  check(/winner/.test(row) && /f\d+/.test(row) && dated > 0, `the lobby shows a finished game's date, winner and scores ("${row.replace(/\s+/g, ' ').slice(0, 120)}")`);
  await shot(A, '12-lobby-finished');
  check(pageErrors.length === 0, `no script errors in the pages (${pageErrors.length}${pageErrors.length ? ': ' + pageErrors[0] : ''})`);
} catch (e) {
  failures.push(e.message);
  console.log(`FAIL - ${e.stack || e.message}`);
  for (const [i, ctx] of browser.contexts().entries()) for (const [j, p] of ctx.pages().entries()) await p.screenshot({ path: path.join(ART, `failure-${i}-${j}.png`) }).catch(() => {});
} finally {
  await browser.close();
}
console.log(`ux: ${failures.length ? 'FAILED' : 'passed'} in ${Math.round((Date.now() - started) / 1000)} s; screenshots in ${ART}`);
process.exit(failures.length ? 1 : 0);
