// variant.js: variant files in the browser (docs/variants.md).
// - variantField(form, onHeader): the lobby create form's "Play a variant": a
//   variant file to upload (its text kept in form.variant, shown read-only).
//   A variant may name its edition and player count; onHeader({edition,
//   players}) lets the lobby show that many seats.
// - variantBody(body, text): the POST /api/games request for it: the text as
//   "variant", and none of the fields the variant names itself (edition,
//   players, arrangement, preset, events), which the server would refuse if
//   they said otherwise. Such a game is unrated (docs/ratings.md).
import { h } from './dom.js';
import { t } from './i18n.js';

// The settings a variant names that the form also has: {edition, players,
// arrangement, preset, events} as written (comments and case ignored).
export function variantHeader(text) {
  const out = {};
  for (const raw of String(text || '').split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    const m = /^(edition|players|arrangement|preset|events)\s+(.+)$/i.exec(line);
    if (!m) continue;
    const key = m[1].toLowerCase(), val = m[2].trim();
    out[key] = key === 'players' && /^\d+$/.test(val) ? Number(val) : val.toLowerCase();
  }
  return out;
}

export function variantField(form, onHeader) {
  const shown = h('textarea', { id: 'variant-text', rows: 6, readonly: true, spellcheck: 'false',
    'aria-describedby': 'variant-help' });
  shown.value = form.variant || '';
  const file = h('input', {
    type: 'file', id: 'variant-file', accept: '.variant,.txt,text/plain', 'aria-label': t('lobby.variant_file'),
    onchange: async (e) => {
      const f = e.target.files && e.target.files[0];
      form.variant = f ? await f.text() : '';
      shown.value = form.variant;
      onHeader(variantHeader(form.variant));
    },
  });
  return h('details', { class: 'position-box', id: 'variant-box', open: !!form.variant },
    h('summary', {}, t('lobby.variant')),
    h('p', { class: 'muted', id: 'variant-help' }, t('lobby.variant_help')),
    h('label', { class: 'field' }, h('span', {}, t('lobby.variant_file')), file),
    h('label', { class: 'field' }, h('span', {}, t('lobby.variant_text')), shown));
}

export function variantBody(body, text) {
  const named = variantHeader(text);
  for (const k of ['edition', 'players', 'arrangement', 'preset', 'events']) if (k in named) delete body[k];
  body.variant = text;
  return body;
}
