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
  "card.more": ["更多规则", "More rules"],
  "card.listHelp": ["用逗号分开，例如", "Separate with commas, e.g."],
  "card.hands": ["{n}局", "{n} hands"],
  "card.changed": ["已改{n}项", "{n} changed"],
  "card.base": ["跑{n}", "base {n}"],
  "card.zar2": ["砸2", "kong money ×2"],
  "card.bixiahu": ["比下胡", "doubled hands"],
  "card.bixiahuStacks": ["比下胡累翻", "doubled hands stack"],
  "card.noBixiahu": ["不比下胡", "no doubled hands"],
  "card.combineMultiply": ["牌型翻倍", "elements double"],
  "card.combineAdd": ["牌型累加", "elements add up"],
  "card.chickenTsumo": ["鸡胡须自摸", "plain hands self-drawn only"],
  "card.minPoints": ["{n}分起胡", "wins from {n} points"],
  "card.moma": ["摸码{n}颗", "{n} code tiles"],
  "card.maima": ["买马{n}匹", "{n} horses"],
  "card.fishing": ["钓鱼", "fishing"],
  "card.difen": ["底分{n}", "stake {n}"],
  "card.cap": ["封顶{n}", "cap {n}"],
  "card.noCap": ["不封顶", "no cap"],
  "card.honours": ["带字牌", "with honours"],
  "calc.title": ["算分器", "Score calculator"],
  "calc.hand": ["手牌（不含胡的那张）", "Hand (without the winning tile)"],
  "calc.win": ["胡的牌", "Winning tile"],
  "calc.how": ["怎么胡的", "How it was won"],
  "calc.from": ["谁放的炮 / 被抢杠", "Discarded / robbed by"],
  "calc.dealer": ["庄家", "Dealer"],
  "calc.melds": ["碰杠", "Melds"],
  "calc.meldsChow": ["吃碰杠", "Melds"],
  "calc.addMeld": ["加一组", "Add a meld"],
  "calc.flowers": ["花（硬花）", "Flowers"],
  "calc.firstTurn": ["天胡/地胡（第一圈）", "First go-round (heavenly/earthly)"],
  "calc.ready": ["报听", "Declared ready (报听)"],
  "calc.haidi": ["海底", "Last tiles (海底)"],
  "calc.multiplier": ["比下胡倍数", "Doubled hand ×"],
  "calc.score": ["算分", "Score it"],
  "calc.notAllowed": ["不能胡", "Not a legal win"],
  "calc.total": ["赢", "wins"],
  "calc.palette": ["点牌输入到选中的格子", "Tap tiles to fill the chosen field"],
  "calc.me": ["我", "Me"],
  "calc.right": ["下家", "Right"],
  "calc.across": ["对家", "Across"],
  "calc.left": ["上家", "Left"],
  "calc.remove": ["删除", "Remove"],
  "calc.clear": ["清空", "Clear"],
  "calc.options": ["规则选项", "Rule options"],
  "calc.how.self_drawn": ["自摸", "Self-drawn"],
  "calc.how.discard": ["点炮", "On a discard"],
  "calc.how.robbed_kong": ["抢杠", "Robbing a kong"],
  "calc.how.kong_replacement": ["杠开", "Kong replacement"],
  "calc.how.flower_replacement": ["小杠开（补花）", "Flower replacement"],
  "calc.how.flower_kong_replacement": ["花杠开", "Flower-kong replacement"],
  "calc.how.claim": ["快照/三清", "Claim wins (快照/三清)"],
  "calc.meld.pung": ["碰", "Pung"],
  "calc.meld.exposed_kong": ["明杠", "Exposed kong"],
  "calc.meld.added_kong": ["补杠", "Added kong"],
  "calc.meld.concealed_kong": ["暗杠", "Concealed kong"],
  "calc.meld.chow": ["吃（最小的牌）", "Chow (lowest tile)"],
  "calc.enshi": ["痞子与赖子", "痞子 and 赖子"],
  "calc.nanning": ["摸码、买马、钓鱼", "Code tiles, horses, fish"],
  "calc.winnerShare": ["赢家份额", "Winner's share"],
  "calc.payers": ["各家付", "Each loser pays"],
  "calc.pizi": ["痞子（翻开的牌）", "痞子 (tile turned up)"],
  "calc.laizi": ["赖子", "赖子 (wild)"],
  "calc.laid": ["下的痞子/赖子", "痞子/赖子 laid"],
  "calc.laysBefore": ["胡牌前刚下了几张（杠开/杠上炮）", "Lays just before the win (杠开 / 杠上炮)"],
  "calc.codeTiles": ["摸码（自摸后翻的牌，按顺序）", "Code tiles (turned after the self-draw, in order)"],
  "calc.horseTiles": ["买马（墙尾翻的牌）", "Horse tiles (from the wall's end)"],
  "calc.fishTiles": ["钓鱼的牌", "Fish tiles"],
  "calc.previousWinner": ["上一局谁胡（数鱼从他起）", "Last hand's winner (fish are counted from them)"],
  "calc.noOne": ["—", "—"],
  "calc.wonHand": ["胡的牌型", "The winning hand"],
  "calc.share": ["每家", "Each share"],
  "field.hand": ["手牌", "Hand"],
  "field.win_tile": ["胡的牌", "Winning tile"],
  "field.how": ["怎么胡的", "How it was won"],
  "field.from": ["谁放的炮", "Discarder"],
  "field.dealer": ["庄家", "Dealer"],
  "field.seat": ["座位", "Seat"],
  "field.melds": ["碰杠", "Melds"],
  "field.kongs": ["碰杠", "Melds"],
  "field.flowers": ["花", "Flowers"],
  "field.first_turn": ["天胡/地胡", "First go-round"],
  "field.ready": ["报听", "Declared ready"],
  "field.haidi": ["海底", "Last tiles"],
  "field.tiles_left": ["海底", "Last tiles"],
  "field.multiplier": ["比下胡倍数", "Doubled hand ×"],
  "field.pizi": ["痞子", "痞子"],
  "field.laid": ["下的痞子/赖子", "痞子/赖子 laid"],
  "field.lays_before": ["胡牌前刚下的张数", "Lays just before the win"],
  "field.code_tiles": ["摸码", "Code tiles"],
  "field.horse_tiles": ["买马", "Horse tiles"],
  "field.fish_tiles": ["钓鱼", "Fish tiles"],
  "field.previous_winner": ["上一局谁胡", "Last hand's winner"],
  "field.options": ["规则选项", "Rule options"],
  "field.preset": ["玩法", "Rules"],
  "error.line": ["{field}：{problem}", "{field}: {problem}"],
  "error.missing": ["请填写", "please fill this in"],
  "error.notation": ["看不懂，请用牌的写法，如 123m456p11z（m万 p筒 s条 z字 f花）", "not tile notation: write e.g. 123m456p11z (m characters, p dots, s bamboo, z honours, f flowers)"],
  "error.one_tile": ["只填一张牌，如 5p", "one tile only, e.g. 5p"],
  "error.tile_count": ["填了{given}张；有{melds}组碰杠时应为{expected}张（胡的那张另填）", "{given} tiles given; with {melds} melds the hand holds {expected} (the winning tile has its own field)"],
  "error.not_in_rules": ["这套规则没有{tile}", "these rules have no {tile}"],
  "error.flower_elsewhere": ["{tile}是花牌，请填在“花”里", "{tile} is a flower: put it under flowers"],
  "error.no_flowers": ["这套规则没有花牌", "these rules have no flowers"],
  "error.not_a_flower": ["{tile}不是花牌", "{tile} is not a flower"],
  "error.copies": ["{tile}用了{count}张，一副牌只有{most}张", "{tile} is used {count} times; a set has only {most}"],
  "error.from_seat": ["请选另一家（上家、对家或下家）", "choose another player (left, across or right)"],
  "error.meld_from": ["{tile}那组要选是谁打的（不能是自己）", "say who discarded the {tile} of this meld (not yourself)"],
  "error.needs_kong": ["杠开要有一组杠", "a kong replacement win needs a kong among the melds"],
  "error.ready_dealer": ["庄家不能报听", "the dealer cannot declare ready"],
  "error.ready_melds": ["报听后不能碰或明杠", "after declaring ready there are no pungs or exposed kongs"],
  "error.extras_count": ["这一把要翻{expected}张，填了{given}张", "this win turns {expected}; {given} given"],
  "error.no_extras": ["这一把不翻这些牌，请留空", "this win turns none: leave it empty"],
  "error.rules": ["这套规则或选项不对", "a rule set or option is not valid"],
  "error.too_long": ["太长了", "too long"],
  "error.invalid": ["填得不对，请检查", "not valid, please check it"],
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

// Fill every [data-i18n] element of a fragment with its words, every [data-zh] element with the pair
// the server sent, and every [data-i18n-placeholder] input's placeholder: a view re-translated this
// way keeps whatever the player typed or chose.
export function translate(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  for (const element of root.querySelectorAll("[data-zh]")) element.textContent = pick(element.dataset.zh, element.dataset.en);
  for (const element of root.querySelectorAll("[data-i18n-label]")) element.setAttribute("aria-label", t(element.dataset.i18nLabel));
}

// A word of the current language as an element that translate() keeps up to date.
export function word(key) {
  return `<span data-i18n="${key}">${t(key)}</span>`;
}

// Language listeners of the page now shown. The router clears them on every navigation, so a view
// never hears a language switch after it is gone (a left-over listener once re-drew the lobby over
// the table). Returns a function that removes the listener earlier.
let listeners = [];

export function onLanguageChange(listener) {
  listeners.push(listener);
  return () => {
    listeners = listeners.filter((item) => item !== listener);
  };
}

export function clearLanguageListeners() {
  listeners = [];
}

export function languageChanged() {
  for (const listener of [...listeners]) listener();
}
