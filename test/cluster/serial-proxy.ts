// In front of the embedded PGlite socket, for several processes at once: PGlite is one backend
// session, and its socket server interleaves the protocol messages of concurrent connections
// (electric-sql/pglite#1046; each service gates only its own pool). This proxy lets one client
// connection talk at a time: a connection that sends takes the turn and keeps it until the server
// says ReadyForQuery with no transaction open ('Z' status 'I'), so queries and transactions of
// different processes never interleave. Embedded test runs only; real PostgreSQL needs none.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

interface Conn {
  client: Socket;
  up: Socket;
  pending: Buffer[];
  fromServer: Buffer;
  closed: boolean;
}

export async function startSerialProxy(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(upstream);
  let turn: Conn | undefined;
  const waiting: Conn[] = [];
  const conns = new Set<Conn>();

  const give = () => {
    while (!turn && waiting.length > 0) {
      const next = waiting.shift()!;
      if (next.closed || next.pending.length === 0) continue;
      turn = next;
      flush(next);
    }
  };
  const flush = (c: Conn) => {
    for (const chunk of c.pending) c.up.write(chunk);
    c.pending = [];
  };
  const release = (c: Conn) => {
    if (turn !== c) return;
    turn = undefined;
    if (c.pending.length > 0) waiting.push(c);
    give();
  };
  /** Server messages: type (1 byte), length (4, itself included), body. */
  const scan = (c: Conn, data: Buffer) => {
    c.fromServer = c.fromServer.length ? Buffer.concat([c.fromServer, data]) : data;
    while (c.fromServer.length >= 5) {
      const len = c.fromServer.readInt32BE(1);
      if (c.fromServer.length < 1 + len) break;
      const type = String.fromCharCode(c.fromServer[0]);
      const status = type === 'Z' ? String.fromCharCode(c.fromServer[5]) : '';
      c.fromServer = c.fromServer.subarray(1 + len);
      if (type === 'Z' && status === 'I') release(c);
    }
  };

  const server: Server = createServer((client) => {
    const up = connect(Number(target.port), target.hostname);
    const c: Conn = { client, up, pending: [], fromServer: Buffer.alloc(0), closed: false };
    conns.add(c);
    client.on('data', (d: Buffer) => {
      if (turn === c) return void up.write(d);
      c.pending.push(d);
      if (!waiting.includes(c)) waiting.push(c);
      give();
    });
    up.on('data', (d: Buffer) => {
      client.write(d);
      scan(c, d);
    });
    const end = () => {
      if (c.closed) return;
      c.closed = true;
      conns.delete(c);
      client.destroy();
      up.destroy();
      release(c);
    };
    client.on('close', end);
    client.on('error', end);
    up.on('close', end);
    up.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = new URL(upstream);
  url.port = String(port);
  return {
    url: url.toString(),
    async close() {
      for (const c of conns) {
        c.client.destroy();
        c.up.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
