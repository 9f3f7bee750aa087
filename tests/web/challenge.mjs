// challenge.mjs: the browser test of challenges by name (issue 32 item 4),
// with Playwright driving Debian's chromium against the server of run.sh
// (CH_BASE). Anke and Bram sign up; Bram turns on notifications and waits in
// the lobby. Anke opens Bram's profile and challenges him (Golden Age, two
// days a move) with its Challenge button. Bram's header badge counts the
// challenge, a notification is shown, and the lobby lists it at the top
// with Accept and Decline; he accepts and lands in the game. Anke's lobby
// shows the challenge accepted with a link to the game; both end up seated
// in it, each at a board. The pages run under the server's
// Content-Security-Policy (no waitForFunction: `until` polls instead).
import { BASE, ART, check, launch, person, until, finish } from './lib.mjs';
import path from 'node:path';

// each person's browser may show notifications (Bram asks for them below)
const NOTIFY = { permissions: ['notifications'] };
const browser = await launch();

try {
  const A = await person(browser, 'anke', NOTIFY);
  const B = await person(browser, 'bram', NOTIFY);

  // Bram asks for notifications on this device, then waits in the lobby
  await B.page.goto(`${BASE}/#/my-games`);
  await B.page.waitForSelector('#notify-toggle');
  await B.page.check('#notify-toggle');
  await B.page.goto(`${BASE}/#/`);
  await B.page.waitForSelector('#create-form');
  check(await B.page.isHidden('#turn-badge'), 'no badge before the challenge');
  check(await B.page.isHidden('#challenges'), 'no challenges listed before it');

  // Anke challenges Bram from his profile
  await A.page.goto(`${BASE}/#/player/${B.user}`);
  await A.page.waitForSelector('#challenge');
  await A.page.selectOption('#challenge-edition', 'golden-age');
  await A.page.selectOption('#challenge-pace', '2');
  await A.page.click('#challenge');
  await until(A.page, () => /Challenge sent/.test(document.getElementById('toasts')?.textContent || ''), null, 'Anke is told the challenge went');
  // her own profile offers no challenge
  await A.page.goto(`${BASE}/#/player/${A.user}`);
  await A.page.waitForSelector('#profile-name');
  check(await A.page.locator('#challenge').count() === 0, 'no Challenge button on one\'s own page');

  // Bram: the badge counts it (the poll: 20 s, or at once when the page is shown again)
  const t0 = Date.now();
  await until(B.page, () => { const b = document.getElementById('turn-badge'); return b && !b.hidden && b.textContent === '1'; }, null,
    'Bram\'s header badge reads 1', 45000);
  check(true, `the badge came ${((Date.now() - t0) / 1000).toFixed(1)} s after the challenge`);
  const title = await B.page.getAttribute('#turn-badge', 'title');
  check(/1 challenge waits for your answer/.test(title || ''), `the badge says what it counts (${title})`);
  check(+(await B.page.evaluate(() => document.body.dataset.notified || 0)) >= 1, 'a notification is shown');
  const row = B.page.locator('#challenges .challenge-in');
  await row.first().waitFor({ timeout: 10000 });
  const text = await row.first().textContent();
  check(text.includes(`${A.user} challenges you`) && text.includes('Golden Age') && text.includes('2'),
    `the lobby lists it at the top with its settings (${text})`);
  await B.page.screenshot({ path: path.join(ART, 'challenge-lobby.png') });

  // Bram accepts and lands in the game
  await row.first().locator('.challenge-accept').click();
  await until(B.page, () => /#\/play\/[0-9a-f]+/.test(location.hash), null, 'Bram is taken to the game');
  const gid = (/#\/play\/([0-9a-f]+)/.exec(B.page.url()) || [])[1];
  check(!!gid, `the game's id (${B.page.url()})`);
  await B.page.waitForSelector('#board', { timeout: 30000 });

  // Anke: her lobby shows it accepted, with the game's link; she opens it
  await A.page.goto(`${BASE}/#/`);
  await A.page.waitForSelector(`#challenges .challenge-out a[href="/#/play/${gid}"]`, { timeout: 45000 });
  check(/accepted/.test(await A.page.locator('#challenges .challenge-out').first().textContent()), 'Anke sees it accepted');
  await A.page.click(`#challenges .challenge-out a[href="/#/play/${gid}"]`);
  await A.page.waitForSelector('#board', { timeout: 30000 });
  const sum = await A.ctx.request.get(`${BASE}/api/games/${gid}`).then((x) => x.json());
  const names = (sum.seats || []).map((s) => s.name).sort();
  check(sum.status === 'playing' && sum.edition === 'golden-age' && sum.days === 2 &&
    JSON.stringify(names) === JSON.stringify([A.user, B.user].sort()), `both seated in the game they chose (${JSON.stringify(sum)})`);
  for (const P of [A, B]) {
    const mine = await P.ctx.request.get(`${BASE}/api/my-games`).then((x) => x.json());
    check((mine.games || []).some((g) => g.id === gid), `${P.user} has the game in "My games"`);
  }
  await A.page.screenshot({ path: path.join(ART, 'challenge-game.png') });
} catch (e) {
  check(false, `unexpected: ${e.stack || e}`);
} finally {
  await browser.close();
}
finish('challenge');
