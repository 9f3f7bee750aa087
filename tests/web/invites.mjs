// invites.mjs: the browser test of invite links given again (issue 28 item
// 7) and of the page under the server's Content-Security-Policy, with
// Playwright driving Debian's chromium against the server of run.sh
// (CH_BASE). Anke creates a game with two reserved seats in the lobby's
// form and leaves the lobby: the game page and "My games" show her both
// links again; she makes seat 2 a new link; the old link then seats nobody,
// the new one seats Bram, and Anke's list drops his seat. Bram (not the
// creator) sees no links. Every page visited (lobby, game, spectator, My
// games, leaderboard) must run without a policy violation and carry the
// security headers. Screenshots go to CH_ARTIFACTS (inv-*.png).
import { BASE, ART, check, failures, launch } from './lib.mjs';
import path from 'node:path';

const shot = (page, name) => page.screenshot({ path: path.join(ART, `inv-${name}.png`) });

const browser = await launch();
const pageErrors = [], violations = [];
async function newPage(label) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  // every policy violation of the page, as the browser reports it
  await ctx.exposeBinding('__cspViolation', (_src, v) => { violations.push(`${label}: ${v}`); });
  await ctx.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile || ''}:${e.lineNumber || ''}`);
    });
  });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => { pageErrors.push(`${label}: ${e.message}`); console.log(`pageerror ${label}: ${e.message}`); });
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) violations.push(`${label}: ${m.text()}`); });
  return page;
}
// waitForFunction evaluates its predicate with eval() in the page, which the
// policy refuses (as it should): poll with evaluate instead
async function until(page, fn, arg, what, ms = 15000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await page.evaluate(fn, arg)) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`timed out: ${what}`);
}
const linkTail = (l) => l.replace(/^https?:\/\/[^/]+/, '');
const links = (p, sel) => p.$$eval(`${sel} li`, (lis) => Object.fromEntries(lis.map((li) => [li.dataset.seat, (li.querySelector('input.link') || {}).value || null])));

try {
  const A = await newPage('anke');
  const B = await newPage('bram');

  // ---- the page and its headers ----
  const resp = await A.goto(`${BASE}/#/`);
  const hd = resp.headers();
  check(/frame-ancestors 'none'/.test(hd['content-security-policy'] || '') && hd['x-content-type-options'] === 'nosniff' && !!hd['referrer-policy'],
    `the page carries the security headers (${hd['content-security-policy']})`);

  // the watch works: an inline script is a violation it reports
  await A.evaluate(() => { const s = document.createElement('script'); s.textContent = 'window.__inline = 1'; document.head.appendChild(s); });
  await A.waitForTimeout(300);
  check(violations.length > 0 && !(await A.evaluate(() => window.__inline)), `the policy refuses an inline script, and it is seen (${violations.join('; ')})`);
  violations.length = 0;

  // ---- Anke creates a game with two reserved seats ----
  await A.waitForSelector('#create-form');
  await A.fill('.seat-row[data-seat="0"] .seat-name', 'Anke');
  await A.selectOption('#players', '3');
  const rows = A.locator('.seat-row');
  for (const i of [1, 2]) {
    await rows.nth(i).locator('.seat-kind').selectOption('human');
    await rows.nth(i).locator('.seat-access').selectOption('reserved');
  }
  await A.click('#create');
  await A.waitForSelector('#created');
  const own = await A.locator('#created li[data-seat="0"] input.link').inputValue();
  const gameId = (/#\/play\/([0-9a-f]+)$/.exec(own) || [])[1];
  const first = { 1: await A.locator('#created li[data-seat="1"] input.link').inputValue(),
    2: await A.locator('#created li[data-seat="2"] input.link').inputValue() };
  check(!!gameId && /\/[0-9a-f]{32}$/.test(first[1]) && /\/[0-9a-f]{32}$/.test(first[2]), 'the lobby shows two invite links once');

  // ---- she leaves the lobby: the game page shows them again ----
  await A.goto(`${BASE}/#/leaderboard/amsterdam`);
  await A.waitForTimeout(300);
  await A.goto(`${BASE}${linkTail(own)}`);
  await A.waitForSelector('#invites:not([hidden]) li[data-seat="2"] input.link', { timeout: 15000 });
  let got = await links(A, '#invites');
  check(got[1] === first[1] && got[2] === first[2], `the game page gives the creator both links again (${JSON.stringify(got)})`);
  await shot(A, '01-game-page');

  // ---- "My games" shows them too ----
  await A.goto(`${BASE}/#/my-games`);
  const mine = `#my-games .game-row[data-game="${gameId}"] .invites`;
  await A.waitForSelector(`${mine} li[data-seat="1"] input.link`, { timeout: 15000 });
  got = await links(A, mine);
  check(got[1] === first[1] && got[2] === first[2], `"My games" gives them again (${JSON.stringify(got)})`);
  await shot(A, '02-my-games');

  // ---- a new link for seat 2 (it leaked): the old one ends ----
  await A.click(`${mine} li[data-seat="2"] button.renew`);
  await until(A, ([sel, old]) => { const i = document.querySelector(`${sel} li[data-seat="2"] input.link`); return !!i && i.value !== old; }, [mine, first[2]], 'the new link');
  got = await links(A, mine);
  check(got[1] === first[1] && /\/[0-9a-f]{32}$/.test(got[2] || '') && got[2] !== first[2], 'a new link for seat 2, seat 1 unchanged');
  const fresh = got[2];

  // Bram: the old link (a guest session first; refused), then the new one
  await B.goto(`${BASE}${linkTail(first[2])}`);
  await B.waitForSelector('#session-form[data-mode="guest"]', { timeout: 10000 });
  await B.fill('#session-name', 'Bram');
  await B.click('#session-submit');
  await B.waitForSelector('#error-banner:not([hidden])', { timeout: 15000 }).catch(async (e) => { await shot(B, 'x-old-link'); throw e; });
  check(await B.evaluate(() => document.querySelector('#app').dataset.seat === undefined || document.querySelector('#app').dataset.seat === '-1'),
    'the old link seats nobody');
  await B.goto(`${BASE}/#/`);
  await B.goto(`${BASE}${linkTail(fresh)}`);
  await until(B, () => document.querySelector('#app').dataset.seat === '2', null, 'Bram seated');
  check(true, 'the new link seats Bram');
  await B.waitForTimeout(1000);
  check(await B.locator('#invites li').count() === 0, 'Bram (not the creator) sees no invite links');

  // Anke's game page: only seat 1 is left
  await A.goto(`${BASE}${linkTail(own)}`);
  await A.waitForSelector('#invites:not([hidden]) li[data-seat="1"]', { timeout: 15000 });
  got = await links(A, '#invites');
  check(JSON.stringify(Object.keys(got)) === '["1"]' && got[1] === first[1], `a taken seat's link is gone (${JSON.stringify(got)})`);
  await shot(A, '03-one-left');

  // a spectator's page, under the policy too
  await B.goto(`${BASE}/#/watch/${gameId}`);
  await B.waitForSelector('#app[data-status]', { timeout: 15000 });

  check(violations.length === 0, `no Content-Security-Policy violation (${violations.join('; ')})`);
  check(pageErrors.length === 0, `no script errors in the pages (${pageErrors.join('; ')})`);
} catch (e) {
  check(false, `the test ran to its end: ${e.stack || e}`);
} finally {
  await browser.close();
}
if (failures.length) { console.log(`FAILED: ${failures.length}`); process.exit(1); }
console.log('invites: links again on the game page and in My games, a new link ends the old, no policy violation');
