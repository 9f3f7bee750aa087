// ratings.mjs: the browser test of ratings, profiles, the leaderboard and the
// rematch (web/js/profile.js, leaderboard.js, rematch.js), run by
// tests/web/run.sh after e2e.mjs against the same `chartered serve`.
// Playwright drives Debian's chromium. Two people (two browser contexts)
// sign up; one creates a game of two people (no bot: a rated game) and opens
// it, the other opens the invite link. Each page then plays its seat to the
// end over its own WebSocket (random legal moves, a second connection of the
// same session, as a second tab would be) while the game page follows. At
// the end: both profile pages show a rating for Building Amsterdam (with the
// provisional mark) where there was none, and list the game with its replay
// link; the leaderboard lists both; the result box offers the rematch: one
// proposes it, the other accepts it in theirs, and the new game of the same
// two people opens. Screenshots of the
// profile, the leaderboard, the lobby's finished games and the result box go
// to $CH_ARTIFACTS.
import { BASE, ART, check, failures, launch, CHROMIUM_ARGS, person, pageErrors } from './lib.mjs';
import path from 'node:path';

async function shot(page, name) { await page.screenshot({ path: path.join(ART, `${name}.png`), fullPage: true }); }

const browser = await launch([...CHROMIUM_ARGS, '--disable-quic', '--disable-background-networking',
  '--disable-component-update', '--disable-sync']);
// bypassCSP: Playwright's waitForFunction runs its predicate through eval() in
// the page, which the server's Content-Security-Policy (script-src 'self')
// refuses; invites.mjs runs the pages under the policy.
const UNDER_NO_POLICY = { bypassCSP: true };

// Play this page's seat of game gid to the end over a WebSocket of the
// page's session; resolves with the final result.
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

try {
  const A = await person(browser, 'anke', UNDER_NO_POLICY), B = await person(browser, 'bram', UNDER_NO_POLICY);
  for (const P of [A, B]) {
    await P.page.goto(`${BASE}/#/player/${P.user}`);
    await P.page.waitForSelector('#profile');
    check(await P.page.locator('#profile-ratings').count() === 0, `${P.user} has no rating before the game`);
  }
  const r = await A.ctx.request.post(`${BASE}/api/games`, {
    data: { edition: 'amsterdam', players: 2, seats: [{ kind: 'human' }, { kind: 'human', access: 'reserved' }] },
  });
  check(r.status() === 201, `anke creates a game of two people (${r.status()})`);
  const game = await r.json();
  const gid = game.id;
  await A.page.goto(`${BASE}${game.seats[0].link}`);
  await B.page.goto(`${BASE}${game.seats[1].link}`);
  await Promise.all([A.page.waitForSelector('#log', { timeout: 30000 }), B.page.waitForSelector('#log', { timeout: 30000 })]);
  const [resA, resB] = await Promise.all([playToEnd(A.page, gid, 7), playToEnd(B.page, gid, 11)]);
  check(JSON.stringify(resA) === JSON.stringify(resB), `both see the same result ${JSON.stringify(resA)}`);
  await A.page.waitForSelector('#result', { timeout: 30000 });
  await shot(A.page, 'ratings-01-result');

  // the lobby's finished games: date, winner and scores
  await A.page.goto(`${BASE}/#/`);
  const row = A.page.locator(`#old-list .game-row[data-game="${gid}"]`);
  await row.waitFor({ timeout: 15000 }).catch(() => {});
  if (await row.count()) {
    const text = await row.textContent();
    const winnerName = resA.winners.length ? (resA.winners[0] === 0 ? A.user : B.user) : '';
    check(await row.locator('.finished').count() === 1 && text.includes(winnerName) &&
      resA.scores.every((x) => text.includes(`f${x}`)), `the lobby lists the finished game with date, winner and scores (${text})`);
    await row.scrollIntoViewIfNeeded();
    await shot(A.page, 'ratings-05-lobby-finished');
  } else {
    check(false, 'the lobby lists the finished game');
  }

  const ratings = {};
  for (const P of [A, B]) {
    await P.page.goto(`${BASE}/#/player/${P.user}`);
    await P.page.waitForSelector('#profile-ratings', { timeout: 10000 }).catch(() => {});
    const row = P.page.locator('#profile-ratings tr[data-edition="amsterdam"]');
    const text = (await row.count()) ? await row.locator('td.rating').textContent() : '';
    ratings[P.user] = text;
    check(/^\d+\?$/.test(text), `${P.user}'s profile shows a provisional rating for Building Amsterdam (${text})`);
    const g = P.page.locator(`#profile-games .game-row[data-game="${gid}"]`);
    check(await g.count() === 1, `${P.user}'s profile lists the game`);
    if (await g.count()) {
      const href = await g.locator('a.button').getAttribute('href');
      check(href === `/#/replay/${gid}`, `with its replay link (${href})`);
      check(/1500 → \d+/.test(await g.textContent()), 'and the rating change from 1500');
    }
    await shot(P.page, `ratings-02-profile-${P === A ? 'anke' : 'bram'}`);
  }
  const winners = resA.winners || [];
  if (winners.length === 1) {
    check(ratings[A.user] !== ratings[B.user] && ratings[A.user] !== '1500?' && ratings[B.user] !== '1500?',
      `both ratings changed (${ratings[A.user]}, ${ratings[B.user]})`);
  }

  await A.page.goto(`${BASE}/#/leaderboard/amsterdam`);
  await A.page.waitForSelector('#leaderboard-table', { timeout: 10000 }).catch(() => {});
  const names = await A.page.locator('#leaderboard-table tbody td a').allTextContents();
  check(names.includes(A.user) && names.includes(B.user), `the leaderboard lists both (${names.join(', ')})`);
  await shot(A.page, 'ratings-03-leaderboard');

  // the rematch: proposed by one click on the result box, then accepted by
  // the other person in theirs (each person is asked: rematch.js); both are
  // taken to the new game
  await B.page.goto(`${BASE}/#/play/${gid}`);
  await B.page.waitForSelector('#rematch', { timeout: 30000 });
  await B.page.click('#rematch');
  await B.page.waitForSelector('#rematch-offer', { timeout: 30000 });
  await A.page.goto(`${BASE}/#/play/${gid}`);
  await A.page.waitForSelector('#rematch-accept', { timeout: 30000 });
  await A.page.click('#rematch-accept');
  await B.page.waitForFunction((old) => /#\/play\/[0-9a-f]{16}$/.test(location.hash) && !location.hash.includes(old), gid, { timeout: 30000 });
  const newId = B.page.url().split('/').pop();
  // Once in a local run this request on a kept-alive connection idle for the
  // whole game got "socket hang up" with no answer (cause not found; noted in
  // the session's report). A connection error, not a wrong answer, is tried
  // once more on a new connection, and said in the output.
  let got;
  try {
    got = await A.ctx.request.get(`${BASE}/api/games/${newId}`);
  } catch (e) {
    console.log(`note - GET /api/games/${newId} failed once (${String(e.message || e).split('\n')[0]}); asked again`);
    got = await A.ctx.request.get(`${BASE}/api/games/${newId}`, { headers: { connection: 'close' } });
  }
  const s = await got.json();
  check(s.status === 'playing' && s.seats.map((x) => x.name).join(',') === `${A.user},${B.user}`,
    `the rematch seats the same two people (${s.seats.map((x) => x.name)})`);
  await A.page.goto(`${BASE}/#/play/${gid}`);
  await A.page.waitForSelector('#open-rematch', { timeout: 30000 });
  check((await A.page.getAttribute('#open-rematch', 'href')) === `#/play/${newId}`, 'the other player is shown the rematch');
  await A.page.goto(`${BASE}/#/my-games`);
  await A.page.waitForSelector(`#my-games .game-row[data-game="${newId}"]`, { timeout: 15000 }).catch(() => {});
  check(await A.page.locator(`#my-games .game-row[data-game="${newId}"]`).count() === 1, '"My games" lists the rematch');
  await shot(A.page, 'ratings-04-my-games');
  check(pageErrors.length === 0, `no page errors (${pageErrors.join('; ')})`);
} catch (e) {
  check(false, `exception: ${e.stack || e}`);
} finally {
  await browser.close();
}
if (failures.length) { console.log(`${failures.length} failures`); process.exit(1); }
console.log('ratings.mjs: ratings, profiles, leaderboard and rematch in the browser');
