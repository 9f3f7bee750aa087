// ux-keys.mjs: keyboard-only play in the browser (issue 16, "Keyboard play
// and screen readers"), run by tests/web/run.sh (CTest web_keys).
// Games start from positions (docs/formats.md "Positions", POST /api/games)
// that lead each human seat to one kind of decision; every decision of those
// seats is made with the keyboard alone: Tab until the control is focused,
// then Enter (a plot, a card, a button, a chooser's choice, the dialog's
// opener), or digits and Enter in an amount field. Together the scenarios
// meet every decision type of both editions: Building Amsterdam's build,
// purchase (market, deck, refresh), option 3 sale, HQ placement, founding,
// merger credit and sale, trading, action card, stock event choice, sealed
// bid, Dreighinghe loss, Veilinge (option, auction bids, pick), Coopmanscappen
// (offer, give, ask an amount, propose, accept); The Golden Age's build,
// founding, the two free warehouses (two plots), flag, forced option and
// event-card sale. At every focused control the focus is visible (a ring of
// at least 2 px, or the plot's ring at 5 px or more) and not covered. The
// scenarios rotate through English, Dutch and Japanese at desktop and phone
// (390x844) widths: on a phone the page fits the screen's width; in Dutch and
// Japanese no English company or district name is on the page and the rule
// cited at the decision is not named in English. The live region announces
// the opponents' moves (it names them). The money animation runs when money
// changes hands, not at all with prefers-reduced-motion, nor once the
// animation switch is turned off (by keyboard). A screenshot of each decision
// type goes to $CH_ARTIFACTS/ux-keys.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const BASE = process.env.CH_BASE;
const ART = path.join(process.env.CH_ARTIFACTS || path.join(process.cwd(), 'artifacts'), 'ux-keys');
const LIMIT_MS = Number(process.env.CH_KEYS_LIMIT_MS || 900000);
if (!BASE) { console.error('CH_BASE (the server address) is not set'); process.exit(2); }
fs.mkdirSync(ART, { recursive: true });

const started = Date.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const failures = [];
function check(ok, what) { console.log(`${ok ? 'ok' : 'FAIL'} - ${what}`); if (!ok) failures.push(what); }
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const DIALOG_PHASES = new Set(['bid', 'auction', 'merge', 'merge-sell', 'offer', 'respond', 'coop', 'veilinge', 'pick', 'lose', 'event', 'found', 'credit']);

// ---- the positions -------------------------------------------------------
const EVENT_TABLE = (events) => `edition amsterdam
players 3
seed 9
turn 6 player 1 phase turn
warehouse Harbour B1 Coal hq
warehouse Harbour C1 Coal
company Coal f90
player 1 cash f300
stocks 1 Coal 2
player 2 cash f200
stocks 2 Coal 3
player 3 cash f100
stocks 3 Coal 1
hand 1 Jordaan A1, random 4
hand 2 random 5
hand 3 random 5
reserve L4, L3, L2, L2
events-open ${events}
`;
const POS = {
  // rulebook example "Founding a company": player 2 builds C1 between B1 and D1
  found: `edition amsterdam
players 3
seed 5
turn 1 player 2 phase turn
warehouse Harbour B1
warehouse Harbour D1
player 2 cash f100
hand 2 Harbour C1, random 4
hand 1 random 5
hand 3 random 5
`,
  // C2 touches the lone B1 only at a corner: the HQ placeholder is placed
  hq: `edition amsterdam
players 2
seed 1
turn 2 player 1 phase turn
warehouse Harbour B1
hand 1 Harbour C2, random 4
hand 2 random 5
`,
  // rulebook example "Merging multiple companies"
  merger: `edition amsterdam
players 3
seed 1
turn 5 player 1 phase turn
warehouse Harbour E2 Tea hq
warehouse Harbour F2 Tea
warehouse Harbour D3 Gunpowder hq
warehouse Harbour C3 Gunpowder
warehouse Harbour F3 Porcelain hq
warehouse Harbour F4 Porcelain
company Tea f50
company Gunpowder f50
company Porcelain f80
player 1 cash f100
player 2 cash f100
stocks 2 Gunpowder 2, Porcelain 1
player 3 cash f100
hand 1 Harbour E3, random 4
hand 2 random 5
hand 3 random 5
events-open Verlappen, Aenleggen, Dreighinghe
`,
  dreighinghe: EVENT_TABLE('Verlappen, Dreighinghe, Veilinge'),
  veilinge: EVENT_TABLE('Verlappen, Dreighinghe, Veilinge'),
  coop: EVENT_TABLE('Coopmanscappen, Aenleggen, Veilinge'),
  // a market to buy from, a refresh, the deck
  purchase: `edition amsterdam
players 2
seed 4
turn 2 player 2 phase turn
player 2 cash f250
hand 2 random 5
player 1 cash f150
hand 1 random 10
`,
  gaFree: `edition golden-age
players 3
seed 3
turn 3 player 1 phase turn
warehouse Harbour 4 height 2 Gold hq
warehouse Harbour 5 Gold
company Gold f40
player 1 cash f300 flags 2
hand 1 random 4
player 2 cash f200 flags 2
hand 2 random 5
player 3 cash f200 flags 2
hand 3 random 5
`,
  // The Golden Age's flags: f500, Harbour 3 expands Gold, then a flag
  gaFlags: `edition golden-age
players 2
seed 3
turn 3 player 1 phase turn
warehouse Harbour 4 height 2 Gold hq
warehouse Harbour 5 Gold
company Gold f40
player 1 cash f500 flags 2
hand 1 Harbour 3
player 2 cash f100 flags 2
hand 2 random 5
`,
  // the forced option: f20, no card: sell, then purchase
  gaForced: `edition golden-age
players 2
seed 3
turn 3 player 1 phase turn
warehouse Harbour 4 height 2 Gold hq
warehouse Harbour 5 Gold
company Gold f40
player 1 cash f20 flags 2
stocks 1 Gold 1
hand 1 none
player 2 cash f100 flags 2
hand 2 random 5
`,
  // an event card on top of the deck: every player sells
  gaEventSell: `edition golden-age
players 3
events on
seed 3
turn 3 player 1 phase turn
warehouse Harbour 4 height 2 Gold hq
warehouse Harbour 5 Gold
company Gold f60
player 1 cash f300 flags 2
stocks 1 Gold 2
player 2 cash f200 flags 2
stocks 2 Gold 1
player 3 cash f200 flags 2
hand 1 random 3
hand 2 random 5
hand 3 random 5
deck event sell 2, random
`,
};

// ---- the scenarios --------------------------------------------------------
// humans: the seats played by keyboard (0-based); intents: what each of them
// prefers, in order (a plot, a move button matching a pattern, an amount);
// want: the decision types each scenario must see made by keyboard.
const A = (re) => ({ move: re });
const SCENARIOS = [
  { name: 'ba-found', ed: 'amsterdam', pos: POS.found, humans: [1], locale: 'en-US', size: 'phone', money: 'on',
    intents: [{ plot: 'Harbour C1' }, A(/^found Coal$/), A(/^buy Coal$/), A(/^done$/)], want: ['turn', 'found', 'trade'] },
  { name: 'ba-hq', ed: 'amsterdam', pos: POS.hq, humans: [0], locale: 'nl-NL', size: 'desktop',
    intents: [{ plot: 'Harbour C2' }, { plot: 'Harbour C1' }, A(/^found /), A(/^done$/)], want: ['turn', 'hq', 'found'] },
  { name: 'ba-merger', ed: 'amsterdam', pos: POS.merger, humans: [0, 1], locale: 'ja-JP', size: 'phone',
    intents: [{ plot: 'Harbour E3' }, A(/^credit Tea$/), A(/^merge Gunpowder into Tea$/), A(/^merge /), A(/^sell Gunpowder$/), A(/^keep /), A(/^done$/)],
    want: ['turn', 'credit', 'merge-sell'] },
  { name: 'ba-dreighinghe', ed: 'amsterdam', pos: POS.dreighinghe, humans: [0, 2], locale: 'en-US', size: 'desktop',
    intents: [{ plot: 'Jordaan A1' }, A(/^action event$/), A(/^event Dreighinghe$/), { amount: 'bid', seat: 0, value: 30 }, { amount: 'bid', value: 'min' }, A(/^lose /), A(/^done$/)],
    want: ['trade', 'event', 'bid', 'lose'] },
  { name: 'ba-veilinge', ed: 'amsterdam', pos: POS.veilinge, humans: [0], locale: 'nl-NL', size: 'phone',
    intents: [{ plot: 'Jordaan A1' }, A(/^action event$/), A(/^event Veilinge$/), A(/^auction stock Coal$/), { amount: 'bid', value: 'min', once: true }, A(/^pass$/), A(/^done$/)],
    want: ['event', 'veilinge', 'auction'] },
  { name: 'ba-pick', ed: 'amsterdam', pos: POS.veilinge, humans: [0], locale: 'ja-JP', size: 'desktop',
    intents: [{ plot: 'Jordaan A1' }, A(/^action event$/), A(/^event Veilinge$/), A(/^auction deck$/), { amount: 'bid', value: 'max' }, A(/^pick /), A(/^done$/)],
    want: ['veilinge', 'auction', 'pick'] },
  { name: 'ba-coop', ed: 'amsterdam', pos: POS.coop, humans: [0, 1], locale: 'en-US', size: 'phone',
    intents: [{ plot: 'Jordaan A1' }, A(/^action event$/), A(/^event Coopmanscappen$/), A(/^offer P2$/), { move: /^give Coal$/, once: true }, { amount: 'ask', value: 50, once: true }, A(/^propose$/), A(/^accept$/), A(/^done$/)],
    want: ['coop', 'offer', 'respond'] },
  { name: 'ba-purchase', ed: 'amsterdam', pos: POS.purchase, humans: [1], locale: 'nl-NL', size: 'desktop', money: 'reduced',
    intents: [A(/^refresh$/), A(/^take Harbour/), A(/^take /), A(/^draw$/), A(/^done$/)], want: ['turn', 'purchase'] },
  { name: 'ba-sell', ed: 'amsterdam', pos: POS.dreighinghe, humans: [0], locale: 'ja-JP', size: 'phone',
    intents: [A(/^sell Coal$/), A(/^done$/)], want: ['sell'] },
  { name: 'ga-free', ed: 'golden-age', pos: POS.gaFree, humans: [0], locale: 'en-US', size: 'phone',
    intents: [{ plot: '*' }, A(/^found /), A(/^done$/)], want: ['turn', 'found', 'free'] },
  { name: 'ga-flags', ed: 'golden-age', pos: POS.gaFlags, humans: [0], locale: 'nl-NL', size: 'desktop', money: 'off',
    intents: [{ plot: 'Harbour 3' }, A(/^flag Gold$/)], want: ['turn', 'trade'], moves: [/^flag Gold$/] },
  { name: 'ga-forced', ed: 'golden-age', pos: POS.gaForced, humans: [0], locale: 'ja-JP', size: 'phone',
    intents: [A(/^sell Gold$/), A(/^draw$/), A(/^take /)], want: ['turn', 'forced'] },
  { name: 'ga-event-sell', ed: 'golden-age', pos: POS.gaEventSell, humans: [0], locale: 'nl-NL', size: 'phone',
    intents: [A(/^draw$/), A(/^sell Gold$/), A(/^sell /), A(/^done$/)], want: ['turn', 'event-sell'] },
];
const NEED = {
  amsterdam: ['turn', 'purchase', 'sell', 'hq', 'found', 'credit', 'merge-sell', 'trade', 'event', 'bid', 'lose', 'veilinge', 'auction', 'pick', 'coop', 'offer', 'respond'],
  'golden-age': ['turn', 'found', 'free', 'trade', 'forced', 'event-sell'],
};

const browser = await chromium.launch({
  executablePath: process.env.CH_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--autoplay-policy=no-user-gesture-required'],
});
const pageErrors = [];

// English names that Dutch or Japanese say otherwise: companies, districts,
// and the rulebook sections the decision panel cites.
const catalogues = {};
async function cat(lang) { if (!catalogues[lang]) catalogues[lang] = await (await fetch(`${BASE}/i18n/${lang}.json`)).json(); return catalogues[lang]; }
async function englishNames(lang) {
  const en = await cat('en'), other = await cat(lang);
  return [...new Set(Object.keys(en).filter((k) => /^(company\.(ba|ga)\.\d+|district\.\w+)$/.test(k) && other[k] !== en[k]).map((k) => en[k]))];
}
async function englishSections(lang) {
  const en = await cat('en'), other = await cat(lang);
  return [...new Set(Object.keys(en).filter((k) => k.startsWith('section.') && other[k] !== en[k]).map((k) => en[k]))];
}

async function info(page) {
  return page.evaluate(() => {
    const app = document.querySelector('#app');
    if (!document.querySelector('.game-page') || !app.dataset.status) return null;
    const vis = (e) => e && !e.closest('[hidden]') && (e instanceof SVGElement || e.offsetParent !== null);
    const chooserOpen = !document.querySelector('#chooser').hidden, dialogOpen = !document.querySelector('#dialog').hidden;
    const scope = chooserOpen ? '#chooser' : dialogOpen ? '#dialog' : '.game-layout';
    const amounts = {};
    for (const i of document.querySelectorAll(`${scope} input.amount`)) if (vis(i)) amounts[i.id.replace(/^amount-/, '')] = { min: +i.min, max: +i.max, step: +i.step };
    return {
      decision: +app.dataset.decision, phase: app.dataset.phase, status: app.dataset.status, myTurn: app.dataset.myTurn === '1',
      chooserOpen, dialogOpen, scope,
      moves: [...document.querySelectorAll(`${scope} button[data-move]`)].filter((b) => vis(b) && !b.disabled).map((b) => b.dataset.move),
      plots: chooserOpen || dialogOpen ? [] : [...document.querySelectorAll('#board .plot.playable')].map((g) => g.dataset.plot),
      chosen: document.querySelectorAll('#board .plot.chosen').length,
      openDialog: !dialogOpen && !!document.querySelector('#open-dialog'),
      amounts,
    };
  });
}

// Tab (forwards) until the focused element matches sel; then the focus must
// be visible and the control on screen, not covered. Returns the problems.
async function tabTo(page, sel) {
  for (let i = 0; i < 500; i++) {
    const got = await page.evaluate((s) => {
      const e = document.activeElement;
      if (!e || !e.matches || !e.matches(s)) return null;
      const fv = e.matches(':focus-visible');
      let ring;
      if (e instanceof SVGElement) { const r = e.querySelector('.playable-ring'); ring = !!r && parseFloat(getComputedStyle(r).strokeWidth) >= 5; }
      else { const cs = getComputedStyle(e); ring = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2; }
      const r = e.getBoundingClientRect();
      const cx = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1), cy = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
      const top = document.elementFromPoint(cx, cy);
      const inView = r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
      return { fv, ring, inView, uncovered: !!top && (top === e || e.contains(top) || (top.closest && top.closest('label') && top.closest('label').contains(e))), tag: e.tagName };
    }, sel);
    if (got) {
      const bad = [];
      if (!got.fv || !got.ring) bad.push(`focus not visible on ${got.tag} ${sel}`);
      if (!got.inView || !got.uncovered) bad.push(`focused ${sel} is ${got.inView ? 'covered' : 'off screen'}`);
      return { found: true, bad };
    }
    await page.keyboard.press('Tab');
  }
  return { found: false, bad: [] };
}

// The control for the next decision of a keyboard player: [selector, kind, value].
function plan(st, intents, seat, done) {
  const esc = (s) => s.replace(/"/g, '\\"');
  const btn = (m) => [`${st.scope} button[data-move="${esc(m)}"]`, 'press', m];
  if (st.chooserOpen) {
    for (const it of intents) if (it.move) { const m = st.moves.find((x) => it.move.test(x)); if (m) return btn(m); }
    const plain = st.moves.filter((m) => !m.endsWith(' roof'));
    return btn((plain.length ? plain : st.moves)[0]);
  }
  if (DIALOG_PHASES.has(st.phase) && st.openDialog) return ['#open-dialog', 'press', 'open the dialog'];
  for (const it of intents) {
    if (it.seat !== undefined && it.seat !== seat) continue;
    if (it.once && done.has(it)) continue;
    if (it.plot && st.plots.length) {
      const p = it.plot === '*' ? st.plots[0] : st.plots.includes(it.plot) ? it.plot : null;
      if (p) return [`#board .plot.playable[data-plot="${esc(p)}"]`, 'press', `plot ${p}`, it];
    }
    if (it.move) { const m = st.moves.find((x) => it.move.test(x)); if (m) return [...btn(m), it]; }
    if (it.amount && st.amounts[it.amount]) {
      const a = st.amounts[it.amount];
      const v = it.value === 'min' ? a.min : it.value === 'max' ? a.max : Math.min(Math.max(it.value, a.min), a.max);
      return [`#amount-${it.amount}`, 'type', String(v), it];
    }
  }
  // nothing preferred: the free warehouses (any listed pair), else a plain
  // move (not withdrawing an offer), else the lowest amount
  if (st.plots.length) return [`#board .plot.playable[data-plot="${esc(st.plots[0])}"]`, 'press', `plot ${st.plots[0]}`];
  const good = st.moves.filter((m) => m !== 'withdraw' && m !== 'refresh');
  if (good.length) return btn(good.includes('pass') ? 'pass' : good.includes('done') ? 'done' : good[0]);
  const k = Object.keys(st.amounts)[0];
  if (k) return [`#amount-${k}`, 'type', String(st.amounts[k].min)];
  return null;
}

const seen = { amsterdam: new Set(), 'golden-age': new Set() };
const shots = new Set();
let liveOK = 0;

async function newSeatPage(sc, seat, link) {
  // bypassCSP: Playwright's waitForFunction runs its predicate through eval() in
  // the page, which the server's Content-Security-Policy (script-src 'self')
  // refuses; invites.mjs runs the pages under the policy.
  const ctx = await browser.newContext(Object.assign({ bypassCSP: true, locale: sc.locale, reducedMotion: sc.money === 'reduced' ? 'reduce' : 'no-preference' }, sc.size === 'phone' ? PHONE : DESKTOP));
  // a guest session for this seat (the seat link binds the seat to it)
  const r = await ctx.request.post(`${BASE}/api/guest`, { data: { name: `Key${seat + 1}` }, headers: { Origin: BASE } });
  if (!r.ok()) throw new Error(`guest session: ${r.status()}`);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => { pageErrors.push(`${sc.name}: ${e.message}`); console.log(`pageerror ${sc.name}: ${e.message}`); });
  await page.goto(`${BASE}/${link.replace(/^\//, '')}`);
  await page.waitForSelector('#app[data-status]', { timeout: 30000 });
  return page;
}

// The animation switch, turned off with the keyboard: the settings' summary
// (Enter opens it), then the check box (Space).
async function animOffByKeys(page) {
  let r = await tabTo(page, '.settings-box summary');
  if (!r.found) return false;
  await page.keyboard.press('Enter');
  r = await tabTo(page, '#pref-anim');
  if (!r.found) return false;
  await page.keyboard.press('Space');
  return page.evaluate(() => !document.querySelector('#pref-anim').checked && JSON.parse(localStorage.getItem('chartered.prefs') || '{}').anim === false);
}

async function runScenario(sc) {
  const seats = [];
  const nplayers = +/players (\d+)/.exec(sc.pos)[1];
  for (let i = 0; i < nplayers; i++) seats.push(sc.humans.includes(i) ? { kind: 'human', name: `Key${i + 1}` } : { kind: 'bot', bot: 'greedy' });
  const res = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ position: sc.pos, seats }) });
  const game = await res.json();
  if (!res.ok) throw new Error(`${sc.name}: the game was not created: ${JSON.stringify(game)}`);
  const lang = sc.locale.slice(0, 2);
  const names = lang === 'en' ? [] : await englishNames(lang);
  const sections = lang === 'en' ? [] : await englishSections(lang);
  const pages = [];
  for (const s of sc.humans) pages.push({ seat: s, page: await newSeatPage(sc, s, game.seats[s].link), done: new Set() });
  // the game starts when every person has taken their seat
  for (const P of pages) await P.page.waitForSelector('#app[data-status="playing"]', { timeout: 30000 });
  if (sc.money === 'off') check(await animOffByKeys(pages[0].page), `${sc.name}: the animation switch is turned off with the keyboard (kept in localStorage)`);
  const met = new Set(), moves = [];
  const problems = new Set();
  let n = 0, idle = Date.now(), lastLive = '';
  const botNames = await pages[0].page.evaluate(() => [...document.querySelectorAll('#players .player')].filter((p) => p.querySelector('.tag.bot')).map((p) => p.querySelector('.pname').childNodes[1].textContent));
  while (![...sc.want].every((w) => met.has(w)) || (sc.moves || []).some((re) => !moves.some((m) => re.test(m)))) {
    if (Date.now() - started > LIMIT_MS) throw new Error(`${sc.name}: time limit reached (met ${[...met].join(', ')})`);
    if (Date.now() - idle > 60000) throw new Error(`${sc.name}: no decision of a keyboard seat for 60 s (met ${[...met].join(', ')})`);
    if (n > 40) break;
    let acted = false;
    for (const P of pages) {
      const st = await info(P.page).catch(() => null);
      if (!st) continue;
      if (st.status === 'over') continue;
      // the live region: what the others did, with their names
      const live = await P.page.textContent('#live').catch(() => '');
      if (live && live !== lastLive) { lastLive = live; if (botNames.some((b) => live.includes(b))) liveOK++; }
      if (!st.myTurn) continue;
      const step = plan(st, sc.intents, P.seat, P.done);
      if (!step) throw new Error(`${sc.name}: nothing to do in phase ${st.phase}`);
      const [sel, kind, value, intent] = step;
      const key = `${sc.ed}-${st.phase}`;
      if (!shots.has(key) && !st.chooserOpen) { shots.add(key); await P.page.screenshot({ path: path.join(ART, `${key}-${lang}-${sc.size}.png`) }); }
      // the page in the language, on the screen's width
      if (sc.size === 'phone') {
        const fits = await P.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
        if (!fits) problems.add(`the page is wider than the phone in phase ${st.phase}`);
      }
      if (names.length || sections.length) {
        const text = await P.page.evaluate(() => document.body.innerText + '\n' + [...document.querySelectorAll('svg text, svg title, [aria-label], [title]')].map((e) => `${e.textContent} ${e.getAttribute('aria-label') || ''} ${e.getAttribute('title') || ''}`).join('\n'));
        const m = names.length && new RegExp(`\\b(${names.join('|')})\\b`).exec(text);
        if (m) problems.add(`English name "${m[1]}" on the ${lang} page in phase ${st.phase} ("${text.slice(Math.max(0, m.index - 40), m.index + 40).replace(/\s+/g, ' ')}")`);
        const rule = await P.page.evaluate(() => [...document.querySelectorAll('.rule-ref')].map((e) => e.textContent).join(' '));
        const s = sections.find((x) => rule.includes(x));
        if (s) problems.add(`the ${lang} decision cites the English section '${s}'`);
      }
      const r = await tabTo(P.page, sel);
      if (!r.found) throw new Error(`${sc.name}: Tab never reached ${sel} (phase ${st.phase})`);
      r.bad.forEach((b) => problems.add(`${b} (phase ${st.phase})`));
      if (kind === 'type') {
        await P.page.keyboard.press('Control+A');
        await P.page.keyboard.type(value);
        await P.page.keyboard.press('Enter');
      } else {
        await P.page.keyboard.press(n % 2 ? 'Enter' : (sel.includes('.plot') || sel.includes('button')) ? 'Space' : 'Enter');
      }
      if (intent) P.done.add(intent);
      // the decision is made, or a chooser or the second free plot asked for
      await P.page.waitForFunction((o) => {
        const app = document.querySelector('#app');
        return +app.dataset.decision > o.d || !document.querySelector('#chooser').hidden !== o.ch || document.querySelectorAll('#board .plot.chosen').length !== o.chosen ||
          !document.querySelector('#dialog').hidden !== o.dl || !document.querySelector('#error-banner').hidden;
      }, { d: st.decision, ch: st.chooserOpen, chosen: st.chosen, dl: st.dialogOpen }, { timeout: 20000 }).catch(() => {});
      const after = await P.page.evaluate(() => +document.querySelector('#app').dataset.decision);
      if (after > st.decision) {
        met.add(st.phase);
        seen[sc.ed].add(st.phase);
        if (kind === 'press' && value && !value.startsWith('plot') && value !== 'open the dialog') moves.push(value);
        if (kind === 'type') moves.push(`${sel.replace('#amount-', '')} f${value}`);
        n++;
        idle = Date.now();
      }
      const err = await P.page.evaluate(() => { const b = document.querySelector('#error-banner'); return b.hidden ? '' : b.textContent; });
      if (err) throw new Error(`${sc.name}: the server refused a keyboard move in phase ${st.phase}: ${err}`);
      acted = true;
    }
    if (!acted) await sleep(60);
  }
  check([...sc.want].every((w) => met.has(w)), `${sc.name} (${lang}, ${sc.size}): by keyboard only: ${[...met].join(', ')}${moves.length ? `; moves ${moves.join(', ')}` : ''}`);
  check(problems.size === 0, `${sc.name}: visible focus, nothing covered${sc.size === 'phone' ? ', fits the phone' : ''}${lang !== 'en' ? `, no English names or sections in ${lang}` : ''}${problems.size ? ': ' + [...problems].join('; ') : ''}`);
  if (sc.money) {
    const flies = await pages[0].page.evaluate(() => +(document.body.dataset.moneyFlies || 0));
    if (sc.money === 'on') check(flies > 0, `${sc.name}: money paid and received is animated (${flies} times)`);
    else check(flies === 0, `${sc.name}: no money animation with ${sc.money === 'reduced' ? 'prefers-reduced-motion' : 'the switch off'} (${flies})`);
  }
  for (const P of pages) await P.page.context().close();
}

try {
  // CH_KEYS_ONLY=ba-found,ga-free runs some scenarios (while working on them)
  const only = (process.env.CH_KEYS_ONLY || '').split(',').filter(Boolean);
  for (const sc of SCENARIOS) {
    if (only.length && !only.includes(sc.name)) continue;
    console.log(`# ${sc.name}`);
    await runScenario(sc);
  }
  for (const ed of ['amsterdam', 'golden-age']) {
    const missing = NEED[ed].filter((p) => !seen[ed].has(p));
    check(!missing.length, `${ed}: every decision type played by keyboard (${[...seen[ed]].join(', ')})${missing.length ? `; missing ${missing.join(', ')}` : ''}`);
  }
  check(liveOK > 0, `the live region announced the opponents' moves by name (${liveOK} times)`);
  check(pageErrors.length === 0, `no script errors in the pages (${pageErrors.length}${pageErrors.length ? ': ' + pageErrors[0] : ''})`);
} catch (e) {
  failures.push(e.message);
  console.log(`FAIL - ${e.stack || e.message}`);
  for (const [i, ctx] of browser.contexts().entries()) for (const [j, p] of ctx.pages().entries()) await p.screenshot({ path: path.join(ART, `failure-${i}-${j}.png`) }).catch(() => {});
} finally {
  await browser.close();
}
console.log(`ux-keys: ${failures.length ? 'FAILED' : 'passed'} in ${Math.round((Date.now() - started) / 1000)} s; screenshots in ${ART}`);
process.exit(failures.length ? 1 : 0);
