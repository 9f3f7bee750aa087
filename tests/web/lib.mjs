// lib.mjs: what the browser tests share (not a test: run.sh runs only the
// specs it is given). The server's address from run.sh (CH_BASE), the folder
// of screenshots (CH_ARTIFACTS), the checks and their failures, Debian's
// chromium started headless, a person signed up in a browser profile of
// their own, polling a page under the server's Content-Security-Policy, and
// the summary at the end (finish). A spec imports what it uses:
//   import { BASE, check, launch, person, until, finish } from './lib.mjs';
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

export const BASE = process.env.CH_BASE;
export const ART = process.env.CH_ARTIFACTS || path.join(process.cwd(), 'artifacts');
if (!BASE) { console.error('CH_BASE (the server address) is not set'); process.exit(2); }
fs.mkdirSync(ART, { recursive: true });

export const failures = [];
export function check(ok, what) { console.log(`${ok ? 'ok' : 'FAIL'} - ${what}`); if (!ok) failures.push(what); }
// the pages' uncaught errors, each with the person's name (person below)
export const pageErrors = [];

// Debian's chromium, headless (no browser download: scripts/install-deps.sh)
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-dev-shm-usage'];
export function launch(args = CHROMIUM_ARGS) {
  return chromium.launch({ executablePath: process.env.CH_CHROMIUM || '/usr/bin/chromium', args });
}

// A person: a browser profile of their own (extra: more context options,
// e.g. bypassCSP or permissions), its page, and an account signed up through
// the API under a name unique to this run (the test may run again on the
// same database). Resolves with { ctx, page, user }.
export async function person(browser, name, extra = {}) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', ...extra });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => { pageErrors.push(`${name}: ${e.message}`); console.log(`pageerror ${name}: ${e.message}`); });
  const user = `${name}${Date.now() % 100000}`;
  const r = await ctx.request.post(`${BASE}/api/signup`, { data: { name: user, password: `${user} password` } });
  check(r.status() === 201, `${user} signs up (${r.status()})`);
  return { ctx, page, user };
}

// Poll fn(arg) in the page until it is true: Playwright's waitForFunction
// runs its predicate through eval(), which the server's
// Content-Security-Policy (script-src 'self') refuses. A time-out is a
// failed check (what says of what); resolves with whether fn came true.
export async function until(page, fn, arg, what, ms = 40000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await page.evaluate(fn, arg)) return true;
    await page.waitForTimeout(200);
  }
  check(false, `timed out: ${what}`);
  return false;
}

// The end of a spec, after its browser closed: no page errors, then the
// exit status (1 when a check failed).
export function finish(name) {
  check(!pageErrors.length, `no page errors (${pageErrors.join('; ')})`);
  if (failures.length) { console.log(`${failures.length} failed`); process.exit(1); }
  console.log(`${name}: all passed`);
}
