// Refuses a WebSocket upgrade with a plain HTTP answer (the connection never becomes a WebSocket).
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';

export function refuseUpgrade(
  socket: Duplex,
  status: number,
  detail: string,
  headers: Record<string, string> = {},
): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ detail });
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Connection: close',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

/** Username and password of a Basic Authorization header, or undefined. */
export function basicCredentials(
  header: string | undefined,
): { username: string; password: string } | undefined {
  const match = header && /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
