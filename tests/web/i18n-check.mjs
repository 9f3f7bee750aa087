// i18n-check.mjs: checks the message catalogues, the web client's
// (web/i18n/{en,nl,ja}.json) and the shared ones (data/i18n/{en,nl,ja}.json):
// every key of any catalogue exists in every language of it, no text is
// empty, each translation uses the same {placeholders} as the English text,
// a plural entry (an object of CLDR categories, docs/formats.md "Message
// catalogues") has exactly the categories the language's CLDR rules name
// (Intl.PluralRules: en and nl "one" and "other", ja "other"), no Dutch or
// Japanese text contains an English company or district name, the Dutch and
// Japanese help cite the rulebook's sections and the move words in their
// language (no English section name), and every key the client's code names literally — t('ui.market') — exists in English.
// So a missing translation fails the test instead of showing a key on screen.
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
const sharedAll = Object.fromEntries(langs.map((l) => [l, load(path.join(src, 'data/i18n', `${l}.json`))]));
const shared = sharedAll.en;
const forms = (v) => (v && typeof v === 'object' ? Object.values(v) : [v]);
const holes = (v) => [...new Set(forms(v).flatMap((s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort().join(',');
const categories = (l) => new Intl.PluralRules(l).resolvedOptions().pluralCategories.filter((c) => ['one', 'other', 'few', 'many', 'two', 'zero'].includes(c)).sort().join(',');

function checkCatalogues(name, cats) {
  for (const l of langs) {
    for (const [k, v] of Object.entries(cats[l])) {
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        const have = Object.keys(v).sort().join(',');
        if (have !== categories(l)) problems.push(`${name}/${l}.json: plural "${k}" has the forms {${have}}, CLDR's ${l} needs {${categories(l)}}`);
        for (const f of Object.values(v)) if (typeof f !== 'string' || f === '') problems.push(`${name}/${l}.json: plural "${k}" has an empty or non-text form`);
      } else if (typeof v !== 'string' || (v === '' && k !== 'ui.off_chart')) problems.push(`${name}/${l}.json: "${k}" is empty or not text`);
      if (!(k in cats.en)) problems.push(`${name}/${l}.json: "${k}" is not in en.json`);
    }
    for (const k of Object.keys(cats.en)) {
      if (!(k in cats[l])) problems.push(`${name}/${l}.json: "${k}" is missing`);
      else if (holes(cats[l][k]) !== holes(cats.en[k])) problems.push(`${name}/${l}.json: "${k}" has placeholders {${holes(cats[l][k])}}, English has {${holes(cats.en[k])}}`);
    }
  }
}
checkCatalogues('web/i18n', web);
checkCatalogues('data/i18n', sharedAll);

// No English company or district name in a Dutch or Japanese text (where the
// language names it differently: "Jordaan" is Jordaan in Dutch too).
const englishNames = [];
for (const [k, v] of Object.entries(shared)) {
  if (!/^(company\.(ba|ga)\.\d+|district\.\w+)$/.test(k)) continue;
  for (const l of ['nl', 'ja']) if (sharedAll[l][k] !== v) englishNames.push([v, l]);
}
for (const l of ['nl', 'ja']) {
  const names = [...new Set(englishNames.filter(([, x]) => x === l).map(([n]) => n))];
  const re = new RegExp(`\\b(${names.join('|')})\\b`);
  for (const [cname, cats] of [['web/i18n', web], ['data/i18n', sharedAll]]) {
    for (const [k, v] of Object.entries(cats[l])) {
      if (k.startsWith('why.') || k.startsWith('setup.') || k.startsWith('notation.')) continue;   // examples of English notation (read in every language)
      for (const f of forms(v)) { const m = re.exec(String(f)); if (m) problems.push(`${cname}/${l}.json: "${k}" names "${m[1]}" in English`); }
    }
  }
}

// The Dutch and Japanese help (the terminal's `help`, and the browser's
// decision panel, which cites section.*) name the rulebook's sections in
// their language: section.<phase> is the name the help text cites, a Dutch
// or Japanese section.* differs from the English one (but for the stock
// events, named alike in every rulebook), and no help text names a section
// in English. The notation words a help text quotes ('pass') are the
// language's own (notation.*: 'pas', 'パス'), as the terminal lists them.
const EVENTS = /^(Coopmanscappen|Dreighinghe|Veilinge|Verlappen|Aenleggen)$/;
const enSections = Object.entries(shared).filter(([k]) => k.startsWith('section.'));
if (enSections.length < 20) problems.push(`data/i18n/en.json: only ${enSections.length} section.* names`);
const notationWords = Object.keys(shared).filter((k) => k.startsWith('notation.')).map((k) => k.slice(9));
for (const l of ['nl', 'ja']) {
  const cat = sharedAll[l];
  for (const [k, en] of enSections) {
    if (!EVENTS.test(en) && cat[k] === en) problems.push(`data/i18n/${l}.json: "${k}" is the English section name '${en}'`);
  }
  for (const [k, v] of Object.entries(cat)) {
    if (!k.startsWith('help.') || typeof v !== 'string') continue;
    const sk = `section.${k.slice(5)}`;
    if (sk in cat && !v.includes(cat[sk])) problems.push(`data/i18n/${l}.json: "${k}" does not cite its section '${cat[sk]}' (${sk})`);
    for (const [, en] of enSections) {
      if (!EVENTS.test(en) && v.includes(en)) problems.push(`data/i18n/${l}.json: "${k}" cites the English section '${en}'`);
    }
    for (const m of v.matchAll(/'([^' ]+)[^']*'/g)) {
      const w = m[1];
      if (notationWords.includes(w) && cat[`notation.${w}`] !== w) problems.push(`data/i18n/${l}.json: "${k}" quotes the English move word '${w}' (${l}: '${cat[`notation.${w}`]}')`);
    }
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
console.log(`i18n: ok - ${Object.keys(web.en).length} web and ${Object.keys(shared).length} shared keys in en, nl and ja; ${used} literal uses in web/js all defined`);
