// learn.mjs: what a newcomer meets first (issue 31), run by tests/web/run.sh
// (CTest web_learn):
// - the first visit says what the game is (a sentence on the game and one on
//   each edition) and offers the ways in: the solo buttons, "Play with
//   friends" (one click brings the create form into view, every other seat
//   a person's), and the rules of each edition; in en, nl and ja;
// - the rules page of each edition renders data/rules/<edition>.<lang>.md
//   (every section, with its heading, in the page's language);
// - every decision type of both editions (the lists of
//   tests/test_rules_text.c) has a citation link, and in all three languages
//   it lands on an existing section whose heading contains the words the
//   decision cites (the catalogue's section.*);
// - in a real game the decision's "Rules: ..." line is that link;
// - the rough edges of the issue: "1 day per move"; after the end, the
//   status says once that the game is over and no "turn" tag is left; every
//   company has its own mark (Silver and Silk, Zilver and Zijde); the
//   tie-break note only when two players have equal money; a spectator
//   without a session is not offered chat;
// - rated or not, on the create form, the game page and the end screen;
// - a language switch in a game leaves no log line, chat or settings text in
//   the old language.
// Screenshots (desktop 1280x900 and phone 390x844) go to $CH_ARTIFACTS/learn.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const BASE = process.env.CH_BASE;
const SRC = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const ART = path.join(process.env.CH_ARTIFACTS || path.join(process.cwd(), 'artifacts'), 'learn');
if (!BASE) { console.error('CH_BASE (the server address) is not set'); process.exit(2); }
fs.mkdirSync(ART, { recursive: true });
const failures = [];
function check(ok, what) { console.log(`${ok ? 'ok' : 'FAIL'} - ${what}`); if (!ok) failures.push(what); }

const LANGS = ['en', 'nl', 'ja'];
const cat = Object.fromEntries(LANGS.map((l) => [l, Object.assign({},
  JSON.parse(fs.readFileSync(path.join(SRC, 'web/i18n', `${l}.json`), 'utf8')),
  JSON.parse(fs.readFileSync(path.join(SRC, 'data/i18n', `${l}.json`), 'utf8')))]));
// the decision types of each edition, as tests/test_rules_text.c lists them
const PHASES = {
  amsterdam: ['turn', 'purchase', 'hq', 'found', 'credit', 'merge', 'merge-sell', 'trade', 'sell', 'event', 'bid', 'lose', 'coop', 'offer', 'respond', 'veilinge', 'auction', 'pick', 'over'],
  'golden-age': ['turn', 'purchase', 'found', 'free', 'credit', 'merge', 'trade', 'forced', 'event-sell', 'over'],
};
const sectionsOf = (ed, l) => [...fs.readFileSync(path.join(SRC, 'data/rules', `${ed}.${l}.md`), 'utf8').matchAll(/^## (.*?)\s*\{#([a-z0-9-]+)\}$/gm)].map((m) => ({ title: m[1], id: m[2] }));

const browser = await chromium.launch({
  executablePath: process.env.CH_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
});
const pageErrors = [];
const DESKTOP = { width: 1280, height: 900 }, PHONE = { width: 390, height: 844 };
// waitForFunction evaluates its predicate with eval() in the page, which
// the server's Content-Security-Policy refuses (as invites.mjs found): poll
// with evaluate instead
async function until(page, fn, arg, ms = 60000) {
  const end = Date.now() + ms;
  for (;;) {
    if (await page.evaluate(fn, arg)) return;
    if (Date.now() > end) throw new Error(`timed out: ${fn}`);
    await page.waitForTimeout(150);
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
try {
  // ---- the first visit, in each language, at both widths ----
  for (const l of LANGS) {
    for (const [vw, vp] of [['desktop', DESKTOP], ['phone', PHONE]]) {
      const page = await newPage(l, vp);
      await page.goto(`${BASE}/#/`);
      await page.waitForSelector('#welcome');
      const text = await page.textContent('#welcome');
      const C = cat[l];
      check(['welcome.game', 'welcome.ba', 'welcome.ga', 'welcome.bots', 'welcome.friends', 'welcome.rules'].every((k) => text.includes(C[k])),
        `${l} ${vw}: the first visit says what the game and each edition are, and names the three ways in`);
      // the welcome comes first: its top is on the first screen
      const box = await page.locator('#welcome').boundingBox();
      check(box && box.y < vp.height / 3, `${l} ${vw}: the welcome is at the top of the first screen (y=${box && Math.round(box.y)})`);
      for (const id of ['#solo', '#solo-ga', '#friends', '#rules-ba', '#rules-ga']) {
        check(await page.locator(`#welcome ${id}`).isVisible(), `${l} ${vw}: ${id} is offered on the first visit`);
      }
      await page.screenshot({ path: path.join(ART, `first-visit-${l}-${vw}.png`), fullPage: false });
      if (l === 'en') {
        // one click: the create form in view, its first field focused, and
        // every seat but the creator's a person's
        await page.click('#friends');
        await until(page, () => document.activeElement && document.activeElement.id === 'edition');
        const kinds = await page.$$eval('.seat-row .seat-kind', (s) => s.map((x) => x.value));
        check(kinds.length >= 2 && kinds.every((k) => k === 'human'), `${vw}: "Play with friends" makes every seat a person's (${kinds.join(',')})`);
        const fb = await page.locator('#create-form').boundingBox();
        const top = await page.$eval('header.top', (e) => e.getBoundingClientRect().bottom);
        check(fb && fb.y >= top - 1 && fb.y < vp.height / 2, `${vw}: "Play with friends" brings the create form into view below the header (y=${fb && Math.round(fb.y)}, header ${Math.round(top)})`);
        await page.click('#welcome #rules-ga');
        await page.waitForSelector('#rules-page[data-edition="golden-age"]');
        check(true, `${vw}: "Read the rules" opens the rules page in one click`);
      }
      await page.context().close();
    }
  }

  // ---- the rules pages: every section of each edition, in each language ----
  for (const l of LANGS) {
    const page = await newPage(l, DESKTOP);
    for (const ed of Object.keys(PHASES)) {
      await page.goto(`${BASE}/#/rules/${ed}`);
      await page.waitForSelector(`#rules-page[data-edition="${ed}"]`);
      const want = sectionsOf(ed, l);
      const got = await page.$$eval('#rules-page section.rules-section', (ss) => ss.map((s) => ({ id: s.id.replace(/^rules-/, ''), title: s.querySelector('h2').textContent, paras: s.querySelectorAll('p, li').length })));
      check(got.length === want.length && want.every((s, i) => got[i].id === s.id && got[i].title === s.title && got[i].paras > 0),
        `${l} ${ed}: the rules page shows all ${want.length} sections of data/rules/${ed}.${l}.md, each with its heading and text`);
      const raw = await page.textContent('#rules-page');
      check(!/\*\*|\{#|^#/m.test(raw), `${l} ${ed}: no Markdown marks are left in the page`);
      if (l !== 'en') check(await page.$eval('#rules-page h1', (e) => e.textContent) !== sectionsOf(ed, 'en')[0].title, `${l} ${ed}: the page is in the page's language`);
      // every decision type's citation lands on a section whose heading
      // contains the words the decision cites
      let landed = 0;
      const wrong = [];
      for (const ph of PHASES[ed]) {
        const href = await page.evaluate(async ([e, p]) => (await import('/web/js/rules.js')).citeHref(e, p), [ed, ph]);
        const key = ed === 'golden-age' && cat[l][`section.ga.${ph}`] ? `section.ga.${ph}` : `section.${ph}`;
        if (!href) { wrong.push(`${ph}: no link`); continue; }
        await page.goto(`${BASE}/${href}`);
        const h2 = await page.waitForSelector(`#rules-h-${href.split('/').pop()}`, { timeout: 5000 }).catch(() => null);
        const title = h2 ? await h2.textContent() : null;
        if (title && title.includes(cat[l][key])) landed++;
        else wrong.push(`${ph} -> ${href}: "${title}" lacks "${cat[l][key]}"`);
        if (h2 && ph === 'merge' && ed === 'amsterdam' && l === 'en') {
          const focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
          check(focused === 'rules-h-merge', 'a citation opens the rules page at its section, focused');
        }
      }
      check(landed === PHASES[ed].length, `${l} ${ed}: all ${PHASES[ed].length} decision types cite a section that exists${wrong.length ? ': ' + wrong.join('; ') : ''}`);
    }
    await page.context().close();
  }
  for (const [vw, vp] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const page = await newPage('en', vp);
    await page.goto(`${BASE}/#/rules/amsterdam/merge`);
    await page.waitForSelector('#rules-h-merge');
    await page.screenshot({ path: path.join(ART, `rules-en-${vw}.png`) });
    await page.context().close();
  }

  // ---- help at every decision type, in each language: the client's help
  // key for it names a text of that language (not the key, not English) ----
  {
    const page = await newPage('en', DESKTOP);
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('#welcome');
    for (const l of LANGS) {
      const res = await page.evaluate(async ([l, phases]) => {
        const i18n = await import('/web/js/i18n.js');
        const { helpKey } = await import('/web/js/game.js');
        await i18n.setLang(l);
        const out = {};
        for (const [ed, list] of Object.entries(phases)) for (const p of list) out[`${ed}/${p}`] = [helpKey(ed, p), i18n.t(helpKey(ed, p))];
        return out;
      }, [l, PHASES]);
      const bad = Object.entries(res).filter(([, [k, text]]) => !text || text === k || text !== cat[l][k] || (l !== 'en' && text === cat.en[k]));
      check(Object.keys(res).length === 29 && !bad.length, `${l}: all 29 decision types of both editions have a help text in ${l}${bad.length ? ': ' + bad.map(([x]) => x).join(', ') : ''}`);
    }
    await page.context().close();
  }

  // ---- in a game: the decision's help, the prices of its choices, the
  // tooltips of its priced buttons; its citation is a link to its section ----
  for (const [vw, vp] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    const page = await newPage('en', vp);
    await page.goto(`${BASE}/#/`);
    await page.click('#solo');
    await page.waitForSelector('#app[data-status="playing"]', { timeout: 30000 });
    await until(page, () => document.querySelector('#app').dataset.myTurn === '1');
    const help = await page.waitForSelector('#decision #help-text');
    const key = await help.getAttribute('data-key');
    check(await help.isVisible() && (await help.textContent()) === cat.en[key], `${vw}: the decision panel shows the decision's help text (${key})`);
    const prices = await page.$$eval('#choice-prices li', (lis) => lis.map((li) => [li.dataset.move, li.querySelector('.price').textContent]));
    check(prices.length > 0 && prices.every(([m, p]) => /^[+−]f\d+$/.test(p)), `${vw}: the panel lists what its choices cost or bring (${prices.map(([m, p]) => `${m} ${p}`).join(', ')})`);
    const tips = await page.$$eval('button.move', (bs) => bs.filter((b) => b.querySelector('.price')).map((b) => [b.title, b.querySelector('.price').textContent.replace('−', '').replace('+', '')]));
    check(tips.length > 0 && tips.every(([title, amount]) => title.includes(amount) && /you (pay|receive)/.test(title)), `${vw}: every button that costs or brings money has a tooltip naming the amount (${tips.length}: ${tips.slice(0, 2).map(([x]) => x).join('; ')})`);
    await page.locator('#decision').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ART, `decision-help-en-${vw}.png`) });
    await page.context().close();
  }
  // ---- the rough edges of issue 31's "Why", each checked ----
  {
    const page = await newPage('en', DESKTOP);
    await page.goto(`${BASE}/#/`);
    await page.waitForSelector('#mode');
    // rated or not, on the create form: a bot seat, every seat a person's,
    // a chosen seed
    check(await page.textContent('#rated-form') === cat.en['rated.no_bot'], 'the create form says a game with a bot is unrated');
    await page.click('#friends');
    check(await page.textContent('#rated-form') === cat.en['rated.if_accounts'], 'the create form says a game of people is rated if each has an account');
    await page.fill('#seed', '7');
    check(await page.textContent('#rated-form') === cat.en['rated.no_practice'], 'the create form says a game with a chosen seed is unrated (practice)');
    const days = await page.$$eval('#mode option', (os) => os.map((o) => o.textContent));
    check(days.includes('turn-based, 1 day per move') && days.includes('turn-based, 2 days per move') && !days.some((d) => /\b1 days\b/.test(d)),
      `the pace reads "1 day per move", not "1 days" (${days.join(' | ')})`);
    await page.context().close();
    // games of bots only, finished at once, watched without a session
    const games = {};
    for (const ed of ['golden-age', 'amsterdam']) {
      const r = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ edition: ed, players: 2, seats: [{ kind: 'bot', bot: 'greedy' }, { kind: 'bot', bot: 'greedy' }] }) });
      games[ed] = (await r.json()).id;
    }
    for (const l of ['en', 'nl']) {
      for (const ed of ['golden-age', 'amsterdam']) {
        const w = await newPage(l, DESKTOP);
        await w.goto(`${BASE}/#/watch/${games[ed]}`);
        await w.waitForSelector('#app[data-status="over"]', { timeout: 60000 });
        await w.waitForSelector('#result');
        const status = await w.textContent('#game-status');
        const over = status.toLowerCase().split(cat[l]['ui.game_over'].toLowerCase()).length - 1;
        check(over === 1 && !(cat[l]['phase.over'].toLowerCase() !== cat[l]['ui.game_over'].toLowerCase() && status.includes(cat[l]['phase.over'])),
          `${l} ${ed}: the status says once that the game is over ("${status.trim()}")`);
        check(await w.textContent('#rated-note') === cat[l]['rated.no_bot'] && await w.textContent('#end-rated') === cat[l]['rated.no_bot'],
          `${l} ${ed}: the game page and the end screen say the game is unrated (a bot plays)`);
        const tags = await w.$$eval('#players .tag.active', (ts) => ts.length);
        check(tags === 0, `${l} ${ed}: no "${cat[l]['ui.active']}" tag after the end (${tags})`);
        const marks = await w.$$eval('.chart-row .co-name svg text', (ts) => ts.map((x) => x.textContent));
        check(marks.length >= 9 && new Set(marks).size === marks.length, `${l} ${ed}: every company has its own mark (${marks.join(' ')})`);
        check(await w.locator('#chat-form').isHidden() && await w.locator('#chat-no-session').isVisible(),
          `${l} ${ed}: a spectator without a session is told how to chat, not offered a field the server refuses`);
        if (ed === 'amsterdam') {
          const totals = await w.$$eval('#end-table tbody tr .total', (ts) => ts.map((x) => x.textContent));
          const tied = new Set(totals).size < totals.length;
          check((await w.textContent('#result')).includes(cat[l]['end.tiebreak_ba']) === tied, `${l}: the tie-break note shows only when two players have equal money (${totals.join(', ')})`);
        }
        await w.context().close();
      }
    }
  }

  // ---- a merger: what the amounts on its buttons are (The Golden Age's
  // merger of tests/positions/ga-merger-110-100.pos, the builder's seat) ----
  {
    const pos = fs.readFileSync(path.join(SRC, 'tests/positions/ga-merger-110-100.pos'), 'utf8');
    const seats = [0, 1, 2].map((i) => (i === 0 ? { kind: 'human', name: 'Anke' } : { kind: 'bot', bot: 'greedy' }));
    const res = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ position: pos, seats }) });
    const game = await res.json();
    const page = await newPage('en', DESKTOP);
    // a guest session for the seat (the seat link binds the seat to it)
    const r = await page.context().request.post(`${BASE}/api/guest`, { data: { name: 'Anke' }, headers: { Origin: BASE } });
    check(r.ok(), `a guest session for the merger's seat (${r.status()})`);
    await page.goto(`${BASE}/${game.seats[0].link.replace(/^\//, '')}`);
    await until(page, () => document.querySelector('#app').dataset.myTurn === '1');
    await page.click('#hand button[data-card="Harbour 13"]');
    if (await page.locator('#chooser:not([hidden]) button.move').count()) await page.locator('#chooser button.move').first().click();
    await until(page, () => document.querySelector('#app').dataset.phase === 'credit' && document.querySelector('#app').dataset.myTurn === '1');
    await page.waitForSelector('#merger-payout');
    const text = await page.evaluate(() => (document.querySelector('#merger-payout') || {}).textContent || document.querySelector('#dialog').textContent);
    const btn = await page.$$eval('#dialog button.move .price', (ps) => ps.map((p) => p.textContent));
    check(btn.length > 0 && btn.every((p) => text.includes(p.replace('+', ''))) && text.includes('not a sale'),
      `the merger's dialog says its buttons' amounts (${btn.join(', ')}) are the builder's payout: "${text}"`);
    await page.screenshot({ path: path.join(ART, 'merger-en-desktop.png') });
    await page.context().close();
  }

  // ---- a three-way merger: "Still to merge" names only the companies
  // not yet merged (the rulebook's example, tests/positions; Anke also
  // holds a Gunpowder stock, so she decides to sell or keep it) ----
  {
    const pos = fs.readFileSync(path.join(SRC, 'tests/positions/ba-merger-anke-quick-en.pos'), 'utf8').replace('stocks 1 Gunpowder 2', 'stocks 1 Gunpowder 2\nstocks 3 Gunpowder 1');
    const seats = [0, 1, 2, 3].map((i) => (i === 2 ? { kind: 'human', name: 'Anke' } : { kind: 'bot', bot: 'greedy' }));
    const res = await fetch(`${BASE}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ position: pos, seats }) });
    const game = await res.json();
    const page = await newPage('en', DESKTOP);
    await page.context().request.post(`${BASE}/api/guest`, { data: { name: 'Anke' }, headers: { Origin: BASE } });
    await page.goto(`${BASE}/${game.seats[2].link.replace(/^\//, '')}`);
    await until(page, () => document.querySelector('#app').dataset.myTurn === '1');
    await page.click('#hand button[data-card="Harbour F3"]');
    if (await page.locator('#chooser:not([hidden]) button.move').count()) await page.locator('#chooser button.move').first().click();
    await until(page, () => document.querySelector('#app').dataset.phase === 'credit' && document.querySelector('#app').dataset.myTurn === '1');
    await page.click('#dialog button.move[data-move="credit Tea"]');
    await until(page, () => document.querySelector('#app').dataset.phase === 'merge-sell' && document.querySelector('#app').dataset.myTurn === '1');
    const info = await (await page.waitForSelector('#merger-info')).textContent();
    const pend = /Still to merge: ([^.]*?)(?:Player|$)/.exec(info);
    check(info.includes('Tea') && info.includes('absorbs Gunpowder') && !(pend && /Gunpowder|Tea/.test(pend[1].split(/Player/)[0])),
      `a three-way merger's "Still to merge" does not repeat the pair being merged ("${info.slice(0, 160)}")`);
    await page.screenshot({ path: path.join(ART, 'merger-sell-en-desktop.png') });
    await page.context().close();
  }

  // ---- a language switch redraws everything in the new language ----
  {
    const page = await newPage('en', DESKTOP);
    await page.goto(`${BASE}/#/`);
    await page.click('#solo');
    await page.waitForSelector('#app[data-status="playing"]', { timeout: 30000 });
    await until(page, () => document.querySelector('#app').dataset.myTurn === '1');
    const d0 = await page.evaluate(() => document.querySelector('#app').dataset.decision);
    await page.click('#market button.move[data-move="draw"]');
    await until(page, (d) => document.querySelector('#app').dataset.decision !== d, d0);
    await until(page, () => document.querySelector('#app').dataset.myTurn === '1' || document.querySelectorAll('#log-list li').length > 2);
    const logBefore = await page.$$eval('#log-list li', (ls) => ls.map((l) => l.textContent));
    await page.selectOption('#lang', 'nl');
    await until(page, (h) => document.querySelector('#chat h3').textContent === h, cat.nl['chat.title']);
    await page.waitForTimeout(1500);   // the server's log words in Dutch
    const logAfter = await page.$$eval('#log-list li', (ls) => ls.map((l) => l.textContent));
    const same = logAfter.filter((x) => logBefore.includes(x) && /[a-z]{4}/.test(x));
    check(logBefore.length > 0 && same.length === 0, `after a switch to Dutch no log line is left in English (${logBefore.length} lines; ${same.slice(0, 2).join(' | ')})`);
    const texts = await page.evaluate(() => ({ send: document.querySelector('#chat-send').textContent, settings: document.querySelector('.settings-box summary').textContent, help: (document.querySelector('#help-text') || {}).textContent || '' }));
    check(texts.send === cat.nl['chat.send'] && texts.settings.includes(cat.nl['ui.settings']) && (!texts.help || !Object.values(cat.en).includes(texts.help)),
      `after a switch to Dutch the chat, the settings and the decision's help are Dutch (${texts.send}, ${texts.settings.trim()})`);
    await page.context().close();
  }

  {
    const page = await newPage('nl', DESKTOP);
    await page.goto(`${BASE}/#/`);
    await page.click('#solo');
    await page.waitForSelector('#app[data-status="playing"]', { timeout: 30000 });
    await until(page, () => document.querySelector('#app').dataset.myTurn === '1');
    const a = await page.waitForSelector('.rule-ref a');
    const href = await a.getAttribute('href');
    const phase = await a.getAttribute('data-phase');
    check(href === `#/rules/amsterdam/${phase === 'purchase' ? 'purchase' : 'turn'}` && await a.getAttribute('target') === '_blank',
      `the decision's "Regels: ..." line links to its section in a new tab (${href})`);
    const [tab] = await Promise.all([page.context().waitForEvent('page'), a.click()]);
    const h2 = await tab.waitForSelector(`#rules-h-${href.split('/').pop()}`);
    check((await h2.textContent()).includes(cat.nl[`section.${phase}`]), `the link opens the Dutch section "${await h2.textContent()}"`);
    await page.context().close();
  }
} finally {
  await browser.close();
}
check(pageErrors.length === 0, `no page errors${pageErrors.length ? ': ' + pageErrors.slice(0, 3).join(' | ') : ''}`);
if (failures.length) { console.log(`learn.mjs: ${failures.length} failed`); process.exit(1); }
console.log('learn.mjs: all passed');
