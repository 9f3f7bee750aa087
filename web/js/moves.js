// moves.js: reads the server's list of legal moves (docs/protocol.md: the
// lines of chx_legal_lines, where "range PREFIX fLO fHI" stands for every
// "PREFIX fN" from LO to HI) and sorts them by what the player clicks: a plot
// on the board, a card of the market or the hand, a button, an amount. The
// client never invents a move: every move it sends is one of these texts.
import { t, has, placeName } from './i18n.js';

export class Legal {
  constructor(lines) {
    this.moves = [];          // explicit move texts
    this.ranges = [];         // {prefix, lo, hi}
    for (const line of lines || []) {
      const m = /^range (.+) f(\d+) f(\d+)$/.exec(line);
      if (m) this.ranges.push({ prefix: m[1], lo: +m[2], hi: +m[3] });
      else this.moves.push(line);
    }
  }
  get empty() { return !this.moves.length && !this.ranges.length; }
  has(move) {
    if (this.moves.includes(move)) return true;
    const m = /^(.+) f(\d+)$/.exec(move);
    return !!(m && this.ranges.some((r) => r.prefix === m[1] && +m[2] >= r.lo && +m[2] <= r.hi));
  }
  // Every amount allowed after PREFIX ("bid", "give", "ask"), sorted.
  amounts(prefix) {
    const set = new Set();
    for (const r of this.ranges) if (r.prefix === prefix) for (let v = r.lo; v <= r.hi; v++) set.add(v);
    for (const mv of this.moves) {
      const m = /^(.+) f(\d+)$/.exec(mv);
      if (m && m[1] === prefix) set.add(+m[2]);
    }
    return [...set].sort((a, b) => a - b);
  }
  // Explicit moves starting with a word.
  verb(word) { return this.moves.filter((m) => m === word || m.startsWith(word + ' ')); }
  // All moves (explicit + ranges as prefixes) whose first word is not in the set.
  otherVerbs(handled) {
    return this.moves.filter((m) => !handled.has(m.split(' ')[0]));
  }
}

// A "play" move read into its parts: {level, plot, plot2, roof}.
export function parsePlay(move) {
  let s = move.replace(/^play /, '');
  let roof = false;
  if (s.endsWith(' roof')) { roof = true; s = s.slice(0, -5); }
  let level = null;
  const lm = /^(L\d) (.+)$/.exec(s);
  if (lm) { level = lm[1]; s = lm[2]; }
  const [plot, plot2] = s.split(' + ');
  return { level, plot, plot2: plot2 || null, roof };
}

// Which moves each plot of the board stands for: play (the plot built on),
// hq, free (either lot of the pair).
export function plotMoves(legal) {
  const map = new Map();
  const add = (p, m) => { if (!map.has(p)) map.set(p, []); map.get(p).push(m); };
  for (const m of legal.moves) {
    if (m.startsWith('play ')) {
      const pp = parsePlay(m);
      add(pp.plot, m);
      if (pp.plot2) add(pp.plot2, m);   // a two-card founding: either plot offers it
    } else if (m.startsWith('hq ')) {
      add(m.slice(3), m);
    } else if (m.startsWith('free ')) {
      const [a, b] = m.slice(5).split(' + ');
      add(a, m); add(b, m);
    }
  }
  return map;
}

// A card name without its "#id" (the JSON writes level cards "L2#97").
export function cardName(c) { return String(c).replace(/#\d+$/, ''); }

// A company's name in the page's language: the shared catalogue names
// companies by edition and index (company.ba.0 is Building Amsterdam's first),
// so the page keeps the edition's list of names (setCompanies) to find them.
let companyKeys = new Map();
export function setCompanies(view) {
  if (!view || !view.companies) return;
  const ed = view.edition === 'golden-age' ? 'ga' : 'ba';
  companyKeys = new Map(view.companies.map((c, i) => [c.name, `company.${ed}.${i}`]));
}
export function companyName(name) {
  const k = companyKeys.get(name);
  return k && has(k) ? t(k) : name;
}

// A log entry (docs/protocol.md: n, player, move, hidden) in words with the
// shared catalogue's describe.* sentences ("Anke built on Harbour C1"); a
// masked entry says only what is public. Returns null when the catalogue
// has no sentence for it, so the caller can fall back to describe().
export function sentence(e, seatName, offerTo) {
  if (!has('describe.play')) return null;
  const m = e.move || '';
  const w = m.split(' ');
  const rest = w.slice(1).join(' ');
  const player = e.player === null || e.player === undefined || e.player < 0 ? '' : seatName(e.player);
  const P = (extra) => Object.assign({ player }, extra);
  const co = (n) => companyName(n);
  const aCard = t('describe.a_card');
  switch (w[0]) {
    case 'draw': case 'refresh': case 'done': case 'pass': case 'lone': case 'withdraw': case 'accept': case 'decline':
      return t(`describe.${w[0]}`, P());
    case 'propose': return t('describe.propose', P({ other: offerTo !== null && offerTo !== undefined ? seatName(offerTo) : '?' }));
    case 'take': return t('describe.take', P({ card: placeName(rest) }));
    case 'play': {
      const p = parsePlay(m);
      let s = p.plot2 ? t('describe.play_two', P({ plot: placeName(p.plot), plot2: placeName(p.plot2) }))
        : p.level ? t('describe.play_level', P({ card: p.level, plot: placeName(p.plot) })) : t('describe.play', P({ plot: placeName(p.plot) }));
      if (p.roof) s += t('describe.sep') + t('describe.roof');
      return s;
    }
    case 'hq': return t('describe.hq', P({ plot: placeName(rest) }));
    case 'free': { const [a, b] = rest.split(' + '); return t('describe.free', P({ plot: placeName(a), plot2: placeName(b) })); }
    case 'found': case 'credit': case 'buy': case 'keep': case 'flag': case 'lose':
      if (!rest) return `${player}: ${t(`hidden.${w[0]}`, { _default: m })}`;
      return t(`describe.${w[0]}`, P({ company: co(rest) }));
    case 'sell': {
      if (!rest) return `${player}: ${t('hidden.sell')}`;
      const mm = /^(\d+) (.+)$/.exec(rest);
      return t('describe.sell', P(mm ? { n: mm[1], company: co(mm[2]) } : { n: 1, company: co(rest) }));
    }
    case 'merge': { const mm = /^merge (.+) into (.+)$/.exec(m); return mm ? t('describe.merge', P({ company: co(mm[1]), company2: co(mm[2]) })) : null; }
    case 'action': return t(rest === 'roof' ? 'describe.action_roof' : 'describe.action_event', P());
    case 'event': return rest === 'deck' ? null : t('describe.event', P({ card: rest }));
    case 'bid': return rest ? t('describe.bid', P({ n: rest })) : t('describe.sealed_bid', P());
    case 'offer': { const n = parseInt(rest.slice(1), 10) - 1; return t('describe.offer', P({ other: Number.isNaN(n) ? rest : seatName(n) })); }
    case 'give': case 'ask': {
      const item = rest === 'card' || rest === '' ? aCard : itemWords(rest);
      return t(`describe.${w[0]}`, P({ card: item }));
    }
    case 'pick': return rest && !e.hidden ? t('describe.pick', P({ card: placeName(rest) })) : t('describe.pick_hidden', P());
    case 'auction': {
      if (w[1] === 'stock' || w[1] === 'own') return t(`describe.auction_${w[1]}`, P({ company: co(w.slice(2).join(' ')) }));
      return t(w[1] === 'deck' ? 'describe.auction_deck' : 'describe.auction_discard', P());
    }
    default: return null;
  }
}

// Words for a move, in the page's language. seatName(i) names seat i (0-based).
export function describe(move, seatName) {
  const w = move.split(' ');
  const rest = w.slice(1).join(' ');
  const co = (n) => companyName(n);
  switch (w[0]) {
    case 'draw': return t('move.draw');
    case 'take': return t('move.take', { card: placeName(rest) });
    case 'refresh': return t('move.refresh');
    case 'done': return t('move.done');
    case 'pass': return t('move.pass');
    case 'lone': return t('move.lone');
    case 'propose': return t('move.propose');
    case 'withdraw': return t('move.withdraw');
    case 'accept': return t('move.accept');
    case 'decline': return t('move.decline');
    case 'play': {
      const p = parsePlay(move);
      let s = p.plot2 ? t('move.play_two', { plot: placeName(p.plot), plot2: placeName(p.plot2) })
        : p.level ? t('move.play_level', { level: p.level, plot: placeName(p.plot) }) : t('move.play', { plot: placeName(p.plot) });
      if (p.roof) s += t('move.roof_suffix');
      return s;
    }
    case 'hq': return t('move.hq', { plot: placeName(rest) });
    case 'free': { const [a, b] = rest.split(' + '); return t('move.free', { plot: placeName(a), plot2: placeName(b) }); }
    case 'found': return t('move.found', { company: co(rest) });
    case 'credit': return t('move.credit', { company: co(rest) });
    case 'merge': { const m = /^merge (.+) into (.+)$/.exec(move); return m ? t('move.merge', { a: co(m[1]), b: co(m[2]) }) : move; }
    case 'sell': {
      const m = /^sell (\d+) (.+)$/.exec(move);
      return m ? t('move.sell_n', { n: m[1], company: co(m[2]) }) : t('move.sell', { company: co(rest) });
    }
    case 'keep': return t('move.keep', { company: co(rest) });
    case 'buy': return t('move.buy', { company: co(rest) });
    case 'flag': return t('move.flag', { company: co(rest) });
    case 'lose': return t('move.lose', { company: co(rest) });
    case 'action': return t(rest === 'roof' ? 'move.action_roof' : 'move.action_event');
    case 'event': return rest === 'deck' ? t('move.event_deck') : t('move.event', { event: rest });
    case 'bid': return t('move.bid', { amount: rest });
    case 'offer': { const n = parseInt(rest.slice(1), 10) - 1; return t('move.offer', { player: seatName ? seatName(n) : rest }); }
    case 'give': return t('move.give', { item: itemWords(rest) });
    case 'ask': return t('move.ask', { item: itemWords(rest) });
    case 'pick': return t('move.pick', { card: placeName(rest) });
    case 'auction': {
      if (w[1] === 'stock') return t('move.auction_stock', { company: co(w.slice(2).join(' ')) });
      if (w[1] === 'own') return t('move.auction_own', { company: co(w.slice(2).join(' ')) });
      return t(w[1] === 'deck' ? 'move.auction_deck' : 'move.auction_discard');
    }
    default: return move;
  }
}

function itemWords(item) {
  if (/^f\d+$/.test(item)) return item;
  return companyKeys.has(item) ? companyName(item) : placeName(item);
}
