// tutorial.mjs: the tutorial of each edition (issue 31, item 2; web/js/tutorial.js,
// web/tutorial/EDITION.json, docs/tutorial.md), run by tests/web/run.sh (CTest
// web_tutorial). For each edition and each language (en, nl, ja) a new person
// (a fresh browser context: no session, no progress) opens the first page,
// clicks "Learn to play", starts the edition's tutorial and completes every
// step by clicking, as a newcomer would: the plot on the board, the card in
// the hand then the plot, the buttons of the decision or its dialog, an
// amount typed into the bid field. It fails when
// - a step's text (title, what to look at, the explanation of a wrong move,
//   what happened) is missing in that language, or is not the one shown;
// - a highlighted plot is not ringed on the board;
// - a language switch in a step leaves the card in the old language;
// - a step cannot be completed (its move is not offered, or the game does not
//   go on after it);
// - in English, at every step where another move is offered, that other
//   move is sent to the server instead of being explained (the card shows
//   the step's explanation, the game's decision number does not change);
// - the menu does not show every step done at the end, or a step cannot be
//   replayed from it;
// - a step's game is left in play (in "My games") once the learner moved on
//   (the tutorial ends each one: POST /api/games/ID/end);
// - an account's step done is not shown done in another browser logged in
//   to the account (the server keeps it: /api/tutorial), or a reset there
//   is not the server's too.
// It prints, per edition and language, the steps, the clicks a scripted
// newcomer made, the seconds the script took, and the minutes a person would
// need by a stated estimate (reading the texts shown at 200 words a minute,
// 500 characters a minute in Japanese, and 10 seconds to find and make each
// click). Screenshots go to $CH_ARTIFACTS/tutorial: a step at 1280x900 and at
// 390x844, a step in a dialog, the ninth step and the menu of each edition
// in each language (docs/screenshots/tutorial-*.png are copies).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const BASE = process.env.CH_BASE;
const SRC = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const ART = path.join(process.env.CH_ARTIFACTS || path.join(process.cwd(), 'artifacts'), 'tutorial');
if (!BASE) { console.error('CH_BASE (the server address) is not set'); process.exit(2); }
fs.mkdirSync(ART, { recursive: true });
const failures = [];
function check(ok, what) { if (!ok) { console.log(`FAIL - ${what}`); failures.push(what); } return ok; }

// CH_TUTORIAL_LANGS=en (a comma list) runs fewer languages, by hand
const LANGS = (process.env.CH_TUTORIAL_LANGS || 'en,nl,ja').split(',');
const EDITIONS = ['amsterdam', 'golden-age'];
const DATA = Object.fromEntries(EDITIONS.map((e) => [e, JSON.parse(fs.readFileSync(path.join(SRC, 'web/tutorial', `${e}.json`), 'utf8'))]));
const KEYS = ['title', 'look', 'wrong', 'after'];

// every text in every language, before any browser starts
for (const ed of EDITIONS) {
  for (const l of LANGS) {
    for (const k of ['summary', 'finished']) check(!!(DATA[ed].text[l] || {})[k], `${ed}: the edition's "${k}" text in ${l}`);
    for (const s of DATA[ed].steps) for (const k of KEYS) check(!!(s.text[l] || {})[k], `${ed} step ${s.id}: "${k}" in ${l}`);
  }
}

const browser = await chromium.launch({
  executablePath: process.env.CH_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
const pageErrors = [];
const DESKTOP = { width: 1280, height: 900 }, PHONE = { width: 390, height: 844 };
// waitForFunction uses eval() in the page, which the server's
// Content-Security-Policy refuses: poll with evaluate instead
async function until(page, fn, arg, ms = 30000, what = String(fn)) {
  const end = Date.now() + ms;
  for (;;) {
    if (await page.evaluate(fn, arg)) return true;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await page.waitForTimeout(60);
  }
}
async function newPage(l, viewport) {
  const ctx = await browser.newContext({ viewport, locale: l });
  await ctx.addInitScript((x) => localStorage.setItem('chartered.lang', x), l);
  const page = await ctx.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 40[134]/.test(m.text())) pageErrors.push(m.text()); });
  return page;
}

const answers = (step, m) => m === step.move || (!!step.accept && new RegExp(step.accept).test(m));
const norm = (s) => String(s || '').replace(/\s+/g, ' ').trim();

// the step is shown and the learner may move
async function stepReady(page, step) {
  await until(page, (id) => {
    const app = document.getElementById('app');
    const box = document.querySelector('#tutorial-card .tutorial-box');
    return app && app.dataset.tutorial === 'ask' && app.dataset.myTurn === '1' && box && box.dataset.step === id;
  }, step.id, 30000, `step ${step.id} ready`);
}

// One click, counted.
async function click(page, sel, count) {
  const loc = page.locator(sel).first();
  await loc.click();
  count.n++;
}
const plotSel = (p) => `svg.board .plot[data-plot="${p}"]`;

// The step's move, made by clicking as a newcomer would.
async function makeMove(page, step, count) {
  const m = step.move;
  let r;
  if ((r = /^play (L\d) (.+)$/.exec(m))) {
    await click(page, `#hand button.card[data-card="${r[1]}"]`, count);
    await click(page, plotSel(r[2]), count);
  } else if ((r = /^play (.+)$/.exec(m))) {
    await click(page, plotSel(r[1]), count);
  } else if ((r = /^free (.+) \+ (.+)$/.exec(m))) {
    await click(page, plotSel(r[1]), count);
    await click(page, plotSel(r[2]), count);
  } else if ((r = /^bid f(\d+)$/.exec(m))) {
    await page.fill('#amount-bid', r[1]);
    count.n++;
    await click(page, '#send-bid', count);
  } else {
    await click(page, `button[data-move="${m}"]:visible`, count);
  }
  // a plot standing for several moves opens a chooser
  if (await page.locator('#chooser:not([hidden]) button.move').count()) {
    await click(page, `#chooser button.move[data-move="${m}"]`, count);
  }
}

// Another move the page offers at this step, made: it must be explained and
// not sent.
async function wrongMove(page, step, ed) {
  const decision = await page.evaluate(() => document.getElementById('app').dataset.decision);
  const moves = await page.evaluate(() => [...document.querySelectorAll('button[data-move]')]
    .filter((b) => !b.disabled && b.offsetParent !== null).map((b) => b.dataset.move));
  const wrong = moves.find((x) => !answers(step, x));
  const asked = new Set([...step.move.matchAll(/((?:Harbour|Jordaan|Canal Ring|Old Side|City Centre) [A-Z]?\d+)/g)].map((x) => x[1]));
  const plots = await page.evaluate(() => [...document.querySelectorAll('svg.board .plot.playable')].map((g) => g.dataset.plot));
  const plot = plots.find((p) => !asked.has(p));
  if (wrong) await page.locator(`button[data-move="${wrong}"]:visible`).first().click();
  else if (plot && !/^free /.test(step.move)) await page.locator(plotSel(plot)).click();
  else return false;
  if (await page.locator('#chooser:not([hidden]) button.move').count()) {
    const first = await page.locator('#chooser button.move').first().getAttribute('data-move');
    if (answers(step, first)) return false;
    await page.locator('#chooser button.move').first().click();
  }
  await until(page, () => document.getElementById('app').dataset.tutorial === 'wrong', null, 5000, `${ed} ${step.id}: a wrong move explained`);
  const text = norm(await page.textContent('#tutorial-card .tutorial-wrong'));
  check(text.includes(norm(step.text.en.wrong)), `${ed} step ${step.id}: a wrong move (${wrong || plot}) shows the step's explanation ("${text.slice(0, 80)}")`);
  await page.waitForTimeout(300);
  const after = await page.evaluate(() => document.getElementById('app').dataset.decision);
  check(after === decision, `${ed} step ${step.id}: the wrong move was not sent (decision ${decision} → ${after})`);
  return true;
}

// reading time of the texts a step shows, in seconds
function readSeconds(l, texts) {
  const all = texts.join(' ');
  return l === 'ja' ? all.replace(/\s/g, '').length / 500 * 60 : all.split(/\s+/).filter(Boolean).length / 200 * 60;
}

const report = [];
try {
  for (const ed of EDITIONS) {
    const data = DATA[ed];
    for (const l of LANGS) {
      const page = await newPage(l, DESKTOP);
      const count = { n: 0 };
      const t0 = Date.now();
      let wrongs = 0;
      let read = readSeconds(l, [data.text[l].summary]);
      await page.goto(`${BASE}/#/`);
      await click(page, '#learn', count);
      await page.waitForSelector(`#tutorial-start-${ed}`);
      check(norm(await page.textContent(`#tutorial-${ed}`)).includes(norm(data.text[l].summary)), `${ed} ${l}: the menu shows the edition's summary`);
      await click(page, `#tutorial-start-${ed}`, count);
      for (const [i, step] of data.steps.entries()) {
        const T = step.text[l];
        try {
          await stepReady(page, step);
        } catch (e) { check(false, `${ed} ${l} step ${i + 1} (${step.id}): ${e.message}`); break; }
        check(norm(await page.textContent('#tutorial-card .tutorial-title')) === norm(T.title), `${ed} ${l} step ${step.id}: the title shown`);
        check(norm(await page.textContent('#tutorial-card .tutorial-text')) === norm(T.look), `${ed} ${l} step ${step.id}: what to look at shown`);
        const rings = await page.locator('svg.board .plot.tut-mark .tut-ring').count();
        check(rings === (step.highlight.plots || []).length, `${ed} ${l} step ${step.id}: ${(step.highlight.plots || []).length} plots ringed (${rings})`);
        for (const sel of step.highlight.panels || []) check(await page.locator(`${sel}.tut-mark-panel`).count() === 1, `${ed} ${l} step ${step.id}: ${sel} outlined`);
        if (ed === 'amsterdam' && l === 'en' && i === 0) await page.screenshot({ path: path.join(ART, 'tutorial-step.png') });
        if (i === 8) await page.screenshot({ path: path.join(ART, `tutorial-${ed}-${step.id}-${l}.png`) });
        // a language switch redraws the card in the new language
        if (l === 'en' && i === 1) {
          await page.selectOption('#lang', 'nl');
          await until(page, (x) => (document.querySelector('#tutorial-card .tutorial-title') || {}).textContent === x, step.text.nl.title, 10000, 'the card in Dutch');
          await page.selectOption('#lang', 'en');
          await until(page, (x) => (document.querySelector('#tutorial-card .tutorial-title') || {}).textContent === x, step.text.en.title, 10000, 'the card in English again');
          await stepReady(page, step);
        }
        if (l === 'en' && await wrongMove(page, step, ed)) wrongs++;
        try {
          await makeMove(page, step, count);
          await until(page, () => document.getElementById('app').dataset.tutorial === 'done', null, 20000, 'the move taken');
        } catch (e) { check(false, `${ed} ${l} step ${step.id}: the move ${step.move} could not be made: ${e.message}`); break; }
        check(norm(await page.textContent('#tutorial-card .tutorial-text')) === norm(T.after), `${ed} ${l} step ${step.id}: what happened shown`);
        read += readSeconds(l, [T.title, T.look, T.after]);
        // the way on: in the dialog when one covers the page, else the card's
        const inDialog = await page.locator('#dialog:not([hidden]) .tutorial-next').count();
        if (i === data.steps.length - 1) check(norm(await page.textContent('#tutorial-card')).includes(norm(data.text[l].finished)), `${ed} ${l}: the last step says the tutorial is finished`);
        await click(page, inDialog ? '#dialog .tutorial-next' : i < data.steps.length - 1 ? '#tutorial-next' : '#tutorial-finish', count);
      }
      const secs = (Date.now() - t0) / 1000;
      // every step's game was ended when its step was left (POST
      // /api/games/ID/end); the last one is over: nothing is left in play
      let left = -1;
      for (let k = 0; k < 20 && left !== 0; k++) {
        left = await page.evaluate(async () => (await (await fetch('/api/my-games')).json()).games.length);
        if (left) await page.waitForTimeout(250);
      }
      check(left === 0, `${ed} ${l}: no tutorial game left in "My games" (${left})`);
      await page.waitForSelector(`#tutorial-progress-${ed}`);
      await page.screenshot({ path: path.join(ART, `tutorial-menu-${ed}-${l}.png`), fullPage: true });
      const done = await page.locator(`#tutorial-${ed} li.done`).count();
      check(done === data.steps.length, `${ed} ${l}: the menu marks all ${data.steps.length} steps done (${done})`);
      if (l === 'en') check(wrongs >= data.steps.length / 2, `${ed}: wrong moves explained at ${wrongs} of ${data.steps.length} steps`);
      const minutes = (read + count.n * 10) / 60;
      report.push(`${ed} ${l}: ${data.steps.length} steps, ${count.n} clicks, ${secs.toFixed(1)} s scripted, about ${minutes.toFixed(1)} minutes for a person (reading ${Math.round(read)} s + 10 s a click)${l === 'en' ? `; wrong moves explained at ${wrongs} steps` : ''}`);
      // a step replayed from the menu: a new game of that step
      if (l === 'en') {
        await page.click(`#tutorial-${ed} li[data-step="${data.steps[2].id}"] a`);
        await stepReady(page, data.steps[2]);
        await page.click(await page.locator('#dialog:not([hidden]) .tutorial-replay').count() ? '#dialog .tutorial-replay' : '#tutorial-replay');
        await stepReady(page, data.steps[2]);
      }
      await page.context().close();
    }
  }
  // an account's progress is the server's (GET/POST /api/tutorial): a step
  // done in one browser is marked in another one logged in to the same
  // account, and "Start again" forgets it there too
  {
    const ed = 'amsterdam', step = DATA[ed].steps[0];
    const login = async (page, path) => {
      const r = await page.context().request.post(`${BASE}/api/${path}`, { data: { name: 'Learner', password: 'learner secret pw' }, headers: { Origin: BASE } });
      check(r.ok(), `the account ${path}: ${r.status()}`);
    };
    const menuDone = async (page) => {
      await page.goto(`${BASE}/#/learn`);
      await page.waitForSelector(`#tutorial-progress-${ed}`);
      await page.waitForTimeout(300);
      return page.locator(`#tutorial-${ed} li.done`).count();
    };
    const a = await newPage('en', DESKTOP);
    await login(a, 'signup');
    await a.goto(`${BASE}/#/learn/${ed}/1`);
    await stepReady(a, step);
    await makeMove(a, step, { n: 0 });
    await until(a, () => document.getElementById('app').dataset.tutorial === 'done', null, 20000, 'the account\'s move taken');
    let kept = false;
    for (let k = 0; k < 40 && !kept; k++) {
      kept = await a.evaluate(async (x) => ((await (await fetch('/api/tutorial')).json()).done || {})[x.ed]?.includes(x.id), { ed, id: step.id });
      if (!kept) await a.waitForTimeout(100);
    }
    check(kept, 'an account\'s step done is kept by the server');
    await a.context().close();
    const b = await newPage('en', DESKTOP);
    await login(b, 'login');
    check(await menuDone(b) === 1, 'another browser of the same account shows the step done');
    check(norm(await b.textContent('#tutorial-kept')) === norm(JSON.parse(fs.readFileSync(path.join(SRC, 'web/i18n/en.json'), 'utf8'))['tutorial.kept_account']), 'the menu says the progress is kept for the account');
    await b.click(`#tutorial-reset-${ed}`);
    await until(b, (x) => document.querySelectorAll(`#tutorial-${x} li.done`).length === 0, ed, 10000, 'the reset shown');
    await b.context().close();
    const c = await newPage('en', DESKTOP);
    await login(c, 'login');
    check(await menuDone(c) === 0, 'a reset is the server\'s too: a third browser shows no step done');
    await c.context().close();
  }
  // a step at a phone's width, for the docs
  {
    const page = await newPage('en', PHONE);
    await page.goto(`${BASE}/#/learn/amsterdam/2`);
    await stepReady(page, DATA.amsterdam.steps[1]);
    await page.screenshot({ path: path.join(ART, 'tutorial-step-phone.png') });
    // "Show me" brings the ringed plots into view, above the decision panel
    await page.click('#tutorial-show');
    await page.waitForTimeout(800);
    const seen = await page.evaluate(() => {
      const r = document.querySelector('svg.board .plot.tut-mark').getBoundingClientRect();
      const d = document.getElementById('decision').getBoundingClientRect();
      const bottom = getComputedStyle(document.getElementById('decision')).position === 'fixed' ? d.top : innerHeight;
      return r.top >= 0 && r.bottom <= bottom;
    });
    check(seen, 'phone: "Show me" brings the ringed plot into view, clear of the decision panel');
    await page.screenshot({ path: path.join(ART, 'tutorial-show-phone.png') });
    const desk = await newPage('en', DESKTOP);
    await desk.goto(`${BASE}/#/learn/amsterdam/11`);
    await stepReady(desk, DATA.amsterdam.steps[10]);
    await desk.screenshot({ path: path.join(ART, 'tutorial-step-dialog.png') });
  }
} catch (e) {
  check(false, `exception: ${e.stack || e}`);
} finally {
  await browser.close();
}
for (const line of report) console.log(line);
check(pageErrors.length === 0, `no page errors (${pageErrors.slice(0, 3).join(' | ')})`);
if (failures.length) { console.log(`${failures.length} failure(s)`); process.exit(1); }
console.log('tutorial.mjs: all checks passed');
