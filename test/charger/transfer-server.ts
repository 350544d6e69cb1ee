// A real HTTP server for the firmware and diagnostics tests: it serves firmware images and takes
// log uploads, and records every request it got. Routes are set per test:
//   server.file('/fw/evsim-2.4.1.bin', bytes)       GET answers 200 with the bytes
//   server.status('/fw/missing.bin', 404)           any method answers this status
//   uploads to any path not set: POST multipart/form-data and PUT are kept in `uploads`
//   server.status('/put-only/', 405, 'POST')        only that method is refused
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upload {
  method: string;
  path: string;
  fileName?: string;
  text: string;
}

export interface TransferServer {
  url: string;
  requests: { method: string; path: string }[];
  uploads: Upload[];
  /** delayMs: the answer waits this long (a slow download). */
  file(path: string, bytes: Buffer | string, headers?: Record<string, string>, delayMs?: number): void;
  status(path: string, status: number, method?: string): void;
  hits(path: string): number;
  close(): Promise<void>;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startTransferServer(): Promise<TransferServer> {
  const files = new Map<string, { bytes: Buffer; headers: Record<string, string>; delayMs: number }>();
  const statuses = new Map<string, { status: number; method?: string }>();
  const requests: TransferServer['requests'] = [];
  const uploads: Upload[] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      requests.push({ method: req.method ?? '', path });
      const bytes = await body(req);
      const forced = statuses.get(path);
      if (forced && (!forced.method || forced.method === req.method)) {
        res.writeHead(forced.status).end();
        return;
      }
      const file = files.get(path);
      if (req.method === 'GET' && file) {
        if (file.delayMs > 0) await new Promise((r) => setTimeout(r, file.delayMs));
        res.writeHead(200, { 'content-type': 'application/octet-stream', ...file.headers }).end(file.bytes);
        return;
      }
      if (req.method === 'POST') {
        const form = await new Response(bytes, {
          headers: { 'content-type': req.headers['content-type'] ?? '' },
        }).formData();
        const f = form.get('file') as File | null;
        uploads.push({ method: 'POST', path, fileName: f?.name, text: f ? await f.text() : '' });
        res.writeHead(201).end();
        return;
      }
      if (req.method === 'PUT') {
        uploads.push({ method: 'PUT', path, text: bytes.toString('utf8') });
        res.writeHead(201).end();
        return;
      }
      res.writeHead(404).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    uploads,
    file: (path, bytes, headers = {}, delayMs = 0) =>
      files.set(path, { bytes: Buffer.from(bytes), headers, delayMs }),
    status: (path, status, method) => statuses.set(path, { status, method }),
    hits: (path) => requests.filter((r) => r.path === path).length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
