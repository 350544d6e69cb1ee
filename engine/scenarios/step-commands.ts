// The action steps: which command each becomes (engine/commands/command-kinds.ts) and its payload,
// or which other call of the scenario host carries it out for one charger.
import type { EventType } from '../commands/command-kinds.ts';
import type { LinkConditions, Misbehaviour } from '../charger/link-conditions.ts';
import { fillConditions, type LinkConditionsInput } from '../charger/link-conditions-input.ts';
import type { Fields } from './step-fields.ts';
import type { HostedScenarioCharger, ScenarioHost } from './scenario-host.ts';

/** Commands of the actions, by step kind. */
export const COMMANDS: Partial<Record<string, EventType>> = {
  plug_in: 'plug-in',
  present_token: 'present-token',
  unplug: 'unplug',
  ev_stops_energy: 'ev-stops-energy',
  fault: 'fault',
  clear_fault: 'clear-fault',
  disconnect: 'disconnect',
  grid_frequency: 'grid-frequency',
  grid_event: 'grid-event',
  configure: 'configuration',
  clear_cache: 'cache-reset',
  send: 'proxy-message',
};

/** The command payload of an action step (connectors: 1.6 reads connector_id, 2.0.1 evse_id). */
export function commandPayload(kind: string, b: Fields): unknown {
  const on = { connector_id: b.connector, evse_id: b.connector };
  switch (kind) {
    case 'plug_in':
      return {
        ...on,
        ev_max_power_kw: b.ev_max_power_kw,
        soc_percent: b.soc_percent,
        battery_kwh: b.battery_kwh,
        bidirectional: b.bidirectional,
        max_discharge_kw: b.max_discharge_kw,
        min_soc_percent: b.min_soc_percent,
      };
    case 'grid_frequency':
      return { frequency_hz: b.frequency_hz };
    case 'grid_event':
      return { fault: b.fault, ended: b.ended, extra_info: b.extra_info };
    case 'present_token':
      return { ...on, id_tag: b.id_tag };
    case 'fault':
      return { ...on, error_code: b.error_code };
    case 'configure':
      return { key: b.key, component: b.component, variable: b.variable, value: b.value };
    case 'send':
      return { action: b.action, payload: b.payload };
    case 'disconnect':
    case 'clear_cache':
      return {};
    default:
      return on;
  }
}

/** A misbehave step's misbehaviour (the link's, engine/charger/link-conditions.ts). */
export function misbehaviourOf(b: Fields): Misbehaviour {
  if (b.kind === 'raw_text') return { kind: 'raw_text', text: b.text ?? '' };
  if (b.kind === 'edit_next_call')
    return { kind: 'edit_next_call', action: b.action, payload: b.payload ?? {} };
  return { kind: 'wrong_message_id', ...(b.message_id !== undefined && { message_id: b.message_id }) };
}

/** A link step's conditions (null: cleared); `seed` when the step names none (drawn from the run's). */
export function conditionsOfStep(b: Fields, seed: number): LinkConditions | null {
  if (b.clear) return null;
  const { charger: _charger, ...input } = b as unknown as LinkConditionsInput & { charger?: string };
  return fillConditions(input, seed);
}

/** What an action step needs of its run. */
export interface ActionRun {
  host: ScenarioHost;
  orgId: string;
  wsUrl?: string;
  csmsHook?: string;
  /** The next seed drawn from the run's seed (a link step that names none). */
  nextSeed: () => number;
}

/** Carries out an action step on one charger: the problem, if any. */
export type Action = (c: HostedScenarioCharger, b: Fields) => Promise<string | undefined>;

/** The action of a step kind; undefined when the kind is not an action (a wait, an expectation). */
export function actionOf(kind: string, run: ActionRun): Action | undefined {
  const command = COMMANDS[kind];
  if (command) return (c, b) => run.host.command(run.orgId, c, command, commandPayload(kind, b));
  const external = { wsUrl: run.wsUrl, hookUrl: run.csmsHook };
  switch (kind) {
    case 'reboot':
      return async (c) => {
        await run.host.reboot(run.orgId, c);
        return undefined;
      };
    case 'misbehave':
      return (c, b) => run.host.misbehave(run.orgId, c, misbehaviourOf(b));
    case 'link':
      return (c, b) => run.host.link(run.orgId, c, conditionsOfStep(b, run.nextSeed()));
    case 'csms_call':
      return (c, b) => run.host.csmsCall(c, b.action, b.payload, external);
  }
  return undefined;
}
