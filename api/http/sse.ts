// The one Server-Sent Events helper: turns a Koa request into a text/event-stream answer. It writes
// a comment at once (clients see the headers without waiting for a first event), a heartbeat
// comment while idle (proxies keep the connection), ends when the client goes away, and ends a
// client that reads slower than events come (more than `maxBufferedBytes` waiting) instead of
// buffering without bound: it reconnects and asks for a replay.
//
//   const sse = openSse(ctx);
//   const off = source.on((item) => sse.send('frame', JSON.stringify(item), item.id));
//   sse.onClose(off);
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';

export interface SseOptions {
  /** A comment line this often while no event is sent (default 15 s). */
  heartbeatMs?: number;
  /** Bytes a client may leave unread before the stream is ended (default 1 MiB). */
  maxBufferedBytes?: number;
}

export interface SseStream {
  readonly closed: boolean;
  /** One event; `data` may span lines (each becomes a `data:` line). */
  send(event: string, data: string, id?: string): void;
  /** Called once when the stream ends, whoever ended it. */
  onClose(fn: () => void): void;
  close(): void;
}

const LINE_BREAK = /\r\n|\r|\n/;

export function openSse(ctx: Context, opts: SseOptions = {}): SseStream {
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const maxBuffered = opts.maxBufferedBytes ?? 1024 * 1024;
  const body = new PassThrough();
  const socket = ctx.req.socket;
  socket.setTimeout(0);
  socket.setNoDelay(true);
  socket.setKeepAlive(true);
  ctx.status = 200;
  ctx.set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    // nginx would otherwise buffer the stream.
    'X-Accel-Buffering': 'no',
  });
  ctx.body = body;

  const closers: Array<() => void> = [];
  let closed = false;
  let idle = true;
  const timer = setInterval(() => {
    if (idle) write(': heartbeat\n\n');
    idle = true;
  }, heartbeatMs);
  timer.unref();

  function close(): void {
    if (closed) return;
    closed = true;
    clearInterval(timer);
    ctx.res.off('close', close);
    body.end();
    for (const fn of closers.splice(0)) fn();
  }

  function write(text: string): void {
    if (closed) return;
    if (body.writableLength + ctx.res.writableLength > maxBuffered) {
      close();
      return;
    }
    body.write(text);
  }

  // The response closes when the client goes away (the request's own 'close' fires once it is read).
  ctx.res.on('close', close);
  write(': stream open\n\n');

  return {
    get closed() {
      return closed;
    },
    send(event, data, id) {
      idle = false;
      let text = `event: ${event}\n`;
      if (id !== undefined) text += `id: ${id}\n`;
      for (const line of data.split(LINE_BREAK)) text += `data: ${line}\n`;
      write(`${text}\n`);
    },
    onClose(fn) {
      if (closed) fn();
      else closers.push(fn);
    },
    close,
  };
}
