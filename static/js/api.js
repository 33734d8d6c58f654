// JSON calls to /api/ with the browser's session and CSRF token. Never throws on an HTTP status:
// callers get {ok, status, data} and decide what to show.
function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.content : "";
}

async function call(method, path, body) {
  const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
    options.headers["X-CSRFToken"] = csrfToken();
    options.body = JSON.stringify(body || {});
  }
  try {
    const response = await fetch(`/api${path}`, options);
    const data = await response.json().catch(() => ({}));
    return { ok: response.ok, status: response.status, data };
  } catch (error) {
    return { ok: false, status: 0, data: { detail: String(error) } };
  }
}

export const api = {
  get: (path) => call("GET", path),
  post: (path, body) => call("POST", path, body),
  patch: (path, body) => call("PATCH", path, body),
  put: (path, body) => call("PUT", path, body),
};

export function newMoveId() {
  return crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

// The socket URL for a path such as "/ws/tables/abc/", on this page's host and scheme.
export function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}${path}`;
}

export function socketsOffered(name) {
  return (document.body.dataset.sockets || "").split(" ").includes(name);
}
