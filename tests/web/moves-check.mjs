// moves-check.mjs: unit checks of web/js/moves.js in node, without a
// browser: reading the server's legal list ("range PREFIX fLO fHI" lines),
// the plots a move stands for, and "play" moves taken apart. The browser
// test exercises the same code through clicks; this pins the edge cases.
// Usage: node moves-check.mjs SRCDIR
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const src = process.argv[2] || path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const { Legal, plotMoves, parsePlay, cardName } = await import(pathToFileURL(path.join(src, 'web/js/moves.js')).href);

let failed = 0;
function eq(got, want, what) {
  const ok = JSON.stringify(got) === JSON.stringify(want);
  if (!ok) { failed++; console.log(`FAIL - ${what}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`); }
}

const L = new Legal(['draw', 'take Harbour C1', 'range bid f0 f3', 'bid f10', 'bid f20',
  'play Harbour C1', 'play Harbour C1 roof', 'play L3 Jordaan A2', 'play Harbour D1 + Harbour E1',
  'hq Harbour C2', 'free Harbour 13 + Harbour 14', 'range give f1 f2', 'give Tea', 'done']);
eq(L.amounts('bid'), [0, 1, 2, 3, 10, 20], 'amounts of a range line and of single moves');
eq(L.amounts('give'), [1, 2], 'amounts of another prefix');
eq(L.amounts('ask'), [], 'no amounts');
eq([L.has('bid f2'), L.has('bid f4'), L.has('bid f10'), L.has('bid f11'), L.has('give f2'), L.has('give f3')],
  [true, false, true, false, true, false], 'has() expands ranges and nothing more');
eq([L.has('draw'), L.has('drawx'), L.has('range bid f0 f3')], [true, false, false], 'has() of plain moves; a range line is not a move');
eq(L.verb('play').length, 4, 'verb() lists the moves of one word');
eq(L.otherVerbs(new Set(['play', 'take', 'draw'])), ['bid f10', 'bid f20', 'hq Harbour C2', 'free Harbour 13 + Harbour 14', 'give Tea', 'done'], 'otherVerbs()');
eq(new Legal([]).empty, true, 'an empty list');

const pm = plotMoves(L);
eq(pm.get('Harbour C1'), ['play Harbour C1', 'play Harbour C1 roof'], 'a plot with and without a broken roof');
eq(pm.get('Jordaan A2'), ['play L3 Jordaan A2'], 'a level card goes on the plot it names');
eq([pm.get('Harbour D1'), pm.get('Harbour E1')], [['play Harbour D1 + Harbour E1'], ['play Harbour D1 + Harbour E1']], 'a two-card founding on either plot');
eq(pm.get('Harbour C2'), ['hq Harbour C2'], 'an HQ placeholder');
eq([pm.get('Harbour 13'), pm.get('Harbour 14')], [['free Harbour 13 + Harbour 14'], ['free Harbour 13 + Harbour 14']], 'free warehouses on either lot');

eq(parsePlay('play L3 Canal Ring B2 roof'), { level: 'L3', plot: 'Canal Ring B2', plot2: null, roof: true }, 'a level card with a roof, a district of two words');
eq(parsePlay('play Old Side A1 + Old Side A2'), { level: null, plot: 'Old Side A1', plot2: 'Old Side A2', roof: false }, 'two cards');
eq([cardName('L2#97'), cardName('Harbour C1')], ['L2', 'Harbour C1'], 'card names lose their #id');

if (failed) { console.log(`moves: ${failed} checks failed`); process.exit(1); }
console.log('moves: ok - legal lists, ranges, plots of moves');
