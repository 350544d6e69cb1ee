/** The OCPP-J versions we speak; the value is also the WebSocket subprotocol name. */
export type OcppVersion = 'ocpp1.6' | 'ocpp2.0.1' | 'ocpp2.1';

/** Every subprotocol we can speak (a central system offers these; a charger asks for one). */
export const SUBPROTOCOLS: readonly OcppVersion[] = ['ocpp1.6', 'ocpp2.0.1', 'ocpp2.1'];

export function isOcppVersion(value: string): value is OcppVersion {
  return value === 'ocpp1.6' || value === 'ocpp2.0.1' || value === 'ocpp2.1';
}
