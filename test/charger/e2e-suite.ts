// The charger end to end: chargers made by the engine runtime (real WebSocket, real RPC endpoint)
// against ocpp-rpc's RPCServer in strict mode, an implementation independent of ours that checks
// every message both ways against the official schemas. `e2eSuite(version, title, tests)` starts
// one strict central system and one runtime for a describe block, gives the tests what they need
// to deploy chargers and read what the central system saw, and checks at the end that it saw no
// invalid message.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import {
  createChargerRuntime,
  type ChargerRuntime,
  type ChargerRuntimeOptions,
} from '../../engine/charger/charger-runtime.ts';
import type { ChargerConnectionSettings } from '../../engine/charger/charger-link.ts';
import { callsSent, type ChargerInput, type OcppVersion } from '../../actors/charger/charger-ports.ts';
import { VERSION_PROFILES } from '../../protocols/ocpp/versions.ts';
import { startStrictCsms, type SchemaFailure, type StrictCsms } from '../support/strict-csms.ts';
import { track, type TrackedCharger } from './tracked-charger.ts';

export type Json = any;

export const MODEL = {
  boot_vendor: 'EVSim',
  boot_model: 'AC-22-Twin',
  firmware_version: '1.2.3',
  connector_count: 2,
  max_power_kw: 22,
  current_type: 'AC' as const,
  connector_types: ['Type2', 'Type2'],
};

// Short enough for a fast suite, long enough that nothing races on a loaded machine.
const TIMINGS = { reconnectBaseMs: 100, reconnectMaxMs: 400, bootRetryDefaultSec: 0.2, rebootDelayMs: 50 };

export const ONLINE = [
  'queued:in_progress',
  'scheduling:in_progress',
  'pulling:in_progress',
  'starting:in_progress',
  'connecting:in_progress',
  'registering:in_progress',
  'online:succeeded',
];

/** The RPC error code of an ocpp-rpc rejection. */
export const rpcCode = (e: Json): string => e?.rpcErrorCode ?? String(e);

export interface E2e {
  version: OcppVersion;
  v16: boolean;
  /** Identity prefix of this version's chargers. */
  tag: string;
  csms(): StrictCsms;
  runtime(): ChargerRuntime;
  /** BootNotification answers to give before Accepted, by identity. */
  bootPlan: Map<string, string[]>;
  /** BootNotification interval (= heartbeat) by identity; default 300. */
  intervals: Map<string, number>;
  /** Boots: the interval of a Pending answer by identity (default 0, the charger's default retry). */
  pendingIntervals: Map<string, number>;
  /** Identities refused at the WebSocket upgrade (HTTP 401) for now. */
  blocked: Set<string>;
  passwords: Map<string, string>;
  settings: Map<string, ChargerConnectionSettings>;
  /** Creates, starts and deploys a charger; it is stopped when the suite ends. */
  deploy(identity: string, input?: Partial<ChargerInput>): TrackedCharger;
  /** A charger restored by the runtime from a snapshot, started; stopped when the suite ends. */
  restore(snapshot: unknown): TrackedCharger;
  /** The charger waits for no answer: whatever it sends next was caused by what comes next. */
  quiet(c: TrackedCharger): Promise<unknown>;
  online(c: TrackedCharger): Promise<unknown>;
  call(identity: string, action: string, params: Json): Promise<Json>;
  received(identity: string, action?: string): Json[];
  waitReceived(identity: string, action: string, count?: number, timeoutMs?: number): Promise<Json[]>;
  /** Frames from the charger, parsed, in arrival order. */
  fromCharger(identity: string): Json[];
  /**
   * The charger's frames around its answer to the CSMS's last CALL of `action`: `before` were
   * sent while the CALL waited for its answer, `later` after it (both in arrival order).
   */
  answerAndAfter(identity: string, action: string): { before: Json[]; answer: Json; later: Json[] };
  /** What the CSMS answered to the charger's last CALL of `action`. */
  csmsAnswer(identity: string, action: string): Promise<Json>;
  connectorStatuses(identity: string, connectorId: number): string[];
  /** Stops the central system; reopenCsms() starts a new one on the same port (same handlers). */
  closeCsms(): Promise<void>;
  reopenCsms(): Promise<void>;
}

export const VERSIONS = ['ocpp1.6', 'ocpp2.0.1'] as const satisfies readonly OcppVersion[];

export function e2eSuite(
  version: OcppVersion,
  title: string,
  tests: (e: E2e) => void,
  /** More runtime options for this suite (e.g. the message log a log upload reads). */
  runtimeOptions: Partial<ChargerRuntimeOptions> = {},
): void {
  const v16 = version === 'ocpp1.6';
  // V16, V201, V21
  const tag = `V${VERSION_PROFILES[version].path.slice(1)}`;

  describe(`charger ${version} against a strict central system: ${title}`, () => {
    let csms: StrictCsms;
    let runtime: ChargerRuntime;
    const schemaErrors: SchemaFailure[] = [];
    const chargers: TrackedCharger[] = [];
    const bootPlan = new Map<string, string[]>();
    const intervals = new Map<string, number>();
    const pendingIntervals = new Map<string, number>();
    const blocked = new Set<string>();
    const passwords = new Map<string, string>();
    const settings = new Map<string, ChargerConnectionSettings>();

    const startCsms = (port?: number) =>
      startStrictCsms({
        protocols: [version],
        ...(port ? { port } : {}),
        auth: (identity, password) =>
          !blocked.has(identity) && (!passwords.has(identity) || passwords.get(identity) === password),
        handlers: {
          BootNotification: (_params, client) => {
            const status = bootPlan.get(client.identity ?? '')?.shift() ?? 'Accepted';
            const interval =
              status === 'Accepted'
                ? (intervals.get(client.identity ?? '') ?? 300)
                : status === 'Pending'
                  ? (pendingIntervals.get(client.identity ?? '') ?? 0)
                  : 0;
            return { status, currentTime: new Date().toISOString(), interval };
          },
        },
      });

    before(async () => {
      csms = await startCsms();
      runtime = createChargerRuntime({
        log: pino({ level: 'silent' }),
        defaultCsmsUrl: () => csms.url,
        connectionSettings: (identity) => settings.get(identity),
        callTimeoutMs: 3000,
        timings: TIMINGS,
        ...runtimeOptions,
      });
    });

    after(async () => {
      for (const c of chargers) c.stop();
      await csms.close();
    });

    const received = (identity: string, action?: string) =>
      csms.received.filter((r) => r.identity === identity && (!action || r.action === action));
    const fromCharger = (identity: string): Json[] =>
      csms.frames.filter((f) => f.identity === identity && !f.outbound).map((f) => JSON.parse(f.text));

    const e: E2e = {
      version,
      v16,
      tag,
      csms: () => csms,
      runtime: () => runtime,
      bootPlan,
      intervals,
      pendingIntervals,
      blocked,
      passwords,
      settings,
      deploy(identity, input = {}) {
        const charger = track(
          runtime.create({ identity, version, model: MODEL, serialNumber: `SN-${identity}`, ...input }),
        );
        chargers.push(charger);
        charger.actor.start();
        charger.actor.send({ type: 'DEPLOY' });
        return charger;
      },
      restore(snapshot) {
        const charger = track(runtime.restore(snapshot));
        chargers.push(charger);
        charger.actor.start();
        return charger;
      },
      // Quiet CALLs (StatusNotification, Heartbeat) leave no trace in the machine once sent: count
      // the machine's CALLs against what the central system received and answered.
      quiet: async (c) => {
        await c.until(() => Object.keys(c.ctx().calls).length === 0);
        return csms.waitFor(() => {
          const frames = csms.frames
            .filter((f) => f.identity === c.ctx().identity)
            .map((f) => ({ outbound: f.outbound, frame: JSON.parse(f.text) as Json[] }));
          const calls = frames.filter((f) => !f.outbound && f.frame[0] === 2);
          const answered = new Set(
            frames.filter((f) => f.outbound && f.frame[0] !== 2).map((f) => f.frame[1]),
          );
          const done = calls.length >= callsSent(c.ctx()) && calls.every((f) => answered.has(f.frame[1]));
          return done || undefined;
        });
      },
      online: (c) => c.until(() => c.ctx().stage === 'online', 8000),
      call: (identity, action, params) => csms.call(identity, action, params),
      received,
      waitReceived: (identity, action, count = 1, timeoutMs = 5000) =>
        csms.waitFor(() => {
          const calls = received(identity, action);
          return calls.length >= count ? calls : undefined;
        }, timeoutMs),
      fromCharger,
      answerAndAfter(identity, action) {
        const frames = csms.frames
          .filter((f) => f.identity === identity)
          .map((f) => ({ outbound: f.outbound, frame: JSON.parse(f.text) }));
        const c = frames.findLastIndex((f) => f.outbound && f.frame[0] === 2 && f.frame[2] === action);
        const a = frames.findIndex(
          (f, i) => i > c && !f.outbound && f.frame[0] !== 2 && f.frame[1] === frames[c].frame[1],
        );
        const ofCharger = (list: typeof frames) => list.filter((f) => !f.outbound).map((f) => f.frame);
        return {
          before: ofCharger(frames.slice(c + 1, a)),
          answer: frames[a]?.frame,
          later: a < 0 ? [] : ofCharger(frames.slice(a + 1)),
        };
      },
      csmsAnswer: (identity, action) =>
        csms.waitFor(() => {
          const call = fromCharger(identity)
            .filter((f) => f[0] === 2 && f[2] === action)
            .at(-1);
          if (!call) return undefined;
          return csms.frames
            .filter((f) => f.identity === identity && f.outbound)
            .map((f) => JSON.parse(f.text))
            .find((f) => f[0] === 3 && f[1] === call[1])?.[2];
        }),
      connectorStatuses: (identity, connectorId) =>
        received(identity, 'StatusNotification')
          .filter((r) => (v16 ? r.params.connectorId : r.params.evseId) === connectorId)
          .map((r) => (v16 ? r.params.status : r.params.connectorStatus)),
      async closeCsms() {
        schemaErrors.push(...csms.schemaErrors);
        await csms.close();
      },
      async reopenCsms() {
        csms = await startCsms(Number(new URL(csms.url).port));
      },
    };

    tests(e);

    test('the strict central system saw no invalid message from any charger', () => {
      assert.deepEqual([...schemaErrors, ...csms.schemaErrors], []);
    });
  });
}
