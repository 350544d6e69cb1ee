// One live view of a charger's message log, for any node: frames captured here (the message log's
// listeners) and frames relayed from the node holding the charger (the broker), merged in id order
// without duplicates; first, on request, the newest `replay` items (PostgreSQL plus the frames not
// written yet, which only the holder's memory has).
import type { LogItemFields } from './log-item.ts';
import { itemJson } from './log-item.ts';
import type { LogRelay } from './log-relay.ts';
import type { MessageLog } from './message-log.ts';
import type { LogOwner } from './ocpp-log-store.ts';

export interface LogStreamDeps {
  messageLog: MessageLog;
  relay?: LogRelay;
  /** How long to wait for the holding node's newest frames before replaying (default 1000 ms). */
  newestWaitMs?: number;
}

export interface LogStreamHandlers {
  /** One item's JSON, in id order. */
  send(id: number, json: string): void;
  /** The log closed (the service stops): the stream is over. */
  end(): void;
}

export interface LogStream {
  close(): void;
}

export async function openLogStream(
  deps: LogStreamDeps,
  owner: LogOwner,
  replay: number,
  handlers: LogStreamHandlers,
): Promise<LogStream> {
  const { messageLog, relay } = deps;
  // Without replay the stream starts now: ids are capture times in microseconds.
  let last = replay > 0 ? 0 : Date.now() * 1000;
  let held: Array<[number, string]> | null = [];
  let closed = false;
  const deliver = (id: number, json: string): void => {
    if (closed) return;
    if (held) held.push([id, json]);
    else if (id > last) {
      last = id;
      handlers.send(id, json);
    }
  };

  let waitingNewest = replay > 0;
  const newest: Array<[number, string]> = [];
  let newestSent: () => void = () => undefined;
  const newestArrived = new Promise<void>((resolve) => (newestSent = resolve));

  const local = messageLog.subscribe(owner.key, (entry, json) => deliver(entry.id, json));
  const unwatch = relay?.watch(owner.key, {
    item(id, json, isNewest) {
      if (isNewest && waitingNewest) newest.push([id, json]);
      else deliver(id, json);
    },
    newestSent: () => newestSent(),
  });
  const stream: LogStream = {
    close() {
      if (closed) return;
      closed = true;
      local.close();
      unwatch?.();
      offClose();
    },
  };
  const offClose = messageLog.onClose(() => {
    stream.close();
    handlers.end();
  });

  try {
    if (replay > 0) {
      // Another node may hold frames not written yet: give it a moment to send them.
      if (relay && owner.live && !messageLog.holds(owner.key))
        await within(newestArrived, deps.newestWaitMs ?? 1000);
      waitingNewest = false;
      const items = new Map<number, string>();
      const add = (e: LogItemFields) => items.set(e.id, itemJson(e));
      for (const row of await messageLog.store.latest(owner.key, replay)) add(row);
      for (const entry of local.recent) add(entry);
      for (const [id, json] of newest) items.set(id, json);
      for (const id of [...items.keys()].sort((a, b) => a - b).slice(-replay)) {
        if (closed) break;
        last = id;
        handlers.send(id, items.get(id)!);
      }
    }
  } catch (err) {
    stream.close();
    throw err;
  }
  const waiting = held;
  held = null;
  waiting.sort((a, b) => a[0] - b[0]);
  for (const [id, json] of waiting) deliver(id, json);
  return stream;
}

function within(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    void promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
