// What the API description says of each command: a summary and example bodies. Keyed by the one
// list of commands (engine/commands/command-kinds.ts), so a new command does not compile until it
// is described here.
import type { EventType } from '../../engine/commands/command-kinds.ts';

/** The deployment of the examples (E5's example answer). */
const target = { deployment_id: '0b8f8f4e-6d1c-4b8e-9a57-2f7f4b0c9a11' };
/** Example requests by name (the body is all a command example needs). */
type Examples = Record<string, { body: unknown }>;

const one = (payload?: unknown): Examples => ({
  oneCharger: { body: payload === undefined ? { target } : { target, payload } },
});

export const COMMAND_DOCS: Record<EventType, { summary: string; examples: Examples }> = {
  'proxy-message': {
    summary: 'Send a raw OCPP message from the chargers to their central system',
    examples: {
      ...one({
        action: 'DataTransfer',
        payload: { vendorId: 'com.example', messageId: 'hello', data: '42' },
      }),
      heartbeat: { body: { target, payload: { action: 'Heartbeat', payload: {} } } },
    },
  },
  'ev-stops-energy': {
    summary: 'The plugged-in EV stops drawing energy (e.g. its battery is full)',
    examples: one({ evse_id: 1, connector_id: 1 }),
  },
  configuration: {
    summary: 'Change a configuration setting (1.6 key, or 2.0.1 component and variable)',
    examples: {
      ...one({ key: 'HeartbeatInterval', value: 60 }),
      ocpp201: {
        body: {
          target: { identity: 'CP-DOC-002' },
          payload: { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval', value: 60 },
        },
      },
    },
  },
  'cache-reset': { summary: 'Clear the authorization cache', examples: one() },
  'local-auth-list': {
    summary: 'Send a local authorization list',
    examples: one({
      list_version: 2,
      update_type: 'Full',
      entries: [
        { id_tag: 'RFID-0001', id_tag_info: { status: 'Accepted', expiry_date: '2030-01-01T00:00:00Z' } },
      ],
    }),
  },
  'plug-in': {
    summary:
      'Plug an EV into a connector; a bidirectional EV can discharge (V2X, 2.1 block Q) down to min_soc_percent',
    examples: {
      ...one({ connector_id: 1, ev_max_power_kw: 11, soc_percent: 20, battery_kwh: 60 }),
      bidirectional: {
        body: {
          target,
          payload: {
            connector_id: 1,
            soc_percent: 80,
            battery_kwh: 60,
            bidirectional: true,
            max_discharge_kw: 10,
            min_soc_percent: 30,
          },
        },
      },
    },
  },
  'grid-frequency': {
    summary:
      'Set the grid frequency (Hz) that the V2X frequency operation modes follow (2.1 CentralFrequency, LocalFrequency)',
    examples: one({ frequency_hz: 49.9 }),
  },
  'grid-event': {
    summary:
      "Inject a grid event (or its end, ended true) that the 2.1 charger's simulated inverter detects: it sends NotifyDERAlarm and, holding the must-trip DER control for it, stops charging and discharging",
    examples: one({ fault: 'OverFrequency' }),
  },
  'present-token': {
    summary: 'Present an RFID token (idTag) at a connector',
    examples: one({ connector_id: 1, id_tag: 'RFID-0001' }),
  },
  unplug: { summary: 'Unplug the EV from a connector', examples: one({ connector_id: 1 }) },
  fault: {
    summary: 'Put a connector in a fault',
    examples: one({ connector_id: 1, error_code: 'GroundFailure' }),
  },
  'clear-fault': { summary: "Clear a connector's fault", examples: one({ connector_id: 1 }) },
  'external-limit': {
    summary:
      'Set (limit_w) or release (limit_w null) an external charging limit from a local EMS or the grid operator (2.0.1 K11-K13: NotifyChargingLimit, ClearedChargingLimit)',
    examples: one({ evse_id: 1, limit_w: 7000, source: 'EMS' }),
  },
  disconnect: {
    summary: 'Drop the connection to the central system (the charger reconnects)',
    examples: one(),
  },
};
