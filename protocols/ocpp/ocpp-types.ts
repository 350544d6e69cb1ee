// The payload of every OCPP message, by version and action: `OcppRequest<'ocpp2.0.1', 'SetChargingProfile'>`,
// `OcppResponse<'ocpp1.6', 'BootNotification'>`. The types are typed-ocpp's, generated from the
// official JSON schemas (the same schemas schema-validator.ts checks every message against), so
// a payload's shape is written down once, by the OCA.
//
// Types only: typed-ocpp's index compiles every schema when it is loaded, so nothing imports a
// value from it. Its per-version call and result modules are read here with `import type`, which
// leaves nothing behind at run time.
import type { Call as Call16 } from 'typed-ocpp/dist/ocpp16/call.js';
import type { CallResultTypesByAction as Results16 } from 'typed-ocpp/dist/ocpp16/callresult.js';
import type { Call as Call20 } from 'typed-ocpp/dist/ocpp20/call.js';
import type { CallResultTypesByAction as Results20 } from 'typed-ocpp/dist/ocpp20/callresult.js';
import type { Call as Call21 } from 'typed-ocpp/dist/ocpp21/call.js';
import type { CallResultTypesByAction as Results21 } from 'typed-ocpp/dist/ocpp21/callresult.js';
import type { OcppVersion } from './versions.ts';

/** A table with an entry for every version: one that lacks a version does not compile. */
type EveryVersion<T extends { [V in OcppVersion]: unknown }> = T;

/** Each version's CALL frames: `[2, messageId, action, payload]`, one member per action. */
type Calls = EveryVersion<{ 'ocpp1.6': Call16; 'ocpp2.0.1': Call20; 'ocpp2.1': Call21 }>;
/** Each version's CALLRESULT frames, by action: `[3, messageId, payload]`. */
type Results = EveryVersion<{ 'ocpp1.6': Results16; 'ocpp2.0.1': Results20; 'ocpp2.1': Results21 }>;

/** The actions a version has (either side may send them), as plain strings. */
export type OcppAction<V extends OcppVersion> = `${Calls[V][2]}`;

/**
 * The CALL payload of `A` in version `V`. With several versions (`OcppRequest<OcppVersion, 'Reset'>`),
 * the union of theirs: a reader that does not know the version must tell them apart.
 */
export type OcppRequest<V extends OcppVersion, A extends string> = V extends OcppVersion
  ? Calls[V] extends infer C
    ? C extends readonly [unknown, unknown, infer X extends string, infer P]
      ? `${X}` extends A
        ? P
        : never
      : never
    : never
  : never;

/** The CALLRESULT payload answering `A` in version `V` (a union over several versions, like OcppRequest). */
export type OcppResponse<V extends OcppVersion, A extends string> = V extends OcppVersion
  ? {
      [K in keyof Results[V] as `${K & string}`]: Results[V][K] extends readonly [unknown, unknown, infer P]
        ? P
        : never;
    } extends infer M
    ? A extends keyof M
      ? M[A]
      : never
    : never
  : never;
