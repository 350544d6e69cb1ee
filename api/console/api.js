// The console's one way to call the service: the bearer token kept in this browser tab, JSON in
// and out, Server-Sent Events read through fetch (EventSource cannot send an Authorization header).
const KEY = 'evsim.token';

export const token = {
  get: () => sessionStorage.getItem(KEY) || localStorage.getItem(KEY) || '',
  set(value) {
    sessionStorage.setItem(KEY, value);
    localStorage.setItem(KEY, value);
  },
  clear() {
    sessionStorage.removeItem(KEY);
    localStorage.removeItem(KEY);
  },
};

export class ApiError extends Error {
  constructor(status, body) {
    const detail = body && body.detail;
    super(
      Array.isArray(detail)
        ? detail.map((d) => `${(d.loc || []).join('.')}: ${d.msg}`).join('; ')
        : detail || `HTTP ${status}`,
    );
    this.status = status;
    this.body = body;
  }
}

/** Listeners told when the token is refused (the app shows the sign-in again). */
export const unauthorized = new Set();

export async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: {
      Authorization: `Bearer ${token.get()}`,
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = { detail: text };
  }
  if (res.status === 401) for (const fn of unauthorized) fn();
  if (!res.ok) throw new ApiError(res.status, json);
  return json;
}

/**
 * Reads a text/event-stream and calls onEvent(event, data) for each event; reconnects after a
 * pause when the stream ends, until stop() is called. onOpen runs on each (re)connection.
 */
export function stream(path, onEvent, onOpen) {
  const abort = new AbortController();
  let stopped = false;
  const run = async () => {
    while (!stopped) {
      try {
        const res = await fetch(path, {
          headers: { Authorization: `Bearer ${token.get()}`, Accept: 'text/event-stream' },
          signal: abort.signal,
        });
        if (res.status === 401) for (const fn of unauthorized) fn();
        if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
        if (onOpen) onOpen();
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = 'message';
            const data = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
            }
            if (data.length > 0) onEvent(event, data.join('\n'));
          }
        }
      } catch {
        // Gone away or refused: try again below.
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  };
  run();
  return () => {
    stopped = true;
    abort.abort();
  };
}

const FINAL = ['completed', 'rejected', 'failed', 'timed_out', 'interrupted'];

/** Sends a command (operator and EV commands) and resolves with its final record (GET /evcharger/commands/{id}). */
export async function command(path, deploymentId, payload, onStatus) {
  const queued = await api('POST', `/evcharger/commands/${path}`, {
    target: { deployment_id: deploymentId },
    payload,
  });
  const id = queued.results[0]?.command.id;
  if (!id) throw new Error(queued.failed?.[0]?.reason || queued.failed?.[0]?.detail || 'not queued');
  onStatus('queued');
  for (let i = 0; i < 240; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const record = await api('GET', `/evcharger/commands/${id}`);
    onStatus(record.status, record);
    if (FINAL.includes(record.status)) return record;
  }
  return null;
}
