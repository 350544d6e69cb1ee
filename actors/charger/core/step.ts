// A Step collects what one event does to a charger: the next context, the CALLs for the link,
// the events to emit and to raise. The machine's actions build one, let a block fill it, and
// commit it as XState actions (assign, sendTo, emit, raise) in that order. One object per event,
// no closures: this is the hot path of every charger.
import type { CallMeta, ChargerContext, ChargerTimings, Connector, Stage, TimerName } from './context.ts';
import { DEFAULT_TIMINGS } from './context.ts';
import type { ChargerEmitted, CommandType, InternalEvent, LinkCommand, StageOutcome } from './events.ts';
import type { OcppWire, OutboundCall } from './wire.ts';
import type { TransferCommand } from './transfers.ts';
import { intSetting } from './settings.ts';

/** Queued transaction messages kept while offline; beyond this the oldest meter sample goes. */
const OUTBOX_MAX = 200;

/**
 * CALLs whose answers the charger does nothing with, sent `quiet`: the link keeps their answers
 * (and failures) to itself. They are most of a fleet's frames (a boot's StatusNotification of
 * each connector, every heartbeat), and each answer would cost the machine an event and a new
 * snapshot only to forget the call.
 */
const UNHEEDED: ReadonlySet<string> = new Set(['StatusNotification', 'Heartbeat']);

/** How many CALLs the charger has sent (quiet ones too): what a caller waiting for all answers counts against. */
export const callsSent = (ctx: Pick<ChargerContext, 'nextCallId'>): number => ctx.nextCallId - 1;

export class Step {
  ctx: ChargerContext;
  readonly sends: LinkCommand[] = [];
  readonly emits: ChargerEmitted[] = [];
  readonly raises: InternalEvent[] = [];
  /** Commands for the transfers port (firmware download, log upload). */
  readonly transfers: TransferCommand[] = [];

  /** Whether ctx is this Step's own copy yet (made on the first patch; nobody else holds it). */
  #own = false;

  constructor(
    ctx: ChargerContext,
    readonly now: number,
    /** The charger's version, as the adapter that speaks it. */
    readonly wire: OcppWire,
  ) {
    this.ctx = ctx;
  }

  // One copy of the context per event, not one per patch: an event patches it several times
  // (stage, timers, calls), and each copy of ~30 fields was garbage by the next.
  patch(p: Partial<ChargerContext>): void {
    if (this.#own) Object.assign(this.ctx, p);
    else {
      this.ctx = { ...this.ctx, ...p };
      this.#own = true;
    }
  }

  timing<K extends keyof ChargerTimings>(key: K): number {
    return this.ctx.timings?.[key] ?? DEFAULT_TIMINGS[key];
  }

  iso(ms: number = this.now): string {
    return new Date(ms).toISOString();
  }

  connector(id: number): Connector | undefined {
    return this.ctx.connectors[id - 1];
  }

  putConnector(c: Connector): void {
    const connectors = this.ctx.connectors.slice();
    connectors[c.id - 1] = c;
    this.patch({ connectors });
  }

  get online(): boolean {
    return this.ctx.stage === 'online';
  }

  /** Sets (or moves) a timer's deadline; the charger's one timer fires it at `at`. */
  setTimer(name: TimerName, at: number): void {
    if (this.ctx.timers[name] !== at) this.patch({ timers: { ...this.ctx.timers, [name]: at } });
  }

  clearTimer(name: TimerName): void {
    if (this.ctx.timers[name] === undefined) return;
    const timers = { ...this.ctx.timers };
    delete timers[name];
    this.patch({ timers });
  }

  /** Forgets an outstanding CALL (it was answered or failed). */
  dropCall(id: string): void {
    const calls = { ...this.ctx.calls };
    delete calls[id];
    this.patch({ calls });
  }

  /** Sends a CALL on the open link; returns its id. */
  send(call: OutboundCall, meta: Omit<CallMeta, 'action'> = {}): string {
    const id = String(this.ctx.nextCallId);
    if (!call.raw && meta.commandId === undefined && !meta.outbox && UNHEEDED.has(call.action)) {
      this.patch({ nextCallId: this.ctx.nextCallId + 1 });
      this.sends.push({ type: 'ocpp.call', id, action: call.action, payload: call.payload, quiet: true });
      return id;
    }
    this.patch({
      nextCallId: this.ctx.nextCallId + 1,
      calls: { ...this.ctx.calls, [id]: { action: call.action, ...meta } },
    });
    this.sends.push(
      call.raw
        ? { type: 'ocpp.call', id, action: call.action, payload: call.payload, raw: true }
        : { type: 'ocpp.call', id, action: call.action, payload: call.payload },
    );
    return id;
  }

  /**
   * Routes a CALL: transaction messages (meta.tx set) go through the outbox (delivered in order, kept while
   * offline); the others leave now when online and are dropped otherwise. Returns false if dropped.
   */
  call(call: OutboundCall, meta: Omit<CallMeta, 'action'> = {}): boolean {
    if (meta.tx !== undefined) {
      this.enqueue(call, meta.tx);
      return true;
    }
    if (!this.online) return false;
    this.send(call, meta);
    return true;
  }

  private enqueue(call: OutboundCall, tx: number | undefined): void {
    let outbox = [...this.ctx.outbox, { action: call.action, payload: call.payload, tx, attempts: 0 }];
    if (outbox.length > OUTBOX_MAX) {
      const i = outbox.findIndex((x, n) => n > 0 && x.action === 'MeterValues');
      outbox = outbox.filter((_x, n) => n !== (i > 0 ? i : 1));
    }
    this.patch({ outbox });
    this.pump();
  }

  /** Sends the head of the outbox when online and nothing of it is in flight. */
  pump(): void {
    while (this.online && !this.ctx.outboxInFlight && this.ctx.outbox.length > 0) {
      const head = this.ctx.outbox[0];
      const payload = this.wire.outboxPayload(this.ctx, head);
      if (payload === undefined) {
        this.patch({ outbox: this.ctx.outbox.slice(1) });
        continue;
      }
      const id = this.send({ action: head.action, payload }, { outbox: true, tx: head.tx });
      this.patch({ outboxInFlight: id });
    }
  }

  /** The outbox head was answered (ok) or failed (not ok): drop it or retry it. */
  settleOutbox(ok: boolean): void {
    const [head, ...rest] = this.ctx.outbox;
    if (!head) return;
    if (ok || head.attempts + 1 >= intSetting(this.ctx, 'TransactionMessageAttempts')) {
      const txIds = { ...this.ctx.txIds };
      // The id goes with the StopTransaction only: a MeterValues given up must not lose the stop.
      if (head.tx !== undefined && head.action === 'StopTransaction') delete txIds[head.tx];
      this.patch({ outbox: rest, outboxInFlight: undefined, txIds });
    } else {
      this.patch({ outbox: [{ ...head, attempts: head.attempts + 1 }, ...rest], outboxInFlight: undefined });
    }
    this.pump();
    this.checkRecovered();
  }

  /** Announces `recovered` once back online with the queued messages delivered. */
  checkRecovered(): void {
    if (this.ctx.recovering && this.online && this.ctx.outbox.length === 0) {
      this.patch({ recovering: false });
      this.emitStage('online', 'recovered');
    }
  }

  emitStage(stage: Stage, outcome: StageOutcome, code?: string, hint?: string): void {
    const e: ChargerEmitted = {
      type: 'stage',
      identity: this.ctx.identity,
      attempt: this.ctx.attempt,
      stage,
      outcome,
      at: this.iso(),
    };
    if (code) e.code = code;
    if (hint) e.hint = hint;
    this.emits.push(e);
  }

  result(
    commandId: string | undefined,
    command: CommandType,
    outcome: {
      ok: boolean;
      action?: string;
      payload?: object;
      error?: { code: string; description?: string };
    },
  ): void {
    if (commandId === undefined) return;
    this.emits.push({ type: 'command.result', commandId, identity: this.ctx.identity, command, ...outcome });
  }

  fail(commandId: string | undefined, command: CommandType, code: string, description: string): void {
    this.result(commandId, command, { ok: false, error: { code, description } });
  }
}
