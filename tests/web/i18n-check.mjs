// i18n-check.mjs: checks the web client's message catalogues
// (web/i18n/{en,nl,ja}.json): every key exists in every language, no text is
// empty, each translation uses the same {placeholders} as the English text,
// and every key the client's code names literally — t('ui.market') — exists
// in English (here or in the shared catalogue data/i18n/en.json). So a
// missing translation fails the test instead of showing a key on screen.
// Usage: node i18n-check.mjs SRCDIR
import fs from 'node:fs';
import path from 'node:path';

const src = process.argv[2] || path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const langs = ['en', 'nl', 'ja'];
const problems = [];
const load = (file) => {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch (e) { problems.push(`${file}: ${e.message}`); return {}; }
};
const web = Object.fromEntries(langs.map((l) => [l, load(path.join(src, 'web/i18n', `${l}.json`))]));
const sharedFile = path.join(src, 'data/i18n/en.json');
const shared = fs.existsSync(sharedFile) ? load(sharedFile) : {};
const holes = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');

for (const l of langs) {
  for (const [k, v] of Object.entries(web[l])) {
    if (typeof v !== 'string' || (v === '' && k !== 'ui.off_chart')) problems.push(`web/i18n/${l}.json: "${k}" is empty or not text`);
    if (!(k in web.en)) problems.push(`web/i18n/${l}.json: "${k}" is not in en.json`);
  }
  for (const k of Object.keys(web.en)) {
    if (!(k in web[l])) problems.push(`web/i18n/${l}.json: "${k}" is missing`);
    else if (holes(web[l][k]) !== holes(web.en[k])) problems.push(`web/i18n/${l}.json: "${k}" has placeholders {${holes(web[l][k])}}, English has {${holes(web.en[k])}}`);
  }
}

// literal keys in the code
const jsDir = path.join(src, 'web/js');
let used = 0;
for (const f of fs.readdirSync(jsDir).filter((f) => f.endsWith('.js'))) {
  const text = fs.readFileSync(path.join(jsDir, f), 'utf8');
  for (const m of text.matchAll(/\bt\('([a-z_-]+\.[A-Za-z0-9_.-]+)'/g)) {
    used++;
    if (!(m[1] in web.en) && !(m[1] in shared)) problems.push(`web/js/${f}: t('${m[1]}') has no English text`);
  }
}
// keys the code builds from names: every phase, error code and move word it may meet
const families = {
  'phase.': ['turn', 'purchase', 'hq', 'found', 'credit', 'merge', 'merge-sell', 'trade', 'sell', 'event', 'bid', 'lose', 'coop', 'offer', 'respond', 'veilinge', 'auction', 'pick', 'over', 'free', 'forced', 'event-sell'],
  'error.': ['bad_json', 'unknown_type', 'bad_request', 'too_big', 'no_game', 'bad_token', 'not_started', 'not_your_turn', 'illegal_move', 'stale', 'rate_limited', 'storage'],
  'conn.': ['connecting', 'open', 'lost'],
  'status.': ['waiting', 'playing', 'over'],
  'hidden.': ['bid', 'give', 'ask', 'pick', 'buy', 'sell'],
  'edition.': ['amsterdam', 'golden-age'],
};
for (const [prefix, names] of Object.entries(families)) {
  for (const n of names) if (!(prefix + n in web.en) && !(prefix + n in shared)) problems.push(`no English text for the key ${prefix}${n}`);
}

if (problems.length) {
  console.log(`i18n: ${problems.length} problems:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`i18n: ok - ${Object.keys(web.en).length} keys in en, nl and ja; ${used} literal uses in web/js all defined`);
