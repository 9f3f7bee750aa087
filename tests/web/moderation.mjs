// moderation.mjs: the browser test of reports and moderation (issue 35 item 1;
// docs/moderation.md), with Playwright driving Debian's chromium against the
// server of run.sh (CH_BASE; its database from CH_SERVER_CMD). Anke, Bram
// and Mia sign up; Mia is made a moderator with `chartered admin grant` on
// the live server's database. Anke and Bram play a game (a challenge
// accepted); Anke insults Bram in the chat; Bram reports the message with
// its ⚑ button. Mia opens the moderation page from the header, reads the
// report with the message among the lines around it, and bans Anke for a
// day from the report. Anke's table connection is closed, her chat no
// longer reaches Bram, her login is refused with the ban's end, and the
// audit log on Mia's page shows the report and the ban. Mia then aborts the
// game, and Bram's table says a moderator ended it.
import { BASE, ART, check, launch, person, until, finish } from './lib.mjs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

// the server's binary and database, as run.sh started it
const CMD = JSON.parse(process.env.CH_SERVER_CMD || '[]');
const BIN = CMD[0];
const DB = CMD[CMD.indexOf('--db') + 1];

const browser = await launch();
const chatHas = (text) => [...document.querySelectorAll('#chat-list .chat-text')].some((e) => e.textContent === text);

try {
  check(!!BIN && !!DB, `the server's binary and database are known (${BIN} ${DB})`);
  const A = await person(browser, 'anke');
  const B = await person(browser, 'bram');
  const M = await person(browser, 'mia');
  const g = spawnSync(BIN, ['admin', '--db', DB, 'grant', M.user, 'moderator'], { encoding: 'utf8' });
  check(g.status === 0 && /moderator/.test(g.stdout), `Mia is made a moderator from the command line (${g.stdout}${g.stderr})`);

  // a game of Anke and Bram
  let r = await A.ctx.request.post(`${BASE}/api/challenges`, { data: { name: B.user, edition: 'amsterdam' } });
  const ch = await r.json();
  r = await B.ctx.request.post(`${BASE}/api/challenges/${ch.id}/accept`, { data: {} });
  const gid = (await r.json()).game;
  check(r.status() === 201 && !!gid, `a game of Anke and Bram (${r.status()})`);
  for (const P of [A, B]) {
    await P.page.goto(`${BASE}/#/play/${gid}`);
    await P.page.waitForSelector('#board', { timeout: 30000 });
  }
  check(await A.page.isHidden('#nav-mod'), 'a player has no Moderation link');

  // Anke insults Bram; Bram reports the message
  const insult = 'you play like a worthless idiot';
  for (const text of ['good luck', insult]) {
    await A.page.fill('#chat-input', text);
    await A.page.click('#chat-send');
    await until(B.page, chatHas, text, `Bram reads "${text}"`);
  }
  check(await A.page.locator('#chat-list .chat-report').count() === 0, 'no report button on one\'s own lines');
  const line = B.page.locator('#chat-list li', { hasText: insult });
  await line.locator('.chat-report').click();
  await B.page.waitForSelector('#report-form');
  await B.page.selectOption('#report-reason', 'abuse');
  await B.page.fill('#report-details', 'insults at the table');
  await B.page.screenshot({ path: path.join(ART, 'moderation-report.png') });
  await B.page.click('#report-send');
  await until(B.page, () => /moderators will read your report/.test(document.getElementById('toasts')?.textContent || ''), null, 'Bram is thanked for the report');
  check(await B.page.locator('#report-layer').count() === 0, 'the report dialog closes');

  // Mia: the header's link, the queue, the message in context, the ban
  await M.page.goto(`${BASE}/#/`);
  await M.page.waitForSelector('#nav-mod:not([hidden])', { timeout: 10000 });
  await M.page.click('#nav-mod');
  const report = M.page.locator('.mod-report.open').first();
  await report.waitFor({ timeout: 10000 });
  const rtext = await report.textContent();
  check(rtext.includes(`${B.user} reported ${A.user}`) && rtext.includes('Abuse') && rtext.includes('insults at the table'),
    `the report says who, whom, why (${rtext.slice(0, 160)})`);
  const ctxLines = await report.locator('.mod-context li').allTextContents();
  const hl = await report.locator('.mod-context li.reported').textContent();
  check(ctxLines.length === 2 && ctxLines[0].includes('good luck') && hl.includes(insult),
    `the message is shown among the lines around it, highlighted (${JSON.stringify(ctxLines)})`);
  await report.locator('.mod-reason').fill('insults in the table chat');
  await report.locator('.mod-end').selectOption({ label: '1 day' });
  await M.page.screenshot({ path: path.join(ART, 'moderation-queue.png') });
  await report.locator('.mod-ban').click();
  await until(M.page, () => /Done: Ban/.test(document.getElementById('toasts')?.textContent || ''), null, 'Mia is told the ban is done');

  // Anke: her connection is closed and her chat goes nowhere
  const me = await A.ctx.request.get(`${BASE}/api/me`).then((x) => x.json());
  check(me.kind === 'none', `Anke's session is gone (${JSON.stringify(me)})`);
  await A.page.fill('#chat-input', 'am I still here').catch(() => null);
  await A.page.click('#chat-send').catch(() => null);
  await B.page.waitForTimeout(1500);
  check(!(await B.page.evaluate(chatHas, 'am I still here')), 'Anke\'s chat after the ban reaches nobody');
  // her login is refused, saying until when
  await A.page.goto(`${BASE}/#/`);
  await A.page.reload(); // the page learns it has no session any more
  await A.page.waitForSelector('#login-open');
  await A.page.click('#login-open');
  await A.page.fill('#session-name', A.user);
  await A.page.fill('#session-password', `${A.user} password`);
  await A.page.click('#session-submit');
  await A.page.waitForSelector('#session-error:not([hidden])', { timeout: 10000 });
  const err = await A.page.textContent('#session-error');
  const tomorrow = new Date(Date.now() + 86400e3);
  check(/This account is banned until/.test(err) && err.includes('insults in the table chat') &&
    err.includes(String(tomorrow.getDate())), `Anke's login is refused with the end (${err})`);
  await A.page.screenshot({ path: path.join(ART, 'moderation-banned.png') });

  // the audit log has the report and the ban; the report left the queue
  await M.page.reload();
  await M.page.waitForSelector('#mod-audit-table');
  const rows = await M.page.locator('#mod-audit-table tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.dataset.action, tr.textContent]));
  check(rows.some(([a, t]) => a === 'report' && t.includes(B.user) && t.includes(A.user)) &&
    rows.some(([a, t]) => a === 'ban' && t.includes(M.user) && t.includes(A.user) && t.includes('insults in the table chat')),
    `the audit log shows the report and the ban (${JSON.stringify(rows.map((x) => x[0]))})`);
  check(await M.page.locator('.mod-report.open').count() === 0, 'the report is no longer open');
  check((await M.page.textContent('#mod-sanctions')).includes(A.user), 'the ban is listed in force');
  await M.page.screenshot({ path: path.join(ART, 'moderation-audit.png'), fullPage: true });
  // Mia aborts the game from the page: Bram's table says a moderator ended it
  await M.page.selectOption('#mod-action', 'abort');
  await M.page.fill('#mod-target', gid);
  await M.page.fill('#mod-free-reason', 'the game cannot go on');
  await M.page.click('#mod-free-go');
  await B.page.waitForSelector('#end-aborted', { timeout: 10000 });
  check(/A moderator ended the game/.test(await B.page.textContent('#result')), 'Bram\'s table says a moderator ended the game');
  // and so does its status line, which no longer says the game is rated
  const statusLine = await B.page.textContent('#game-status');
  check(/A moderator ended the game/.test(statusLine) && /Unrated: the game ended without a result/.test(statusLine) && !/Rated:/.test(statusLine),
    `the status line says it ended without a result, unrated (${statusLine})`);
  const sum = await B.ctx.request.get(`${BASE}/api/games/${gid}`).then((x) => x.json());
  check(sum.status === 'aborted', `the game is aborted (${sum.status})`);
  // a player may be reported from their profile too
  await B.page.goto(`${BASE}/#/player/${A.user}`);
  await B.page.click('#report-player');
  await B.page.waitForSelector('#report-form');
  check((await B.page.textContent('#report-form h2')).includes(A.user), 'a profile\'s Report button opens the report form');
  // a player gets no moderation data, whatever the page asks
  const st = (await B.ctx.request.get(`${BASE}/api/mod/audit`)).status();
  check(st === 403, `a player's request for the audit log is refused (${st})`);
} catch (e) {
  check(false, `unexpected: ${e.stack || e}`);
} finally {
  await browser.close();
}
finish('moderation');
