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
  'nav.competitions': 'Competitions',
  'over.closed': 'The competition closed',
  'replay.movesHidden': 'The moves are published when the board closes.',
  'replay.competitionNote': 'A competition board is dealt from a secret key, so this game is shown as its list of moves; use Verify to check the score on the server.',
  'home.details': 'Details', 'home.commitment': 'Commitment',
  'home.tomorrow': "Tomorrow's boards ({date}): their commitments, published in advance",
  'lb.competition': 'Competition page',
  'comps.title': 'Competitions',
  'comps.intro': 'Everyone plays the same secret board within a fixed time. A fingerprint of the board (its commitment) is published before the opening and the key after the close, so anyone can check that the board was fixed in advance.',
  'comps.open': 'Open now', 'comps.upcoming': 'Upcoming', 'comps.closed': 'Closed', 'comps.none': 'None.',
  'comps.codeTitle': 'Open a competition by its code', 'comps.code': 'Code or link', 'comps.go': 'Open',
  'comps.badCode': 'That is not a competition code.', 'comps.organise': 'Organise a competition',
  'comps.daily': 'daily', 'comps.by': 'by {name}', 'comps.error': 'The competitions are not available right now.',
  'comp.daily': 'Daily challenge', 'comp.unlisted': 'Unlisted: only people with the link can find it.',
  'comp.when': 'When', 'comp.rules': 'Rules', 'comp.organiser': 'Organiser',
  'comp.state.upcoming': 'Opens in {time}', 'comp.state.open': 'Open · closes in {time}',
  'comp.state.opening': 'Opening…', 'comp.state.closing': 'Closing…', 'comp.state.closed': 'Closed',
  'comp.rule.one': 'One attempt',
  'comp.rule.n.best': '{n} attempts; the best one counts', 'comp.rule.n.first': '{n} attempts; the first finished one counts',
  'comp.rule.unlimited.best': 'Unlimited attempts; the best one counts',
  'comp.rule.unlimited.first': 'Unlimited attempts; the first finished one counts',
  'comp.you.left': 'You have used {used} of {n} attempts: {left} left.',
  'comp.you.none': 'You have used all {n} attempts.', 'comp.you.unlimited': 'You have played {used} times.',
  'comp.commitment': 'Commitment',
  'comp.commitmentNote': 'SHA-256 of the secret key that deals this board, published before the opening. The key is revealed after the close, so you can check that the board was fixed in advance.',
  'comp.key': 'Board key', 'comp.keyPending': 'Revealed when the competition closes.',
  'comp.checking': 'Checking…',
  'comp.verified': 'Verified: SHA-256 of the key equals the commitment.',
  'comp.mismatch': 'Does not match: SHA-256 of the key is not the commitment!',
  'comp.verifyUnavailable': 'This browser cannot compute SHA-256 on this page (it needs https).',
  'comp.verifyInvalid': 'The key is not 64 hexadecimal digits.',
  'comp.play': 'Play', 'comp.attempt': 'Attempt {n}', 'comp.closesIn': 'closes in {time}',
  'comp.back': 'Back to the competition',
  'comp.err.notAllowed': 'You cannot play now: {message}', 'comp.err.notFound': 'No competition with this code.',
  'comp.leaderboard': 'Leaderboard (live)', 'comp.fullLeaderboard': 'Full leaderboard',
  'comp.results': 'Results', 'comp.download': 'Download the results:', 'comp.notes': 'Notes',
  'comp.flag.disqualified': 'Disqualified', 'comp.flag.replay_failed': 'Replay failed',
  'comp.share': 'Link to this competition',
  'comp.dq.title': 'Organiser: disqualify a player', 'comp.dq.player': 'Player', 'comp.dq.reason': 'Reason',
  'comp.dq.submit': 'Disqualify', 'comp.dq.done': '{player} is disqualified.',
  'org.title': 'Organise a competition',
  'org.intro': 'You need an organiser token from the server\u2019s operator. It is kept in this browser.',
  'org.token': 'Organiser token', 'org.name': 'Name', 'org.opens': 'Opens', 'org.openNow': 'at once',
  'org.closes': 'Closes', 'org.tz': 'Times are in your time zone ({tz}).',
  'org.attempts': 'Attempts', 'org.unlimited': 'unlimited', 'org.counts': 'Counts',
  'org.counts.best': 'the best attempt', 'org.counts.first': 'the first finished attempt',
  'org.unlisted': 'Unlisted (only people with the link can find it)',
  'org.create': 'Create the competition', 'org.created': 'Created. Send this link to the players:',
  'org.openPage': 'Open its page',
  'org.err.token': 'Enter your organiser token.',
  'org.err.name': 'The name needs 1 to 64 characters without control characters.',
  'org.err.preset': 'Choose a board.', 'org.err.opens': 'Choose the opening time.',
  'org.err.closes': 'Choose the closing time.', 'org.err.order': 'The closing must come after the opening.',
  'org.err.attempts': 'Attempts: a whole number from 1 to 100, or unlimited.',
  'org.err.counts': 'Choose which attempt counts.',
  'org.err.server': 'The server refused: {message}', 'org.err.unauthorized': 'The server refused the token: {message}',
  'common.loading': 'Loading…', 'common.back': 'Back',
  // Competition secrets (issue 23): replays wait for the close, unlisted stays unlisted.
  'player.unlistedBest': 'an unlisted competition',
  'lb.replayAtClose': 'after the close',
  'replay.ownMoves': 'Only you see these moves until the competition closes.',
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
  'nav.competitions': '大会',
  'over.closed': '大会が終了しました',
  'replay.movesHidden': '手順は盤面の締め切り後に公開されます。',
  'replay.competitionNote': '大会の盤面は秘密の鍵から作られるため、このゲームは手順の一覧で表示します。「検証」でサーバーがスコアを確認します。',
  'home.details': '詳細', 'home.commitment': 'コミットメント',
  'home.tomorrow': '明日の盤面 ({date}) のコミットメント (事前公開)',
  'lb.competition': '大会のページ',
  'comps.title': '大会',
  'comps.intro': '決められた期間に全員が同じ秘密の盤面で遊びます。盤面の指紋 (コミットメント) を開始前に、鍵を終了後に公開するので、盤面が事前に決まっていたことを誰でも確かめられます。',
  'comps.open': '開催中', 'comps.upcoming': '開催予定', 'comps.closed': '終了', 'comps.none': 'ありません。',
  'comps.codeTitle': 'コードで大会を開く', 'comps.code': 'コードまたはリンク', 'comps.go': '開く',
  'comps.badCode': '大会のコードではありません。', 'comps.organise': '大会を主催する',
  'comps.daily': 'デイリー', 'comps.by': '主催: {name}', 'comps.error': '大会の一覧を取得できません。',
  'comp.daily': 'デイリーチャレンジ', 'comp.unlisted': '非公開: リンクを知っている人だけが見られます。',
  'comp.when': '期間', 'comp.rules': 'ルール', 'comp.organiser': '主催者',
  'comp.state.upcoming': '開始まで {time}', 'comp.state.open': '開催中 · 終了まで {time}',
  'comp.state.opening': '開始しています…', 'comp.state.closing': '締め切っています…', 'comp.state.closed': '終了しました',
  'comp.rule.one': '挑戦は1回',
  'comp.rule.n.best': '挑戦は{n}回まで、最高スコアを採用', 'comp.rule.n.first': '挑戦は{n}回まで、最初に終えた回を採用',
  'comp.rule.unlimited.best': '挑戦回数は無制限、最高スコアを採用',
  'comp.rule.unlimited.first': '挑戦回数は無制限、最初に終えた回を採用',
  'comp.you.left': '{n}回中{used}回挑戦しました。残り{left}回です。',
  'comp.you.none': '{n}回の挑戦をすべて使いました。', 'comp.you.unlimited': '{used}回挑戦しました。',
  'comp.commitment': 'コミットメント',
  'comp.commitmentNote': 'この盤面を作る秘密の鍵のSHA-256で、開始前に公開されます。鍵は終了後に公開されるので、盤面が事前に決まっていたことを確かめられます。',
  'comp.key': '盤面の鍵', 'comp.keyPending': '終了後に公開されます。',
  'comp.checking': '確認中…',
  'comp.verified': '検証済み: 鍵のSHA-256がコミットメントと一致します。',
  'comp.mismatch': '一致しません: 鍵のSHA-256がコミットメントと違います!',
  'comp.verifyUnavailable': 'このページではブラウザーがSHA-256を計算できません (httpsが必要です)。',
  'comp.verifyInvalid': '鍵が16進数64桁ではありません。',
  'comp.play': 'プレイ', 'comp.attempt': '{n}回目の挑戦', 'comp.closesIn': '終了まで {time}',
  'comp.back': '大会のページへ戻る',
  'comp.err.notAllowed': '今はプレイできません: {message}', 'comp.err.notFound': 'このコードの大会はありません。',
  'comp.leaderboard': 'ランキング (ライブ)', 'comp.fullLeaderboard': 'ランキング全体',
  'comp.results': '結果', 'comp.download': '結果のダウンロード:', 'comp.notes': '備考',
  'comp.flag.disqualified': '失格', 'comp.flag.replay_failed': 'リプレイ失敗',
  'comp.share': 'この大会へのリンク',
  'comp.dq.title': '主催者: プレイヤーを失格にする', 'comp.dq.player': 'プレイヤー', 'comp.dq.reason': '理由',
  'comp.dq.submit': '失格にする', 'comp.dq.done': '{player} さんを失格にしました。',
  'org.title': '大会を主催する',
  'org.intro': 'サーバー管理者が発行した主催者トークンが必要です。トークンはこのブラウザーに保存されます。',
  'org.token': '主催者トークン', 'org.name': '大会名', 'org.opens': '開始', 'org.openNow': 'すぐに開始',
  'org.closes': '終了', 'org.tz': '時刻はお使いのタイムゾーン ({tz}) です。',
  'org.attempts': '挑戦回数', 'org.unlimited': '無制限', 'org.counts': '採用する挑戦',
  'org.counts.best': '最高スコア', 'org.counts.first': '最初に終えた挑戦',
  'org.unlisted': '非公開 (リンクを知っている人だけが見られる)',
  'org.create': '大会を作成', 'org.created': '作成しました。このリンクを参加者に送ってください:',
  'org.openPage': '大会のページを開く',
  'org.err.token': '主催者トークンを入力してください。',
  'org.err.name': '大会名は制御文字を含まない1〜64文字にしてください。',
  'org.err.preset': '盤面を選んでください。', 'org.err.opens': '開始時刻を選んでください。',
  'org.err.closes': '終了時刻を選んでください。', 'org.err.order': '終了は開始より後にしてください。',
  'org.err.attempts': '挑戦回数は1〜100の整数か、無制限にしてください。',
  'org.err.counts': '採用する挑戦を選んでください。',
  'org.err.server': 'サーバーが拒否しました: {message}', 'org.err.unauthorized': 'サーバーがトークンを拒否しました: {message}',
  'common.loading': '読み込み中…', 'common.back': '戻る',
  // Competition secrets (issue 23): replays wait for the close, unlisted stays unlisted.
  'player.unlistedBest': '非公開の大会',
  'lb.replayAtClose': '締め切り後',
  'replay.ownMoves': '大会の締め切りまで、この手順はあなただけに表示されます。',
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
