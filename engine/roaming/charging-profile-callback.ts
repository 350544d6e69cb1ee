// E26: as a CPO, send the eMSP partner of a session the charging profile active on it
// (PUT {endpoints.chargingprofiles}/{session_id}) and report what the partner answered.
import {
  describeAnswer,
  failureOf,
  partnerLabel,
  type OcpiClient,
  type OcpiOutcome,
} from '../../protocols/ocpi/client.ts';
import { isOcpiClientError } from '../../protocols/ocpi/envelope.ts';
import type { ActiveChargingProfile } from '../../protocols/ocpi/charging-profile.ts';
import type { OcpiVersion } from '../../protocols/ocpi/versions.ts';
import type { PartnerStore } from './partner-store.ts';
import { moduleUrl } from './ocpi-gateway.ts';

export const CHARGING_PROFILE_OPERATION = 'ActiveChargingProfile';

/** The spec's 200 body of E26. */
export interface ChargingProfileOutcome {
  partner_id: number;
  operation: string;
  session_id: string;
  /** ACCEPTED, REJECTED (OCPI 2xxx/3xxx), FAILED (unreachable, HTTP error, no envelope) or TIMEOUT. */
  result: 'ACCEPTED' | 'REJECTED' | 'FAILED' | 'TIMEOUT';
  /** What the partner said: data.result when it sent one, else its status_message. */
  response_result: string | null;
  /** The timeout of the call, in milliseconds. */
  timeout: number;
  http_status: number | null;
  ocpi_status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export type ChargingProfileResult =
  | { kind: 'partner_not_found'; detail: string }
  | { kind: 'version_mismatch'; detail: string }
  /** The partner has no endpoint for the module this call needs (400). */
  | { kind: 'missing_endpoint'; detail: string }
  | { kind: 'accepted'; outcome: ChargingProfileOutcome }
  /** OCPI status 2xxx: the partner refused under a business rule (400). */
  | { kind: 'rejected'; detail: string; outcome: ChargingProfileOutcome }
  | { kind: 'failed'; status: 502 | 504; detail: string; outcome: ChargingProfileOutcome };

export interface ChargingProfileRequest {
  orgId: string;
  partnerId: number;
  version: OcpiVersion;
  sessionId: string;
  profile: ActiveChargingProfile;
  correlationId: string;
}

export class ChargingProfileCallback {
  constructor(
    private readonly partners: PartnerStore,
    private readonly client: OcpiClient,
  ) {}

  async send(req: ChargingProfileRequest): Promise<ChargingProfileResult> {
    const partner = await this.partners.get(req.orgId, req.partnerId);
    if (!partner || partner.role !== 'EMSP')
      return {
        kind: 'partner_not_found',
        detail: `EMSP roaming partner ${req.partnerId} not found for the organization`,
      };
    if (partner.ocpi_version !== req.version)
      return {
        kind: 'version_mismatch',
        detail: `${partnerLabel(partner)} speaks OCPI ${partner.ocpi_version}, not ${req.version}`,
      };
    const base = partner.endpoints.chargingprofiles;
    if (!base)
      return {
        kind: 'missing_endpoint',
        detail:
          `${partnerLabel(partner)} has no chargingprofiles endpoint: register the partner with ` +
          'endpoints.chargingprofiles to send it charging profiles',
      };

    const outcome = await this.client.send({
      partner,
      method: 'PUT',
      url: moduleUrl(base, req.sessionId),
      body: req.profile,
      correlationId: req.correlationId,
    });
    const report = toReport(partner.id, req.sessionId, this.client.timeoutMs, outcome);
    if (outcome.kind === 'accepted') return { kind: 'accepted', outcome: report };
    if (
      outcome.kind === 'rejected' &&
      outcome.ocpiStatusCode !== null &&
      isOcpiClientError(outcome.ocpiStatusCode)
    )
      return {
        kind: 'rejected',
        detail: `${partnerLabel(partner)} rejected the charging profile of session ${req.sessionId}: ${describeAnswer(outcome)}`,
        outcome: report,
      };
    const failure = failureOf(`Sending the charging profile of session ${req.sessionId}`, [
      { partner, outcome },
    ]);
    return { kind: 'failed', ...failure, outcome: report };
  }
}

function toReport(
  partnerId: number,
  sessionId: string,
  timeoutMs: number,
  outcome: OcpiOutcome,
): ChargingProfileOutcome {
  const answered = 'httpStatus' in outcome;
  let responseResult: string | null = null;
  if (outcome.kind === 'accepted') {
    const data = outcome.data as { result?: unknown } | undefined;
    if (data && typeof data.result === 'string') responseResult = data.result;
  }
  if (responseResult === null && answered) responseResult = outcome.statusMessage;
  return {
    partner_id: partnerId,
    operation: CHARGING_PROFILE_OPERATION,
    session_id: sessionId,
    result:
      outcome.kind === 'accepted'
        ? 'ACCEPTED'
        : outcome.kind === 'rejected'
          ? 'REJECTED'
          : outcome.kind === 'timeout'
            ? 'TIMEOUT'
            : 'FAILED',
    response_result: responseResult,
    timeout: timeoutMs,
    http_status: answered ? outcome.httpStatus : null,
    ocpi_status_code: answered ? outcome.ocpiStatusCode : null,
    duration_ms: outcome.durationMs,
    error: outcome.kind === 'accepted' ? null : describeAnswer(outcome),
  };
}
