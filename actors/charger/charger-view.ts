// The charger as GET /evcharger/deployments/{id} shows it, from its persisted context alone (so any
// node answers from the database): connectors 1..n, charging profiles, configuration with secrets
// masked, and when it last heartbeated by its own clock. Pure; reads only the context fields below.
import type { ChargerContext, ChargingProfile, Connector } from './core/context.ts';
import { SETTINGS, getSetting } from './core/settings.ts';
import type { OcppWire } from './core/wire.ts';
import { wireFor } from './ocpp-wires.ts';
import { isSecretName, SECRET_MASK } from '../../protocols/ocpp/secret-values.ts';
import { messageOnShow } from './blocks/display-messages.ts';
import { costOf } from './blocks/tariff-cost.ts';

/** What the view reads of a persisted charger context. */
export type ViewedContext = Pick<
  ChargerContext,
  | 'version'
  | 'identity'
  | 'model'
  | 'connectors'
  | 'txIds'
  | 'profiles'
  | 'settings'
  | 'timers'
  | 'chargerStatus'
  | 'displayMessages'
  | 'chargerMessages'
  | 'costs'
>;

export interface ConnectorView {
  connector_id: number;
  /** 2.0.1: the EVSE (one connector each); null for 1.6. */
  evse_id: number | null;
  status: string;
  transaction_id: string | null;
  /** The connector's energy register (Wh), as its MeterValues report it. */
  energy_wh: number;
  power_w: number;
  soc: number | null;
  ev_connected: boolean;
  id_tag: string | null;
  /** 2.0.1 I02: the running transaction's total cost as the CSMS last sent it (CostUpdated), and when. */
  cost: number | null;
  cost_updated_at: string | null;
}

export interface ChargingProfileView {
  id: number;
  /** 0: the whole charger. */
  connector_id: number;
  stack_level: number;
  purpose: string;
  unit: 'W' | 'A';
  periods: { start_period: number; limit: number; number_phases: number | null }[];
  start_at: string | null;
  duration: number | null;
  transaction_id: string | null;
  valid_to: string | null;
}

export interface ConfigurationView {
  /** 1.6: the key; 2.0.1: `Component.Variable`. */
  key: string;
  value: string;
  readonly: boolean;
}

/** The display message on show (2.0.1 block O), as the CSMS set it. */
export interface DisplayMessageView {
  id: number;
  priority: string;
  state: string | null;
  format: string;
  language: string | null;
  content: string;
  start_at: string | null;
  end_at: string | null;
  transaction_id: string | null;
  /** How many messages the charger keeps (this one included). */
  kept: number;
}

export interface ChargerView {
  connectors: ConnectorView[];
  charging_profiles: ChargingProfileView[];
  configuration: ConfigurationView[];
  last_heartbeat_at: string | null;
  display_message: DisplayMessageView | null;
}

export { SECRET_MASK };

const iso = (ms: number | undefined): string | null => (ms ? new Date(ms).toISOString() : null);

/** Nothing persisted yet (the charger was deployed a moment ago): an empty view. */
export const EMPTY_VIEW: ChargerView = {
  connectors: [],
  charging_profiles: [],
  configuration: [],
  last_heartbeat_at: null,
  display_message: null,
};

/** The view; names (EVSEs, transaction ids, purposes, settings) as the charger's version says them. */
export function chargerView(ctx: ViewedContext, now: number = Date.now()): ChargerView {
  const wire = wireFor(ctx.version);
  return {
    connectors: ctx.connectors.map((c) => connectorView(ctx, wire, c)),
    charging_profiles: ctx.profiles.map((p) => profileView(wire, p)),
    configuration: configurationView(ctx, wire),
    last_heartbeat_at: lastHeartbeat(ctx),
    display_message: displayMessageView(ctx, wire, now),
  };
}

function displayMessageView(ctx: ViewedContext, wire: OcppWire, now: number): DisplayMessageView | null {
  const m = messageOnShow(ctx, now);
  if (!m) return null;
  const c = m.txRef === undefined ? undefined : ctx.connectors.find((x) => x.tx?.ref === m.txRef);
  const txId = c ? wire.transactionIdOf(ctx as ChargerContext, c) : undefined;
  return {
    id: m.id,
    priority: m.priority,
    state: m.state ?? null,
    format: m.format,
    language: m.language ?? null,
    content: m.content,
    start_at: iso(m.startAt),
    end_at: iso(m.endAt),
    transaction_id: txId === undefined ? null : String(txId),
    kept: ctx.displayMessages?.length ?? 0,
  };
}

function connectorView(ctx: ViewedContext, wire: OcppWire, c: Connector): ConnectorView {
  const tx = c.tx;
  const txId = wire.transactionIdOf(ctx as ChargerContext, c);
  return {
    connector_id: c.id,
    evse_id: wire.evseOf(c.id),
    status: c.status,
    transaction_id: txId === undefined ? null : String(txId),
    energy_wh: Math.floor(c.meterWh),
    power_w: Math.round(c.powerW),
    soc: c.soc === undefined ? null : Math.round(c.soc * 10) / 10,
    ev_connected: c.plugged,
    id_tag: tx?.idTag ?? c.authorized ?? null,
    cost: costOf(ctx, c)?.total ?? null,
    cost_updated_at: iso(costOf(ctx, c)?.at),
  };
}

function profileView(wire: OcppWire, p: ChargingProfile): ChargingProfileView {
  return {
    id: p.id,
    connector_id: p.connectorId,
    stack_level: p.stackLevel,
    purpose: wire.profilePurposes[p.purpose],
    unit: p.unit,
    periods: p.periods.map((x) => ({
      start_period: x.startPeriod,
      limit: x.limit,
      number_phases: x.numberPhases ?? null,
    })),
    start_at: iso(p.startAt),
    duration: p.duration ?? null,
    transaction_id: p.transactionId === undefined ? null : String(p.transactionId),
    valid_to: iso(p.validTo),
  };
}

function configurationView(ctx: ViewedContext, wire: OcppWire): ConfigurationView[] {
  const full = ctx as ChargerContext; // defaults read only the model and identity
  const shown = (key: string, value: string, readonly: boolean): ConfigurationView => ({
    key,
    value: value !== '' && isSecretName(key) ? SECRET_MASK : value,
    readonly,
  });
  const known = wire.settings.map((key) => {
    const def = SETTINGS[key];
    return shown(wire.settingName(key), getSetting(full, key) ?? '', def.readonly);
  });
  // Values stored under keys outside the table (kept as the central system wrote them).
  const extra = Object.keys(ctx.settings)
    .filter((key) => !Object.hasOwn(SETTINGS, key))
    .map((key) => shown(key, ctx.settings[key], false));
  return [...known, ...extra];
}

/**
 * The charger re-arms its heartbeat deadline one interval ahead whenever it heartbeats (and when
 * its registration is accepted): the last one was an interval before that deadline.
 */
function lastHeartbeat(ctx: ViewedContext): string | null {
  const interval = Number(getSetting(ctx as ChargerContext, 'HeartbeatInterval') ?? 0);
  const next = ctx.timers.heartbeat;
  if (!next || !(interval > 0)) return null;
  return iso(next - interval * 1000);
}
