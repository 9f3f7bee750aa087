// merger.js: a merger explained where it is decided (issue 31 item 5), in
// the dialogs of its three decisions (which company is credited with the
// new warehouse, which absorbs which, sell or keep) of both editions: who
// absorbs whom, the survivor's value after the merge, what the builder is
// paid and when, and for each holder what selling brings now and what
// keeping may bring; and The Golden Age's flags (what a flag is, what it
// scores, when), where a flag can be bought or a merger sells one.
//
// Every number comes from the engine: the state frame's "previews"
// (ch_merger_preview through chx_previews_json, docs/protocol.md) walk each
// credit or merge choice, and the merger as it stands, by the engine's own
// rules: the credited company's new value (in Building Amsterdam the new
// warehouse and the lone warehouses it joins), each pair in order with the
// absorbed company's value as its stocks sell, each value after the pair
// (capped), the builder's payout, and each holder's stocks as the seat may
// see them (The Golden Age hides the others' until they are sold). The
// page repeats no merger rule: it multiplies a holding by the value the
// engine gives, and says in words what no number can tell (a choice the
// builder still has to make, a kept stock's future).
import { h } from './dom.js';
import { t } from './i18n.js';
import { companyName } from './moves.js';
import { swatchSVG } from './colors.js';

const money = (n) => `f${n}`;

export function mergerInfo(page) {
  const v = page.view, m = v.merger || {};
  const ga = v.edition === 'golden-age';
  const phase = v.turn.phase;
  const previews = (page.frame && page.frame.previews) || {};
  const now = previews.now || null;
  const co = (n) => v.companies.find((x) => x.name === n) || { name: n, value: 0 };
  const val = (n) => co(n).value;
  const nm = (n) => companyName(n);
  const swatch = (n) => swatchSVG(n, v.companies.findIndex((c) => c.name === n), page.mark(n));
  const box = h('div', { class: 'merger', id: 'merger-info' });
  const ctx = { page, ga, nm, swatch };

  // the pair being merged now (Building Amsterdam's sell or keep): who
  // absorbs whom, and the survivor's value after
  const cur = phase === 'merge-sell' && now && now.steps.length ? now.steps[0] : null;
  if (cur) {
    box.appendChild(h('p', { id: 'merger-pair', class: 'merger-pair' }, swatch(cur.absorber), ' ',
      t('merge.pair', { b: nm(cur.absorber), vb: money(cur.absorber_value), a: nm(cur.absorbed), va: money(cur.absorbed_value) })));
    box.appendChild(h('p', { id: 'merger-survivor' }, afterText(ctx, cur)));
  }

  // each choice of this decision, and what it leads to, as the engine
  // walks it
  const choices = page.legal.moves.filter((x) => previews[x]);
  if (choices.length) {
    box.appendChild(h('ul', { class: 'merger-choices', id: 'merger-choices' }, choices.map((x) =>
      h('li', { dataset: { move: x } }, h('b', {}, page.describeMove(x)), ': ', planNodes(ctx, previews[x])))));
  }

  // the engine's pending list still holds the pair being merged: "Still
  // to merge" names only the others (issue 31)
  const still = (m.pending || []).filter((n) => n !== m.absorbed && n !== m.absorber);
  if (still.length) box.appendChild(h('p', { id: 'merger-pending' }, t('dlg.pending', { list: still.map((n) => `${nm(n)} (${money(val(n))})`).join(', ') })));
  if (now && (cur ? now.steps.length > 1 || now.choose.length : now.steps.length || now.choose.length)) {
    // what follows the pair being merged (or the pair still to choose)
    box.appendChild(h('div', { class: 'small', id: 'merger-next' }, planNodes(ctx, cur ? Object.assign({}, now, { steps: now.steps.slice(1) }) : now, { payout: false })));
  }

  // what the builder is paid, and when: the survivor's final value, once,
  // when the last merge is done (Rulebook "C. Merging", step 8; Ruling
  // R-24, G-15); not a sale ("Keep Porcelain +f100" read as if keeping
  // paid: issue 31)
  const builder = v.turn.active;
  const finals = [...new Set(Object.values(previews).map((x) => x.final_value))];
  const when = t(ga ? 'merge.when_ga' : still.length || phase !== 'merge-sell' ? 'merge.when_ba' : 'merge.when_ba_last');
  if (finals.length) {
    const amounts = finals.map(money).join(', ');
    box.appendChild(h('p', { class: builder === page.seat ? 'hint' : 'muted small', id: 'merger-payout' }, builder === page.seat
      ? t(finals.length > 1 ? 'merge.payout_you_choices' : 'merge.payout_you_n', { amount: amounts }) : t('merge.payout_other_n', { name: page.seatName(builder), amount: amounts }), ' ', when));
  }

  // every holder of the pair being sold: what selling brings now, what
  // keeping may bring
  if (cur) {
    box.appendChild(holders(ctx, now));
    const mine = cur.stocks[page.seat];
    if (mine !== null && mine !== undefined) box.appendChild(h('p', {}, t('dlg.you_hold', { n: mine, company: nm(cur.absorbed) })));
    box.appendChild(h('p', { class: 'hint', id: 'merger-sell-keep' }, t('merge.sell_or_keep', { company: nm(cur.absorbed), value: money(cur.absorbed_value) })));
  } else if (ga && choices.length) {
    box.appendChild(h('p', { class: 'small muted', id: 'merger-holders' }, t('merge.ga_sold'), ' ', t('merge.ga_hidden')));
  }
  return box;
}

// "After this merge B is worth V" (or capped: the engine's value after is
// less than the two values together).
function afterText({ nm }, s) {
  const capped = s.value_after < s.absorber_value + s.absorbed_value;
  return t(capped ? 'merge.after_capped' : 'merge.survivor', { b: nm(s.absorber), value: money(s.value_after) });
}

// One plan of the engine (a choice's outcome): the credit, each pair with
// what its holders' stocks sell for, then the survivor or the choice left,
// and the builder's payout. selling: the plan's first pair is being sold
// now (its sales are "now", the others' "then").
function planNodes(ctx, plan, { payout = true, selling = false } = {}) {
  const { page, ga, nm } = ctx;
  const out = [];
  if (plan.credited) out.push(t('merge.plan_credit', { c: nm(plan.credited), from: money(plan.credited_from), to: money(plan.credited_value) }), ' ');
  const steps = plan.steps.map((s, i) => h('li', { class: 'merger-step', dataset: { absorbed: s.absorbed, absorber: s.absorber } },
    t('merge.plan_step', { b: nm(s.absorber), vb: money(s.absorber_value), a: nm(s.absorbed), va: money(s.absorbed_value) }), ' ', afterText(ctx, s), ' ',
    sales(ctx, s, selling && i === 0)));
  if (steps.length) out.push(h('ol', { class: 'merger-steps small' }, steps));
  if (plan.choose.length) {
    out.push(h('span', { class: 'merger-choose' }, t('merge.plan_choose', {
      list: plan.pairs.map(([a, b]) => t('merge.plan_pair', { a: nm(a), b: nm(b) })).join(' / '), value: money(plan.final_value) })));
  }
  else if (plan.survivor) {
    out.push(h('span', { class: 'merger-end' }, t('merge.plan_survivor', { b: nm(plan.survivor), value: money(plan.final_value) })));
    if (plan.survivor_flag !== null) out.push(' ', t('merge.plan_survivor_flag', { name: page.seatName(plan.survivor_flag), company: nm(plan.survivor), amount: money(plan.survivor_flag_worth) }));
  }
  if (payout) out.push(' ', h('span', { class: 'merger-paid' }, plan.builder === page.seat
    ? t('merge.choice_paid', { amount: money(plan.final_value) }) : t('merge.payout_other_n', { name: page.seatName(plan.builder), amount: money(plan.final_value) })));
  if (!ga && steps.length) out.push(' ', h('span', { class: 'small muted' }, t('merge.keep_nothing')));
  return out;
}

// What each holder's stocks of an absorbed company bring: Building
// Amsterdam's sale (each holder chooses), The Golden Age's forced sale and
// flag (four stocks); "?" for a holding the seat may not see.
function sales({ page, ga, nm }, s, selling) {
  const items = [];
  s.stocks.forEach((k, q) => {
    if (k === null) return;
    if (k > 0) items.push(t('merge.plan_sale_item', { name: page.seatName(q), k, value: money(s.absorbed_value), amount: money(k * s.absorbed_value) }));
  });
  const hidden = s.stocks.some((k) => k === null);
  const parts = [];
  if (items.length) parts.push(t(ga ? 'merge.plan_sold_ga' : selling ? 'merge.plan_sell_now' : 'merge.plan_sell_then', { company: nm(s.absorbed), list: items.join('; ') }));
  else if (!hidden) parts.push(t('merge.plan_no_holder', { company: nm(s.absorbed) }));
  if (hidden) parts.push(t('merge.plan_hidden', { company: nm(s.absorbed) }));
  if (s.flag !== null) parts.push(t('merge.plan_flag', { name: page.seatName(s.flag), company: nm(s.absorbed), value: money(s.absorbed_value), amount: money(s.flag_sale) }));
  return h('span', { class: 'merger-sales', dataset: { company: s.absorbed } }, parts.join(' '));
}

// The holders' table of the merger as it stands (Building Amsterdam's sell
// or keep): for each player, the stocks of each company still to be
// absorbed and what selling them brings (now for the pair being merged, at
// its absorption for a later one), and the survivor's stocks with its
// value after the merger: what keeping a survivor's stock is then worth.
function holders({ page, nm, swatch }, plan) {
  const v = page.view;
  const cols = plan.steps.map((s) => ({ name: s.absorbed, value: s.absorbed_value, s }));
  const surv = plan.survivor;
  const head = h('tr', {}, h('th', {}, t('end.player')), cols.map((c, i) => h('th', { class: i === 0 ? 'absorbed' : '' }, swatch(c.name), ' ', nm(c.name),
    h('div', { class: 'small muted' }, t('merge.per_stock', { value: money(c.value) })))),
    surv ? h('th', {}, swatch(surv), ' ', nm(surv), h('div', { class: 'small muted' }, t('merge.per_stock_after', { value: money(plan.final_value) }))) : null);
  const rows = v.players.map((p, i) => h('tr', { class: i === page.seat ? 'me' : '', dataset: { seat: i } }, h('td', {}, page.seatName(i)),
    cols.map((c, j) => {
      const k = c.s.stocks[i];
      const parts = [k === null ? h('span', { class: 'muted' }, '?') : String(k)];
      if (k) parts.push(h('div', { class: `${j === 0 ? 'sell-now' : 'if-absorbed'} small`, dataset: { company: c.name } },
        t(j === 0 ? 'merge.sell_now' : 'merge.if_absorbed', { amount: money(k * c.value) })));
      return h('td', { class: j === 0 ? 'absorbed' : '', dataset: { company: c.name } }, parts);
    }),
    surv ? (() => {
      const k = p.stocks ? (p.stocks[surv] || 0) : null;
      return h('td', { dataset: { company: surv } }, k === null ? h('span', { class: 'muted' }, '?') : String(k),
        k ? h('div', { class: 'small muted keep-worth' }, t('merge.kept_worth', { amount: money(k * plan.final_value) })) : null);
    })() : null));
  return h('div', { class: 'merger-holders', id: 'merger-holders' },
    h('div', { class: 'table-wrap' }, h('table', { class: 'holdings' }, h('thead', {}, head), h('tbody', {}, rows))),
    cols.length ? h('p', { class: 'small muted' }, t('merge.keep_may', { company: nm(cols[0].name) })) : null);
}

// The Golden Age's flags explained where one can be bought (the trade
// decision) : what it is, what it costs, what it scores and when. What a
// flag scores is the engine's figure (the state frame's "flag_worth",
// chx_flag_worth_json), not worked out here.
export function flagInfo(page) {
  const v = page.view;
  if (v.edition !== 'golden-age') return null;
  const flags = page.legal.verb('flag');
  if (!flags.length) return null;
  const prices = (page.frame && page.frame.prices) || {};
  const worth = (page.frame && page.frame.flag_worth) || {};
  const box = h('div', { class: 'flag-info', id: 'flag-info' }, h('p', { class: 'small' }, t('flag.what')));
  box.appendChild(h('ul', { class: 'small' }, flags.map((m) => {
    const c = m.slice(5);
    const co = v.companies.find((x) => x.name === c) || { value: 0 };
    const cost = prices[m] < 0 ? money(-prices[m]) : '?';
    return h('li', { dataset: { move: m } }, t('flag.choice', { company: companyName(c), cost, value: money(co.value), now: worth[m] !== undefined ? money(worth[m]) : '?' }));
  })));
  return box;
}
