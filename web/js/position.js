// position.js: positions in the browser (docs/formats.md "Positions").
// - positionField(form, onHeader): the lobby create form's "Start from a
//   position": a text area to paste a position into, or a file to upload
//   (read into the text area). The position names its edition and player
//   count; onHeader({edition, players}) lets the lobby show that many seats.
// - positionBody(body, text): the POST /api/games request for it: the text as
//   "position", and none of the fields the position decides (edition,
//   players, arrangement, preset, events, seed), which the server refuses.
// - copyPositionButton(game): the game page's "Copy position": the position
//   now as this browser's session may see it (GET /api/games/ID/position: its
//   seat's copy, or a spectator's; the server hides what must be hidden),
//   copied to the clipboard.
import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { api } from './api.js';

// The header lines a position starts with: edition and players.
export function positionHeader(text) {
  const out = {};
  for (const raw of String(text || '').split('\n')) {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    const m = /^(edition|players)\s+(\S+)$/i.exec(line);
    if (m && m[1].toLowerCase() === 'edition') out.edition = m[2].toLowerCase();
    if (m && m[1].toLowerCase() === 'players' && /^\d+$/.test(m[2])) out.players = Number(m[2]);
  }
  if (out.players && !out.edition) out.edition = 'amsterdam';
  return out;
}

export function positionField(form, onHeader) {
  let last = JSON.stringify(positionHeader(form.position));
  const changed = () => {
    const hdr = positionHeader(form.position);
    if (JSON.stringify(hdr) !== last) { last = JSON.stringify(hdr); if (hdr.players) onHeader(hdr); }
  };
  const area = h('textarea', {
    id: 'position-text', rows: 8, spellcheck: 'false', 'aria-describedby': 'position-help',
    placeholder: 'players 3\nwarehouse Harbour B1\n…',
    oninput: (e) => { form.position = e.target.value; },
    onchange: changed,
  });
  area.value = form.position || '';
  const file = h('input', {
    type: 'file', id: 'position-file', accept: '.pos,.txt,text/plain', 'aria-label': t('lobby.position_file'),
    onchange: async (e) => {
      const f = e.target.files && e.target.files[0];
      if (!f) return;
      form.position = await f.text();
      area.value = form.position;
      changed();
    },
  });
  return h('details', { class: 'position-box', id: 'position-box', open: !!form.position },
    h('summary', {}, t('lobby.position')),
    h('p', { class: 'muted', id: 'position-help' }, t('lobby.position_help')),
    h('label', { class: 'field' }, h('span', {}, t('lobby.position_text')), area),
    h('label', { class: 'field' }, h('span', {}, t('lobby.position_file')), file));
}

export function positionBody(body, text) {
  for (const k of ['edition', 'players', 'arrangement', 'preset', 'events', 'seed']) delete body[k];
  body.position = text;
  return body;
}

export function copyPositionButton(game) {
  return h('button', {
    type: 'button', class: 'small', id: 'copy-position',
    onclick: async () => {
      let text;
      try {
        text = (await api('GET', `/api/games/${encodeURIComponent(game)}/position`)).position;
      } catch (e) {
        toast(t('game.position_failed', { why: e.message }), 'error');
        return;
      }
      try {
        await navigator.clipboard.writeText(text);
        toast(t('game.position_copied'));
      } catch (e) {
        // no clipboard (an insecure page, or refused): show it to copy by hand
        const box = h('textarea', { readonly: true, rows: 8, class: 'position-copy', id: 'position-copy' });
        box.value = text;
        toast(t('game.position_copy_by_hand'), 'error').appendChild(box);
      }
    },
  }, t('game.copy_position'));
}
