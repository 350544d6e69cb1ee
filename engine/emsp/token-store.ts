// eMSP tokens of each organization (the spec's Token record), and their OCPI form.
import type { Queryable } from '../platform/db/database.ts';
import type { OcpiToken, TokenType, WhitelistType } from '../../protocols/ocpi/token.ts';
import type { OcpiVersion } from '../../protocols/ocpi/versions.ts';
import type { TokenStatus } from './token-status.ts';

export interface NewToken {
  uid: string;
  type: TokenType;
  contract_id: string;
  issuer: string;
  country_code: string;
  party_id: string;
  whitelist: WhitelistType;
  ocpi_version: OcpiVersion;
  visual_number?: string | null;
  group_id?: string | null;
  language?: string | null;
  valid_from?: Date | null;
  valid_until?: Date | null;
  metadata?: Record<string, unknown> | null;
}

export interface Token {
  id: number;
  organization_id: string;
  uid: string;
  type: TokenType;
  contract_id: string;
  issuer: string;
  country_code: string;
  party_id: string;
  whitelist: WhitelistType;
  ocpi_version: string;
  status: TokenStatus;
  visual_number: string | null;
  group_id: string | null;
  language: string | null;
  valid_from: string | null;
  valid_until: string | null;
  metadata: Record<string, unknown> | null;
  status_reason: string | null;
  invalidated_at: string | null;
  created_at: string;
  last_updated: string;
}

const COLUMNS = `id, organization_id, uid, type, contract_id, issuer, country_code, party_id, whitelist,
  ocpi_version, status, visual_number, group_id, language, valid_from, valid_until, metadata, status_reason,
  invalidated_at, created_at, last_updated`;

export class TokenStore {
  constructor(private readonly db: Queryable) {}

  /** Undefined when the organization already has this uid under this country code and party id. */
  async create(orgId: string, t: NewToken): Promise<Token | undefined> {
    const { rows } = await this.db.query<Token>(
      `INSERT INTO emsp_tokens (organization_id, uid, type, contract_id, issuer, country_code, party_id, whitelist,
         ocpi_version, status, visual_number, group_id, language, valid_from, valid_until, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'PROVISIONED', $10, $11, $12, $13, $14, $15)
       ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [
        orgId,
        t.uid,
        t.type,
        t.contract_id,
        t.issuer,
        t.country_code,
        t.party_id,
        t.whitelist,
        t.ocpi_version,
        t.visual_number ?? null,
        t.group_id ?? null,
        t.language ?? null,
        t.valid_from ?? null,
        t.valid_until ?? null,
        t.metadata == null ? null : JSON.stringify(t.metadata),
      ],
    );
    return rows[0] && toToken(rows[0]);
  }

  async get(orgId: string, id: number): Promise<Token | undefined> {
    const { rows } = await this.db.query<Token>(
      `SELECT ${COLUMNS} FROM emsp_tokens WHERE organization_id = $1 AND id = $2`,
      [orgId, id],
    );
    return rows[0] && toToken(rows[0]);
  }

  /** Moves the token from `from` to `to`; undefined when its status is no longer `from`. */
  async transition(
    orgId: string,
    id: number,
    change: { from: TokenStatus; to: TokenStatus; at: Date; reason: string | null },
  ): Promise<Token | undefined> {
    const { rows } = await this.db.query<Token>(
      `UPDATE emsp_tokens SET status = $4, last_updated = $5, status_reason = $6,
         invalidated_at = CASE WHEN $4 = 'INVALIDATED' THEN $5 ELSE invalidated_at END
       WHERE organization_id = $1 AND id = $2 AND status = $3 RETURNING ${COLUMNS}`,
      [orgId, id, change.from, change.to, change.at, change.reason],
    );
    return rows[0] && toToken(rows[0]);
  }
}

/** The OCPI Token object partners receive. */
export function toOcpiToken(t: Token, valid: boolean, lastUpdated: Date): OcpiToken {
  return {
    country_code: t.country_code,
    party_id: t.party_id,
    uid: t.uid,
    type: t.type,
    contract_id: t.contract_id,
    ...(t.visual_number ? { visual_number: t.visual_number } : {}),
    issuer: t.issuer,
    ...(t.group_id ? { group_id: t.group_id } : {}),
    valid,
    whitelist: t.whitelist,
    ...(t.language ? { language: t.language } : {}),
    last_updated: lastUpdated.toISOString(),
  };
}

const iso = (v: unknown) => (v == null ? null : v instanceof Date ? v.toISOString() : String(v));

function toToken(r: Token): Token {
  return {
    ...r,
    valid_from: iso(r.valid_from),
    valid_until: iso(r.valid_until),
    invalidated_at: iso(r.invalidated_at),
    created_at: iso(r.created_at)!,
    last_updated: iso(r.last_updated)!,
  };
}
