// The server's HTTP API (docs/protocol.md). The session is the HttpOnly cookie the server sets.

import { knows, t } from "./i18n.js";

// `field`, `code` and `params` say what was refused where the server knows (the score calculator's
// refusals, and FastAPI's 422 list from its first entry's `loc`), for the page to say in its words.
export class ApiError extends Error {
  constructor(status, message, { field = null, code = null, params = {} } = {}) {
    super(message);
    this.status = status;
    this.field = field;
    this.code = code;
    this.params = params;
  }
}

const PYDANTIC_CODES = { missing: "missing", string_too_long: "too_long" };

function details(data) {
  if (data && data.error) return { field: data.error.field ?? null, code: data.error.code ?? null, params: data.error.params || {} };
  if (data && Array.isArray(data.detail) && data.detail.length) {
    const first = data.detail[0];
    return { field: (first.loc || [])[1] ?? null, code: PYDANTIC_CODES[first.type] || "invalid", params: {} };
  }
  return {};
}

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, explain(response.status, data), details(data));
  return data;
}

// A refusal in the reader's language where its code has words (`refusal.<code>` in i18n.js), else the
// server's own message.
function explain(status, data) {
  if (data && data.error && knows(`refusal.${data.error.code}`)) return t(`refusal.${data.error.code}`, data.error.params || {});
  if (data && data.error && data.error.message) return data.error.message;
  if (data && Array.isArray(data.detail) && data.detail.length) {
    const first = data.detail[0];
    return `${(first.loc || []).slice(1).join(".")}: ${first.msg}`;
  }
  return `HTTP ${status}`;
}

// A room's invitation token, from its link (#/join/<number>/<token>), kept for this tab: it lets a
// friend who has no seat yet see the room, sit, watch and read its records, and a reload keeps it.
const INVITES = "hupai.invites";

function invites() {
  try {
    return JSON.parse(sessionStorage.getItem(INVITES) || "{}");
  } catch {
    return {};
  }
}

export function rememberInvite(number, token) {
  sessionStorage.setItem(INVITES, JSON.stringify({ ...invites(), [number]: token }));
}

export function inviteFor(number) {
  return invites()[number] || null;
}

// `path` with the room's invitation as its query, when this tab has one.
export function withInvite(path, number) {
  const token = inviteFor(number);
  return token ? `${path}?invite=${encodeURIComponent(token)}` : path;
}

// A finished hand's record to download (a link, not a fetch).
export function recordLink(number, hand) {
  const token = inviteFor(number);
  return `/api/rooms/${number}/hands/${hand}/record?download=1${token ? `&invite=${encodeURIComponent(token)}` : ""}`;
}

function seatRequest(seat, number) {
  const body = seat === undefined ? {} : { seat };
  const token = inviteFor(number);
  return token ? { ...body, invite: token } : body;
}

export const api = {
  me: () => call("GET", "/api/me"),
  session: () => call("GET", "/api/session"),
  guest: (name, avatar = null) => call("POST", "/api/guest", avatar ? { name, avatar } : { name }),
  // A guest who registers keeps their games and clubs: the server upgrades the guest in place.
  register: (name, password) => call("POST", "/api/register", { name, password }),
  login: (name, password) => call("POST", "/api/login", { name, password }),
  avatar: (avatar) => call("PUT", "/api/me/avatar", { avatar }),
  logout: (everywhere = false) => call("POST", "/api/logout", everywhere ? { everywhere: true } : {}),
  history: () => call("GET", "/api/me/history"),
  rulesets: () => call("GET", "/api/rulesets"),
  createRoom: (spec) => call("POST", "/api/rooms", spec),
  room: (number) => call("GET", withInvite(`/api/rooms/${number}`, number)),
  invite: (number) => call("GET", `/api/rooms/${number}/invite`),
  newInvite: (number) => call("POST", `/api/rooms/${number}/invite`, {}),
  lock: (number, locked) => call("POST", `/api/rooms/${number}/lock`, { locked }),
  sit: (number, seat) => call("POST", `/api/rooms/${number}/sit`, seatRequest(seat, number)),
  bots: (number, seat, level) =>
    call("POST", `/api/rooms/${number}/bots`, seat === undefined ? { level } : { seat, level }),
  remove: (number, seat) => call("POST", `/api/rooms/${number}/remove`, { seat }),
  ready: (number, ready) => call("POST", `/api/rooms/${number}/ready`, { ready }),
  start: (number) => call("POST", `/api/rooms/${number}/start`, {}),
  leave: (number) => call("POST", `/api/rooms/${number}/leave`, {}),
  dissolve: (number, agree) => call("POST", `/api/rooms/${number}/dissolve`, { agree }),
  hands: (number) => call("GET", withInvite(`/api/rooms/${number}/hands`, number)),
  replay: (number, index) => call("GET", withInvite(`/api/rooms/${number}/hands/${index}/replay`, number)),
  record: (number, index) => call("GET", withInvite(`/api/rooms/${number}/hands/${index}/record`, number)),
  // 复盘 of the asker's own seat in an ended match (docs/review.md).
  review: (number) => call("GET", withInvite(`/api/rooms/${number}/review`, number)),
  askReview: (number) => call("POST", withInvite(`/api/rooms/${number}/review`, number), {}),
  // 亲友圈 (docs/protocol.md): a club is answered by number to its members only (404 to anyone else).
  clubs: () => call("GET", "/api/clubs"),
  createClub: (name) => call("POST", "/api/clubs", { name }),
  club: (number) => call("GET", `/api/clubs/${number}`),
  clubInvite: (number) => call("GET", `/api/clubs/${number}/invite`),
  clubJoining: (number, open) => call("POST", `/api/clubs/${number}/invite`, { open }),
  joinClub: (number, invite) => call("POST", `/api/clubs/${number}/join`, { invite }),
  leaveClub: (number) => call("POST", `/api/clubs/${number}/leave`, {}),
  removeMember: (number, userId) => call("POST", `/api/clubs/${number}/members/${userId}/remove`, {}),
  memberRole: (number, userId, role) => call("POST", `/api/clubs/${number}/members/${userId}/role`, { role }),
  handOver: (number, userId) => call("POST", `/api/clubs/${number}/owner`, { user_id: userId }),
  closeClub: (number) => call("POST", `/api/clubs/${number}/close`, {}),
  saveClubRules: (number, name, card) => call("POST", `/api/clubs/${number}/rules`, { name, card }),
  dropClubRules: (number, id) => call("POST", `/api/clubs/${number}/rules/${id}/delete`, {}),
  clubTables: (number) => call("GET", `/api/clubs/${number}/tables`),
  openClubTable: (number, rulesId) => call("POST", `/api/clubs/${number}/tables`, { rules_id: rulesId }),
  standings: (number, period, before = null) =>
    call("GET", `/api/clubs/${number}/standings?period=${period}${before === null ? "" : `&before=${before}`}`),
  // A refused description comes back as an answer (200 with `error`), thrown here like any refusal.
  score: async (spec) => {
    const answer = await call("POST", "/api/score?refusals=inline", spec);
    if (answer && answer.error) throw new ApiError(400, explain(400, answer), details(answer));
    return answer;
  },
};

// The logged-in user, or null.
export async function currentUser() {
  return (await api.session()).user;
}
