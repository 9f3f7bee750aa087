// rules.js: the rules page of each edition (#/rules/EDITION and
// #/rules/EDITION/SECTION, issue 31) and the links from a decision's
// "Rules: ..." line to its section. The text is data/rules/<edition>.<lang>.md
// (the project's own words; the terminal's `rules` shows the same files),
// served as static files under /rules/ and rendered here from its small
// Markdown subset (data/rules/README.md): "# " title, "## Title {#id}"
// sections, "### " subheadings, paragraphs, "- " and "1. " items with
// indented continuation lines, **bold** and *italic*. The text becomes DOM
// text nodes, never HTML. data/rules/cites.txt names the section each
// decision cites.
import { h, clear } from './dom.js';
import { t, lang } from './i18n.js';

export const EDITIONS = ['amsterdam', 'golden-age'];

async function fetchText(url) {
  const r = await fetch(url, { cache: 'no-cache' });
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.text();
}

// cites.txt: "edition phase section" lines ('#' starts a comment).
let cites = null;
export async function loadCites() {
  if (cites) return cites;
  const text = await fetchText('/rules/cites.txt');
  const m = {};
  for (const line of text.split('\n')) {
    const w = line.replace(/#.*/, '').trim().split(/\s+/);
    if (w.length !== 3) continue;
    (m[w[0]] = m[w[0]] || {})[w[1]] = w[2];
  }
  cites = m;
  return m;
}

// The address of the section a decision cites, or null (cites not loaded,
// or a phase without a line).
export function citeHref(edition, phase) {
  const id = cites && cites[edition] && cites[edition][phase];
  return id ? `#/rules/${edition}/${id}` : null;
}

// **bold** and *italic* inside a line, as nodes.
function inline(text) {
  const out = [];
  const re = /\*\*(.+?)\*\*|\*(.+?)\*/g;
  let at = 0, m;
  while ((m = re.exec(text))) {
    if (m.index > at) out.push(text.slice(at, m.index));
    out.push(m[1] !== undefined ? h('strong', {}, m[1]) : h('em', {}, m[2]));
    at = re.lastIndex;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

// The Markdown subset as {title, sections: [{id, title, nodes}]}.
export function parseRules(md) {
  const lines = md.replace(/\r/g, '').split('\n');
  const doc = { title: '', sections: [] };
  let sec = null, para = null, list = null, item = null;
  const flush = () => { para = null; list = null; item = null; };
  for (const raw of lines) {
    const line = raw.replace(/\s+$/, '');
    let m;
    if (/^# /.test(line)) { doc.title = line.slice(2).trim(); flush(); continue; }
    if ((m = /^## (.*?)\s*\{#([a-z0-9-]+)\}$/.exec(line))) {
      sec = { id: m[2], title: m[1], nodes: [] };
      doc.sections.push(sec);
      flush();
      continue;
    }
    if (!sec) continue;
    if (!line.trim()) { flush(); continue; }
    if (/^### /.test(line)) { sec.nodes.push(h('h3', {}, inline(line.slice(4).trim()))); flush(); continue; }
    const bullet = /^- (.*)$/.exec(line), num = /^(\d+)\. (.*)$/.exec(line);
    if (bullet || num) {
      const tag = bullet ? 'ul' : 'ol';
      if (!list || list.tagName.toLowerCase() !== tag) {
        list = h(tag, num ? { start: num[1] } : {});
        sec.nodes.push(list);
      }
      item = h('li', {}, inline(bullet ? bullet[1] : num[2]));
      list.appendChild(item);
      para = null;
      continue;
    }
    if (item && /^\s+/.test(raw)) { item.append(' ', ...inline(line.trim())); continue; }
    if (para) { para.append(' ', ...inline(line.trim())); continue; }
    list = null; item = null;
    para = h('p', {}, inline(line.trim()));
    sec.nodes.push(para);
  }
  return doc;
}

export class RulesPage {
  constructor(root, { edition, section }) {
    this.root = root;
    this.edition = EDITIONS.includes(edition) ? edition : 'amsterdam';
    this.section = section || null;
    this.load();
  }

  async load() {
    const R = this.root;
    try {
      this.doc = parseRules(await fetchText(`/rules/${this.edition}.${lang()}.md`));
    } catch (e) {
      clear(R).appendChild(h('p', { class: 'error-banner', role: 'alert' }, t('rules.missing', { why: e.message })));
      return;
    }
    this.render();
  }

  relang() { this.load(); }

  render() {
    const R = clear(this.root);
    const d = this.doc, ed = this.edition;
    const page = h('article', { class: 'panel rules-page', id: 'rules-page', dataset: { edition: ed } },
      h('h1', {}, d.title),
      h('p', { class: 'switch' },
        h('a', { href: '#/' }, t('rules.back')),
        EDITIONS.filter((e) => e !== ed).map((e) => h('a', { href: `#/rules/${e}`, id: 'rules-other' }, t('rules.other', { edition: t(`edition.${e}`) })))),
      h('nav', { class: 'toc', 'aria-label': t('rules.contents') }, h('h2', {}, t('rules.contents')),
        h('ol', {}, d.sections.map((s) => h('li', {}, h('a', { href: `#/rules/${ed}/${s.id}` }, s.title))))),
      d.sections.map((s) => h('section', { class: `rules-section${s.id === this.section ? ' cited' : ''}`, id: `rules-${s.id}`, 'aria-labelledby': `rules-h-${s.id}` },
        h('h2', { id: `rules-h-${s.id}`, tabindex: '-1' }, s.title), s.nodes)));
    R.appendChild(page);
    document.title = `${d.title} · ${t('app.title')}`;
    // a section named in the address (a decision's citation) is shown first
    const target = this.section && document.getElementById(`rules-h-${this.section}`);
    if (target) { target.scrollIntoView({ block: 'start' }); target.focus({ preventScroll: true }); }
    else window.scrollTo(0, 0);
  }
}
