// Test harness for the charger machine: a fake `link` actor (no sockets) that records the CALLs
// the charger sends and answers them like a cooperative central system, a SimulatedClock, and
// schema checks of everything the charger said (typed-ocpp carries the official JSON schemas).
//
//   const h = harness('ocpp2.0.1');               // { connect: 'manual' } to drive the link by hand
//   h.deploy();                                   // walks to online at T0 (provisioning steps of 0 ms)
//   await h.csmsCall(...aRemoteStart(version));   // the CSMS calls the charger (builders.ts)
//   h.tick(60_000);                               // simulated time
//   h.callsOf('TransactionEvent'); h.connector(1).status; h.stageLog(); h.results
//   h.finish();                                   // every message was schema-valid; stops the actor
import assert from 'node:assert/strict';
import { SimulatedClock, createActor, fromCallback, type EventObject, type Snapshot } from 'xstate';
import { chargerMachine } from '../../../actors/charger/charger-machine.ts';
import { schemaErrors } from '../../support/official-schemas.ts';
import type {
  ChargerInput,
  CommandResult,
  LinkCommand,
  LinkEvent,
  LinkInput,
  OcppVersion,
  SecurityRequest,
  StageEvent,
} from '../../../actors/charger/charger-ports.ts';
import type { TransferCommand, TransferResult } from '../../../actors/charger/core/transfers.ts';

export const T0 = Date.parse('2025-03-01T08:00:00.000Z');

export const VERSIONS = ['ocpp1.6', 'ocpp2.0.1'] as const;

export interface SentCall {
  id: string;
  action: string;
  payload: Record<string, any>;
}

type Answer = object | { error: string } | 'hold';

export interface HarnessOptions {
  /** 'open' (default): the link opens at once; 'manual': the test drives link.open/failed. */
  connect?: 'open' | 'manual';
  /** Overrides the fake CSMS's answers by action. 'hold' keeps the call unanswered. */
  answers?: Record<string, (payload: any, n: number) => Answer>;
  input?: Partial<ChargerInput>;
  /**
   * The engine's transfers, faked: each attempt is answered at once with what this returns (as
   * engine/charger/transfers.ts would after moving the bytes). Absent: every transfer fails.
   */
  transfers?: (cmd: TransferCommand) => Omit<TransferResult, 'type' | 'id'>;
  /** Start from this persisted snapshot (not deployed: send RESUME), the clock at `at`. */
  snapshot?: unknown;
  at?: number;
}

export const MODEL_AC = {
  boot_vendor: 'EVSim Vendor With A Very Long Name',
  boot_model: 'AC-22-Twin',
  firmware_version: '1.2.3',
  connector_count: 2,
  max_power_kw: 22,
  current_type: 'AC' as const,
  connector_types: ['Type2', 'Type2'],
};

export function defaultAnswer(
  version: OcppVersion,
  action: string,
  payload: any,
  txCounter: () => number,
): object {
  const currentTime = new Date(T0).toISOString();
  switch (action) {
    case 'BootNotification':
      return { status: 'Accepted', currentTime, interval: 300 };
    case 'Heartbeat':
      return { currentTime };
    case 'Authorize':
      return version === 'ocpp1.6'
        ? { idTagInfo: { status: 'Accepted' } }
        : { idTokenInfo: { status: 'Accepted' } };
    case 'StartTransaction':
      return { idTagInfo: { status: 'Accepted' }, transactionId: txCounter() };
    case 'StopTransaction':
      return { idTagInfo: { status: 'Accepted' } };
    case 'DataTransfer':
      return { status: 'Accepted' };
    default:
      void payload;
      return {};
  }
}

export function harness(version: OcppVersion, opts: HarnessOptions = {}) {
  // The machine reads time (and its reconnect jitter) from its actor's clock.
  const clock = Object.assign(new SimulatedClock(), { random: () => 0.5 });
  clock.set(opts.at ?? T0);
  const calls: SentCall[] = [];
  const stages: StageEvent[] = [];
  const results: CommandResult[] = [];
  const answered: { action: string; payload: object; answer?: object; error?: string }[] = [];
  const held: SentCall[] = [];
  /** Security requests the charger sent its link (the engine's part: keys, certificates, sealing). */
  const securityRequests: SecurityRequest[] = [];
  const link = {
    starts: 0,
    stops: 0,
    sendBack: undefined as undefined | ((e: LinkEvent) => void),
    connected: false,
  };
  let nextTx = 100;
  let count: Record<string, number> = {};

  const answer = (call: SentCall) => {
    const n = (count[call.action] = (count[call.action] ?? 0) + 1);
    const custom = opts.answers?.[call.action]?.(call.payload, n);
    const a = custom ?? defaultAnswer(version, call.action, call.payload, () => nextTx++);
    if (a === 'hold') return void held.push(call);
    if ('error' in a) return link.sendBack?.({ type: 'ocpp.error', id: call.id, code: String(a.error) });
    link.sendBack?.({ type: 'ocpp.result', id: call.id, payload: a });
  };

  const fakeLink = fromCallback<LinkCommand, LinkInput>(({ sendBack, receive }) => {
    link.starts++;
    const back = (e: LinkEvent) => sendBack(e);
    link.sendBack = back;
    receive((e) => {
      if (e.type === 'link.drop') {
        link.connected = false;
        back({ type: 'link.closed', code: 1006 });
        return;
      }
      if (e.type === 'link.security') return void securityRequests.push(e.request);
      const call = { id: e.id, action: e.action, payload: e.payload as Record<string, any> };
      calls.push(call);
      answer(call);
    });
    if ((opts.connect ?? 'open') === 'open') {
      link.connected = true;
      back({ type: 'link.open' });
    }
    return () => {
      link.stops++;
      link.connected = false;
      if (link.sendBack === back) link.sendBack = undefined;
    };
  });

  const transfers = opts.transfers;
  const fakeTransfers = fromCallback<EventObject, TransferCommand>(({ input, sendBack }) => {
    sendBack({ type: 'transfer.result', id: input.id, ...transfers!(input) } satisfies TransferResult);
  });
  const machine = chargerMachine.provide({
    actors: transfers ? { link: fakeLink, transfers: fakeTransfers } : { link: fakeLink },
  });
  const input: ChargerInput = {
    identity: 'CP-TEST-1',
    version,
    model: MODEL_AC,
    serialNumber: 'SN-0001',
    ...opts.input,
  };

  const start = (snapshot?: unknown) => {
    const actor = snapshot
      ? createActor(machine, { clock, input, snapshot: snapshot as Snapshot<unknown> as never })
      : createActor(machine, { clock, input });
    actor.on('stage', (e) => {
      const { type: _type, ...rest } = e;
      stages.push(rest);
    });
    actor.on('command.result', (r) => results.push(r));
    actor.subscribe({ error: (err) => assert.fail(err as Error) });
    actor.start();
    return actor;
  };

  let actor = start(opts.snapshot);

  const h = {
    version,
    clock,
    calls,
    stages,
    results,
    answered,
    held,
    securityRequests,
    link,
    get actor() {
      return actor;
    },
    machine,
    send(e: Parameters<typeof actor.send>[0]) {
      actor.send(e);
    },
    /** Advances simulated time (ms). */
    tick(ms: number) {
      clock.increment(ms);
    },
    deploy() {
      actor.send({ type: 'DEPLOY' });
      clock.increment(0);
    },
    /** After a start from a snapshot: re-enter its stage as the engine does. */
    resume() {
      actor.send({ type: 'RESUME' });
      clock.increment(0);
    },
    stage() {
      return actor.getSnapshot().context.stage;
    },
    ctx() {
      return actor.getSnapshot().context;
    },
    connector(id: number) {
      return actor.getSnapshot().context.connectors[id - 1];
    },
    callsOf(action: string) {
      return calls.filter((c) => c.action === action);
    },
    /** The calls sent from index `from` on. */
    callsSince(from: number) {
      return calls.slice(from);
    },
    stageLog() {
      return stages.map((s) => `${s.stage}:${s.outcome}${s.code ? `:${s.code}` : ''}`);
    },
    /** Answers a held call now. */
    release(call: SentCall, answerPayload?: object) {
      held.splice(held.indexOf(call), 1);
      link.sendBack?.({
        type: 'ocpp.result',
        id: call.id,
        payload: answerPayload ?? defaultAnswer(version, call.action, call.payload, () => nextTx++),
      });
    },
    /** The CSMS calls the charger; resolves with its answer or rejects with the error code. */
    csmsCall(action: string, payload: object): Promise<any> {
      return new Promise((resolve, reject) => {
        assert.ok(link.sendBack, 'the link is not up');
        link.sendBack({
          type: 'csms.call',
          action,
          payload,
          respond: (r) => {
            answered.push({ action, payload, answer: r });
            resolve(r);
          },
          reject: (code) => {
            answered.push({ action, payload, error: code });
            reject(new Error(code));
          },
        });
      });
    },
    /** Stops the actor and starts a new one from its persisted snapshot (as after a process restart). */
    restart() {
      const persisted = JSON.parse(JSON.stringify(actor.getPersistedSnapshot()));
      actor.stop();
      count = {};
      actor = start(persisted);
      actor.send({ type: 'RESUME' });
      clock.increment(0);
      return persisted;
    },
    stop() {
      actor.stop();
    },
    /** Every message both ways was valid against the official schemas; stops the actor. */
    finish() {
      assertSchemaValid(h, version);
      actor.stop();
    },
  };
  return h;
}

export type Harness = ReturnType<typeof harness>;

/** A charger deployed and online (the fake CSMS accepted its boot). */
export function online(version: OcppVersion, opts: HarnessOptions = {}): Harness {
  const h = harness(version, opts);
  h.deploy();
  return h;
}

/** Every CALL the charger sent, and every answer it gave, is valid against the official schemas. */
export function assertSchemaValid(h: Harness, version: OcppVersion) {
  for (const c of h.calls) {
    const error = schemaErrors(version, c.action, 'Request', c.payload);
    assert.equal(error, null, `${c.action} ${JSON.stringify(c.payload)}: ${error}`);
  }
  for (const a of h.answered) {
    if (!a.answer) continue;
    const error = schemaErrors(version, a.action, 'Response', a.answer);
    assert.equal(error, null, `${a.action} answer ${JSON.stringify(a.answer)}: ${error}`);
  }
}
