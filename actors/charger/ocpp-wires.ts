// The wire adapter of each OCPP version a charger can speak, and its table of the CSMS's calls.
// 2.1 keeps 2.0.1's messages: its adapter and table (ocpp21/) start from 2.0.1's and add what 2.1
// adds; a version that is not here is an error, never silently another one.
import type { OcppVersion } from '../../protocols/ocpp/versions.ts';
import type { OcppWire } from './core/wire.ts';
import type { CsmsCallTable } from './core/csms-calls.ts';
import { ocpp16Wire } from './ocpp16/ocpp16-wire.ts';
import { OCPP16_CALLS } from './ocpp16/ocpp16-calls.ts';
import { ocpp2Wire } from './ocpp2/ocpp2-wire.ts';
import { OCPP2_CALLS } from './ocpp2/ocpp2-calls.ts';
import { ocpp21Wire } from './ocpp21/ocpp21-wire.ts';
import { OCPP21_CALLS } from './ocpp21/ocpp21-calls.ts';

export const OCPP_WIRES: Readonly<Record<OcppVersion, OcppWire>> = {
  'ocpp1.6': ocpp16Wire,
  'ocpp2.0.1': ocpp2Wire,
  'ocpp2.1': ocpp21Wire,
};

/** The CSMS calls each version answers, by action: the one dispatch from action to block. */
export const OCPP_CALLS: Readonly<Record<OcppVersion, CsmsCallTable>> = {
  'ocpp1.6': OCPP16_CALLS,
  'ocpp2.0.1': OCPP2_CALLS,
  'ocpp2.1': OCPP21_CALLS,
};

export function wireFor(version: string): OcppWire {
  const wire = Object.hasOwn(OCPP_WIRES, version) ? OCPP_WIRES[version as OcppVersion] : undefined;
  if (!wire)
    throw new Error(
      `no charger speaks OCPP version '${version}' (known: ${Object.keys(OCPP_WIRES).join(', ')})`,
    );
  return wire;
}
