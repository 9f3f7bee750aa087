// dom.js: a tiny helper to build DOM elements, so the pages need no framework.
// h('button', {class: 'x', onclick: f, dataset: {move: 'draw'}}, 'text', child...)
export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'dataset') Object.assign(e.dataset, v);
      else if (k === 'style' && typeof v === 'object') Object.assign(e.style, v);
      else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
      else if (v === true) e.setAttribute(k, '');
      else e.setAttribute(k, v);
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

export function clear(e) { while (e.firstChild) e.removeChild(e.firstChild); return e; }

// A message shown at the top of the page; kind 'error' stays until closed.
export function toast(text, kind = 'info') {
  let box = document.getElementById('toasts');
  if (!box) { box = h('div', { id: 'toasts', 'aria-live': 'assertive' }); document.body.appendChild(box); }
  const close = h('button', { class: 'toast-close', 'aria-label': 'close' }, '×');
  const item = h('div', { class: `toast ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, h('span', { class: 'toast-text' }, text), close);
  close.addEventListener('click', () => item.remove());
  box.appendChild(item);
  if (kind !== 'error') setTimeout(() => item.remove(), 4000);
  return item;
}
