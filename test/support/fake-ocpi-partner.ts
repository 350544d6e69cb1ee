// A roaming partner for tests: a real node:http server on port 0 that records every request
// (method, path, query, headers, body) and answers as told: accept (OCPI 1000), HTTP 500,
// OCPI status 2001, hang (never answer), or be closed (connection refused).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type PartnerMode = 'accept' | 'http500' | 'ocpi2001' | 'hang';

export interface ReceivedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

export interface FakeOcpiPartner {
  /** Base URL; module endpoints are `${url}/ocpi/...`. */
  url: string;
  received: ReceivedRequest[];
  mode: PartnerMode;
  /** Data returned in the envelope when accepting. */
  acceptData: unknown;
  /** Answer this many ms late (overlapping requests in concurrency tests). */
  delayMs: number;
  /** Resolves when `count` requests have arrived (for requests that hang). */
  waitForRequests(count: number): Promise<void>;
  /** Stops listening: later calls are refused. Hanging requests are cut. */
  close(): Promise<void>;
}

export async function startFakeOcpiPartner(mode: PartnerMode = 'accept'): Promise<FakeOcpiPartner> {
  const received: ReceivedRequest[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let closed: Promise<void> | undefined;

  const partner: FakeOcpiPartner = {
    url: '',
    received,
    mode,
    acceptData: null,
    delayMs: 0,
    waitForRequests(count) {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };

  const server: Server = createServer((req, res) => void handle(req, res));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://partner');
    received.push({
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: text ? JSON.parse(text) : undefined,
    });
    for (const w of waiters.filter((w) => received.length >= w.count)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
    if (partner.delayMs > 0) await new Promise((r) => setTimeout(r, partner.delayMs));
    const timestamp = new Date().toISOString();
    switch (partner.mode) {
      case 'hang':
        return; // the client's timeout has to end this one
      case 'http500':
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status_code: 3000, status_message: 'Generic server error', timestamp }));
        return;
      case 'ocpi2001':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ status_code: 2001, status_message: 'Invalid or missing parameters', timestamp }),
        );
        return;
      case 'accept':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            data: partner.acceptData,
            status_code: 1000,
            status_message: 'Success',
            timestamp,
          }),
        );
        return;
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  partner.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return partner;
}
