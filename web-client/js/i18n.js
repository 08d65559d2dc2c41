// Every UI string, in English and Japanese. t(key, vars) fills {name}
// placeholders; the choice is remembered in localStorage.

const STORE = 'tilecrush.lang';

const en = {
  'app.title': 'tilecrush',
  'nav.home': 'Play', 'nav.leaderboard': 'Leaderboards', 'nav.rooms': 'Rooms',
  'lang.label': 'Language',
  'name.title': 'Choose a player name',
  'name.hint': '1 to 32 characters. It appears on the leaderboards.',
  'name.ok': 'Start', 'name.taken': 'That name is taken or its token is wrong: choose another.',
  'name.invalid': 'Use 1 to 32 characters without control characters.',
  'net.connecting': 'Connecting…', 'net.online': 'Online', 'net.offline': 'Reconnecting…',
  'mode.label': 'Mode', 'preset.label': 'Board',
  'mode.same': 'Same Game', 'mode.match3': 'Match-3', 'mode.hidden': 'Hidden colours',
  'preset.easy': 'Easy', 'preset.normal': 'Normal', 'preset.hard': 'Hard', 'preset.classic': 'Classic',
  'preset.big': 'Big', 'preset.crush': 'Crush', 'preset.large': 'Large', 'preset.custom': 'Custom',
  'home.random': 'Random board', 'home.seed': 'Seed', 'home.seedPlay': 'Play this seed',
  'home.seedPlaceholder': 'any text, e.g. abc',
  'home.daily': "Today's challenge", 'home.dailyReset': 'Next challenge in {time}',
  'home.dailyError': 'The daily boards are not available right now.',
  'home.play': 'Play', 'home.board': 'Leaderboard',
  'home.rules.same': 'Click a group of two or more tiles of one colour. A group of n scores (n-2)². Clear the board for +1000.',
  'home.rules.match3': 'Swap two neighbouring tiles to make a row of three or more. Chains score more.',
  'home.rules.hidden': 'Colours are hidden. Hover to peek (−1 point), click to select a whole group cell by cell: a complete group disappears (+10 per tile).',
  'hud.score': 'Score', 'hud.moves': 'Moves', 'hud.movesLeft': 'Moves left', 'hud.peeks': 'Peeks',
  'hud.time': 'Time', 'hud.seed': 'Seed', 'hud.ranked': 'Ranked', 'hud.practice': 'Practice',
  'hud.preview': '+{points} for {n} tiles',
  'btn.undo': 'Undo', 'btn.hint': 'Hint', 'btn.resign': 'Give up', 'btn.new': 'New board',
  'btn.again': 'Play this board again', 'btn.share': 'Copy link', 'btn.copied': 'Link copied',
  'btn.prev': 'Previous', 'btn.next': 'Next', 'btn.around': 'Around me', 'btn.top': 'Top',
  'btn.show': 'Show', 'btn.step': 'Step', 'btn.play': 'Autoplay', 'btn.pause': 'Pause',
  'btn.verify': 'Verify', 'btn.replay': 'Replay',
  'over.title': 'Game over', 'over.reason': 'Reason', 'over.bonus': 'Clear bonus', 'over.final': 'Final score',
  'over.no_moves': 'No moves left', 'over.cleared': 'Board cleared!',
  'over.out_of_moves': 'Out of moves', 'over.resigned': 'Given up',
  'over.share': 'Share this board', 'over.leaderboard': 'See the leaderboard',
  'err.invalid_move': 'That move is not allowed.', 'err.not_allowed': 'Not possible here.',
  'err.not_found': 'Not found.', 'err.generic': 'Error: {message}',
  'err.disconnected': 'Connection lost; retrying.',
  'lb.title': 'Leaderboard', 'lb.choose': 'Choose a board', 'lb.dailyBoards': "Today's boards",
  'lb.rank': '#', 'lb.player': 'Player', 'lb.score': 'Score', 'lb.moves': 'Moves', 'lb.time': 'Time',
  'lb.attempts': 'Tries', 'lb.replay': 'Replay', 'lb.empty': 'No scores on this board yet.',
  'lb.notOn': 'You are not on this board yet.', 'lb.total': '{total} players',
  'player.title': 'Player {name}', 'player.since': 'Playing since {date}',
  'player.games': '{n} games played', 'player.bests': 'Best scores', 'player.unknown': 'No such player.',
  'replay.title': 'Replay of game {id}',
  'replay.moves': 'Moves', 'replay.step': 'Move {i} of {n}',
  'replay.valid': 'Verified: the moves give {score}.', 'replay.invalid': 'The moves do NOT reproduce the score ({score}).',
  'replay.listOnly': 'This mode is shown as its list of moves; use Verify to check the score on the server.',
  'replay.practiceNote': 'The replay runs on an unranked practice copy of the board.',
  'replay.notFound': 'This game does not exist or is not finished.',
  'rooms.title': 'Rooms', 'rooms.room': 'Room',
  'rooms.intro': 'Race friends on the same board: create a room and send them its link, or join one with its code.',
  'rooms.createTitle': 'Create a room', 'rooms.seed': 'Seed (optional)', 'rooms.seedPlaceholder': 'empty: a random board',
  'rooms.createHint': 'Every player gets the same board. Up to 8 players; anyone can watch.',
  'rooms.create': 'Create room', 'rooms.joinTitle': 'Join a room', 'rooms.code': 'Code',
  'rooms.join': 'Join', 'rooms.watch': 'Watch', 'rooms.watchInstead': 'Watch this room',
  'rooms.backTo': 'Back to room {code}',
  'rooms.sharePlay': 'Invite players', 'rooms.shareWatch': 'Invite spectators',
  'rooms.host': 'host', 'rooms.you': 'you', 'rooms.state': 'Status', 'rooms.spectators': 'Spectators: {n}',
  'rooms.status.ready': 'ready', 'rooms.status.away': 'away', 'rooms.status.left': 'left',
  'rooms.status.playing': 'playing', 'rooms.status.over': 'finished',
  'rooms.start': 'Start the race', 'rooms.startHint': 'Start when everyone is in. Nobody can join as a player afterwards.',
  'rooms.waitHost': 'Waiting for {host} to start.',
  'rooms.youPlay': 'You play', 'rooms.youWatch': 'You watch',
  'rooms.leave': 'Leave room', 'rooms.leaveConfirm': 'Leave the race? Click again',
  'rooms.waitOthers': 'Waiting for the other players to finish…',
  'rooms.standings': 'Final standings',
  'rooms.err.notFound': 'No room with this code (rooms are forgotten a few minutes after they end).',
  'rooms.err.notAllowed': 'You cannot play in this room: it has started or is full.',
  'rooms.err.tooMany': 'You already have 4 open rooms: finish or leave one first.',
  'common.loading': 'Loading…', 'common.back': 'Back',
};

const ja = {
  'app.title': 'tilecrush',
  'nav.home': 'プレイ', 'nav.leaderboard': 'ランキング', 'nav.rooms': 'ルーム',
  'lang.label': '言語',
  'name.title': 'プレイヤー名を決めてください',
  'name.hint': '1〜32文字。ランキングに表示されます。',
  'name.ok': '開始', 'name.taken': 'その名前は使われているか、トークンが違います。別の名前にしてください。',
  'name.invalid': '制御文字を含まない1〜32文字にしてください。',
  'net.connecting': '接続中…', 'net.online': 'オンライン', 'net.offline': '再接続中…',
  'mode.label': 'モード', 'preset.label': '盤面',
  'mode.same': 'さめがめ', 'mode.match3': 'マッチ3', 'mode.hidden': 'かくれた色',
  'preset.easy': 'かんたん', 'preset.normal': 'ふつう', 'preset.hard': 'むずかしい', 'preset.classic': 'クラシック',
  'preset.big': 'ビッグ', 'preset.crush': 'クラッシュ', 'preset.large': 'ラージ', 'preset.custom': 'カスタム',
  'home.random': 'ランダムな盤面', 'home.seed': 'シード', 'home.seedPlay': 'このシードで遊ぶ',
  'home.seedPlaceholder': '任意の文字列 (例: abc)',
  'home.daily': '今日のチャレンジ', 'home.dailyReset': '次のチャレンジまで {time}',
  'home.dailyError': '今日の盤面を取得できません。',
  'home.play': '遊ぶ', 'home.board': 'ランキング',
  'home.rules.same': '同じ色が2つ以上つながったグループをクリックして消します。n個で(n-2)²点。全消しで+1000点。',
  'home.rules.match3': '隣り合う2つを入れ替えて3つ以上並べます。連鎖ほど高得点。',
  'home.rules.hidden': '色は隠れています。マウスを乗せるとのぞけます(−1点)。クリックでグループを1マスずつ選び、全部選ぶと消えます(1マス+10点)。',
  'hud.score': 'スコア', 'hud.moves': '手数', 'hud.movesLeft': '残り手数', 'hud.peeks': 'のぞき',
  'hud.time': '時間', 'hud.seed': 'シード', 'hud.ranked': 'ランキング対象', 'hud.practice': '練習',
  'hud.preview': '{n}個で +{points}',
  'btn.undo': '戻す', 'btn.hint': 'ヒント', 'btn.resign': 'あきらめる', 'btn.new': '新しい盤面',
  'btn.again': 'この盤面をもう一度', 'btn.share': 'リンクをコピー', 'btn.copied': 'コピーしました',
  'btn.prev': '前へ', 'btn.next': '次へ', 'btn.around': '自分の周辺', 'btn.top': '上位',
  'btn.show': '表示', 'btn.step': '1手進む', 'btn.play': '自動再生', 'btn.pause': '一時停止',
  'btn.verify': '検証', 'btn.replay': 'リプレイ',
  'over.title': 'ゲーム終了', 'over.reason': '理由', 'over.bonus': '全消しボーナス', 'over.final': '最終スコア',
  'over.no_moves': '消せる手がありません', 'over.cleared': '全消し!',
  'over.out_of_moves': '手数切れ', 'over.resigned': 'ギブアップ',
  'over.share': 'この盤面を共有', 'over.leaderboard': 'ランキングを見る',
  'err.invalid_move': 'その手は打てません。', 'err.not_allowed': 'ここではできません。',
  'err.not_found': '見つかりません。', 'err.generic': 'エラー: {message}',
  'err.disconnected': '接続が切れました。再接続しています。',
  'lb.title': 'ランキング', 'lb.choose': '盤面を選ぶ', 'lb.dailyBoards': '今日の盤面',
  'lb.rank': '順位', 'lb.player': 'プレイヤー', 'lb.score': 'スコア', 'lb.moves': '手数', 'lb.time': '時間',
  'lb.attempts': '挑戦', 'lb.replay': 'リプレイ', 'lb.empty': 'この盤面にはまだ記録がありません。',
  'lb.notOn': 'この盤面にはまだあなたの記録がありません。', 'lb.total': '{total}人',
  'player.title': 'プレイヤー {name}', 'player.since': '{date} から参加',
  'player.games': '{n} ゲーム', 'player.bests': 'ベストスコア', 'player.unknown': 'そのプレイヤーはいません。',
  'replay.title': 'ゲーム {id} のリプレイ',
  'replay.moves': '手順', 'replay.step': '{n}手中 {i}手目',
  'replay.valid': '検証済み: この手順で {score} 点になります。', 'replay.invalid': 'この手順ではスコアが再現されません ({score})。',
  'replay.listOnly': 'このモードは手順の一覧で表示します。「検証」でサーバーがスコアを確認します。',
  'replay.practiceNote': 'リプレイはランキング対象外の練習用コピーで行います。',
  'replay.notFound': 'このゲームは存在しないか、まだ終わっていません。',
  'rooms.title': 'ルーム', 'rooms.room': 'ルーム',
  'rooms.intro': '同じ盤面で友だちと競争しましょう。ルームを作ってリンクを送るか、コードで参加します。',
  'rooms.createTitle': 'ルームを作る', 'rooms.seed': 'シード (任意)', 'rooms.seedPlaceholder': '空欄: ランダムな盤面',
  'rooms.createHint': '全員が同じ盤面で遊びます。プレイヤーは8人まで、観戦は誰でもできます。',
  'rooms.create': 'ルームを作成', 'rooms.joinTitle': 'ルームに参加', 'rooms.code': 'コード',
  'rooms.join': '参加', 'rooms.watch': '観戦', 'rooms.watchInstead': 'このルームを観戦する',
  'rooms.backTo': 'ルーム {code} に戻る',
  'rooms.sharePlay': 'プレイヤーを招待', 'rooms.shareWatch': '観戦者を招待',
  'rooms.host': 'ホスト', 'rooms.you': 'あなた', 'rooms.state': '状態', 'rooms.spectators': '観戦者: {n}人',
  'rooms.status.ready': '準備完了', 'rooms.status.away': '離席中', 'rooms.status.left': '退出',
  'rooms.status.playing': 'プレイ中', 'rooms.status.over': '終了',
  'rooms.start': 'レース開始', 'rooms.startHint': '全員がそろったら開始してください。開始後はプレイヤーとして参加できません。',
  'rooms.waitHost': '{host} さんの開始を待っています。',
  'rooms.youPlay': 'プレイヤー', 'rooms.youWatch': '観戦中',
  'rooms.leave': 'ルームを出る', 'rooms.leaveConfirm': 'レースをやめますか? もう一度クリック',
  'rooms.waitOthers': '他のプレイヤーの終了を待っています…',
  'rooms.standings': '最終順位',
  'rooms.err.notFound': 'このコードのルームはありません (終了後しばらくすると消えます)。',
  'rooms.err.notAllowed': 'このルームではプレイできません。開始済みか満員です。',
  'rooms.err.tooMany': '開いているルームがすでに4つあります。どれかを終えるか退出してください。',
  'common.loading': '読み込み中…', 'common.back': '戻る',
};

export const DICTS = { en, ja };
const listeners = new Set();

function initialLang() {
  try {
    const stored = localStorage.getItem(STORE);
    if (stored && DICTS[stored]) return stored;
  } catch { /* storage blocked: fall through */ }
  const nav = (globalThis.navigator && navigator.language) || 'en';
  return nav.toLowerCase().startsWith('ja') ? 'ja' : 'en';
}

let lang = initialLang();

export function getLang() { return lang; }

export function t(k, vars = {}) {
  const s = DICTS[lang][k] ?? en[k] ?? k;
  return s.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

// Re-translates static elements marked with data-i18n (text) or
// data-i18n-placeholder, then tells the pages to redraw their own text.
export function translateTree(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  document.documentElement.lang = lang;
}

export function setLang(next) {
  if (!DICTS[next] || next === lang) return;
  lang = next;
  try { localStorage.setItem(STORE, next); } catch { /* not remembered */ }
  translateTree();
  for (const fn of listeners) fn(lang);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// 3723 s -> "1:02:03"; 63 s -> "1:03".
export function formatDuration(totalSeconds) {
  const s = Math.max(0, Math.floor(totalSeconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh > 0 ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}
