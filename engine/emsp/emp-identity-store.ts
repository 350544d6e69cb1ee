// E18 roaming identities: the (country_code, party_id) pairs an organization issues tokens
// under. A pair is registered once per organization (tenants of the sandbox never see each
// other's pairs, so one cannot block or detect another's).
import type { Queryable } from '../platform/db/database.ts';

export interface NewEmpIdentity {
  country_code: string;
  party_id: string;
  label?: string | null;
  contact_email?: string | null;
  contact_phone?: string | null;
  default_network_access: boolean;
}

export interface EmpIdentity {
  emp_identity_id: number;
  country_code: string;
  party_id: string;
  protocol: string;
  default_network_access: boolean;
  status: string;
  label: string | null;
  contact_email: string | null;
  contact_phone: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = `emp_identity_id, country_code, party_id, protocol, default_network_access, status, label,
  contact_email, contact_phone, created_at, updated_at`;

export class EmpIdentityStore {
  constructor(private readonly db: Queryable) {}

  /** Undefined when the organization registered this pair already. */
  async create(orgId: string, e: NewEmpIdentity): Promise<EmpIdentity | undefined> {
    const { rows } = await this.db.query<EmpIdentity>(
      `INSERT INTO emsp_emp_identities (organization_id, country_code, party_id, label, contact_email, contact_phone,
         default_network_access)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [
        orgId,
        e.country_code,
        e.party_id,
        e.label ?? null,
        e.contact_email ?? null,
        e.contact_phone ?? null,
        e.default_network_access,
      ],
    );
    const r = rows[0];
    return r && { ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at) };
  }
}

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));
