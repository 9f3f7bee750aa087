// rematch.mjs: the browser test of "play again with the same people" and of
// following (issue 32 item 4, issue 31), with Playwright driving Debian's
// chromium against the server of run.sh (CH_BASE), started with
// CHARTERED_ABANDON_SECONDS=2 (tests/CMakeLists.txt) so that a live game
// nobody has open ends at once. Anke challenges Bram (through the API) and
// he accepts; nobody opens the game, so it ends. Anke opens it and clicks
// Rematch: the result box says Bram is asked, and no game starts. Bram, in
// the lobby, has the offer in his header badge and listed at the top; he
// opens the finished game, where the result box asks him, and accepts: he
// is taken to the new game, and so is Anke (who said yes first) without a
// click; both are seated in it. Then following: Bram follows Anke from her
// profile; his lobby's "Following" panel lists her and the game she plays,
// with Watch; he unfollows her. The pages run under the server's
// Content-Security-Policy (no waitForFunction: `until` polls instead).
import { BASE, ART, check, launch, person, until, finish } from './lib.mjs';
import path from 'node:path';

const browser = await launch();
const playing = () => (/#\/play\/([0-9a-f]+)/.exec(location.hash) || [])[1] || '';

try {
  const A = await person(browser, 'anke');
  const B = await person(browser, 'bram');
  const post = (P, url, data) => P.ctx.request.post(`${BASE}${url}`, { data }).then((x) => x.json());
  const get = (P, url) => P.ctx.request.get(`${BASE}${url}`).then((x) => x.json());

  // a live game of the two that nobody opens: it ends after 2 s
  const c = await post(A, '/api/challenges', { name: B.user, edition: 'amsterdam' });
  const acc = await post(B, `/api/challenges/${c.id}/accept`, {});
  const old = acc.game;
  check(!!old, `a game of Anke and Bram (${JSON.stringify(acc)})`);
  let s = {};
  for (let i = 0; i < 100 && s.status !== 'abandoned' && s.status !== 'over'; i++) {
    await A.page.waitForTimeout(200);
    s = await get(A, `/api/games/${old}`);
  }
  check(s.status === 'abandoned' || s.status === 'over', `the game ended (${s.status})`);

  // Anke proposes the rematch: Bram is asked, nothing starts
  await A.page.goto(`${BASE}/#/play/${old}`);
  await A.page.waitForSelector('#rematch', { timeout: 30000 });
  // a game of two accounts, abandoned: the status line says so, and unrated
  const line = await A.page.textContent('#game-status');
  check(s.status !== 'abandoned' || (/The game was abandoned/.test(line) && /Unrated: the game ended without a result/.test(line) && !/Rated:/.test(line)),
    `the status line: abandoned, unrated (${line})`);
  await A.page.click('#rematch');
  await A.page.waitForSelector('#rematch-offer', { timeout: 15000 });
  const box = await A.page.textContent('#rematch-box');
  check(box.includes(`${B.user}: not answered yet`) && box.includes(`${A.user}: accepted`),
    `Anke's result box: Bram is asked (${box})`);
  check((await A.page.evaluate(playing)) === old, 'Anke stays on the finished game');
  const mine = await get(B, '/api/my-games');
  check(!(mine.games || []).length, 'no game for Bram before he accepts');
  await A.page.screenshot({ path: path.join(ART, 'rematch-offer.png') });

  // Bram: the badge and the lobby have it
  await B.page.goto(`${BASE}/#/`);
  await until(B.page, () => { const b = document.getElementById('turn-badge'); return b && !b.hidden && b.textContent === '1'; }, null,
    'Bram\'s header badge reads 1');
  const row = B.page.locator('#challenges .rematch-in');
  await row.first().waitFor({ timeout: 10000 });
  check((await row.first().textContent()).includes(`${A.user} proposes a rematch`), 'the lobby lists the offer');

  // he opens the finished game and accepts in its result box
  await B.page.goto(`${BASE}/#/play/${old}`);
  await B.page.waitForSelector('#rematch-accept', { timeout: 30000 });
  await B.page.click('#rematch-accept');
  await until(B.page, (o) => { const m = /#\/play\/([0-9a-f]+)/.exec(location.hash); return m && m[1] !== o; }, old, 'Bram is taken to the new game');
  const neu = await B.page.evaluate(playing);
  await until(A.page, (n) => location.hash.includes(n), neu, 'Anke is taken there too, without a click', 20000);
  const sum = await get(A, `/api/games/${neu}`);
  const seats = (g) => JSON.stringify((g.seats || []).map((x) => x.name));
  check(seats(sum) === seats(s) && seats(s).includes(A.user) && seats(s).includes(B.user) && sum.edition === 'amsterdam',
    `both in the seats they had, in the new game (${seats(sum)} after ${seats(s)})`);
  await B.page.waitForSelector('#board', { timeout: 30000 });

  // following: Bram follows Anke, who is now playing
  await B.page.goto(`${BASE}/#/player/${A.user}`);
  await B.page.waitForSelector('#follow:not([disabled])', { timeout: 15000 });
  check((await B.page.textContent('#follow')) === 'Follow', 'her profile offers Follow');
  await B.page.click('#follow');
  await until(B.page, () => document.getElementById('follow')?.textContent === 'Unfollow', null, 'the button becomes Unfollow');
  await B.page.goto(`${BASE}/#/`);
  await B.page.waitForSelector(`#following .follow-row[data-name="${A.user}"]`, { timeout: 15000 });
  const panel = await B.page.textContent('#following');
  check(panel.includes('playing now') && (await B.page.locator(`#following .follow-game[data-game="${neu}"] .follow-watch`).count()) === 1,
    `the Following panel: Anke playing, her game with Watch (${panel})`);
  await B.page.screenshot({ path: path.join(ART, 'following.png') });
  await B.page.goto(`${BASE}/#/player/${A.user}`);
  await B.page.waitForSelector('#follow[data-following="true"]', { timeout: 15000 });
  await B.page.click('#follow');
  await until(B.page, () => document.getElementById('follow')?.textContent === 'Follow', null, 'unfollowed');
  const f = await get(B, '/api/following');
  check(Array.isArray(f.following) && f.following.length === 0, 'the list is empty again');
} catch (e) {
  check(false, `unexpected: ${e.stack || e}`);
} finally {
  await browser.close();
}
finish('rematch');
