// Token groups link locations (a record only: chargers do not restrict tokens by it). E20 pages
// through a group's locations, soft-deleted ones included with their deleted_at.
import type { Database } from '../platform/db/database.ts';
import { toLocation, type Location } from './location-store.ts';

export interface TokenGroup {
  id: number;
  name: string;
  location_ids: number[];
}

export interface LocationPage {
  items: Location[];
  offset: number;
  limit: number;
  next_offset: number | null;
}

const LOCATION_COLUMNS = `l.id, l.organization_id, l.location_id, l.country_code, l.party_id, l.publish,
  l.publish_allowed_to, l.name, l.address, l.city, l.postal_code, l.state, l.country, l.coordinates,
  l.related_locations, l.parking_type, l.parking_places, l.directions, l.operator, l.suboperator, l.owner,
  l.facilities, l.time_zone, l.opening_times, l.charging_when_closed, l.images, l.energy_mix, l.help_phone,
  l.role, l.origin, l.ocpi_version, l.ocpp_version, l.last_updated, l.revision, l.created_at, l.updated_at,
  l.deleted_at`;

export class TokenGroupStore {
  constructor(private readonly db: Database) {}

  /**
   * A group over locations of the organization (live ones: not deleted). Any id that names none:
   * nothing is created and those ids come back, in the order given.
   */
  async create(
    orgId: string,
    name: string,
    locationIds: number[],
  ): Promise<{ kind: 'created'; group: TokenGroup } | { kind: 'unknown_locations'; missing: number[] }> {
    const unique = [...new Set(locationIds)];
    return this.db.tx(async (q) => {
      if (unique.length > 0) {
        // FOR SHARE: a location cannot be deleted between this check and the insert.
        const { rows: found } = await q.query<{ id: number }>(
          `SELECT id FROM cpo_locations WHERE organization_id = $1 AND id = ANY($2::bigint[]) AND deleted_at IS NULL
           FOR SHARE`,
          [orgId, unique],
        );
        const live = new Set(found.map((r) => r.id));
        const missing = unique.filter((id) => !live.has(id));
        if (missing.length > 0) return { kind: 'unknown_locations' as const, missing };
      }
      const { rows } = await q.query<{ id: number }>(
        'INSERT INTO cpo_token_groups (organization_id, name) VALUES ($1, $2) RETURNING id',
        [orgId, name],
      );
      const id = rows[0].id;
      if (unique.length > 0)
        await q.query(
          `INSERT INTO cpo_token_group_locations (group_id, location_pk) SELECT $1, unnest($2::bigint[])`,
          [id, unique],
        );
      return { kind: 'created' as const, group: { id, name, location_ids: unique } };
    });
  }

  /** undefined when the group is not the organization's. */
  async locations(
    orgId: string,
    groupId: number,
    offset: number,
    limit: number,
  ): Promise<LocationPage | undefined> {
    const { rows: groups } = await this.db.query(
      'SELECT 1 FROM cpo_token_groups WHERE id = $1 AND organization_id = $2',
      [groupId, orgId],
    );
    if (groups.length === 0) return undefined;
    // One row more than asked says whether there is a next page.
    const { rows } = await this.db.query(
      `SELECT ${LOCATION_COLUMNS} FROM cpo_token_group_locations g JOIN cpo_locations l ON l.id = g.location_pk
       WHERE g.group_id = $1 ORDER BY l.id LIMIT $2 OFFSET $3`,
      [groupId, limit + 1, offset],
    );
    const more = rows.length > limit;
    return {
      items: rows.slice(0, limit).map((r) => toLocation(r, true)),
      offset,
      limit,
      next_offset: more ? offset + limit : null,
    };
  }
}
