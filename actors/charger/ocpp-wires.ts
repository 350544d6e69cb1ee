// The wire adapter of each OCPP version a charger can speak. 2.1 keeps 2.0.1's messages, so both
// share one adapter; a version that is not here is an error, never silently another one.
import type { OcppVersion } from '../../protocols/ocpp/versions.ts';
import type { OcppWire } from './core/wire.ts';
import { ocpp16Wire } from './ocpp16/ocpp16-wire.ts';
import { ocpp2Wire } from './ocpp2/ocpp2-wire.ts';

export const OCPP_WIRES: Readonly<Record<OcppVersion, OcppWire>> = {
  'ocpp1.6': ocpp16Wire,
  'ocpp2.0.1': ocpp2Wire,
  'ocpp2.1': ocpp2Wire,
};

export function wireFor(version: string): OcppWire {
  const wire = Object.hasOwn(OCPP_WIRES, version) ? OCPP_WIRES[version as OcppVersion] : undefined;
  if (!wire)
    throw new Error(
      `no charger speaks OCPP version '${version}' (known: ${Object.keys(OCPP_WIRES).join(', ')})`,
    );
  return wire;
}
