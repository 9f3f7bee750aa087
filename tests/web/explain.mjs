// explain.mjs: issue 31 items 5 to 7 in the browser, run by tests/web/run.sh
// (CTest web_explain):
// - a merger explained in its dialogs, in en, nl and ja: Building
//   Amsterdam's three-way example (tests/positions/ba-merger-anke-quick-en.pos,
//   Anke's seat): the credit's choices, then the sell-or-keep dialog with
//   who absorbs whom, the survivor's value after the merge, what the
//   builder is paid and when, and each holder's sale now and what keeping
//   may bring; The Golden Age's merger (ga-merger-110-100.pos): each
//   credit's outcome (f10, the absorber, the survivor's value, the payout);
//   The Golden Age's flags where one can be bought (ga-flags.pos);
// - the end screen of a rated game of two accounts (played to the end with
//   random legal moves) says it was rated and each person's rating change,
//   as the server recorded them (GET /api/players/NAME);
// - a 390x844 phone: the decision panel stays on screen while the page
//   scrolls to the players, Building Amsterdam's plots are at least 36 px
//   wide, the market and the players are one tap away;
// - the money animation is never drawn over an open dialog;
// - a bot's seat link reads "ISMCTS 3, a bot (ISMCTS, strength 2)";
// - on a touch screen every card, event, action card, market level, company
//   token and money button has its words in a title, and a tap shows them.
// Screenshots to $CH_ARTIFACTS/explain (the merger dialog and the end
// screen, desktop 1280x900 and phone 390x844).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const BASE = process.env.CH_BASE;
const SRC = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const ART = path.join(process.env.CH_ARTIFACTS || path.join(process.cwd(), 'artifacts'), 'explain');
if (!BASE) { console.error('CH_BASE (the server address) is not set'); process.exit(2); }
fs.mkdirSync(ART, { recursive: true });
const failures = [];
function check(ok, what) { console.log(`${ok ? 'ok' : 'FAIL'} - ${what}`); if (!ok) failures.push(what); }

const LANGS = ['en', 'nl', 'ja'];
const cat = Object.fromEntries(LANGS.map((l) => [l, Object.assign({},
  JSON.parse(fs.readFileSync(path.join(SRC, 'web/i18n', `${l}.json`), 'utf8')),
  JSON.parse(fs.readFileSync(path.join(SRC, 'data/i18n', `${l}.json`), 'utf8')))]));
// a catalogue text with its placeholders filled
const fill = (l, key, args) => cat[l][key].replace(/\{(\w+)\}/g, (_, k) => (k in args ? String(args[k]) : `{${k}}`));
const browser = await chromium.launch({
  executablePath: process.env.CH_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
const pageErrors = [];
const DESKTOP = { width: 1280, height: 900 }, PHONE = { width: 390, height: 844 };
// the page's Content-Security-Policy refuses waitForFunction's eval: poll
async function until(page, fn, arg, ms = 60000) {
  const end = Date.now() + ms;
  for (;;) {
    if (await page.evaluate(fn, arg)) return;
    if (Date.now() > end) throw new Error(`timed out: ${fn}`);
    await page.waitForTimeout(150);
  }
}
async function newPage(l, viewport, ctxOpts = {}) {
  const ctx = await browser.newContext(Object.assign({ viewport, locale: l }, ctxOpts));
  await ctx.addInitScript((x) => localStorage.setItem('chartered.lang', x), l);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 40[134]/.test(m.text())) pageErrors.push(m.text()); });
  return page;
}
// A game from a position with one person (a guest) in seat `me`, bots in
// the others; the page opens that seat.
async function positionGame(l, viewport, file, players, me, edit = (x) => x) {
  const pos = edit(fs.readFileSync(path.join(SRC, 'tests/positions', file), 'utf8'));
  const seats = [...Array(players)].map((_, i) => (i === me ? { kind: 'human', name: 'Anke' } : { kind: 'bot', bot: 'greedy' }));
  const res = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ position: pos, seats }) });
  const game = await res.json();
  if (!res.ok) throw new Error(`${file}: ${JSON.stringify(game)}`);
  const page = await newPage(l, viewport);
  await page.context().request.post(`${BASE}/api/guest`, { data: { name: 'Anke' }, headers: { Origin: BASE } });
  await page.goto(`${BASE}/${game.seats[me].link.replace(/^\//, '')}`);
  await until(page, () => document.querySelector('#app').dataset.myTurn === '1');
  return page;
}
async function names(page, list) {
  return page.evaluate(async (xs) => { const m = await import('/web/js/moves.js'); return xs.map((x) => m.companyName(x)); }, list);
}
const text = (page, sel) => page.evaluate((s) => { const e = document.querySelector(s); return e ? e.textContent : null; }, sel);

try {
  // ---- Building Amsterdam: the rulebook's three-way merger ----
  for (const l of LANGS) {
    for (const [vw, vp] of l === 'en' ? [['desktop', DESKTOP], ['phone', PHONE]] : [['desktop', DESKTOP]]) {
      // Anke also holds a Gunpowder stock, so she decides to sell or keep it
      const page = await positionGame(l, vp, 'ba-merger-anke-quick-en.pos', 4, 2, (x) => x.replace('stocks 1 Gunpowder 2', 'stocks 1 Gunpowder 2\nstocks 3 Gunpowder 1'));
      const [tea, gun, por] = await names(page, ['Tea', 'Gunpowder', 'Porcelain']);
      await page.click('#hand button[data-card="Harbour F3"]');
      if (await page.locator('#chooser:not([hidden]) button.move').count()) await page.locator('#chooser button.move').first().click();
      await until(page, () => document.querySelector('#app').dataset.phase === 'credit' && document.querySelector('#app').dataset.myTurn === '1');
      // each choice's outcome, worked out by the engine (the frame's
      // "previews"): the credit, each pair with its holders' sales, the
      // survivor and the builder's payout
      const credit = Object.fromEntries(await page.$$eval('#merger-choices > li', (ls) => ls.map((x) => [x.dataset.move, x.textContent])));
      const item = (k, v, amount) => fill(l, 'merge.plan_sale_item', { name: '', k, value: v, amount }).trim();
      const teaWant = [fill(l, 'merge.plan_credit', { c: tea, from: 'f50', to: 'f60' }),
        fill(l, 'merge.plan_step', { b: tea, vb: 'f60', a: gun, va: 'f50' }), fill(l, 'merge.survivor', { b: tea, value: 'f110' }),
        item(2, 'f50', 'f100'), item(1, 'f50', 'f50'), item(1, 'f80', 'f80'),
        fill(l, 'merge.plan_step', { b: tea, vb: 'f110', a: por, va: 'f80' }), fill(l, 'merge.survivor', { b: tea, value: 'f190' }),
        fill(l, 'merge.plan_survivor', { b: tea, value: 'f190' }), fill(l, 'merge.choice_paid', { amount: 'f190' })];
      const teaMiss = teaWant.filter((x) => !(credit['credit Tea'] || '').includes(x));
      check(Object.keys(credit).length === 3 && teaMiss.length === 0, `${l} ${vw}: crediting Tea: f50 → f60, Tea absorbs Gunpowder (f110), then Porcelain (f190), each holder's sale, paid f190 (missing: ${teaMiss.join(' | ')}; "${(credit['credit Tea'] || '').slice(0, 300)}")`);
      const tieList = [fill(l, 'merge.plan_pair', { a: tea, b: gun }), fill(l, 'merge.plan_pair', { a: gun, b: tea })];
      check([tieList.join(' / '), [...tieList].reverse().join(' / ')].some((x) => (credit['credit Porcelain'] || '').includes(fill(l, 'merge.plan_choose', { list: x, value: 'f190' }))),
        `${l} ${vw}: crediting Porcelain leaves Tea and Gunpowder equal: the builder's choice, and the payout f190 whatever it is ("${(credit['credit Porcelain'] || '').slice(0, 200)}")`);
      const pay0 = await text(page, '#merger-payout');
      check(pay0 && pay0.includes(fill(l, 'merge.payout_you_n', { amount: 'f190' })) && pay0.includes(cat[l]['merge.when_ba']), `${l} ${vw}: the credit says what the builder is paid and when ("${pay0}")`);
      await page.click('#dialog button.move[data-move="credit Tea"]');
      await until(page, () => document.querySelector('#app').dataset.phase === 'merge-sell' && document.querySelector('#app').dataset.myTurn === '1');
      const pair = await text(page, '#merger-pair');
      check(pair && pair.includes(fill(l, 'merge.pair', { b: tea, vb: 'f60', a: gun, va: 'f50' })), `${l} ${vw}: who absorbs whom ("${pair}")`);
      const surv = await text(page, '#merger-survivor');
      check(surv === fill(l, 'merge.survivor', { b: tea, value: 'f110' }), `${l} ${vw}: the survivor's value after the merge ("${surv}")`);
      const pay = await text(page, '#merger-payout');
      check(pay && pay.includes(fill(l, 'merge.payout_you_n', { amount: 'f190' })) && pay.includes(cat[l]['merge.when_ba']), `${l} ${vw}: what the builder is paid and when ("${pay}")`);
      const pend = await text(page, '#merger-pending');
      check(pend === fill(l, 'dlg.pending', { list: `${por} (f80)` }), `${l} ${vw}: what is still to merge ("${pend}")`);
      const next = await text(page, '#merger-next');
      check(next && next.includes(fill(l, 'merge.plan_step', { b: tea, vb: 'f110', a: por, va: 'f80' })) && next.includes(fill(l, 'merge.plan_survivor', { b: tea, value: 'f190' }))
        && next.includes(fill(l, 'merge.plan_sell_then', { company: por, list: '' }).slice(0, -1).trim()) && next.includes(item(1, 'f80', 'f80')), `${l} ${vw}: what follows this pair, its sale then ("${next}")`);
      const cells = await page.$$eval('#merger-holders tbody tr', (rs) => rs.map((r) => [r.dataset.seat, [...r.querySelectorAll('td[data-company]')].map((td) => [td.dataset.company, td.textContent])]));
      const cell = (seat, co) => ((cells.find(([s]) => s === String(seat)) || [0, []])[1].find(([c]) => c === co) || [0, ''])[1];
      check(cell(0, 'Gunpowder').includes(fill(l, 'merge.sell_now', { amount: 'f100' })) && cell(2, 'Gunpowder').includes(fill(l, 'merge.sell_now', { amount: 'f50' }))
        && cell(3, 'Porcelain').includes(fill(l, 'merge.if_absorbed', { amount: 'f80' })) && !cell(1, 'Gunpowder').includes('f'),
      `${l} ${vw}: each holder's sale now (${cells.map(([s, cs]) => `${s}: ${cs.map(([c, x]) => `${c} ${x}`).join(', ')}`).join('; ')})`);
      const keep = await text(page, '#merger-holders');
      check(keep.includes(fill(l, 'merge.keep_may', { company: gun })) , `${l} ${vw}: what keeping may bring`);
      const sk = await text(page, '#merger-sell-keep');
      check(sk === fill(l, 'merge.sell_or_keep', { company: gun, value: 'f50' }), `${l} ${vw}: the seat's own sell-or-keep ("${sk}")`);
      if (l === 'en') {
        await page.screenshot({ path: path.join(ART, `merger-ba-${vw}.png`) });
        // the money animation is not drawn over the open dialog: a cash
        // change while it is open shows no float above it
        const over = await page.evaluate(async () => {
          const fx = await import('/web/js/effects.js');
          const node = document.querySelector('#players .player .facts');
          const before = +(document.body.dataset.moneyFlies || 0);
          fx.moneyFly(node, 50);
          const drawn = +(document.body.dataset.moneyFlies || 0) - before;
          const flies = [...document.querySelectorAll('.money-fly')];
          const layer = document.querySelector('#dialog');
          const onTop = flies.some((f) => { const r = f.getBoundingClientRect(); const at = document.elementFromPoint(r.left + 2, r.top + 2); return at === f; });
          return { drawn, onTop, open: !layer.hidden, zFly: flies.length ? getComputedStyle(flies[0]).zIndex : null };
        });
        check(over.open && over.drawn === 0 && !over.onTop, `${vw}: no money animation over an open dialog (${JSON.stringify(over)})`);
        // and a float drawn before a dialog opens passes below it
        const z = await page.evaluate(() => {
          const e = document.createElement('span'); e.className = 'money-fly'; document.body.appendChild(e);
          const zf = +getComputedStyle(e).zIndex; e.remove();
          return [zf, +getComputedStyle(document.querySelector('#dialog')).zIndex];
        });
        check(z[0] < z[1], `${vw}: a money float lies below the dialog layer (z ${z[0]} < ${z[1]})`);
      }
      await page.context().close();
    }
  }

  // ---- The Golden Age: each credit's outcome ----
  for (const l of LANGS) {
    const page = await positionGame(l, DESKTOP, 'ga-merger-110-100.pos', 3, 0);
    const [gold, tea] = await names(page, ['Gold', 'Tea']);
    await page.click('#hand button[data-card="Harbour 13"]');
    if (await page.locator('#chooser:not([hidden]) button.move').count()) await page.locator('#chooser button.move').first().click();
    await until(page, () => document.querySelector('#app').dataset.phase === 'credit' && document.querySelector('#app').dataset.myTurn === '1');
    const ch = Object.fromEntries(await page.$$eval('#merger-choices > li', (ls) => ls.map((x) => [x.dataset.move, x.textContent])));
    const teaWant = [fill(l, 'merge.plan_credit', { c: tea, from: 'f110', to: 'f120' }), fill(l, 'merge.plan_step', { b: tea, vb: 'f120', a: gold, va: 'f100' }),
      fill(l, 'merge.survivor', { b: tea, value: 'f220' }), fill(l, 'merge.plan_hidden', { company: gold }), fill(l, 'merge.choice_paid', { amount: 'f220' })];
    const miss = teaWant.filter((x) => !(ch['credit Tea'] || '').includes(x));
    check(miss.length === 0, `${l}: crediting Tea: +f10, Tea absorbs Gold, worth f220, the others' Gold hidden, paid f220 (missing ${miss.join(' | ')}; "${ch['credit Tea']}")`);
    const tieGA = [fill(l, 'merge.plan_pair', { a: tea, b: gold }), fill(l, 'merge.plan_pair', { a: gold, b: tea })];
    check([tieGA.join(' / '), [...tieGA].reverse().join(' / ')].some((x) => (ch['credit Gold'] || '').includes(fill(l, 'merge.plan_choose', { list: x, value: 'f220' }))),
      `${l}: crediting Gold makes a tie the builder decides, paid f220 either way ("${ch['credit Gold']}")`);
    const hold = await text(page, '#merger-holders');
    check(hold.includes(cat[l]['merge.ga_sold']) && hold.includes(cat[l]['merge.ga_hidden']), `${l}: every stock of the absorbed enterprise is sold, the others' hidden`);
    if (l === 'en') await page.screenshot({ path: path.join(ART, 'merger-ga-desktop.png') });
    await page.context().close();
  }

  // ---- The Golden Age's flags where one can be bought ----
  {
    // the position's own moves: play Harbour 13, found Gold, the two free
    // warehouses; then the trade decision offers the flag
    const page = await positionGame('en', DESKTOP, 'ga-flag-prices.pos', 2, 0);
    const step = async (fn) => { const d = await page.evaluate(() => document.querySelector('#app').dataset.decision); await fn(); await until(page, (x) => document.querySelector('#app').dataset.decision !== x && document.querySelector('#app').dataset.myTurn === '1', d); };
    await step(async () => { await page.click('#hand button[data-card="Harbour 13"]'); if (await page.locator('#chooser:not([hidden]) button.move').count()) await page.locator('#chooser button.move').first().click(); });
    await step(() => page.click('#dialog button.move[data-move="found Gold"]'));
    await page.click('#board .plot.playable[data-plot="Harbour 12"]');
    await step(() => page.click('#board .plot.playable[data-plot="Harbour 14"]'));
    // the page opened again, its frames read: what a flag scores is the
    // engine's figure in the state frame ("flag_worth"), which the page shows
    const worths = [];
    page.on('websocket', (ws) => ws.on('framereceived', (f) => {
      try { const m = JSON.parse(f.payload); if (m.type === 'state' && m.flag_worth) worths.push(m.flag_worth); } catch (e) { /* not JSON */ }
    }));
    await page.reload();
    await until(page, () => document.querySelector('#app').dataset.myTurn === '1' && !!document.querySelector('#flag-info'));
    const info = await text(page, '#flag-info');
    const items = await page.$$eval('#flag-info li', (ls) => ls.map((x) => [x.dataset.move, x.textContent]));
    const fw = worths[worths.length - 1] || {};
    check(info && info.includes(cat.en['flag.what']) && items.length > 0 && items.every(([m, x]) => fw[m] > 0 && /you pay f\d+; at today's value it counts 4 × f\d+ = f\d+/.test(x) && x.includes(`= f${fw[m]},`)),
      `The Golden Age: a flag's decision says what a flag is, costs and scores, the engine's figure (${items.map((x) => x[1]).join(' | ')}; ${JSON.stringify(fw)})`);
    await page.context().close();
  }

  // ---- a 390x844 phone: plots, the decision panel, the market and players ----
  {
    const page = await newPage('en', PHONE);
    await page.goto(`${BASE}/#/`);
    await page.click('#solo');
    await page.waitForSelector('#app[data-status="playing"]', { timeout: 30000 });
    await until(page, () => document.querySelector('#app').dataset.myTurn === '1');
    // a plot is a 48-unit cell of the board's SVG (board.js CELL): its
    // width on screen is 48 times the drawing's scale
    const plot = await page.$eval('#board svg.board', (svg) => 48 * svg.getScreenCTM().a);
    check(plot >= 36, `phone: a Building Amsterdam plot is ${plot.toFixed(1)} px wide (at least 36)`);
    const vis = async () => page.evaluate(() => { const r = document.querySelector('#decision').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight + 1 && r.height > 20; });
    check(await vis(), 'phone: the decision panel is on screen at the top of the page');
    for (const to of ['players', 'market']) {
      await page.click(`#phone-nav button[data-to="${to}"]`);
      await page.waitForTimeout(300);
      const seen = await page.evaluate((id) => { const r = document.querySelector(`#${id}`).getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }, to);
      check(seen && await vis(), `phone: one tap brings the ${to} into view, and the decision panel stays on screen`);
    }
    const wide = await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth + 1);
    check(wide, 'phone: the page itself does not scroll sideways (the board scrolls in its frame)');
    await page.screenshot({ path: path.join(ART, 'phone-game.png') });
    await page.context().close();
  }

  // ---- tooltips on a touch screen: every card, event, action card,
  // market level, company token and money button has its words in a title,
  // and a tap shows them ----
  {
    const page = await newPage('en', PHONE, { hasTouch: true, isMobile: true });
    await page.goto(`${BASE}/#/`);
    await page.click('#solo');
    await page.waitForSelector('#app[data-status="playing"]', { timeout: 30000 });
    await until(page, () => document.querySelector('#app').dataset.myTurn === '1');
    const untitled = await page.evaluate(() => {
      const sel = ['#hand .card', '#market .card', '#events .event-card', '#players .fact-tip', '.chart-row', '.legend-company', '#players .stock'];
      const bad = [];
      for (const q of sel) document.querySelectorAll(q).forEach((e) => { if (!e.getAttribute('title')) bad.push(q); });
      document.querySelectorAll('button.move').forEach((b) => { if (b.querySelector('.price') && !b.title) bad.push(`button ${b.dataset.move}`); });
      return { bad, levels: document.querySelectorAll('#market .card.level, #hand .card.level').length, actions: document.querySelectorAll('#players .fact-tip').length };
    });
    check(untitled.bad.length === 0 && untitled.actions > 0, `touch: every card, event, action card, company token and money button has a title (${untitled.bad.join(', ') || 'all'}; ${untitled.levels} level cards)`);
    const tapped = [];
    for (const q of ['#events .event-card', '#players .fact-tip', '.chart-row', '#market button.move[data-move="draw"]', '#market .card.level', '#market .card', '#hand .card']) {
      // the element brought to the top of the screen (above the fixed
      // decision panel), then a finger's tap on its middle
      // a tap may send a move (a market card, the draw button): the frames
      // it brings redraw the panels, so each tap waits for them to settle
      await page.waitForTimeout(800);
      const at = await page.evaluate((sel) => {
        const e = document.querySelector(sel);
        if (!e) return null;
        e.scrollIntoView({ block: 'start' });
        const r = e.getBoundingClientRect();
        return { x: r.left + Math.min(r.width / 2, 20), y: r.top + r.height / 2, title: e.getAttribute('title') };
      }, q);
      if (!at) continue;
      await page.waitForTimeout(100);
      await page.touchscreen.tap(at.x, at.y);
      const want = at.title;
      const got = await page.evaluate(() => { const b = document.querySelector('#tap-tip'); return b && !b.hidden ? b.textContent : null; });
      tapped.push([q, got === want]);
      await page.evaluate(async () => (await import('/web/js/tips.js')).hideTip());
      if (await page.locator('#chooser:not([hidden]) button.secondary').count()) await page.locator('#chooser button.secondary').click();
    }
    check(tapped.length >= 5 && tapped.every(([, ok]) => ok), `touch: a tap shows the title's words (${tapped.map(([q, ok]) => `${q} ${ok ? 'ok' : 'NO'}`).join(', ')})`);
    await page.context().close();
  }

  // ---- a bot's seat link ----
  {
    const page = await newPage('en', DESKTOP);
    await page.goto(`${BASE}/#/`);
    await page.click('#friends');
    const rows = page.locator('.seat-row');
    const last = rows.nth((await rows.count()) - 1);
    await last.locator('.seat-kind').selectOption('bot');
    await last.locator('.seat-bot').selectOption('ismcts');
    await page.click('#create');
    await page.waitForSelector('#created');
    const label = await page.$eval('#created li:last-child', (li) => li.textContent);
    check(/^Player \d+: ISMCTS \d+, a bot \(ISMCTS, strength 2\)$/.test(label.trim()), `a bot's seat link reads "${label.trim()}"`);
    await page.context().close();
  }

  // ---- the end of a rated game: rated, and each rating's change ----
  {
    const people = [];
    for (const name of ['anke', 'bram']) {
      const page = await newPage('en', DESKTOP, { bypassCSP: true });
      const user = `${name}${Date.now() % 100000}`;
      const r = await page.context().request.post(`${BASE}/api/signup`, { data: { name: user, password: `${user} password` } });
      check(r.status() === 201, `${user} signs up (${r.status()})`);
      people.push({ page, user });
    }
    const [A, B] = people;
    const r = await A.page.context().request.post(`${BASE}/api/games`, { data: { edition: 'golden-age', players: 2, seats: [{ kind: 'human' }, { kind: 'human', access: 'reserved' }] } });
    const game = await r.json();
    await A.page.goto(`${BASE}${game.seats[0].link}`);
    await B.page.goto(`${BASE}${game.seats[1].link}`);
    await Promise.all([A.page.waitForSelector('#log', { timeout: 30000 }), B.page.waitForSelector('#log', { timeout: 30000 })]);
    await Promise.all([playToEnd(A.page, game.id, 7), playToEnd(B.page, game.id, 11)]);
    for (const [P, vw, vp] of [[A, 'desktop', DESKTOP], [B, 'phone', PHONE]]) {
      await P.page.setViewportSize(vp);
      await P.page.waitForSelector('#result', { timeout: 30000 });
      await P.page.waitForSelector('#rating-changes li', { timeout: 15000 }).catch(() => {});
      const said = await text(P.page, '#end-rated-final');
      const lis = await P.page.$$eval('#rating-changes li', (ls) => ls.map((x) => x.textContent));
      const prof = await (await fetch(`${BASE}/api/players/${A.user}`)).json();
      const g = (prof.games || []).find((x) => x.id === game.id) || {};
      const d = g.rating_after - g.rating_before;
      check(await text(P.page, '#rated-note') === cat.en['rated.done_yes'], `${vw}: the game page's status says the finished game was rated`);
      check(said === cat.en['rated.was'] && lis.length === 2 && lis.includes(fill('en', 'rated.change', { name: A.user, before: g.rating_before, after: g.rating_after, delta: `${d >= 0 ? '+' : '−'}${Math.abs(d)}` })),
        `${vw}: the end screen says the game was rated and each rating's change (${said}: ${lis.join('; ')})`);
      if (vw === 'phone') {
        const sw = await P.page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
        check(sw[0] <= sw[1] + 1, `phone: the end screen does not widen the page (${sw[0]} <= ${sw[1]}): its table scrolls in its frame`);
      }
      await P.page.locator('#result').scrollIntoViewIfNeeded();
      await P.page.screenshot({ path: path.join(ART, `end-rated-${vw}.png`) });
    }
    for (const P of people) await P.page.context().close();
  }
  // an unrated game's end screen says so (a bot plays), in each language
  {
    const r = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ edition: 'golden-age', players: 2, seats: [{ kind: 'bot', bot: 'greedy' }, { kind: 'bot', bot: 'greedy' }] }) });
    const id = (await r.json()).id;
    for (const l of LANGS) {
      const w = await newPage(l, PHONE);
      await w.goto(`${BASE}/#/watch/${id}`);
      await w.waitForSelector('#result', { timeout: 60000 });
      check(await text(w, '#end-rated') === cat[l]['rated.no_bot'] && !(await w.locator('#rating-changes').count()), `${l}: an unrated game's end screen says it is unrated and shows no rating change`);
      if (l === 'en') { await w.locator('#result').scrollIntoViewIfNeeded(); await w.screenshot({ path: path.join(ART, 'end-unrated-phone.png') }); }
      await w.context().close();
    }
  }
} finally {
  await browser.close();
}

// Plays this page's seat of game gid to the end over a WebSocket of the
// page's session with random legal moves (as ratings.mjs does).
function playToEnd(page, gid, seed) {
  return page.evaluate(({ gid, seed }) => new Promise((resolve, reject) => {
    let s = seed;
    const rand = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
    let last = null;
    const timer = setTimeout(() => reject(new Error('the game did not end within 240 s')), 240000);
    ws.onopen = () => ws.send(JSON.stringify({ type: 'join', game: gid }));
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === 'error') {
        if (m.code === 'rate_limited' && last) setTimeout(() => ws.send(last), 100);
        else if (m.code !== 'stale') { clearTimeout(timer); reject(new Error(`error frame ${ev.data}`)); }
        return;
      }
      if (m.type !== 'state') return;
      if (m.status === 'over') { clearTimeout(timer); ws.close(); resolve(m.result); return; }
      if (!m.legal.length) return;
      const line = m.legal[Math.floor(rand() * m.legal.length)];
      let move = line;
      const range = /^range (.*) f(\d+) f(\d+)$/.exec(line);
      if (range) move = `${range[1]} f${+range[2] + Math.floor(rand() * (+range[3] - +range[2] + 1))}`;
      last = JSON.stringify({ type: 'move', move, decision: m.decision });
      ws.send(last);
    };
    ws.onerror = () => { clearTimeout(timer); reject(new Error('websocket error')); };
  }), { gid, seed });
}

check(pageErrors.length === 0, `no page errors${pageErrors.length ? ': ' + pageErrors.slice(0, 3).join(' | ') : ''}`);
if (failures.length) { console.log(`explain.mjs: ${failures.length} failed`); process.exit(1); }
console.log('explain.mjs: all passed');
