// CPO locations in OCPI shape (one row per location, nested OCPI objects as jsonb). A patch is one
// UPDATE guarded by its preconditions, so concurrent patches never lose an update: each one either
// applies on top of the previous one (revision + 1) or is refused as a whole.
import type { Queryable } from '../platform/db/database.ts';

const TEXT = [
  'location_id',
  'country_code',
  'party_id',
  'address',
  'city',
  'country',
  'time_zone',
  'role',
  'origin',
  'ocpi_version',
  'name',
  'postal_code',
  'state',
  'parking_type',
  'help_phone',
  'ocpp_version',
] as const;
const BOOLEAN = ['publish', 'charging_when_closed'] as const;
const JSON_FIELDS = [
  'coordinates',
  'publish_allowed_to',
  'related_locations',
  'parking_places',
  'directions',
  'operator',
  'suboperator',
  'owner',
  'facilities',
  'opening_times',
  'images',
  'energy_mix',
] as const;

type Field = (typeof TEXT)[number] | (typeof BOOLEAN)[number] | (typeof JSON_FIELDS)[number];
const JSON_SET: ReadonlySet<string> = new Set(JSON_FIELDS);
const FIELDS: ReadonlySet<string> = new Set<string>([...TEXT, ...BOOLEAN, ...JSON_FIELDS]);

/** Fields a caller may set: every Location field but the ones the store keeps. */
export type LocationFields = Partial<Record<Field, unknown>>;

export interface Location {
  id: number;
  organization_id: string;
  location_id: string;
  country_code: string;
  party_id: string;
  publish: boolean;
  publish_allowed_to: unknown;
  name: string | null;
  address: string;
  city: string;
  postal_code: string | null;
  state: string | null;
  country: string;
  coordinates: { latitude: string; longitude: string };
  related_locations: unknown;
  parking_type: string | null;
  parking_places: unknown;
  directions: unknown;
  operator: unknown;
  suboperator: unknown;
  owner: unknown;
  facilities: string[] | null;
  time_zone: string;
  opening_times: unknown;
  charging_when_closed: boolean | null;
  images: unknown;
  energy_mix: unknown;
  help_phone: string | null;
  role: string;
  origin: string;
  ocpi_version: string;
  ocpp_version: string | null;
  last_updated: string;
  revision: number;
  created_at: string;
  updated_at: string;
  deleted_at?: string | null;
}

export type PatchOutcome =
  | { ok: true; location: Location }
  | { ok: false; reason: 'not_found' | 'read_only' | 'precondition_failed' | 'stale_revision' };

// Response order: identity, OCPI fields, then the store's own fields.
const COLUMNS = `id, organization_id, location_id, country_code, party_id, publish, publish_allowed_to, name,
  address, city, postal_code, state, country, coordinates, related_locations, parking_type, parking_places,
  directions, operator, suboperator, owner, facilities, time_zone, opening_times, charging_when_closed, images,
  energy_mix, help_phone, role, origin, ocpi_version, ocpp_version, last_updated, revision, created_at,
  updated_at`;

// Strictly increasing at millisecond precision, so a client's If-Match always sees a change.
const NEXT_LAST_UPDATED = `GREATEST(date_trunc('milliseconds', clock_timestamp()), last_updated + interval '1 millisecond')`;

type Row = Record<string, unknown>;

export function toLocation(row: Row, withDeletedAt = false): Location {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) {
    if (k === 'deleted_at' && !withDeletedAt) continue;
    out[k] = v instanceof Date ? v.toISOString() : v;
  }
  return out as unknown as Location;
}

function sqlValue(field: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  return JSON_SET.has(field) ? JSON.stringify(value) : value;
}

export class LocationStore {
  constructor(private readonly db: Queryable) {}

  /** undefined when the organization already has a live location with this location_id. */
  async create(orgId: string, fields: LocationFields): Promise<Location | undefined> {
    const names = Object.keys(fields).filter((k) => FIELDS.has(k) && fields[k as Field] !== undefined);
    const values = names.map((k) => sqlValue(k, fields[k as Field]));
    const params = names.map((k, i) => `$${i + 2}${JSON_SET.has(k) ? '::jsonb' : ''}`);
    try {
      const { rows } = await this.db.query(
        `INSERT INTO cpo_locations (organization_id, ${names.join(', ')}, last_updated)
         VALUES ($1, ${params.join(', ')}, date_trunc('milliseconds', clock_timestamp()))
         RETURNING ${COLUMNS}`,
        [orgId, ...values],
      );
      return toLocation(rows[0]);
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return undefined;
      throw err;
    }
  }

  async get(orgId: string, locationId: string): Promise<Location | undefined> {
    const { rows } = await this.db.query(
      `SELECT ${COLUMNS} FROM cpo_locations
       WHERE organization_id = $1 AND location_id = $2 AND deleted_at IS NULL`,
      [orgId, locationId],
    );
    return rows[0] && toLocation(rows[0]);
  }

  /** Soft delete: the row stays for the token groups that list it. */
  async remove(orgId: string, locationId: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE cpo_locations SET deleted_at = now(), updated_at = now()
       WHERE organization_id = $1 AND location_id = $2 AND deleted_at IS NULL`,
      [orgId, locationId],
    );
    return (rowCount ?? 0) > 0;
  }

  /** The given record ids that are live locations of the organization. */
  async existingIds(orgId: string, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const { rows } = await this.db.query<{ id: number }>(
      `SELECT id FROM cpo_locations WHERE organization_id = $1 AND id = ANY($2::bigint[]) AND deleted_at IS NULL`,
      [orgId, ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Applies `changes` (undefined: unchanged, null: cleared) when every precondition holds:
   * the location is LOCAL, last_updated equals `ifMatch`, revision equals `expectedRevision`.
   */
  async patch(
    orgId: string,
    locationId: string,
    changes: LocationFields,
    cond: { ifMatch?: Date; expectedRevision?: number },
  ): Promise<PatchOutcome> {
    const values: unknown[] = [orgId, locationId];
    const sets: string[] = [];
    for (const [field, value] of Object.entries(changes)) {
      if (!FIELDS.has(field) || value === undefined) continue;
      values.push(sqlValue(field, value));
      sets.push(`${field} = $${values.length}${JSON_SET.has(field) ? '::jsonb' : ''}`);
    }
    let where = `organization_id = $1 AND location_id = $2 AND deleted_at IS NULL AND origin = 'LOCAL'`;
    if (cond.ifMatch) {
      values.push(cond.ifMatch);
      where += ` AND last_updated = $${values.length}`;
    }
    if (cond.expectedRevision !== undefined) {
      values.push(cond.expectedRevision);
      where += ` AND revision = $${values.length}`;
    }
    const { rows } = await this.db.query(
      `UPDATE cpo_locations SET ${[...sets, 'revision = revision + 1', `last_updated = ${NEXT_LAST_UPDATED}`, 'updated_at = now()'].join(', ')}
       WHERE ${where} RETURNING ${COLUMNS}`,
      values,
    );
    if (rows[0]) return { ok: true, location: toLocation(rows[0]) };
    // Refused: read the row once to say why (in the order a client should fix things).
    const { rows: found } = await this.db.query<{ origin: string; last_updated: Date; revision: number }>(
      `SELECT origin, last_updated, revision FROM cpo_locations
       WHERE organization_id = $1 AND location_id = $2 AND deleted_at IS NULL`,
      [orgId, locationId],
    );
    const row = found[0];
    if (!row) return { ok: false, reason: 'not_found' };
    if (row.origin !== 'LOCAL') return { ok: false, reason: 'read_only' };
    if (cond.ifMatch && row.last_updated.getTime() !== cond.ifMatch.getTime())
      return { ok: false, reason: 'precondition_failed' };
    return { ok: false, reason: 'stale_revision' };
  }
}
