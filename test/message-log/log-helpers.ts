// Shared by the message-log tests: reading a charger's log through the API (all pages), waiting
// for frames to show up, and a Server-Sent Events client that parses the stream as a browser's
// EventSource would and lets a test wait on the events it received.
import assert from 'node:assert/strict';
import type { As } from '../deployments/deployment-helpers.ts';
import { eventually } from '../deployments/deployment-helpers.ts';

export interface LogItem {
  id: string;
  at: string;
  direction: 'in' | 'out';
  type: 'CALL' | 'CALLRESULT' | 'CALLERROR' | null;
  message_id: string | null;
  action: string | null;
  frame: unknown;
  error: string | null;
}

export interface LogPage {
  items: LogItem[];
  next_before: string | null;
}

/** Every item of a log, oldest first, read through the API page by page (limit 500). */
export async function wholeLog(as: As, path: string, query = ''): Promise<LogItem[]> {
  const items: LogItem[] = [];
  let before: string | null = null;
  do {
    const res: { status: number; body: LogPage; text: string } = await as<LogPage>(
      'GET',
      `${path}?limit=500${before ? `&before=${before}` : ''}${query}`,
    );
    assert.equal(res.status, 200, res.text);
    items.push(...res.body.items);
    before = res.body.next_before;
  } while (before !== null);
  return items.reverse();
}

/** Re-reads the log (written behind, so there is nothing to wait on) until `check` holds. */
export function logUntil(
  as: As,
  path: string,
  check: (items: LogItem[]) => boolean,
  timeoutMs = 20_000,
): Promise<LogItem[]> {
  return eventually(() => wholeLog(as, path), check, timeoutMs);
}

/** The actions of the CALLs in a log, in order, with their direction: `out:BootNotification`. */
export const calls = (items: LogItem[]) =>
  items.filter((i) => i.type === 'CALL').map((i) => `${i.direction}:${i.action}`);

/** Index of the first item matching, after `from`; -1 when none. */
export function indexAfter(items: LogItem[], from: number, match: (i: LogItem) => boolean): number {
  for (let k = from + 1; k < items.length; k++) if (match(items[k])) return k;
  return -1;
}

export interface SseEvent {
  event: string;
  id?: string;
  data: string;
}

export interface SseClient {
  status: number;
  headers: Headers;
  events: SseEvent[];
  comments: string[];
  /** Resolves when the events received so far satisfy `check`; rejects after timeoutMs. */
  waitFor<T>(check: (events: SseEvent[]) => T | undefined | false, timeoutMs?: number): Promise<T>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens `url` as an event stream; for a non-200 answer the body is in `text`. */
export async function openEventStream(
  url: string,
  token: string,
): Promise<SseClient & { text?: string; items(): LogItem[] }> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const w of [...waiters]) w();
  };
  let text: string | undefined;
  let ended: Promise<void> = Promise.resolve();
  if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
    text = await res.text();
  } else {
    ended = (async () => {
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      let current: Partial<SseEvent> & { data?: string } = {};
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let nl: number;
          while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
            if (line === '') {
              if (current.data !== undefined)
                events.push({ event: current.event ?? 'message', id: current.id, data: current.data });
              current = {};
              changed();
            } else if (line.startsWith(':')) {
              comments.push(line.slice(1).trim());
              changed();
            } else {
              const colon = line.indexOf(':');
              const field = colon < 0 ? line : line.slice(0, colon);
              const val = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
              if (field === 'data')
                current.data = current.data === undefined ? val : `${current.data}\n${val}`;
              else if (field === 'event') current.event = val;
              else if (field === 'id') current.id = val;
            }
          }
        }
      } catch {
        // aborted by close()
      } finally {
        changed();
      }
    })();
  }
  return {
    status: res.status,
    headers: res.headers,
    text,
    events,
    comments,
    ended,
    items: () => events.filter((e) => e.event === 'frame').map((e) => JSON.parse(e.data) as LogItem),
    waitFor<T>(check: (events: SseEvent[]) => T | undefined | false, timeoutMs = 20_000): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const attempt = () => {
          const value = check(events);
          if (value === undefined || value === false) return;
          waiters.delete(attempt);
          clearTimeout(timer);
          resolve(value);
        };
        const timer = setTimeout(() => {
          waiters.delete(attempt);
          reject(
            new Error(`event stream: condition not met within ${timeoutMs} ms (${events.length} events)`),
          );
        }, timeoutMs);
        waiters.add(attempt);
        attempt();
      });
    },
    close: () => abort.abort(),
  };
}
