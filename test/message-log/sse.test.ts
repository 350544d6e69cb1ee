// The one Server-Sent Events helper (api/http/sse.ts) on a real Koa server: event framing, the
// heartbeat while idle, the end when the client goes away, and the end of a client that does not
// read (instead of buffering without bound).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { openSse, type SseStream } from '../../api/http/sse.ts';

let server: Server;
let url: string;
/** The streams the server opened, in order. */
const opened: SseStream[] = [];
const closedStreams: SseStream[] = [];
let onOpen: (sse: SseStream) => void = () => undefined;

before(async () => {
  const app = new Koa();
  app.silent = true; // as api/app.ts: a client going away mid-stream is not an error to print
  app.use(async (ctx) => {
    const sse = openSse(ctx, {
      heartbeatMs: Number(ctx.query.heartbeat ?? 15_000),
      maxBufferedBytes: 64 * 1024,
    });
    opened.push(sse);
    sse.onClose(() => closedStreams.push(sse));
    onOpen(sse);
  });
  server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Reads the response body until `done(text)` holds. */
async function readUntil(res: Response, done: (text: string) => boolean): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!done(text)) {
    const { value, done: end } = await reader.read();
    if (end) break;
    text += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return text;
}

const waitFor = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
};

test('events are framed as text/event-stream, a data line per line of data', async () => {
  onOpen = (sse) => {
    sse.send('frame', '{"a":1}', '7');
    sse.send('frame', '[1,\n2]');
    sse.close();
  };
  const res = await fetch(url);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /^text\/event-stream/);
  assert.equal(res.headers.get('cache-control'), 'no-cache, no-transform');
  const text = await res.text();
  assert.equal(
    text,
    ': stream open\n\nevent: frame\nid: 7\ndata: {"a":1}\n\nevent: frame\ndata: [1,\ndata: 2]\n\n',
  );
});

test('an idle stream gets heartbeat comments', async () => {
  onOpen = () => undefined;
  const controller = new AbortController();
  const res = await fetch(`${url}/?heartbeat=20`, { signal: controller.signal });
  const text = await readUntil(res, (t) => t.includes(': heartbeat'));
  assert.match(text, /^: stream open\n\n(: heartbeat\n\n)+$/);
  controller.abort();
});

test('the stream ends, and tells so, when the client goes away', async () => {
  onOpen = () => undefined;
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  await readUntil(res, (t) => t.includes('stream open'));
  const sse = opened[opened.length - 1];
  assert.equal(sse.closed, false);
  controller.abort();
  await waitFor(() => closedStreams.includes(sse));
  assert.equal(sse.closed, true);
});

test('a client that does not read is ended once more than maxBufferedBytes wait for it', async () => {
  let sse: SseStream | undefined;
  onOpen = (s) => (sse = s);
  // A raw socket that sends the request and then never reads.
  const port = (server.address() as AddressInfo).port;
  const socket = connect(port, '127.0.0.1');
  socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  socket.pause();
  await waitFor(() => sse !== undefined);
  const chunk = 'x'.repeat(8 * 1024);
  let sent = 0;
  while (!sse!.closed && sent < 10_000) {
    sse!.send('frame', chunk);
    sent++;
    if (sent % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  assert.equal(sse!.closed, true, 'ended');
  assert.ok(sent < 10_000, `ended after ${sent} events of 8 KB`);
  socket.destroy();
});
