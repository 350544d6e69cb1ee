// The roaming-partner registry of each organization: who we talk OCPI to, in which role and
// version, with which credentials token and module endpoints.
import type { Queryable } from '../platform/db/database.ts';
import type { SecretBox } from '../platform/secrets/secret-box.ts';
import type { OcpiVersion } from '../../protocols/ocpi/versions.ts';

export type PartnerRole = 'CPO' | 'EMSP';

export interface NewPartner {
  name: string;
  role: PartnerRole;
  country_code: string;
  party_id: string;
  ocpi_version: OcpiVersion;
  token: string;
  endpoints: Record<string, string>;
}

/** A partner as stored, credentials token included: engine use only. */
export interface Partner extends NewPartner {
  id: number;
  organization_id: string;
  created_at: string;
  updated_at: string;
}

/** A partner as the API shows it: the credentials token is write-only. */
export type PublicPartner = Omit<Partner, 'token'>;

const COLUMNS = `id, organization_id, name, role, country_code, party_id, ocpi_version, token_sealed, endpoints,
  created_at, updated_at`;

type PartnerRow = Omit<Partner, 'token'> & { token_sealed: string };

// The credentials token is sealed at rest and bound to its organization.
const tokenContext = (orgId: string) => `roaming-partner-token:${orgId}`;

export class PartnerStore {
  constructor(
    private readonly db: Queryable,
    private readonly secrets: SecretBox,
  ) {}

  /** Undefined when the organization already has a partner with this role, country code and party id. */
  async create(orgId: string, p: NewPartner): Promise<Partner | undefined> {
    const { rows } = await this.db.query<PartnerRow>(
      `INSERT INTO roaming_partners (organization_id, name, role, country_code, party_id, ocpi_version, token_sealed, endpoints)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [
        orgId,
        p.name,
        p.role,
        p.country_code,
        p.party_id,
        p.ocpi_version,
        this.secrets.seal(p.token, tokenContext(orgId)),
        JSON.stringify(p.endpoints),
      ],
    );
    return rows[0] && this.toPartner(rows[0]);
  }

  async get(orgId: string, id: number): Promise<Partner | undefined> {
    const { rows } = await this.db.query<PartnerRow>(
      `SELECT ${COLUMNS} FROM roaming_partners WHERE organization_id = $1 AND id = $2`,
      [orgId, id],
    );
    return rows[0] && this.toPartner(rows[0]);
  }

  async list(orgId: string, role?: PartnerRole): Promise<Partner[]> {
    const { rows } = await this.db.query<PartnerRow>(
      `SELECT ${COLUMNS} FROM roaming_partners WHERE organization_id = $1 AND ($2::text IS NULL OR role = $2)
       ORDER BY id`,
      [orgId, role ?? null],
    );
    return rows.map((r) => this.toPartner(r));
  }

  private toPartner({ token_sealed, ...r }: PartnerRow): Partner {
    return {
      ...r,
      token: this.secrets.open(token_sealed, tokenContext(r.organization_id)),
      created_at: iso(r.created_at),
      updated_at: iso(r.updated_at),
    };
  }

  async delete(orgId: string, id: number): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'DELETE FROM roaming_partners WHERE organization_id = $1 AND id = $2',
      [orgId, id],
    );
    return rowCount === 1;
  }
}

export function publicPartner({ token: _token, ...rest }: Partner): PublicPartner {
  return rest;
}

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));
