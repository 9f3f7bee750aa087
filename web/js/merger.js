// merger.js: a merger explained where it is decided (issue 31 item 5), in
// the dialogs of its three decisions (which company is credited with the
// new warehouse, which absorbs which, sell or keep) of both editions: who
// absorbs whom, the survivor's value after the merge, what the builder is
// paid and when, and for each holder what selling brings now and what
// keeping may bring; and The Golden Age's flags (what a flag is, what it
// scores, when), where a flag can be bought or a merger sells one.
//
// Every number comes from the state frame: the companies' values, the
// holdings the seat may see (The Golden Age hides the others' stocks), the
// merger's pair and pending list, and the server's prices (the engine's
// cash change of each move: a choice that ends the merger shows the
// builder's payout). The page only adds the values of the pair being
// merged, capped as the rulebooks cap a company (f300 in Building
// Amsterdam, "Payouts, the f300 cap"; f500 in The Golden Age, "Payout and
// the value range"), and multiplies a holding by its value. What it cannot
// know (a credit's outcome in Building Amsterdam, where the warehouse's
// value depends on its levels and the lone warehouses it joins) it says in
// words, not as a guess.
import { h } from './dom.js';
import { t } from './i18n.js';
import { companyName } from './moves.js';
import { swatchSVG } from './colors.js';

const CAP = { amsterdam: 300, 'golden-age': 500 };
// The Golden Age: a warehouse adds f10 to the enterprise credited with it
// (printed rulebook, "Merging enterprises"; docs/rules.md Ruling G-15)
const GA_WAREHOUSE = 10;

const money = (n) => `f${n}`;

export function mergerInfo(page) {
  const v = page.view, m = v.merger || {};
  const ed = v.edition, ga = ed === 'golden-age';
  const phase = v.turn.phase;
  const prices = (page.frame && page.frame.prices) || {};
  const cap = CAP[ed] || 300;
  const co = (n) => v.companies.find((x) => x.name === n) || { name: n, value: 0 };
  const val = (n) => co(n).value;
  const nm = (n) => companyName(n);
  const swatch = (n) => swatchSVG(n, v.companies.findIndex((c) => c.name === n), page.mark(n));
  const box = h('div', { class: 'merger', id: 'merger-info' });

  // the companies this merger joins: the credit choices before the credit,
  // the engine's pending list after it
  const credits = page.legal.verb('credit').map((x) => x.slice(7));
  const merges = page.legal.verb('merge').map((x) => { const mm = /^merge (.+) into (.+)$/.exec(x); return mm ? { move: x, a: mm[1], b: mm[2] } : null; }).filter(Boolean);
  const names = [...new Set([m.absorbed, m.absorber, ...(m.pending || []), ...credits, ...merges.flatMap((x) => [x.a, x.b])].filter(Boolean))];

  // the pair being merged: who absorbs whom, and the survivor's value after
  if (m.absorbed && m.absorber) {
    const after = Math.min(cap, val(m.absorber) + val(m.absorbed));
    box.appendChild(h('p', { id: 'merger-pair', class: 'merger-pair' }, swatch(m.absorber), ' ',
      t('merge.pair', { b: nm(m.absorber), vb: money(val(m.absorber)), a: nm(m.absorbed), va: money(val(m.absorbed)) })));
    box.appendChild(h('p', { id: 'merger-survivor' }, t(after < val(m.absorber) + val(m.absorbed) ? 'merge.survivor_capped' : 'merge.survivor',
      { b: nm(m.absorber), value: money(after), cap: money(cap) })));
  }

  // each choice of this decision, and what it leads to
  const choices = [];
  if (phase === 'credit') {
    for (const c of credits) {
      const others = credits.filter((x) => x !== c);
      let what;
      if (ga) {
        const nv = Math.min(cap, val(c) + GA_WAREHOUSE);
        what = t('merge.credit_ga', { c: nm(c), from: money(val(c)), to: money(nv) });
        if (others.length === 1) {
          const o = others[0];
          what += ' ' + (nv === val(o) ? t('merge.tie', { a: nm(c), b: nm(o) })
            : nv > val(o) ? t('merge.then_absorbs', { b: nm(c), a: nm(o), value: money(Math.min(cap, nv + val(o))) })
              : t('merge.then_absorbs', { b: nm(o), a: nm(c), value: money(Math.min(cap, nv + val(o))) }));
        } else what += ' ' + t('merge.then_choose_pair');
      } else {
        what = t('merge.credit_ba', { c: nm(c), from: money(val(c)) }) + ' ' + t(others.length > 1 ? 'merge.then_lowest' : 'merge.then_higher');
      }
      choices.push({ move: `credit ${c}`, what });
    }
  } else if (phase === 'merge') {
    for (const x of merges) {
      const after = Math.min(cap, val(x.a) + val(x.b));
      choices.push({ move: x.move, what: t('merge.choice_merge', { b: nm(x.b), a: nm(x.a), va: money(val(x.a)), value: money(after) }) });
    }
  }
  if (choices.length) {
    box.appendChild(h('ul', { class: 'merger-choices', id: 'merger-choices' }, choices.map((c) => {
      const p = prices[c.move];
      return h('li', { dataset: { move: c.move } }, h('b', {}, page.describeMove(c.move)), ': ', c.what,
        p > 0 ? [' ', t('merge.choice_paid', { amount: money(p) })] : null);
    })));
  }

  // the engine's pending list still holds the pair being merged: "Still
  // to merge" names only the others (issue 31)
  const still = (m.pending || []).filter((n) => n !== m.absorbed && n !== m.absorber);
  if (still.length) box.appendChild(h('p', { id: 'merger-pending' }, t('dlg.pending', { list: still.map((n) => `${nm(n)} (${money(val(n))})`).join(', ') })));

  // what the builder is paid, and when: the survivor's final value, once,
  // when the last merge is done (rules "Merging", step "Payout"; Ruling
  // R-24, G-15); the amounts on the choices are that payout, not a sale
  // ("Keep Porcelain +f100" read as if keeping paid: issue 31)
  const builder = v.turn.active;
  const payouts = [...new Set(page.legal.moves.filter((x) => !x.startsWith('sell ')).map((x) => prices[x]).filter((x) => x > 0))];
  const when = t(ga ? 'merge.when_ga' : still.length || phase !== 'merge-sell' ? 'merge.when_ba' : 'merge.when_ba_last');
  if (builder === page.seat) {
    box.appendChild(h('p', { class: 'hint', id: 'merger-payout' }, payouts.length
      ? t('dlg.payout_you', { amounts: payouts.map(money).join(', ') }) : t('merge.payout_you_later'), ' ', when));
  } else if (builder !== null && builder !== undefined && builder >= 0) {
    const last = phase === 'merge-sell' && !still.length && m.absorbed && m.absorber;
    box.appendChild(h('p', { class: 'muted small', id: 'merger-payout' }, last
      ? t('merge.payout_other_n', { name: page.seatName(builder), amount: money(Math.min(cap, val(m.absorber) + val(m.absorbed))) })
      : t('dlg.payout_other', { name: page.seatName(builder) }), ' ', when));
  }

  // every holder: what selling brings now, what keeping may bring
  if (names.length) box.appendChild(holders(page, names, { ga, absorbed: m.absorbed, survivor: m.absorber, val, nm, swatch }));
  if (phase === 'merge-sell' && m.absorbed && page.seat >= 0) {
    const mine = v.players[page.seat].stocks ? v.players[page.seat].stocks[m.absorbed] : null;
    if (mine !== null && mine !== undefined) box.appendChild(h('p', {}, t('dlg.you_hold', { n: mine, company: nm(m.absorbed) })));
    box.appendChild(h('p', { class: 'hint', id: 'merger-sell-keep' }, t('merge.sell_or_keep', { company: nm(m.absorbed), value: money(val(m.absorbed)) })));
  }
  return box;
}

// The holders' table: for each player and each company of the merger, the
// stocks held (The Golden Age: the seat's own only, the others' are hidden
// until sold) and what selling them brings now; a flag (The Golden Age) as
// four stocks; and what a kept stock may bring.
function holders(page, names, { ga, absorbed, survivor, val, nm, swatch }) {
  const v = page.view;
  const flagOf = (n) => { const c = v.companies.find((x) => x.name === n); return c && c.flag !== null && c.flag !== undefined ? c.flag : null; };
  const head = h('tr', {}, h('th', {}, t('end.player')), names.map((n) => h('th', { class: n === absorbed ? 'absorbed' : '' }, swatch(n), ' ', nm(n), h('div', { class: 'small muted' }, t('merge.per_stock', { value: money(val(n)) })))));
  const rows = v.players.map((p, i) => h('tr', { class: i === page.seat ? 'me' : '', dataset: { seat: i } }, h('td', {}, page.seatName(i)),
    names.map((n) => {
      const k = p.stocks ? (p.stocks[n] || 0) : null;
      const flag = ga && flagOf(n) === i;
      const parts = [];
      if (k === null) parts.push(h('span', { class: 'muted' }, '?'));
      else parts.push(String(k));
      if (flag) parts.push(' ', h('span', { class: 'flag-mark', title: t('flag.what') }, '⚑'), ' ', t('merge.flag_cell', { value: money(4 * val(n)) }));
      // a sale now only for the company being absorbed; before the pair is
      // known (or for one still to merge), what its sale would bring
      if (k && n === absorbed) parts.push(h('div', { class: 'sell-now small', dataset: { company: n } }, t('merge.sell_now', { amount: money(k * val(n)) })));
      else if (k && n !== survivor) parts.push(h('div', { class: 'if-absorbed small muted', dataset: { company: n } }, t('merge.if_absorbed', { amount: money(k * val(n)) })));
      return h('td', { class: n === absorbed ? 'absorbed' : '', dataset: { company: n } }, parts);
    })));
  const notes = [];
  if (ga) {
    notes.push(t('merge.ga_sold', { }));
    if (v.players.some((p) => !p.stocks)) notes.push(t('merge.ga_hidden'));
    if (names.some((n) => flagOf(n) !== null)) notes.push(t('flag.in_merger'));
  } else {
    notes.push(t('merge.keep_may', { company: absorbed ? nm(absorbed) : t('merge.absorbed_company') }));
  }
  return h('div', { class: 'merger-holders', id: 'merger-holders' },
    h('div', { class: 'table-wrap' }, h('table', { class: 'holdings' }, h('thead', {}, head), h('tbody', {}, rows))),
    notes.map((x) => h('p', { class: 'small muted' }, x)));
}

// The Golden Age's flags explained where one can be bought (the trade
// decision) : what it is, what it costs, what it scores and when.
export function flagInfo(page) {
  const v = page.view;
  if (v.edition !== 'golden-age') return null;
  const flags = page.legal.verb('flag');
  if (!flags.length) return null;
  const prices = (page.frame && page.frame.prices) || {};
  const box = h('div', { class: 'flag-info', id: 'flag-info' }, h('p', { class: 'small' }, t('flag.what')));
  box.appendChild(h('ul', { class: 'small' }, flags.map((m) => {
    const c = m.slice(5);
    const co = v.companies.find((x) => x.name === c) || { value: 0 };
    const cost = prices[m] < 0 ? money(-prices[m]) : '?';
    return h('li', { dataset: { move: m } }, t('flag.choice', { company: companyName(c), cost, value: money(co.value), now: money(4 * co.value) }));
  })));
  return box;
}
