// A minimal receiver for INSPECT_URL: a WebSocket server that prints one line per inspection
// event of the watched chargers: the OCPP calls a charger makes and their answers (action, message
// id and a payload summary), the central system's calls, the link's state, the events sent to the
// charger, and its stage and state when they change. The hosted Stately inspector needs a browser
// page; this needs nothing but a terminal.
//
//   npx tsx engine/charger/inspect-receiver.ts            # listens on ws://127.0.0.1:8090
//   INSPECT=CP-1 npm start                                 # in another terminal
//
//   2025-01-01T10:00:00.000Z CP-1 -> BootNotification #1 {"reason":"PowerUp","chargingStation":{...}}
//   2025-01-01T10:00:00.010Z CP-1 <- BootNotification #1 {"status":"Accepted","interval":300,...}
//   2025-01-01T10:00:00.011Z CP-1 #1 online deployed.session.online
import { pathToFileURL } from 'node:url';
import { WebSocketServer } from 'ws';
import { maskSecretValues } from '../../protocols/ocpp/secret-values.ts';

export interface InspectionMessage {
  type: string;
  createdAt?: string;
  sessionId?: string;
  rootId?: string;
  name?: string;
  event?: { type?: string; [key: string]: unknown };
  snapshot?: {
    value?: unknown;
    input?: { identity?: string };
    context?: { identity?: string; stage?: string; attempt?: number };
  };
}

/** Payload summaries stop here. */
const SUMMARY_MAX = 160;
/** One line of a payload, its secrets masked (an older sender may not have masked them). */
export function summarize(value: unknown, max = SUMMARY_MAX): string {
  const text = JSON.stringify(maskSecretValues(value).value) ?? '';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A state value as one short line: `a.b.{c.d e.f}` for parallel regions. */
export function stateText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return String(value);
  const parts = Object.entries(value).map(([k, v]) => {
    const inner = stateText(v);
    return inner === '' ? k : `${k}.${inner}`;
  });
  return parts.length === 1 ? parts[0] : `{${parts.join(' ')}}`;
}

/**
 * Turns the inspection events of any number of chargers into lines. Stateful: it learns each
 * actor's charger (the link child has no context of its own) and the action of each call id, so
 * an answer can name the call it answers; an unchanged snapshot prints nothing.
 */
export class InspectionFormatter {
  /** sessionId -> charger identity. */
  readonly #identity = new Map<string, string>();
  /** rootId -> call id -> action. */
  readonly #calls = new Map<string, Map<string, string>>();
  /** sessionId -> last printed stage line. */
  readonly #printed = new Map<string, string>();

  line(m: InspectionMessage): string | undefined {
    const at = m.createdAt ? new Date(Number(m.createdAt) || m.createdAt).toISOString() : '';
    const session = m.sessionId ?? '';
    const root = m.rootId ?? session;
    const learned = m.snapshot?.context?.identity ?? m.snapshot?.input?.identity;
    if (learned) this.#identity.set(session, learned);
    const who = this.#identity.get(session) ?? this.#identity.get(root) ?? '?';
    switch (m.type) {
      case '@xstate.actor':
        return `${at} ${who} ${m.name ? `${m.name} ` : ''}actor started`;
      case '@xstate.event': {
        const text = this.#event(root, m.event ?? {});
        return text === undefined ? undefined : `${at} ${who} ${text}`;
      }
      case '@xstate.snapshot': {
        const ctx = m.snapshot?.context;
        if (!ctx) return undefined; // the link: its events say what it does
        const text = `#${ctx.attempt ?? '?'} ${ctx.stage ?? ''} ${stateText(m.snapshot?.value)}`;
        if (this.#printed.get(session) === text) return undefined;
        this.#printed.set(session, text);
        return `${at} ${who} ${text}`;
      }
      default:
        return undefined;
    }
  }

  #event(root: string, e: { type?: string; [key: string]: unknown }): string | undefined {
    const calls = this.#calls.get(root) ?? new Map<string, string>();
    this.#calls.set(root, calls);
    const id = typeof e.id === 'string' ? e.id : '?';
    switch (e.type) {
      case 'xstate.init':
        return undefined;
      case 'ocpp.call':
        // A quiet CALL's answer never comes back to the machine: nothing to pair it with.
        if (!e.quiet) calls.set(id, String(e.action));
        return `-> ${String(e.action)} #${id}${e.raw ? ' (raw)' : ''}${e.quiet ? ' (quiet)' : ''} ${summarize(e.payload)}`;
      case 'ocpp.result': {
        const action = calls.get(id) ?? '?';
        calls.delete(id);
        return `<- ${action} #${id} ${summarize(e.payload)}`;
      }
      case 'ocpp.error': {
        const action = calls.get(id) ?? '?';
        calls.delete(id);
        return `<- ${action} #${id} error ${String(e.code)}${e.description ? `: ${String(e.description)}` : ''}`;
      }
      case 'csms.call':
        return `<= central system calls ${String(e.action)} ${summarize(e.payload)}`;
      case 'link.security': {
        // The security block's request to the engine: its kind only (it may carry a password).
        const request = e.request as { op?: string } | undefined;
        return `security ${String(request?.op)}`;
      }
      case 'link.open':
        return 'link open';
      case 'link.closed':
        return `link closed ${e.code ?? ''} ${e.reason ?? ''}`.trimEnd();
      case 'link.failed':
        return `link failed ${String(e.code)}: ${String(e.hint)}`;
      default: {
        const { type, ...rest } = e;
        return `event ${type ?? '?'}${Object.keys(rest).length > 0 ? ` ${summarize(rest)}` : ''}`;
      }
    }
  }
}

export function startInspectReceiver(port: number, print: (line: string) => void): WebSocketServer {
  const server = new WebSocketServer({ port, host: '127.0.0.1' });
  server.on('connection', (ws) => {
    const formatter = new InspectionFormatter();
    ws.on('message', (data) => {
      try {
        const line = formatter.line(JSON.parse(data.toString()) as InspectionMessage);
        if (line) print(line);
      } catch {
        // not an inspection event: ignore
      }
    });
  });
  return server;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.argv[2] ?? 8090);
  startInspectReceiver(port, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(
    `inspection receiver on ws://127.0.0.1:${port}: start the service with INSPECT=<identity>\n`,
  );
}
