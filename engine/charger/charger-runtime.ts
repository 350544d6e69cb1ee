// Runs virtual chargers for real: the charger machine with the WebSocket link provided, built once
// per process, and root actors made from it (fresh or from a persisted snapshot). Each charger is
// its own root actor: thousands of children under one parent are quadratic in XState.
//
//   const runtime = createChargerRuntime({ log, defaultCsmsUrl: () => 'ws://127.0.0.1:8080/ocpp' });
//   const actor = runtime.create(input);        // or runtime.restore(JSON.parse(saved))
//   actor.on('stage', onStage);
//   actor.start(); actor.send({ type: 'DEPLOY' }); // restored: actor.send({ type: 'RESUME' })
import { createActor, type Actor } from 'xstate';
import { chargerMachine, type ChargerMachine } from '../../actors/charger/charger-machine.ts';
import {
  LINK_ID,
  REAL_CLOCK,
  type ChargerInput,
  type ChargerTimings,
  type SecurityRequest,
  type SecurityResult,
} from '../../actors/charger/charger-ports.ts';
import { restoreFromSnapshot } from './charger-snapshots.ts';
import type { Logger } from '../platform/log/logger.ts';
import {
  createChargerLink,
  type ChargerConnectionSettings,
  type ChargerLinkOptions,
  type CallMeter,
  type ChargerSystem,
  type SettingsLookup,
} from './charger-link.ts';
import type { FrameObserver, OcppVersion } from '../../protocols/ocpp/index.ts';
import { createTransfers, type LogFrame } from './transfers.ts';
import {
  FAULTS_EVENT,
  LinkFaults,
  NO_CONDITIONS,
  type FaultsCommand,
  type LinkConditions,
  type Misbehaviour,
} from './link-conditions.ts';
import { CHAOS_EVENT, type ChaosCommand, type LinkChaos, type LinkWatch, type Outage } from './link-chaos.ts';

export type { CallMeter, ChargerConnectionSettings, SettingsLookup };

export interface ChargerRuntimeOptions {
  log: Logger;
  /**
   * Looked up each time a link opens, so credentials never enter persisted snapshots. `key` is what
   * create/restore was given (the engine gives the deployment id: identities are unique per
   * organization only).
   */
  connectionSettings?: (identity: string, key: string | undefined) => SettingsLookup;
  /** A connection attempt failed with `code` (HTTP_401, TLS_ERROR, ...). */
  onConnectFailure?: (identity: string, key: string | undefined, code: string) => void;
  /** Base ws URL used when the input has no url (the built-in central system, e.g. ws://127.0.0.1:8080/ocpp). */
  defaultCsmsUrl?: () => string | undefined;
  /** Default 30000. */
  callTimeoutMs?: number;
  /** The fetch of firmware downloads and log uploads (TRANSFER_ALLOWED_HOSTS refuses other hosts). */
  transferFetch?: typeof fetch;
  /** When set, overrides every charger's WebSocketPingInterval (default 60 s); 0 disables. */
  pingIntervalSec?: number;
  onSchemaError?: (identity: string, report: unknown) => void;
  /** Round trip of every CALL the chargers make (ms since written); for load tests. */
  onCallAnswered?: ChargerLinkOptions['onCallAnswered'];
  /**
   * The message log's observer of each connection's frames; `key` is what create/restore was given
   * (the engine gives the deployment id: identities are unique per organization only).
   */
  frameObserver?: (identity: string, key: string | undefined) => FrameObserver | undefined;
  /**
   * Measurements of the central system, asked once per connection (`key` as for frameObserver):
   * the meter of the charger's organization, location and version, shared by its chargers.
   */
  meter?: (identity: string, version: OcppVersion, key: string | undefined) => CallMeter | undefined;
  /** A charger's security block asks for sealed credentials to change (`key` as for connectionSettings). */
  onSecurityRequest?: (
    key: string | undefined,
    request: SecurityRequest,
    reply: (result: SecurityResult) => void,
  ) => void;
  /** Defaults for every charger created here; the input's own timings win. */
  timings?: Partial<ChargerTimings>;
  /**
   * The charger's recent OCPP frames, oldest first, for a diagnostics / log upload (the message
   * log's); `key` is what create/restore was given. Absent: the uploaded log is empty.
   */
  recentLog?: (identity: string, key: string | undefined) => Promise<LogFrame[]> | LogFrame[];
}

export type ChargerActor = Actor<ChargerMachine>;

export interface ChargerRuntime {
  /** The machine with the real link provided, built once per process. */
  readonly machine: ChargerMachine;
  /** A new root actor, error observer attached, not started; `key` names it to connectionSettings and frameObserver. */
  create(input: ChargerInput, key?: string): ChargerActor;
  /**
   * A root actor from getPersistedSnapshot() JSON of this version or an earlier one (migrated),
   * not started: start it, then send RESUME. Throws for a snapshot it cannot restore (deploy afresh).
   */
  restore(snapshot: unknown, key?: string): ChargerActor;
  /**
   * Sets (or with null clears) the link conditions of a charger made here, in force at once on its
   * connection and on every later one while the actor lives (docs/faults.md). Not persisted: they
   * end with the actor (a stop, a restart, the process's end, a hand-over to another node).
   */
  setLinkConditions(actor: ChargerActor, conditions: LinkConditions | null): void;
  /** The conditions in force on a charger's link, or undefined. */
  linkConditions(actor: ChargerActor): LinkConditions | undefined;
  /** The charger misbehaves once on purpose (docs/faults.md); false when it cannot (raw text, no connection). */
  misbehave(actor: ChargerActor, m: Misbehaviour): boolean;
  /**
   * A chaos run's outage of the charger's power or network starts (or with null ends), in force at
   * once on its link (docs/faults.md, "Fleet chaos runs"). Not persisted, like link conditions.
   */
  setOutage(actor: ChargerActor, outage: Outage | null): void;
  /** A chaos run watches the charger's link (null: no longer). */
  watch(actor: ChargerActor, watch: LinkWatch | null): void;
}

export function createChargerRuntime(opts: ChargerRuntimeOptions): ChargerRuntime {
  // Each root actor has its own system, which its link sees: the key of the charger it belongs to.
  const keys = new WeakMap<ChargerSystem, string>();
  const { connectionSettings, onConnectFailure, frameObserver, onSecurityRequest, meter } = opts;
  // Link conditions of the chargers that have some: gone with their actor.
  const faults = new WeakMap<ChargerSystem, LinkFaults>();
  // Chaos of the chargers a chaos run touches: gone with their actor (or when neither part is left).
  const chaos = new WeakMap<ChargerSystem, LinkChaos>();
  const link = createChargerLink({
    log: opts.log,
    connectionSettings:
      connectionSettings && ((identity, system) => connectionSettings(identity, keys.get(system))),
    onConnectFailure:
      onConnectFailure && ((identity, system, code) => onConnectFailure(identity, keys.get(system), code)),
    defaultCsmsUrl: opts.defaultCsmsUrl,
    callTimeoutMs: opts.callTimeoutMs,
    pingIntervalSec: opts.pingIntervalSec,
    onSchemaError: opts.onSchemaError,
    onCallAnswered: opts.onCallAnswered,
    frameObserver: frameObserver && ((identity, system) => frameObserver(identity, keys.get(system))),
    meter: meter && ((identity, version, system) => meter(identity, version, keys.get(system))),
    linkFaults: (system) => faults.get(system),
    linkChaos: (system) => chaos.get(system),
    onSecurityRequest:
      onSecurityRequest && ((system, request, reply) => onSecurityRequest(keys.get(system), request, reply)),
  });
  const { recentLog } = opts;
  const transfers = createTransfers({
    log: opts.log,
    fetch: opts.transferFetch,
    recentLog: recentLog && ((identity, system) => recentLog(identity, keys.get(system))),
  });
  const machine = chargerMachine.provide({ actors: { link, transfers } });

  // An action that throws on a root without an error observer becomes an uncaughtException.
  const observe = (actor: ChargerActor, identity: string, key: string | undefined): ChargerActor => {
    if (key !== undefined) keys.set(actor.system, key);
    actor.subscribe({
      error: (err) => opts.log.error({ identity, err }, 'charger actor failed'),
    });
    return actor;
  };

  function setLinkConditions(actor: ChargerActor, conditions: LinkConditions | null): void {
    const { system } = actor;
    let f = faults.get(system);
    if (conditions === null) {
      if (!f) return;
      faults.delete(system);
      f = undefined;
    } else if (f) return f.update(conditions);
    else {
      const { identity } = actor.getSnapshot().context;
      f = new LinkFaults(identity, conditions, frameObserver?.(identity, keys.get(system)));
      faults.set(system, f);
    }
    // The link running now, if any (a new one reads them when it opens its connection).
    const link = actor.getSnapshot().children[LINK_ID];
    link?.send({ type: FAULTS_EVENT, faults: f ?? null } satisfies FaultsCommand as never);
  }

  /** Changes a charger's chaos; the emptied record goes. */
  function changeChaos(actor: ChargerActor, change: Partial<LinkChaos>): LinkChaos {
    const c = { ...(chaos.get(actor.system) ?? { outage: null, watch: null }), ...change };
    if (c.outage === null && c.watch === null) chaos.delete(actor.system);
    else chaos.set(actor.system, c);
    return c;
  }

  return {
    machine,
    create(input, key) {
      const timings = opts.timings ? { ...opts.timings, ...input.timings } : input.timings;
      const actor = createActor(machine, {
        input: timings ? { ...input, timings } : input,
        clock: REAL_CLOCK,
      });
      return observe(actor, input.identity, key);
    },
    restore(snapshot, key) {
      const actor = restoreFromSnapshot(machine, snapshot);
      return observe(actor, actor.getSnapshot().context.identity, key);
    },
    setLinkConditions,
    linkConditions: (actor) => faults.get(actor.system)?.conditions,
    misbehave(actor, m) {
      if (!faults.has(actor.system)) setLinkConditions(actor, NO_CONDITIONS);
      return faults.get(actor.system)!.misbehave(m);
    },
    setOutage(actor, outage) {
      if ((chaos.get(actor.system)?.outage ?? null) === outage) return;
      changeChaos(actor, { outage });
      const link = actor.getSnapshot().children[LINK_ID];
      link?.send({ type: CHAOS_EVENT, outage } satisfies ChaosCommand as never);
    },
    watch(actor, watch) {
      changeChaos(actor, { watch });
    },
  };
}
