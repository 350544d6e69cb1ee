// A minimal receiver for INSPECT_URL: a WebSocket server that prints one line per inspection
// event of the watched chargers (state changes and the events that caused them). The hosted Stately
// inspector needs a browser page; this needs nothing but a terminal.
//
//   npx tsx engine/inspect/inspect-receiver.ts            # listens on ws://127.0.0.1:8090
//   INSPECT=CP-1 npm start                                 # in another terminal
import { pathToFileURL } from 'node:url';
import { WebSocketServer } from 'ws';

interface InspectionMessage {
  type: string;
  createdAt?: string;
  event?: { type?: string };
  snapshot?: { value?: unknown; context?: { identity?: string; stage?: string; attempt?: number } };
}

/** One readable line per inspection event; undefined for the ones not worth a line. */
export function describeInspection(m: InspectionMessage): string | undefined {
  const at = m.createdAt ? new Date(Number(m.createdAt) || m.createdAt).toISOString() : '';
  const ctx = m.snapshot?.context;
  if (m.type === '@xstate.actor') return `${at} ${ctx?.identity ?? '?'} actor started`;
  if (m.type === '@xstate.event') return `${at} event ${m.event?.type ?? '?'}`;
  if (m.type === '@xstate.snapshot')
    return `${at} ${ctx?.identity ?? '?'} #${ctx?.attempt ?? '?'} ${ctx?.stage ?? ''} ${JSON.stringify(m.snapshot?.value)}`;
  return undefined;
}

export function startInspectReceiver(port: number, print: (line: string) => void): WebSocketServer {
  const server = new WebSocketServer({ port, host: '127.0.0.1' });
  server.on('connection', (ws) =>
    ws.on('message', (data) => {
      try {
        const line = describeInspection(JSON.parse(data.toString()) as InspectionMessage);
        if (line) print(line);
      } catch {
        // not an inspection event: ignore
      }
    }),
  );
  return server;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.argv[2] ?? 8090);
  startInspectReceiver(port, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(
    `inspection receiver on ws://127.0.0.1:${port}: start the service with INSPECT=<identity>\n`,
  );
}
