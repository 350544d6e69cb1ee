// Token status changes (E17 activation and the other transitions): the change is pushed to
// every CPO partner of the organization that takes tokens (has a tokens endpoint) in parallel,
// and the token changes only when every one accepted. A token no partner knows yet (PROVISIONED)
// is not pushed when it is expired or invalidated. With no such partner the change is local.
import { failureOf, type OcpiClient, type OcpiFailure } from '../../protocols/ocpi/client.ts';
import type { Partner, PartnerStore } from '../roaming/partner-store.ts';
import { moduleUrl } from '../roaming/ocpi-gateway.ts';
import { toOcpiToken, type Token, type TokenStore } from './token-store.ts';
import {
  TOKEN_TRANSITIONS,
  canApply,
  notAllowedDetail,
  partnersKnow,
  validAtPartners,
  type TokenEvent,
} from './token-status.ts';

export type TransitionResult =
  | { kind: 'changed'; token: Token }
  | { kind: 'not_found'; detail: string }
  | { kind: 'not_allowed'; detail: string }
  | { kind: 'push_failed'; status: 502 | 504; detail: string };

export interface TransitionRequest {
  orgId: string;
  tokenId: number;
  event: TokenEvent;
  reason?: string | null;
  correlationId: string;
}

export class TokenTransitions {
  constructor(
    private readonly tokens: TokenStore,
    private readonly partners: PartnerStore,
    private readonly client: OcpiClient,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async apply(req: TransitionRequest): Promise<TransitionResult> {
    const token = await this.tokens.get(req.orgId, req.tokenId);
    if (!token) return { kind: 'not_found', detail: `Token ${req.tokenId} not found` };
    if (!canApply(req.event, token.status))
      return { kind: 'not_allowed', detail: notAllowedDetail(token.id, token.status, req.event) };

    const to = TOKEN_TRANSITIONS[req.event].to;
    const at = this.now();
    if (partnersKnow(token.status) || validAtPartners(to)) {
      const failed = await this.push(token, validAtPartners(to), at, req.correlationId);
      if (failed) return { ...failed, detail: `${failed.detail}. Token ${token.id} stays ${token.status}` };
    }

    const changed = await this.tokens.transition(req.orgId, token.id, {
      from: token.status,
      to,
      at,
      reason: req.reason ?? null,
    });
    if (changed) return { kind: 'changed', token: changed };
    // Another request changed the token while we pushed: answer from its status now.
    const current = await this.tokens.get(req.orgId, token.id);
    if (!current) return { kind: 'not_found', detail: `Token ${req.tokenId} not found` };
    return { kind: 'not_allowed', detail: notAllowedDetail(current.id, current.status, req.event) };
  }

  /** PUT {tokens}/{country_code}/{party_id}/{uid}?type={type} to every CPO partner, in parallel. */
  private async push(
    token: Token,
    valid: boolean,
    at: Date,
    correlationId: string,
  ): Promise<{ kind: 'push_failed'; status: 502 | 504; detail: string } | undefined> {
    // A CPO partner without a tokens endpoint does not take token pushes (OCPI: Tokens is optional).
    const partners = (await this.partners.list(token.organization_id, 'CPO')).filter(
      (p) => p.endpoints.tokens,
    );
    const body = toOcpiToken(token, valid, at);
    const outcomes = await Promise.all(
      partners.map(async (partner) => ({
        partner,
        outcome: await this.client.send({
          partner,
          method: 'PUT',
          url: `${moduleUrl(partner.endpoints.tokens, token.country_code, token.party_id, token.uid)}?type=${encodeURIComponent(token.type)}`,
          body,
          correlationId,
        }),
      })),
    );
    const failures = outcomes.filter(
      (o): o is { partner: Partner; outcome: OcpiFailure } => o.outcome.kind !== 'accepted',
    );
    if (failures.length === 0) return undefined;
    return { kind: 'push_failed', ...failureOf('Token push', failures) };
  }
}
