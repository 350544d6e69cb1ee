// The CSMS's calls to the charger, typed per version and action: in a version's table
// (ocpp16/ocpp16-calls.ts, ocpp2/ocpp2-calls.ts) each handler reads its action's request and must
// return its action's response, both from the official schemas (protocols/ocpp/ocpp-types.ts).
// A handler is given the Step, so this sits above core/step.ts; ocpp-wires.ts picks the table by
// version, beside the adapter.
import type { OcppVersion } from '../../../protocols/ocpp/versions.ts';
import type { OcppAction, OcppRequest, OcppResponse } from '../../../protocols/ocpp/ocpp-types.ts';
import type { Step } from './step.ts';

/**
 * One CSMS call handled: read the version's request, call the block, write the version's answer.
 * Throw protocols' RpcError to answer with a CALLERROR of that code.
 */
export type CsmsCall<V extends OcppVersion, A extends OcppAction<V>> = (
  p: OcppRequest<V, A>,
  s: Step,
) => OcppResponse<V, A>;

/** A version's table of the CSMS calls it answers; an action not in it is answered NotImplemented. */
export type CsmsCalls<V extends OcppVersion> = { readonly [A in OcppAction<V>]?: CsmsCall<V, A> };

/**
 * Any version's table, as the machine dispatches from it by action name. The payload it passes was
 * validated by the link against that action's schema, which is what the handler's request type
 * says: the two places that call a handler pass it `as never`, and nothing checks it again.
 */
export type CsmsCallTable = Readonly<Record<string, ((p: never, s: Step) => object) | undefined>>;
