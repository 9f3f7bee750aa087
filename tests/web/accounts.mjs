// accounts.mjs: the browser test of accounts and seats bound to people
// (docs/identity.md), with Playwright driving Debian's chromium against the
// server of run.sh (CH_BASE). Two people sign up in the page; Anke creates a
// game and is seated at once; Bram joins its open seat from the lobby; Cato,
// who has no account, opens the reserved seat's invite link and plays as a
// guest; they play a few moves by clicks. A stranger who signs up and opens
// Anke's link or the used invite link gets no seat. They chat (shown as text,
// never HTML); Bram mutes Anke. Cato's seat is marked as a guest's; logging
// out, Cato is warned, and signs up instead, keeping the seat. Bram changes
// his password and logs out everywhere from his account page. Anke logs out.
// Screenshots go to CH_ARTIFACTS (acc-*.png).
import { BASE, ART, check, failures, launch } from './lib.mjs';
import path from 'node:path';

const shot = (page, name) => page.screenshot({ path: path.join(ART, `acc-${name}.png`) });

const browser = await launch();
const pageErrors = [];
async function newPage(label) {
  // bypassCSP: Playwright's waitForFunction runs its predicate through eval() in
  // the page, which the server's Content-Security-Policy (script-src 'self')
  // refuses; invites.mjs runs the pages under the policy.
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', bypassCSP: true });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => { pageErrors.push(`${label}: ${e.message}`); console.log(`pageerror ${label}: ${e.message}`); });
  return page;
}
const api = async (p) => (await fetch(`${BASE}${p}`)).json();

async function signUp(page, name, formOpen) {
  if (!formOpen) {
    await page.goto(`${BASE}/#/`);
    await page.click('#signup-open');
  }
  await page.fill('#session-name', name);
  await page.fill('#session-password', `pass of ${name}`);
  await page.click('#session-submit');
  await page.waitForFunction((n) => (document.querySelector('#account-name') || {}).textContent === n, name, { timeout: 10000 });
}

try {
  const A = await newPage('anke');
  const B = await newPage('bram');
  const C = await newPage('cato');

  // ---- two people sign up ----
  await A.goto(`${BASE}/#/`);
  await A.click('#signup-open');
  await A.waitForSelector('#session-form[data-mode="signup"]');
  await shot(A, '01-signup-form');
  await signUp(A, 'anke', true);
  await signUp(B, 'bram');
  check(true, 'Anke and Bram sign up in the page');
  // a second sign-up with the same name is refused in the form
  const X = await newPage('x');
  await X.goto(`${BASE}/#/`);
  await X.click('#signup-open');
  await X.fill('#session-name', 'Anke');
  await X.fill('#session-password', 'something long');
  await X.click('#session-submit');
  const taken = await X.waitForSelector('#session-error:not([hidden])', { timeout: 10000 }).then((e) => e.textContent());
  check(/taken/.test(taken), `a taken user name is refused in the form ("${taken}")`);
  await X.context().close();

  // ---- Anke creates a game: seated at once ----
  await A.waitForSelector('#create-form');
  await A.selectOption('#players', '3');
  const rows = A.locator('.seat-row');
  await rows.nth(1).locator('.seat-kind').selectOption('human');
  await rows.nth(1).locator('.seat-access').selectOption('open');
  await rows.nth(2).locator('.seat-kind').selectOption('human');
  await rows.nth(2).locator('.seat-access').selectOption('reserved');
  await A.click('#create');
  await A.waitForSelector('#created');
  await shot(A, '02-created');
  const own = await A.locator('#created li[data-seat="0"] input.link').inputValue();
  const gameId = (/#\/play\/([0-9a-f]+)$/.exec(own) || [])[1];
  check(!!gameId, `the creator's own link carries no token (${own})`);
  const invite = await A.locator('#created li[data-seat="2"] input.link').inputValue();
  check(/#\/play\/[0-9a-f]+\/[0-9a-f]{32}$/.test(invite), 'the reserved seat has an invite link');
  check(await A.locator('#created li[data-seat="1"] .open-seat-note').count() === 1, 'the open seat has no link');
  let g = await api(`/api/games/${gameId}`);
  check(g.seats[0].claimed && g.seats[0].name === 'anke' && !g.seats[1].claimed,
    `Anke sits in seat 0 before anyone opens anything (${JSON.stringify(g.seats.map((s) => [s.name, s.claimed]))})`);

  // ---- Bram joins the open seat from the lobby ----
  await B.goto(`${BASE}/#/`);
  const joinBtn = `#games-list .game-row[data-game="${gameId}"] button.join[data-seat="1"]`;
  await B.waitForSelector(joinBtn, { timeout: 15000 });
  check(await B.locator(`#games-list .game-row[data-game="${gameId}"] button.join[data-seat="2"]`).count() === 0,
    'the reserved seat has no join button in the lobby');
  await shot(B, '03-lobby-bram');
  await B.click(joinBtn);
  await B.waitForFunction(() => document.querySelector('#app').dataset.seat === '1', null, { timeout: 15000 });
  check(true, 'Bram joins the open seat from the lobby');

  // ---- Cato opens the invite link without an account: plays as a guest ----
  await C.goto(invite);
  await C.waitForSelector('#session-form[data-mode="guest"]', { timeout: 10000 });
  await shot(C, '04-invite-guest');
  await C.fill('#session-name', 'Cato');
  await C.click('#session-submit');
  await C.waitForFunction(() => document.querySelector('#app').dataset.seat === '2', null, { timeout: 15000 });
  check((await C.textContent('#account-name')).includes('Cato'), 'Cato plays as a guest');

  await A.goto(`${BASE}${own.replace(/^https?:\/\/[^/]+/, '')}`);
  const pages = [A, B, C];
  for (const p of pages) await p.waitForSelector('#app[data-status="playing"]', { timeout: 20000 });
  check(true, 'everyone is seated: the game plays');

  // ---- a few moves, by clicks ----
  const decision = (p) => p.evaluate(() => +document.querySelector('#app').dataset.decision);
  let moves = 0;
  for (let guard = 0; moves < 6 && guard < 200; guard++) {
    let acted = false;
    for (const p of pages) {
      const mine = await p.evaluate(() => document.querySelector('#app').dataset.myTurn === '1');
      if (!mine) continue;
      const before = await decision(p);
      const clicked = await p.evaluate(() => {
        const vis = (e) => e && !e.closest('[hidden]') && e.offsetParent !== null && !e.disabled;
        const chooser = document.querySelector('#chooser');
        const scope = !chooser.hidden ? chooser : (!document.querySelector('#dialog').hidden ? document.querySelector('#dialog') : document.querySelector('.game-layout'));
        const btns = [...scope.querySelectorAll('button[data-move]')].filter(vis);
        const b = btns.find((x) => x.dataset.move === 'draw') || btns.find((x) => /^take /.test(x.dataset.move)) || btns[0];
        if (b) { b.click(); return b.dataset.move; }
        return null;
      });
      if (!clicked) continue;
      acted = true;
      await p.waitForFunction((d) => +document.querySelector('#app').dataset.decision > d || !document.querySelector('#chooser').hidden, before, { timeout: 15000 }).catch(() => {});
      if (await decision(p) > before) moves++;
    }
    if (!acted) await new Promise((r) => setTimeout(r, 100));
  }
  check(moves >= 6, `the three people played ${moves} moves by clicks`);
  for (const [p, n] of [[A, 'anke'], [B, 'bram'], [C, 'cato']]) await shot(p, `05-game-${n}`);

  // ---- the table's chat: text, never HTML; a player mutes another ----
  const chatHas = (p, text) => p.waitForFunction((x) => [...document.querySelectorAll('#chat-list .chat-text')].some((e) => e.textContent === x), text, { timeout: 10000 });
  await A.fill('#chat-input', '<b>bold?</b> hello & welcome');
  await A.click('#chat-send');
  await chatHas(B, '<b>bold?</b> hello & welcome');
  await chatHas(C, '<b>bold?</b> hello & welcome');
  check(await B.evaluate(() => document.querySelectorAll('#chat-list .chat-text b').length) === 0, 'a chat message is shown as text, never as HTML');
  await B.click('#chat-list li[data-seat="0"] button.chat-mute');
  await B.waitForSelector('#chat-list button.chat-unmute', { timeout: 10000 });
  await A.fill('#chat-input', 'only Cato reads this');
  await A.click('#chat-send');
  await chatHas(C, 'only Cato reads this');
  await chatHas(A, 'only Cato reads this');
  await C.fill('#chat-input', 'Cato answers');
  await C.click('#chat-send');
  await chatHas(B, 'Cato answers');
  check(await B.evaluate(() => [...document.querySelectorAll('#chat-list .chat-text')].every((e) => e.textContent !== 'only Cato reads this')), 'Bram muted Anke: her next message does not reach him');
  check(/\(guest\)/.test(await B.textContent('#chat-list li[data-seat="2"] .chat-name')) &&
    !/\(guest\)/.test(await C.textContent('#chat-list li[data-seat="0"] .chat-name')), "Cato's chat messages are marked as a guest's, Anke's not");
  await shot(B, '06-chat-muted');
  await shot(C, '06-chat');

  // ---- a stranger with the links gets no seat ----
  const D = await newPage('mallory');
  await signUp(D, 'mallory');
  await D.goto(`${BASE}/#/play/${gameId}`);
  const e1 = await D.waitForSelector('#error-banner:not([hidden])', { timeout: 10000 }).then((e) => e.textContent());
  check(/no seat/.test(e1), `Anke's link opens nothing for a stranger ("${e1.trim()}")`);
  await D.goto(invite);
  await D.reload();
  const e2 = await D.waitForSelector('#error-banner:not([hidden])', { timeout: 10000 }).then((e) => e.textContent());
  check(/someone else/.test(e2), `the used invite link opens nothing for a stranger ("${e2.trim()}")`);
  check(await D.evaluate(() => document.querySelectorAll('#hand .card').length) === 0, 'the stranger sees no hand');
  await shot(D, '07-stranger');
  g = await api(`/api/games/${gameId}`);
  check(g.seats.map((s) => s.name).join(',') === 'anke,bram,Cato', `the seats keep their people (${g.seats.map((s) => s.name)})`);

  // ---- a guest is marked, warned before it logs out, and keeps its seat by signing up (issue 28) ----
  await A.waitForFunction(() => document.querySelectorAll('.tag.guest').length === 1, null, { timeout: 10000 });
  check(true, "Cato's seat is marked as a guest's on Anke's board");
  check(await C.locator('#signup-keep').count() === 1, 'the guest header offers the sign-up that keeps the seats');
  await C.click('#logout');
  await C.waitForSelector('#guest-logout', { timeout: 10000 });
  await shot(C, '09-guest-logout-warning');
  check(/lose your seats/.test(await C.textContent('#guest-logout')), 'logging out, the guest is told it loses its seats');
  await C.click('#guest-logout-cancel');
  check((await C.textContent('#account-name')).includes('Cato'), 'cancelled: Cato is still the guest');
  await C.click('#signup-keep');
  await C.waitForSelector('#session-form[data-mode="signup"]');
  await signUp(C, 'cato', true);
  g = await api(`/api/games/${gameId}`);
  check(g.seats[2].name === 'cato' && !g.seats[2].guest, `Cato signed up and keeps seat 2 as an account (${JSON.stringify(g.seats[2])})`);
  await A.waitForFunction(() => document.querySelectorAll('.tag.guest').length === 0, null, { timeout: 10000 });
  check(true, 'the guest mark is gone from the board');

  // ---- Bram's account page: sessions, password change, log out everywhere ----
  await B.goto(`${BASE}/#/account`);
  await B.waitForSelector('#sessions table.sessions tr.current', { timeout: 10000 });
  check(/this device/.test(await B.textContent('#sessions tr.current')), 'the account page lists this session as this device');
  await B.fill('#password-current', 'not my password');
  await B.fill('#password-new', 'new pass of bram');
  await B.click('#password-submit');
  await B.waitForSelector('#password-error:not([hidden])', { timeout: 10000 });
  check(/current password is wrong/.test(await B.textContent('#password-error')), 'a wrong current password is refused in the form');
  await B.fill('#password-current', 'pass of bram');
  await B.fill('#password-new', 'new pass of bram');
  await B.click('#password-submit');
  await B.waitForFunction(() => document.querySelector('#password-current').value === '' && document.querySelector('#password-error').hidden, null, { timeout: 10000 });
  const relog = await fetch(`${BASE}/api/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'bram', password: 'new pass of bram' }) });
  check(relog.status === 200, `the new password logs in (${relog.status})`);
  await B.reload();
  await B.waitForFunction(() => document.querySelectorAll('#sessions table.sessions tbody tr').length === 2, null, { timeout: 10000 });
  await shot(B, '10-account-page');
  await B.click('#logout-everywhere');
  await B.waitForSelector('#login-open', { timeout: 10000 });
  check(true, 'Bram logs out everywhere');

  // ---- Anke logs out ----
  await A.click('#logout');
  await A.waitForSelector('#login-open', { timeout: 10000 });
  await shot(A, '08-logged-out');
  check(true, 'Anke logs out');
  check(pageErrors.length === 0, `no script errors in the pages (${pageErrors.join('; ')})`);
} catch (e) {
  check(false, `the test ran to its end: ${e.stack || e}`);
} finally {
  await browser.close();
}
if (failures.length) { console.log(`FAILED: ${failures.length}`); process.exit(1); }
console.log('accounts: sign-up, seated creator, lobby join, invite as guest, moves, strangers refused, guest marked and kept, account page, logout');
