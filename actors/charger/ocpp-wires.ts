// The wire adapter of each OCPP version a charger can speak, and its table of the CSMS's calls.
// 2.1 keeps 2.0.1's messages, so both share one adapter and one table (typed by 2.0.1's schemas:
// a 2.1 payload is read through them); a version that is not here is an error, never silently
// another one.
import type { OcppVersion } from '../../protocols/ocpp/versions.ts';
import type { OcppWire } from './core/wire.ts';
import type { CsmsCallTable } from './core/csms-calls.ts';
import { ocpp16Wire } from './ocpp16/ocpp16-wire.ts';
import { OCPP16_CALLS } from './ocpp16/ocpp16-calls.ts';
import { ocpp2Wire } from './ocpp2/ocpp2-wire.ts';
import { OCPP2_CALLS } from './ocpp2/ocpp2-calls.ts';
import { V2X_CALLS, V2X_WIRE } from './ocpp21/v2x.ts';

export const OCPP_WIRES: Readonly<Record<OcppVersion, OcppWire>> = {
  'ocpp1.6': ocpp16Wire,
  'ocpp2.0.1': ocpp2Wire,
  // 2.1 block Q (V2X) laid over the 2.x adapter until 2.1 has a wire of its own.
  'ocpp2.1': { ...ocpp2Wire, ...V2X_WIRE },
};

/** The CSMS calls each version answers, by action: the one dispatch from action to block. */
export const OCPP_CALLS: Readonly<Record<OcppVersion, CsmsCallTable>> = {
  'ocpp1.6': OCPP16_CALLS,
  'ocpp2.0.1': OCPP2_CALLS,
  'ocpp2.1': { ...(OCPP2_CALLS as CsmsCallTable), ...(V2X_CALLS as CsmsCallTable) },
};

export function wireFor(version: string): OcppWire {
  const wire = Object.hasOwn(OCPP_WIRES, version) ? OCPP_WIRES[version as OcppVersion] : undefined;
  if (!wire)
    throw new Error(
      `no charger speaks OCPP version '${version}' (known: ${Object.keys(OCPP_WIRES).join(', ')})`,
    );
  return wire;
}
