// Interface words, Chinese first. `t(key)` gives the current language; `pick(zh, en)` chooses between
// the pairs the server sends (score items, payment reasons, rule-set names).

const WORDS = {
  "nav.lobby": ["大厅", "Lobby"],
  "nav.history": ["战绩", "History"],
  "nav.calc": ["算分器", "Score calculator"],
  "lobby.nickname": ["昵称", "Nickname"],
  "lobby.enter": ["进入", "Enter"],
  "lobby.hello": ["你好，", "Hello, "],
  "lobby.logout": ["退出登录", "Log out"],
  "lobby.create": ["创建房间", "Create a room"],
  "lobby.join": ["加入房间", "Join a room"],
  "lobby.number": ["房号", "Room number"],
  "lobby.preset": ["玩法", "Rules"],
  "lobby.hands": ["局数", "Hands"],
  "lobby.seconds": ["每步秒数", "Seconds per move"],
  "lobby.botLevel": ["电脑水平", "Bot level"],
  "lobby.ruleCard": ["规则", "Rule card"],
  "lobby.changed": ["已改", "changed"],
  "lobby.reset": ["恢复默认", "Reset"],
  "bot.random": ["随机", "Random"],
  "bot.efficiency": ["牌效", "Efficiency"],
  "bot.strong": ["高手", "Strong"],
  "room.title": ["房间", "Room"],
  "room.share": ["把房号告诉朋友", "Share the number with your friends"],
  "room.seat": ["座位", "Seat"],
  "room.empty": ["空位", "Empty"],
  "room.sit": ["坐下", "Sit here"],
  "room.addBot": ["加电脑", "Add a bot"],
  "room.fillBots": ["空位都加电脑", "Bots in every empty seat"],
  "room.remove": ["请出", "Remove"],
  "room.ready": ["准备", "Ready"],
  "room.unready": ["取消准备", "Not ready"],
  "room.isReady": ["已准备", "Ready"],
  "room.notReady": ["未准备", "Not ready"],
  "room.start": ["开始游戏", "Start"],
  "room.leave": ["离开房间", "Leave the room"],
  "room.host": ["房主", "Host"],
  "room.you": ["你", "You"],
  "room.bot": ["电脑", "Bot"],
  "room.closed": ["房间已解散", "The room was closed"],
  "table.hand": ["第{n}/{total}局", "Hand {n} of {total}"],
  "table.wall": ["余{n}张", "{n} left"],
  "table.dealer": ["庄", "Dealer"],
  "table.turn": ["出牌", "to play"],
  "table.waiting": ["等待", "waiting"],
  "table.bixiahu": ["比下胡 ×{n}", "Doubled hand ×{n}"],
  "table.trustee": ["托管", "Auto-play"],
  "table.trusteeOff": ["取消托管", "Stop auto-play"],
  "table.offline": ["离线", "offline"],
  "table.escape": ["逃跑", "Leave for good"],
  "table.escapeConfirm": ["现在离开要按规则扣分（南京 −60）。确定离开？", "Leaving now costs the escape penalty (Nanjing −60). Leave?"],
  "escape.confirm": ["{terms}\n确定离开？", "{terms}\nLeave?"],
  "escape.unknown": ["现在离开，这场比赛随即结束。", "Leaving now ends the match."],
  "ting.mark": ["听", "Ready"],
  "ting.on": ["听", "Auto-win (听)"],
  "ting.off": ["取消听", "Stop 听"],
  "ting.help": ["听牌后自动摸打：能胡就胡，摸什么打什么，不加分", "Ready: the table draws and discards for you and wins when it can (no extra score)"],
  "ting.waits": ["听的牌", "Waiting on"],
  "ting.left": ["剩{n}张", "{n} left"],
  "invite.title": ["邀请好友", "Invite friends"],
  "invite.link": ["房间链接", "Room link"],
  "invite.copyLink": ["复制链接", "Copy link"],
  "invite.copyNumber": ["复制房号", "Copy number"],
  "invite.copied": ["已复制", "Copied"],
  "invite.copyFailed": ["复制失败，请手动复制", "Could not copy: please copy it by hand"],
  "invite.qr": ["扫码进房", "Scan to join"],
  "join.invited": ["你被邀请加入房间 {number}，先起个昵称吧", "You are invited to room {number}: pick a nickname first"],
  "join.title": ["加入房间 {number}", "Joining room {number}"],
  "join.notFound": ["没有这个房间：{number}", "There is no room {number}"],
  "join.full": ["房间已满，你在观战", "The room is full: you are watching"],
  "join.started": ["牌局已开始，你在观战", "The game has started: you are watching"],
  "join.over": ["这场比赛已结束", "This game is over"],
  "table.dissolve": ["申请解散", "Propose to end"],
  "table.dissolveVote": ["同意解散", "Agree to end"],
  "table.dissolveAsked": ["有人申请解散", "Someone proposes to end the game"],
  "table.tapAgain": ["再点一次出牌", "Tap again to discard"],
  "table.hints": ["提示", "Hints"],
  "table.reconnecting": ["重新连接中…", "Reconnecting…"],
  "table.bank": ["备用时间", "Time bank"],
  "act.discard": ["出牌", "Discard"],
  "act.pong": ["碰", "Pong"],
  "act.kong": ["杠", "Kong"],
  "act.hu": ["胡", "Win"],
  "act.pass": ["过", "Pass"],
  "act.ready": ["报听", "Declare ready"],
  "act.chow": ["吃", "Chow"],
  "act.lay": ["下", "Lay"],
  "act.layPizi": ["下痞子", "Lay 痞子"],
  "act.layLaizi": ["下赖子", "Lay 赖子"],
  "table.pizi": ["痞子", "痞子 (indicator)"],
  "table.laizi": ["赖子", "赖子 (wild)"],
  "end.cap": ["封顶", "capped"],
  "end.goldCap": ["金顶", "gold cap"],
  "end.diamondCap": ["钻石顶", "diamond cap"],
  "end.title": ["本局结算", "Hand settlement"],
  "end.draw": ["荒庄", "Draw"],
  "end.winner": ["胡牌", "Winner"],
  "end.items": ["算分", "Score"],
  "end.share": ["每家", "each share"],
  "end.payments": ["付款", "Payments"],
  "end.next": ["{n}秒后下一局", "Next hand in {n} s"],
  "end.totals": ["总分", "Totals"],
  "end.change": ["本局", "This hand"],
  "end.selfDrawn": ["自摸", "self-drawn"],
  "end.fromDiscard": ["点炮：{name}", "on {name}'s discard"],
  "end.robbed": ["抢杠：{name}", "robbing {name}'s kong"],
  "end.nextDoubled": ["下一局比下胡", "Next hand doubled (比下胡)"],
  "summary.title": ["大结算", "Session summary"],
  "summary.rank": ["名次", "Rank"],
  "summary.player": ["玩家", "Player"],
  "summary.total": ["总分", "Total"],
  "summary.biggest": ["最大一把", "Biggest win"],
  "summary.hand": ["第{n}局", "Hand {n}"],
  "summary.dissolved": ["（已解散）", "(ended early)"],
  "summary.replay": ["回放", "Replay"],
  "summary.back": ["回大厅", "Back to the lobby"],
  "history.title": ["我的战绩", "My games"],
  "history.none": ["还没有对局", "No games yet"],
  "history.room": ["房号", "Room"],
  "history.rules": ["玩法", "Rules"],
  "history.when": ["时间", "When"],
  "history.result": ["结果", "Result"],
  "common.error": ["出错了", "Something went wrong"],
  "common.yes": ["确定", "OK"],
  "common.cancel": ["取消", "Cancel"],
  "common.loading": ["加载中…", "Loading…"],
  "seat.0": ["东", "East"],
  "seat.1": ["南", "South"],
  "seat.2": ["西", "West"],
  "seat.3": ["北", "North"],
};

const KEY = "hupai.lang";
let lang = localStorage.getItem(KEY) === "en" ? "en" : "zh";

export function language() {
  return lang;
}

export function setLanguage(value) {
  lang = value === "en" ? "en" : "zh";
  localStorage.setItem(KEY, lang);
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
}

export function t(key, values = {}) {
  const pair = WORDS[key];
  let text = pair ? pair[lang === "zh" ? 0 : 1] : key;
  for (const [name, value] of Object.entries(values)) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}

export function pick(zh, en) {
  return lang === "zh" ? zh || en : en || zh;
}

// Fill every [data-i18n] element of a fragment (the static header).
export function translate(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
}
