// comeback.mjs: the browser test of "your turn" everywhere (issue 32, items
// 1, 2 and 5), with Playwright driving Debian's chromium against the server
// of run.sh (CH_BASE). Anke and Bram sign up; Anke creates a turn-based game
// of the two of them (a day a move); the first player is drawn. The one who
// waits turns on notifications on "My games" (the permission granted in the
// browser context) and goes to the lobby: the game is under "Your games" and
// offered as Resume, never as Watch, and the header badge is empty while the
// other decides. The first player plays a turn over a WebSocket; the
// waiter's badge then reads 1 on the lobby page, a notification is shown,
// the row says "your turn" with the time left written as a person reads it
// ("23 h 59 min", not "86388 s"), not in red,
// and the same in Dutch and Japanese. Without --smtp, the e-mail pages say
// so, and dead reset and confirmation links say so. Screenshots go to CH_ARTIFACTS
// (comeback-*.png). The pages run under the server's Content-Security-Policy
// (no waitForFunction: its eval is refused; `until` polls instead).
import { BASE, ART, check, launch, person, until, finish, pageErrors } from './lib.mjs';
import path from 'node:path';
import fs from 'node:fs';

const shot = (page, name) => page.screenshot({ path: path.join(ART, `comeback-${name}.png`) });

const browser = await launch();

// Play this page's seat of game gid over a WebSocket of the page's session
// until another seat decides (one turn of this person's); resolves with the
// number of moves made.
function playTurn(page, gid, mySeat) {
  return page.evaluate(({ gid, mySeat }) => new Promise((resolve, reject) => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
    let moves = 0, last = null;
    const timer = setTimeout(() => reject(new Error('the turn did not end within 60 s')), 60000);
    ws.onopen = () => ws.send(JSON.stringify({ type: 'join', game: gid }));
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === 'error') {
        if (m.code === 'rate_limited' && last) setTimeout(() => ws.send(last), 100);
        else if (m.code !== 'stale') { clearTimeout(timer); reject(new Error(`error frame ${ev.data}`)); }
        return;
      }
      if (m.type !== 'state' || m.status !== 'playing') return;
      const deciders = m.deciders || [];
      if (moves > 0 && !deciders.includes(mySeat)) { clearTimeout(timer); ws.close(); resolve(moves); return; }
      if (!m.legal || !m.legal.length) return;
      // the first legal move that is not a range (a plain choice)
      const line = m.legal.find((l) => !l.startsWith('range ')) || m.legal[0];
      const range = /^range (.*) f(\d+) f(\d+)$/.exec(line);
      const move = range ? `${range[1]} f${range[2]}` : line;
      last = JSON.stringify({ type: 'move', move, decision: m.decision });
      moves++;
      ws.send(last);
    };
    ws.onerror = () => { clearTimeout(timer); reject(new Error('websocket error')); };
  }), { gid, mySeat });
}

try {
  const A = await person(browser, 'anke', { permissions: ['notifications'] });
  const B = await person(browser, 'bram', { permissions: ['notifications'] });
  const r = await A.ctx.request.post(`${BASE}/api/games`, {
    data: { edition: 'amsterdam', players: 2, mode: 'turn-based', days: 1,
      seats: [{ kind: 'human' }, { kind: 'human', access: 'reserved' }] },
  });
  check(r.status() === 201, `anke creates a turn-based game of two people (${r.status()})`);
  const game = await r.json();
  const gid = game.id;
  await A.page.goto(`${BASE}${game.seats[0].link}`);
  await B.page.goto(`${BASE}${game.seats[1].link}`);
  await Promise.all([A.page.waitForSelector('#log', { timeout: 30000 }), B.page.waitForSelector('#log', { timeout: 30000 })]);
  // the game starts once Bram's join is in (his page may draw before it
  // is); the first player is drawn at random: M moves first, W waits
  let mine = null;
  for (let i = 0; i < 100; i++) {
    const sum = await A.ctx.request.get(`${BASE}/api/games/${gid}`).then((x) => x.json());
    if (sum.status === 'playing') {
      const frame = await A.ctx.request.get(`${BASE}/api/my-games`).then((x) => x.json());
      mine = (frame.games || []).find((g) => g.id === gid);
      if (mine && (mine.your_turn || mine.deadline === null)) break;
    }
    await A.page.waitForTimeout(200);
  }
  check(!!mine, `the game starts (${JSON.stringify(mine)})`);
  const aFirst = !!(mine && mine.your_turn);
  const M = aFirst ? A : B, W = aFirst ? B : A, mSeat = aFirst ? 0 : 1;
  console.log(`${M.user} moves first; ${W.user} waits`);

  // the waiting person asks for notifications on this device, then waits in the lobby
  await W.page.goto(`${BASE}/#/my-games`);
  await W.page.waitForSelector('#notify-toggle');
  await W.page.check('#notify-toggle');
  check(await W.page.isChecked('#notify-toggle'), 'the waiting person turns notifications on (permission granted)');
  await W.page.goto(`${BASE}/#/`);
  await W.page.waitForSelector(`#your-games .game-row[data-game="${gid}"]`, { timeout: 30000 });
  const row = W.page.locator(`#your-games .game-row[data-game="${gid}"]`);
  const rowText = await row.textContent();
  check(rowText.includes(`${M.user} to move`) && rowText.includes(`with ${M.user}`),
    `the lobby lists the game under "Your games", naming the opponent and whose turn it is (${rowText})`);
  check(await W.page.isHidden('#turn-badge'), 'no badge while the other decides');
  await until(W.page, (id) => !!document.querySelector(`#games-list .game-row[data-game="${id}"]`) || !document.querySelector('#games-list .game-row'), gid, 'the open games drawn');
  const open = W.page.locator(`#games-list .game-row[data-game="${gid}"]`);
  if (await open.count()) {
    check(await open.locator('a.resume').count() === 1 && await open.locator(`a[href="#/watch/${gid}"]`).count() === 0,
      'his own game among the open games is offered as Resume, not Watch');
  }

  // the mover plays a turn; the waiter's badge and notification follow, on the lobby
  const t0 = Date.now();
  const n = await playTurn(M.page, gid, mSeat);
  check(n > 0, `the first player plays a turn (${n} decisions)`);
  await until(W.page, () => { const b = document.getElementById('turn-badge'); return b && !b.hidden && b.textContent === '1'; }, null,
    'the waiter\'s header badge reads 1');
  check(true, `the badge came ${((Date.now() - t0) / 1000).toFixed(1)} s after the other's turn`);
  const title = await W.page.getAttribute('#turn-badge', 'title');
  check(/1 game waits for your move/.test(title || ''), `the badge says what it counts (${title})`);
  // through the service worker the notification is shown a moment after the
  // badge (reg.showNotification resolves later): wait for it, briefly
  check(await until(W.page, () => document.body.dataset.notified === '1', null, 'the notification', 10000),
    'a notification was shown on his device');
  await until(W.page, (id) => /your turn/.test((document.querySelector(`#your-games .game-row[data-game="${id}"]`) || {}).textContent || ''), gid,
    'his row says "your turn"');
  const left = await row.locator('.time-left').textContent();
  check(/^(23 h \d+ min|1 day 0 h) left to move$/.test(left), `the time left reads as a person reads it (${left})`);
  check(!(await row.locator('.time-left').getAttribute('class')).includes('urgent'), 'not red with a day to go');
  await shot(W.page, 'lobby-your-turn');

  // the same in Dutch and Japanese
  for (const [lang, re] of [['nl', /^nog (23 u \d+ min|1 dag 0 u) voor je zet$/], ['ja', /^手番の残り時間 (23時間\d+分|1日0時間)$/]]) {
    await W.page.selectOption('#lang', lang);
    await until(W.page, ([id, src]) => new RegExp(src).test((document.querySelector(`#your-games .game-row[data-game="${id}"] .time-left`) || {}).textContent || ''),
      [gid, re.source], `the row drawn in ${lang}`);
    const txt = await W.page.locator(`#your-games .game-row[data-game="${gid}"] .time-left`).textContent();
    check(re.test(txt), `${lang}: ${txt}`);
  }
  await W.page.selectOption('#lang', 'en');
  await shot(W.page, 'lobby-badge');

  // Resume takes him to his seat
  await W.page.click(`#your-games .game-row[data-game="${gid}"] a.button`);
  await W.page.waitForSelector('#log', { timeout: 30000 });
  check(W.page.url().includes(`/play/${gid}`), `Resume opens his seat (${W.page.url()})`);
  // two people with accounts, in play: the status says the game is rated
  // (it once said "rated if every seat is taken" for the whole game)
  const en = JSON.parse(fs.readFileSync(new URL('../../web/i18n/en.json', import.meta.url)));
  const note = await W.page.textContent('#rated-note').catch(() => '');
  check(note === en['rated.yes'], `a game of two accounts in play says it is rated (${note})`);
  const timer = await W.page.textContent('#timer').catch(() => '');
  check(/^(23 h \d+ min|1 day 0 h) left$/.test(timer), `the game page's clock reads as a person reads it (${timer})`);

  // installable: the manifest and its icons are served with their types,
  // and the service worker takes the whole site as its scope
  const man = await W.ctx.request.get(`${BASE}/manifest.webmanifest`);
  const mj = await man.json().catch(() => ({}));
  check(man.status() === 200 && /application\/manifest\+json/.test(man.headers()['content-type'] || '') &&
    mj.start_url && mj.display === 'standalone' && (mj.icons || []).some((i) => i.sizes === '512x512'),
  `the web-app manifest (${man.status()} ${man.headers()['content-type']})`);
  for (const i of mj.icons || []) {
    const r = await W.ctx.request.get(`${BASE}${i.src}`);
    check(r.status() === 200 && (r.headers()['content-type'] || '').startsWith(i.type), `icon ${i.src} (${r.headers()['content-type']})`);
  }
  const scope = await W.page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.scope));
  check(scope === `${BASE}/`, `the service worker's scope is the site (${scope})`);

  // e-mail pages (this server runs without --smtp: tests/server_mail.py
  // sends real mail): the account page says no mail is sent; "Forgot your
  // password?" answers with the server's reason; a reset or confirmation
  // link that does not stand says so
  await W.page.goto(`${BASE}/#/account`);
  await W.page.waitForSelector('#email-off', { timeout: 15000 });
  check(/sends no e-mail/.test(await W.page.textContent('#email-off')), 'the account page says this server sends no e-mail');
  const C = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const cp = await C.newPage();
  cp.on('pageerror', (e) => pageErrors.push(`carl: ${e.message}`));
  await cp.goto(`${BASE}/#/`);
  await cp.click('#login-open');
  await cp.click('#forgot-open');
  await cp.fill('#forgot-name', A.user);
  await cp.click('#forgot-submit');
  await until(cp, () => (document.getElementById('forgot-result') || {}).textContent, null, 'the forgot form answers');
  check(/sends no e-mail/.test(await cp.textContent('#forgot-result')), `the forgot form says why (${await cp.textContent('#forgot-result')})`);
  await cp.click('#session-cancel');
  await cp.goto(`${BASE}/#/reset/${'0'.repeat(64)}`);
  await cp.fill('#reset-password', 'a new password 1');
  await cp.click('#reset-submit');
  await until(cp, () => /does not work/.test((document.getElementById('mail-link-result') || {}).textContent || ''), null, 'a dead reset link says so');
  await cp.goto(`${BASE}/#/email/confirm/${'0'.repeat(64)}`);
  await until(cp, () => /does not work/.test((document.getElementById('mail-link-result') || {}).textContent || ''), null, 'a dead confirmation link says so');
  await cp.screenshot({ path: path.join(ART, 'comeback-mail-link.png') });
} catch (e) {
  check(false, `unexpected: ${e.stack || e}`);
} finally {
  await browser.close();
}
finish('comeback');
