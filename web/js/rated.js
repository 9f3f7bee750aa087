// rated.js: whether a game is rated, said where it matters (issue 31): on
// the create form, on the game page and on its end screen. The rule is the
// server's (docs/ratings.md, "Which games are rated"; src/server/results.c):
// a game is rated when it ends by the rules, every seat is a person with an
// account (no bot, no guest), and it is not a practice game (a chosen seed,
// or a start from a position). This module only says it; the server decides.
import { t } from './i18n.js';

// The create form: seats as the form holds them ({kind}), a seed typed or a
// position pasted. Who takes the human seats is not known yet.
export function formRatedText(form) {
  if (form.seats.some((s) => s.kind === 'bot')) return t('rated.no_bot');
  if ((form.seed || '').trim() || (form.position || '').trim()) return t('rated.no_practice');
  return t('rated.if_accounts');
}

// A game: the state frame's seats ({kind, guest, claimed}) and practice.
export function gameRated(frame) {
  const seats = (frame && frame.seats) || [];
  if (seats.some((s) => s.kind === 'bot')) return { rated: false, text: t('rated.no_bot') };
  if (frame.practice) return { rated: false, text: t('rated.no_practice') };
  if (seats.some((s) => s.guest)) return { rated: false, text: t('rated.no_guest') };
  if (seats.some((s) => !s.claimed)) return { rated: null, text: t('rated.if_accounts') };
  return { rated: true, text: t('rated.yes') };
}
