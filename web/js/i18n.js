// i18n.js: the browser client's messages in English, Dutch and Japanese.
// Two flat catalogues are merged: the shared one the terminal client also
// uses (served by the server at /i18n/LANG.json, from data/i18n/) and the
// web-only one (web/i18n/LANG.json). Shared keys win where both define a key,
// so a message worded once is worded the same in every front end. A key
// missing in a language falls back to English, then to the key itself, so a
// gap is visible but never breaks the page (tests/web/i18n-check.mjs keeps
// web/i18n complete).

export const LANGS = ['en', 'nl', 'ja'];
export const LANG_NAMES = { en: 'English', nl: 'Nederlands', ja: '日本語' };

let current = 'en';
let table = {};     // merged catalogue of the current language
let english = {};   // merged English catalogue, the fallback

async function fetchJson(url) {
  try {
    const r = await fetch(url, { cache: 'no-cache' });
    if (!r.ok) return {};
    const j = await r.json();
    return (j && typeof j === 'object' && !Array.isArray(j)) ? j : {};
  } catch (e) {
    return {};   // the shared catalogue may not be served yet: web strings still work
  }
}

async function loadLang(lang) {
  const [web, shared] = await Promise.all([
    fetchJson(`/web/i18n/${lang}.json`), fetchJson(`/i18n/${lang}.json`)]);
  return Object.assign({}, web, shared);
}

// The language to start with: the saved choice, else the browser's.
export function preferredLang() {
  const saved = localStorage.getItem('chartered.lang');
  if (LANGS.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(code)) return code;
  }
  return 'en';
}

export async function setLang(lang) {
  if (!LANGS.includes(lang)) lang = 'en';
  if (!Object.keys(english).length) english = await loadLang('en');
  table = lang === 'en' ? english : await loadLang(lang);
  current = lang;
  placeCache.clear();
  localStorage.setItem('chartered.lang', lang);
  document.documentElement.lang = lang;
}

export function lang() { return current; }

export function has(key) { return key in table || key in english; }

// A plural entry is an object of CLDR plural categories ({"one": "{n} card",
// "other": "{n} cards"}, docs/formats.md "Message catalogues"): its form is
// chosen by the parameter n with the browser's CLDR rules (Intl.PluralRules),
// the same categories src/text/i18n.c uses for the terminal.
const rulesCache = {};
export function pluralForm(entry, n, language) {
  if (typeof entry === 'string' || entry === undefined) return entry;
  const l = language || current;
  const rules = rulesCache[l] || (rulesCache[l] = new Intl.PluralRules(l));
  const cat = Number.isFinite(Number(n)) ? rules.select(Number(n)) : 'other';
  return entry[cat] !== undefined ? entry[cat] : entry.other;
}

// t('ui.turn_n', {n: 3}): the message with its placeholders filled.
export function t(key, params) {
  const n = params ? params.n : undefined;
  let s = pluralForm(table[key], n);
  if (s === undefined) s = pluralForm(english[key], n, 'en');
  if (s === undefined) return params && params._default !== undefined ? params._default : key;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
  return s;
}

// The first of several keys that exists (shared keys are guessed from the
// terminal client's naming), else the fallback text.
export function tAny(keys, params, fallback) {
  for (const k of keys) if (has(k)) return t(k, params);
  return fallback;
}

// A plot's or building card's name ("Harbour C1") with its district in the
// page's language ("Haven C1"), from the shared catalogue's district.*
// entries (the terminal uses the same entries: chx_place in src/text).
// Level cards, lot numbers and anything else stay as they are.
let districts = null;   // [[English name, key]], from the English catalogue
const placeCache = new Map();
export function placeName(name) {
  const s = String(name);
  const key = `${current}|${s}`;
  const hit = placeCache.get(key);
  if (hit !== undefined) return hit;
  if (!districts) districts = Object.entries(english).filter(([k, en]) => k.startsWith('district.') && typeof en === 'string').map(([k, en]) => [en, k]);
  let out = s;
  for (const [en, k] of districts) if (s === en || s.startsWith(en + ' ')) { out = t(k) + s.slice(en.length); break; }
  if (placeCache.size > 5000) placeCache.clear();
  placeCache.set(key, out);
  return out;
}
