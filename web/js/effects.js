// effects.js: the page's small effects and the player's switches for them,
// kept in localStorage: short animations (a placed warehouse, money paid),
// a sound and a title change when it becomes the player's turn. The sound
// is made here (Web Audio, two short tones): no sound file, no copied art.
import { t } from './i18n.js';

const KEY = 'chartered.prefs';
export const prefs = Object.assign({ anim: true, sound: true, title: true }, (() => {
  try { return JSON.parse(localStorage.getItem(KEY) || '{}'); } catch (e) { return {}; }
})());

export function togglePref(name) {
  prefs[name] = !prefs[name];
  localStorage.setItem(KEY, JSON.stringify(prefs));
  if (name === 'title' && !prefs.title) turnAlert(false);
}

let audio = null;
function chime() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const now = audio.currentTime;
    [660, 880].forEach((f, i) => {
      const o = audio.createOscillator(), g = audio.createGain();
      o.type = 'sine';
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, now + i * 0.14);
      g.gain.exponentialRampToValueAtTime(0.15, now + i * 0.14 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.14 + 0.18);
      o.connect(g).connect(audio.destination);
      o.start(now + i * 0.14);
      o.stop(now + i * 0.14 + 0.2);
    });
  } catch (e) { /* no audio: the title still tells */ }
}

// on: it became the player's turn (a chime, "● Your turn" in the title);
// off: the title as it was.
export function turnAlert(on) {
  const base = t('app.title');
  if (on) {
    if (prefs.sound) chime();
    if (prefs.title) document.title = `● ${t('ui.your_turn_title')} — ${base}`;
    document.body.dataset.turnAlert = String((+document.body.dataset.turnAlert || 0) + 1);
  } else if (document.title !== base) {
    document.title = base;
  }
}

// Whether the page may move things: the player's switch, and the system's
// "reduce motion" setting (prefers-reduced-motion), which always wins.
export function motionOK() {
  return prefs.anim && !(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}

// Money paid or received: "+f50" (green) or "−f50" (red) rises from the
// player's cash and fades, and the cash glows once. Not drawn at all when
// animations are off or the system asks for reduced motion.
// While a dialog or chooser is open the amount does not rise at all (it
// floated over the open dialog: issue 31); the cash still glows under it,
// and a float under way when a dialog opens passes below it (style.css puts
// .money-fly under .dialog-layer).
export function moneyFly(node, delta) {
  if (!motionOK() || !node || !delta) return;
  node.classList.remove('paid', 'got');
  void node.getBoundingClientRect();   // restart the glow
  node.classList.add(delta < 0 ? 'paid' : 'got');
  setTimeout(() => node.classList.remove('paid', 'got'), 1200);
  if (document.querySelector('.dialog-layer:not([hidden])')) {
    document.body.dataset.moneyHeld = String((+document.body.dataset.moneyHeld || 0) + 1);
    return;
  }
  document.body.dataset.moneyFlies = String((+document.body.dataset.moneyFlies || 0) + 1);
  const r = node.getBoundingClientRect();
  const e = document.createElement('span');
  e.className = `money-fly${delta < 0 ? ' cost' : ''}`;
  e.textContent = delta > 0 ? `+f${delta}` : `−f${-delta}`;
  e.style.left = `${Math.round(r.left + 8)}px`;
  e.style.top = `${Math.round(r.top)}px`;
  document.body.appendChild(e);
  setTimeout(() => e.remove(), 1200);
}
