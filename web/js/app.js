// app.js: the browser client's entry point. It loads the messages of the
// chosen language, draws the header with the language picker, and routes the
// address's hash to a page:
//   #/                      the lobby
//   #/play/GAMEID           your seat of a game (your session's)
//   #/play/GAMEID/TOKEN     a seat's invite link (bound to your session at its first use)
//   #/watch/GAMEID          a game as a spectator
//   #/replay/GAMEID         a finished game, move by move
//   #/player/NAME           a player's profile; #/leaderboard/EDITION; #/my-games
//   #/account               one's sessions, password and e-mail (accountpage.js)
//   #/email/confirm/TOKEN, #/reset/TOKEN, #/unsubscribe/TOKEN
//                           the pages e-mail links open (email.js)
//   #/rules/EDITION[/SECTION] an edition's rules, at a section (rules.js)
//   #/learn[/EDITION/N]     the tutorial's menu, or its step N (tutorial.js)
//   #/mod                   moderation: reports, actions, audit log (moderators; moderation.js)
// Keeping the token in the hash means a reload rejoins the same seat, and the
// token is never sent to the server in a request line or a Referer.
import { h, clear } from './dom.js';
import { t, setLang, lang, LANGS, LANG_NAMES, preferredLang } from './i18n.js';
import { LobbyPage } from './lobby.js';
import { GamePage } from './game.js';
import { ReplayPage } from './replay.js';
import { ProfilePage } from './profile.js';
import { LeaderboardPage } from './leaderboard.js';
import { MyGamesPage } from './mygames.js';
import { mountAccount } from './account.js';
import { mountBadge } from './badge.js';
import { AccountPage } from './accountpage.js';
import { MailLinkPage } from './email.js';
import { RulesPage, loadCites } from './rules.js';
import { TutorialPage } from './tutorial.js';
import { ModerationPage, mountModLink } from './moderation.js';

let page = null;
let routeKey = null;

function header() {
  const picker = h('select', { id: 'lang', 'aria-label': 'Language / Taal / 言語' },
    LANGS.map((l) => h('option', { value: l, selected: l === lang() }, LANG_NAMES[l])));
  picker.addEventListener('change', async () => {
    await setLang(picker.value);
    renderHeader();
    if (page && page.relang) page.relang();
  });
  return h('header', { class: 'top' },
    h('a', { href: '#/', class: 'brand' }, t('app.title')),
    h('nav', {}, h('a', { href: '#/', id: 'nav-lobby' }, t('nav.lobby')),
      h('a', { href: '#/my-games', id: 'nav-my-games' }, t('nav.my_games'), ' ',
        h('span', { class: 'badge', id: 'turn-badge', hidden: true })),
      h('a', { href: '#/leaderboard/amsterdam', id: 'nav-leaderboard' }, t('nav.leaderboard')),
      h('a', { href: '#/learn', id: 'nav-learn' }, t('tutorial.nav'))),
    h('span', { class: 'spacer' }),
    h('span', { id: 'account' }),
    picker);
}

function renderHeader() {
  const old = document.querySelector('header.top');
  const hd = header();
  if (old) old.replaceWith(hd); else document.body.prepend(hd);
  mountAccount(document.getElementById('account'));
  mountBadge(document.getElementById('turn-badge'));
  mountModLink(hd.querySelector('nav'));
  document.title = t('app.title');
}

function route() {
  const hash = location.hash.replace(/^#\/?/, '');
  const parts = hash.split('/').filter(Boolean).map(decodeURIComponent);
  const key = parts.join('/');
  if (key === routeKey && page) return;
  routeKey = key;
  if (page && page.destroy) page.destroy();
  const root = clear(document.getElementById('app'));
  if (parts[0] === 'play' && parts[1]) page = new GamePage(root, { game: parts[1], token: parts[2] });
  else if (parts[0] === 'watch' && parts[1]) page = new GamePage(root, { game: parts[1], watch: true });
  else if (parts[0] === 'replay' && parts[1]) page = new ReplayPage(root, { game: parts[1] });
  else if (parts[0] === 'player' && parts[1]) page = new ProfilePage(root, { name: parts[1] });
  else if (parts[0] === 'leaderboard') page = new LeaderboardPage(root, { edition: parts[1] });
  else if (parts[0] === 'my-games') page = new MyGamesPage(root);
  else if (parts[0] === 'account') page = new AccountPage(root);
  else if (parts[0] === 'email' && parts[1] === 'confirm') page = new MailLinkPage(root, { kind: 'confirm', token: parts[2] });
  else if (parts[0] === 'reset') page = new MailLinkPage(root, { kind: 'reset', token: parts[1] });
  else if (parts[0] === 'unsubscribe') page = new MailLinkPage(root, { kind: 'unsub', token: parts[1] });
  else if (parts[0] === 'learn') page = TutorialPage(root, { edition: parts[1], n: parts[2] });
  else if (parts[0] === 'mod') page = new ModerationPage(root);
  else if (parts[0] === 'rules') page = new RulesPage(root, { edition: parts[1], section: parts[2] });
  else page = new LobbyPage(root);
}

async function main() {
  await setLang(preferredLang());
  renderHeader();
  // which section each decision cites (data/rules/cites.txt): without it a
  // decision's citation is plain text, as before
  await loadCites().catch(() => null);
  window.addEventListener('hashchange', route);
  route();
}

main();
