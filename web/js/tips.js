// tips.js: tooltips that also work on a touch screen (issue 31 item 4 and 7).
// Every card, event, action card, market level, company token and button
// that costs or brings money carries its explanation in its title (hover
// shows it with a mouse); a tap with a finger or a pen shows the same words
// in a bubble beside the element for a few seconds, without stopping the
// tap's own action. Disabled controls receive no events, so the bubble
// finds the element under the finger with elementsFromPoint.
let bubble = null, hideTimer = null;

function tipTarget(x, y) {
  for (const el of document.elementsFromPoint(x, y)) {
    const t = el.closest && el.closest('[title], [data-tip]');
    if (t && (t.getAttribute('title') || t.dataset.tip)) return t;
  }
  return null;
}

export function showTip(el) {
  const text = el.getAttribute('title') || el.dataset.tip;
  if (!text) return;
  if (!bubble) {
    bubble = document.createElement('div');
    bubble.id = 'tap-tip';
    bubble.className = 'tap-tip';
    bubble.setAttribute('role', 'tooltip');
    document.body.appendChild(bubble);
  }
  bubble.textContent = text;
  bubble.hidden = false;
  const r = el.getBoundingClientRect();
  const w = Math.min(280, innerWidth - 16);
  bubble.style.maxWidth = `${w}px`;
  const left = Math.max(8, Math.min(innerWidth - w - 8, r.left + r.width / 2 - w / 2));
  bubble.style.left = `${Math.round(left)}px`;
  // above the element when there is room, else below it
  const bh = bubble.offsetHeight;
  const top = r.top - bh - 8 >= 0 ? r.top - bh - 8 : r.bottom + 8;
  bubble.style.top = `${Math.round(top)}px`;
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hideTip, 3500);
}

export function hideTip() {
  clearTimeout(hideTimer);
  if (bubble) bubble.hidden = true;
}

// Installed once for the whole page (app.js).
export function installTapTips() {
  if (installTapTips.done) return;
  installTapTips.done = true;
  document.addEventListener('pointerup', (e) => {
    if (e.pointerType === 'mouse') return;
    const el = tipTarget(e.clientX, e.clientY);
    if (el) showTip(el); else hideTip();
  }, true);
  // hidden when the person moves the page, not on any scroll: the page's
  // own redraws (a frame after the tapped move) scroll it too, and hid the
  // bubble at once
  addEventListener('touchmove', hideTip, { passive: true, capture: true });
  addEventListener('wheel', hideTip, { passive: true, capture: true });
}
