// Keeping the page's table state current: the table socket when the server offers it (snapshot,
// event, chat, presence), else polling GET /api/tables/<token>; polling also covers a dropped socket.
import { api, socketsOffered, socketUrl } from "./api.js";

const POLL_VISIBLE_MS = 3000;
const POLL_HIDDEN_MS = 15000;
const RECONNECT_MAX_MS = 30000;
const MOVE_ANSWER_MS = 5000; // a socket move unanswered this long is sent again over HTTP

export class LiveTable {
  constructor(token, handlers) {
    this.token = token;
    this.handlers = handlers; // onState(state), onChat(message), onPresence(seats)
    this.version = -1;
    this.lastChatId = 0;
    this.socket = null;
    this.socketUp = false;
    this.retryMs = 1000;
    this.pollTimer = null;
    this.moves = new Map(); // client_move_id or request_id -> resolve, for moves and actions sent over the socket
    this.waiters = []; // [version, resolve]: callers waiting for the state of that version
  }

  // Every visitor gets the socket, a logged-out spectator too (the spectators' view, read-only).
  start(state, chat) {
    this.version = state.version;
    for (const message of chat) this.lastChatId = Math.max(this.lastChatId, message.id);
    if (socketsOffered("tables")) this.connect();
    this.schedulePoll();
    document.addEventListener("visibilitychange", () => {
      this.send({ type: "visibility", visible: document.visibilityState === "visible" });
      if (document.visibilityState === "visible") this.refresh();
    });
  }

  connect() {
    if (!navigator.onLine) {
      window.addEventListener("online", () => this.connect(), { once: true }); // no attempt bound to fail
      return;
    }
    const socket = new WebSocket(socketUrl(`/ws/tables/${this.token}/`));
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.socketUp = true;
      this.retryMs = 1000;
      socket.send(JSON.stringify({ type: "hello", version: this.version }));
    });
    socket.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      this.socketUp = false;
      this.socket = null;
      for (const resolve of this.moves.values()) resolve(null);
      this.moves.clear();
      setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
    });
  }

  send(message) {
    if (!this.socketUp || !this.socket) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  // A move over the open socket: the server's move_result or error for it, or null when there
  // is no socket or no answer in time (the caller then posts it over HTTP with the same
  // client_move_id, which the server applies at most once). The new state comes as an event.
  move(body) {
    if (!this.socketUp || !this.socket) return Promise.resolve(null);
    return this.request({ type: "move", ...body }, body.client_move_id);
  }

  // A deal-end action (next_deal, resign, rematch_*) over the open socket: undefined when there
  // is no socket (the caller posts it over HTTP), the server's action_result or error, or null
  // when no answer came in time (not sent again: the caller fetches the table as it is).
  action(body) {
    if (!this.socketUp || !this.socket) return Promise.resolve(undefined);
    return this.request({ type: "action", ...body }, body.request_id);
  }

  // Send a message and wait for the answer carrying its id (null after MOVE_ANSWER_MS).
  request(message, id) {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle(id, null), MOVE_ANSWER_MS);
      this.moves.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      this.send(message);
    });
  }

  settle(id, answer) {
    const resolve = this.moves.get(id);
    if (!resolve) return;
    this.moves.delete(id);
    resolve(answer);
  }

  receive(message) {
    const id = message.client_move_id ?? message.request_id;
    if (["move_result", "action_result", "error"].includes(message.type) && this.moves.has(id)) {
      this.settle(id, message);
    } else if (message.type === "snapshot" || message.type === "event") this.offer(message.state);
    else if (message.type === "chat") this.offerChat([message.message]);
    else if (message.type === "presence") this.handlers.onPresence(message.seats, message.spectators ?? 0);
  }

  // Accept a state unless it is older than the one shown (socket and HTTP answers may cross).
  offer(state) {
    if (!state || state.version < this.version) return;
    this.version = state.version;
    this.handlers.onState(state);
    const ready = this.waiters.filter(([version]) => version <= this.version);
    this.waiters = this.waiters.filter(([version]) => version > this.version);
    for (const [, resolve] of ready) resolve();
  }

  // Resolves once the page shows the state of `version`: a socket answer comes before the event
  // that carries its state. Without that event in MOVE_ANSWER_MS, the table is fetched.
  caughtUp(version) {
    if (this.version >= version) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.refresh().then(resolve), MOVE_ANSWER_MS);
      this.waiters.push([version, () => {
        clearTimeout(timer);
        resolve();
      }]);
    });
  }

  offerChat(messages) {
    const fresh = messages.filter((message) => message.id > this.lastChatId);
    for (const message of fresh) this.lastChatId = Math.max(this.lastChatId, message.id);
    if (fresh.length) this.handlers.onChat(fresh);
  }

  async refresh() {
    const answer = await api.get(`/tables/${this.token}`);
    if (answer.ok) this.offer(answer.data);
    const chat = await api.get(`/tables/${this.token}/chat?after=${this.lastChatId}`);
    if (chat.ok) this.offerChat(chat.data.messages);
  }

  schedulePoll() {
    const delay = document.visibilityState === "visible" ? POLL_VISIBLE_MS : POLL_HIDDEN_MS;
    this.pollTimer = setTimeout(async () => {
      if (!this.socketUp && navigator.onLine) await this.refresh();
      this.schedulePoll();
    }, delay);
  }
}
