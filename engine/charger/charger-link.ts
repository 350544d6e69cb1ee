// The charger machine's `link` actor made real: one WebSocket (engine/ocpp/ws-client.ts) and one
// RpcEndpoint per connection. Built once per process as a callback-actor logic; each invocation
// holds only its socket, its endpoint and a short buffer, so thousands run side by side.
import { fromCallback } from 'xstate';
import type { LinkCommand, LinkEvent, LinkInput, LinkSecurity } from '../../actors/charger/charger-ports.ts';
import { RpcEndpoint, RpcError, RpcTimeoutError } from '../../protocols/ocpp/index.ts';
import { openChargerSocket, type ChargerSocket, type ChargerSocketEvents } from './ws-client.ts';
import { FAULTS_EVENT, type FaultsCommand, type FaultyWire, type LinkFaults } from './link-conditions.ts';
import { CHAOS_EVENT, OUTAGE_FAILURE, type ChaosCommand, type Outage } from './link-chaos.ts';
import type {
  CallMeter,
  ChargerConnectionSettings,
  ChargerLinkOptions,
  ChargerSystem,
  SettingsLookup,
} from './charger-link-options.ts';

export type {
  CallMeter,
  ChargerConnectionSettings,
  ChargerLinkOptions,
  ChargerSystem,
  SettingsLookup,
} from './charger-link-options.ts';

const DEFAULT_PING_SEC = 60;
/** Proxy messages go out exactly as the user wrote them. */
const RAW = { skipValidation: true } as const;

/** What the machine hears when the CSMS answered a CALL with a CALLERROR, or not in time. */
function errorEvent(id: string, error: RpcError | RpcTimeoutError): LinkEvent {
  if (error instanceof RpcError)
    return { type: 'ocpp.error', id, code: error.code, description: error.description };
  return { type: 'ocpp.error', id, code: 'Timeout', description: error.message };
}

type OcppCall = Extract<LinkCommand, { type: 'ocpp.call' }>;

/** A quiet CALL's failure: the machine asked not to hear it (the frame log and metrics still do). */
const ignore = () => {};

/**
 * One invocation of the link: the state of one connection attempt and what it owes the machine.
 * A class on purpose: its behaviour lives on the prototype, so a charger pays for its fields, not
 * for a dozen closures (under tsx each named closure also carries its own property dictionary).
 */
class Link implements ChargerSocketEvents, FaultyWire {
  socket: ChargerSocket | null = null;
  rpc: RpcEndpoint | null = null;
  opened = false;
  stopped = false;
  // CALLs the machine sends while it answers a CSMS CALL wait until that CALLRESULT is written:
  // the machine answers before it sends follow-ups (NotifyReport, StartTransaction), and OCPP
  // peers expect them in that order.
  answering = false;
  held: OcppCall[] | null = null;
  /** How this connection authenticates (no secret), for the machine's security block. */
  security: LinkSecurity | undefined = undefined;
  /** Link conditions on purpose: every frame in and out goes through them (null: straight to the wire). */
  faults: LinkFaults | null = null;
  /** The measurements of this connection (shared with the chargers of its organization, location, version). */
  meter: CallMeter | undefined = undefined;
  /** A network outage of a chaos run: nothing goes either way (the socket is half-open too). */
  cut = false;

  constructor(
    readonly input: LinkInput,
    readonly sendBack: (event: LinkEvent) => void,
    readonly opts: ChargerLinkOptions,
    readonly system: ChargerSystem,
  ) {}

  open(): void {
    if (this.stopped) return;
    const { identity } = this.input;
    const chaos = this.opts.linkChaos?.(this.system);
    if (chaos?.outage) {
      // Dark or cut off: no connection is even tried; the machine backs off as after any failure.
      const failure = OUTAGE_FAILURE[chaos.outage];
      chaos.watch?.connectFailed(failure.code);
      this.sendBack({ type: 'link.failed', ...failure });
      return;
    }
    const base = this.input.url ?? this.opts.defaultCsmsUrl?.();
    if (!base) {
      this.sendBack({
        type: 'link.failed',
        code: 'NO_CSMS_URL',
        hint: `${identity} has no central system URL and no built-in central system is configured.`,
      });
      return;
    }
    let settings: SettingsLookup;
    try {
      settings = this.opts.connectionSettings?.(identity, this.system);
    } catch (err) {
      settings = Promise.reject(err); // e.g. a sealed value the secret box cannot open
    }
    if (!(settings instanceof Promise)) return this.connect(base, settings);
    settings.then(
      (s) => this.connect(base, s),
      (err: unknown) => {
        if (this.stopped) return;
        this.opts.log.warn({ identity, err }, 'charger connection settings could not be read');
        this.sendBack({
          type: 'link.failed',
          code: 'SETTINGS_UNAVAILABLE',
          hint: `The connection settings of ${identity} could not be read (is the database reachable?); the charger retries.`,
        });
      },
    );
  }

  connect(base: string, settings: ChargerConnectionSettings | undefined): void {
    if (this.stopped) return;
    const { identity, version } = this.input;
    const link = this; // eslint-disable-line @typescript-eslint/no-this-alias -- methods below are callbacks
    if (settings)
      this.security = {
        profile: settings.profile ?? (settings.password !== undefined ? 1 : 0),
        password: settings.password !== undefined,
        clientCert: settings.tls?.cert !== undefined,
        ...(settings.revoked?.length ? { revoked: settings.revoked } : {}),
      };
    const meter = (this.meter = this.opts.meter?.(identity, version, this.system));
    const answered = meter?.onCallAnswered ?? this.opts.onCallAnswered;
    this.rpc = new RpcEndpoint({
      version,
      callTimeoutMs: this.opts.callTimeoutMs ?? 30_000,
      send(text) {
        if (link.cut) return; // a chaos run's network outage: the frame is lost
        if (link.faults) link.faults.out(text);
        else link.socket!.send(text);
      },
      onCall(action, payload) {
        return link.onCall(action, payload);
      },
      onSchemaError(report) {
        link.opts.log.warn({ identity, ...report }, 'OCPP message broke its schema');
        link.opts.onSchemaError?.(identity, report);
      },
      onBadFrame({ code, message, text }) {
        // Not the text: a broken frame may carry a secret the message log withholds (frame-mask.ts).
        link.opts.log.debug(
          { identity, code, message, bytes: text.length },
          'bad OCPP-J frame from the CSMS',
        );
      },
      // A chaos run may start watching while this connection is open: asked per answer.
      onCallAnswered: this.opts.linkChaos
        ? (action, ms, outcome, answer) => {
            answered?.(action, ms, outcome, answer);
            link.opts.linkChaos!(link.system)?.watch?.answered(action, outcome, answer);
          }
        : answered,
      onCallReplied: meter?.onCallReplied,
      onLateAnswer: meter?.onLateAnswer,
      onFrame: this.opts.frameObserver?.(identity, this.system),
    });
    this.socket = openChargerSocket(
      {
        url: base,
        identity,
        version,
        pingIntervalSec: this.opts.pingIntervalSec ?? this.input.pingIntervalSec ?? DEFAULT_PING_SEC,
        ...(settings?.password !== undefined ? { password: settings.password } : {}),
        ...(settings?.tls ? { tls: settings.tls } : {}),
        ...(settings?.localAddress ? { localAddress: settings.localAddress } : {}),
      },
      this,
    );
    this.faults = this.opts.linkFaults?.(this.system) ?? null;
    this.faults?.attach(this);
  }

  // FaultyWire: where the link conditions let a frame go.
  write(text: string): void {
    this.socket!.send(text);
  }

  deliver(text: string): void {
    this.rpc?.receive(text);
  }

  setHalfOpen(on: boolean): void {
    this.socket?.setHalfOpen(on || this.cut);
  }

  /** A chaos run's outage started or ended while this link runs. */
  setOutage(outage: Outage | null): void {
    // Power: the socket is gone at once, no close frame (link.closed follows, as for a lost network).
    if (outage === 'power') return this.command({ type: 'link.drop' });
    const cut = outage === 'network';
    if (cut === this.cut) return;
    this.cut = cut;
    this.socket?.setHalfOpen(cut || (this.faults?.conditions.half_open ?? false));
  }

  /** The charger's link conditions were set or cleared while this link runs. */
  setFaults(faults: LinkFaults | null): void {
    this.faults?.detach(this, false);
    this.faults = faults;
    if (this.socket) faults?.attach(this);
  }

  // ChargerSocketEvents: the socket calls these as methods of this link.
  onOpen(): void {
    this.opened = true;
    this.meter?.onConnected?.();
    this.opts.linkChaos?.(this.system)?.watch?.connected();
    this.sendBack(this.security ? { type: 'link.open', security: this.security } : { type: 'link.open' });
  }

  onMessage(text: string): void {
    if (this.cut) return;
    if (this.faults) this.faults.in(text);
    else this.rpc?.receive(text);
  }

  onClose({ code, reason }: { code: number; reason: string }): void {
    this.countClose(this.stopped ? null : code);
    this.faults?.detach(this, true);
    this.rpc?.close();
    this.sendBack({ type: 'link.closed', code, reason });
  }

  /** The end of an opened connection, counted once: by the socket's close or the charger's stop (null). */
  countClose(code: number | null): void {
    const meter = this.opened ? this.meter : undefined;
    if (!meter) return;
    this.meter = undefined;
    meter.onDisconnected?.(code);
  }

  onFailure(f: { code: string; hint: string }): void {
    this.rpc?.close();
    this.opts.log.debug({ identity: this.input.identity, code: f.code }, f.hint);
    this.opts.onConnectFailure?.(this.input.identity, this.system, f.code);
    if (!this.stopped) this.meter?.onConnectFailed?.(f.code);
    this.opts.linkChaos?.(this.system)?.watch?.connectFailed(f.code);
    this.sendBack({ type: 'link.failed', code: f.code, hint: f.hint });
  }

  /** Machine -> link. */
  command(cmd: LinkCommand | FaultsCommand | ChaosCommand): void {
    if (cmd.type === FAULTS_EVENT) return this.setFaults(cmd.faults);
    if (cmd.type === CHAOS_EVENT) return this.setOutage(cmd.outage);
    if (cmd.type === 'link.drop') {
      this.socket?.drop();
      // Not connected yet: the socket reports nothing, so give up on this attempt as a lost network would.
      if (!this.opened)
        this.sendBack({ type: 'link.closed', code: 1006, reason: 'dropped before the connection opened' });
      return;
    }
    if (cmd.type === 'link.security') {
      this.opts.onSecurityRequest?.(this.system, cmd.request, (result) => {
        if (!this.stopped) this.sendBack(result);
      });
      return;
    }
    if (this.answering) (this.held ??= []).push(cmd);
    else this.call(cmd);
  }

  call(cmd: OcppCall): void {
    if (!this.rpc) return;
    const answered = this.rpc.call(cmd.action, cmd.payload, cmd.raw ? RAW : undefined);
    if (cmd.quiet) return void answered.catch(ignore);
    answered.then(
      (payload) => this.sendBack({ type: 'ocpp.result', id: cmd.id, payload }),
      (error) => {
        // The connection is going (closed endpoint, socket no longer open): link.closed follows,
        // and the machine resends its queued transaction messages after reconnecting. Answering
        // with an error here would count as a failed delivery attempt and could drop one.
        if (error instanceof RpcError || error instanceof RpcTimeoutError)
          this.sendBack(errorEvent(cmd.id, error));
      },
    );
  }

  release(): void {
    this.answering = false;
    const calls = this.held;
    this.held = null;
    if (calls) for (const cmd of calls) this.call(cmd);
  }

  /** A CALL from the CSMS, handed to the machine; its answer is this CALL's result. */
  onCall(action: string, payload: unknown): unknown {
    this.answering = true;
    let done = false;
    let result: object | undefined;
    let failure: RpcError | undefined;
    let settle: ((ok: boolean) => void) | undefined;
    this.sendBack({
      type: 'csms.call',
      action,
      payload,
      respond(r) {
        if (done) return;
        done = true;
        result = r;
        settle?.(true);
      },
      reject(code, description) {
        if (done) return;
        done = true;
        failure = new RpcError(code, description);
        settle?.(false);
      },
    });
    if (done) {
      // The usual path: the machine answered synchronously, the endpoint writes the answer as
      // soon as we return, and the held CALLs follow in the next microtask.
      queueMicrotask(() => this.release());
      if (failure) throw failure;
      return result;
    }
    // The machine was busy; the endpoint writes the answer in a promise reaction, so the held
    // CALLs wait for the next turn of the event loop.
    return new Promise((resolve, reject) => {
      settle = (ok) => {
        setImmediate(() => this.release());
        if (ok) resolve(result);
        else reject(failure);
      };
    });
  }

  stop(): void {
    this.countClose(null);
    this.stopped = true;
    this.held = null;
    // A connection that never opened carried nothing: a half-open condition waits for the next one.
    this.faults?.detach(this, this.opened);
    this.rpc?.close();
    this.socket?.close(1000, 'charger stopped');
  }
}

export function createChargerLink(opts: ChargerLinkOptions) {
  return fromCallback<LinkCommand, LinkInput>(({ input, sendBack, receive, system }) => {
    const link = new Link(input, sendBack, opts, system);
    // The machine sends LinkCommands; the runtime also sends a FaultsCommand (link conditions) and
    // a ChaosCommand (a chaos run's outage).
    receive((cmd: LinkCommand | FaultsCommand | ChaosCommand) => link.command(cmd));
    // A restored charger starts its old link and re-enters the stage (RESUME) in the same tick:
    // opening on the next microtask spares that first link a socket it would drop at once.
    queueMicrotask(() => link.open());
    return () => link.stop();
  });
}
