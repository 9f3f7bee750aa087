#!/usr/bin/env bash
# cli_tutorial.sh: the tutorial's steps against the real engine (issue 31,
# item 2; docs/tutorial.md). For every step of web/tutorial/EDITION.json:
# its position loads (`chartered new --position`), the seat the learner plays
# decides in it, and the move the step asks for is in that seat's legal list
# (`chartered legal --json`) and matches the step's "accept" pattern when it
# has one; the asked move applies (`chartered apply`); the highlighted plots
# are plot names; every step has its four texts in en, nl
# and ja, and the edition its summary and closing text, and no Dutch or
# Japanese text names a company or district in English.
# Usage: bash tests/cli_tutorial.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail
BIN=${1:?usage: cli_tutorial.sh PATH/TO/chartered REPO-ROOT}
ROOT=${2:?usage: cli_tutorial.sh PATH/TO/chartered REPO-ROOT}
command -v python3 >/dev/null || { echo "python3 is missing"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
python3 - "$BIN" "$ROOT" "$TMP" <<'PY'
import json, os, re, subprocess, sys
BIN, ROOT, TMP = sys.argv[1:4]
fails = []
# an English company or district name in a Dutch or Japanese text (where the
# language names it otherwise: Jordaan is Jordaan in Dutch too), as
# tests/web/i18n-check.mjs checks the catalogues
cats = {l: json.load(open(os.path.join(ROOT, 'data/i18n', f'{l}.json'), encoding='utf-8')) for l in ('en', 'nl', 'ja')}
english = {l: sorted({v for k, v in cats['en'].items() if re.match(r'^(company\.(ba|ga)\.\d+|district\.\w+)$', k) and cats[l].get(k) != v}) for l in ('nl', 'ja')}
def english_in(lang, text):
    if lang == 'en': return None
    m = re.search(r'\b(' + '|'.join(map(re.escape, english[lang])) + r')\b', text)
    return m and m.group(1)
def run(*a):
    r = subprocess.run([BIN, *a], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr
for ed in ('amsterdam', 'golden-age'):
    path = os.path.join(ROOT, 'web/tutorial', f'{ed}.json')
    data = json.load(open(path, encoding='utf-8'))
    if data.get('format') != 'chartered tutorial 1' or data.get('edition') != ed:
        fails.append(f'{path}: format or edition is not "chartered tutorial 1", "{ed}"')
    for lang in ('en', 'nl', 'ja'):
        for k in ('summary', 'finished'):
            text = data.get('text', {}).get(lang, {}).get(k)
            if not text:
                fails.append(f'{ed}: no "{k}" text in {lang}')
            elif english_in(lang, text):
                fails.append(f'{ed}: the {lang} "{k}" text names {english_in(lang, text)} in English')
    ids = [s['id'] for s in data['steps']]
    if len(set(ids)) != len(ids): fails.append(f'{ed}: step ids repeat: {ids}')
    if not 10 <= len(ids) <= 20: fails.append(f'{ed}: {len(ids)} steps')
    for n, s in enumerate(data['steps'], 1):
        name = f'{ed} step {n} ({s["id"]})'
        for lang in ('en', 'nl', 'ja'):
            for k in ('title', 'look', 'wrong', 'after'):
                text = s.get('text', {}).get(lang, {}).get(k)
                if not text:
                    fails.append(f'{name}: no "{k}" text in {lang}')
                elif english_in(lang, text):
                    fails.append(f'{name}: the {lang} "{k}" text names {english_in(lang, text)} in English')
        pos = os.path.join(TMP, 'step.pos'); game = os.path.join(TMP, 'step.json')
        open(pos, 'w').write('\n'.join(s['position']) + '\n')
        if f'edition {ed}' not in s['position']:
            fails.append(f'{name}: the position does not name its edition ({ed})')
        rc, out = run('new', '--position', pos, '-o', game)
        if rc:
            fails.append(f'{name}: the position does not load: {out.strip()}'); continue
        rc, out = run('legal', game, '--json')
        legal = json.loads(out)
        mine = [p for p in legal['players'] if p['player'] == s['seat']]
        if not mine:
            fails.append(f'{name}: seat {s["seat"]} does not decide (deciding: {legal["deciding"]})'); continue
        moves = mine[0]['moves']
        if s['move'] not in moves:
            fails.append(f'{name}: "{s["move"]}" is not legal for seat {s["seat"]} ({moves[:8]}...)'); continue
        if s.get('accept') and not re.search(s['accept'], s['move']):
            fails.append(f'{name}: the asked move does not match its own pattern {s["accept"]}')
        for p in s.get('highlight', {}).get('plots', []):
            if not re.match(r'^(Harbour|Jordaan|Canal Ring|Old Side|City Centre) [A-F]?\d+$', p):
                fails.append(f'{name}: highlight "{p}" is not a plot name')
        rc, out = run('apply', game, *(['--player', str(s['seat'])] if len(legal['deciding']) > 1 else []), '--quiet', s['move'])
        if rc: fails.append(f'{name}: "{s["move"]}" does not apply: {out.strip()}')
        else: print(f'ok - {name}: {s["move"]}')
for f in fails: print('FAIL -', f)
sys.exit(1 if fails else 0)
PY
