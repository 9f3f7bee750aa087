// clock.js: time left written as a person reads it ("23 h 59 min", "2 days",
// "45 s") in the page's language, and whether it is urgent. Used by the turn
// timer on the game page, "My games" and the lobby's "Your games" (issue 32:
// "86388 s left", in red, with almost a day to go, read as an emergency).
import { t } from './i18n.js';

// The coarsest form that still says what matters: days when there are two
// or more, then hours and minutes, then minutes and seconds, then seconds
// (a live timer of a minute counts down in seconds, as before).
export function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60), sec = s % 60;
  if (d >= 2) return t('clock.days', { n: d });
  if (d === 1) return t('clock.day_h', { n: 1, h });
  if (h >= 1) return t('clock.h_min', { h, m });
  if (m >= 1) return t('clock.min_s', { m, s: sec });
  return t('clock.s', { s: sec });
}

// Urgent (drawn red) only near the end: in the last hour, and in the last
// quarter of the time a move has (so a 60-second live timer turns red at 15 s
// rather than from the start).
export function urgent(secondsLeft, secondsPerMove) {
  const quarter = secondsPerMove > 0 ? secondsPerMove / 4 : 3600;
  return secondsLeft <= Math.min(3600, quarter);
}
