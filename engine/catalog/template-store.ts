// Reads of the location-template gallery, in the gallery's own order.
import type { Queryable } from '../platform/db/database.ts';

export interface LocationTemplate {
  name: string;
  slug: string;
  description: string;
  cpo_name: string;
  cpo_slug: string;
  party_id: string;
  ocpp_version: string;
  ocpi_version: string;
  connector_type: string;
  body: Record<string, unknown>;
}

export interface TemplateFilter {
  ocpp_version?: string;
  ocpi_version?: string;
  connector_type?: string;
  include_all: boolean;
}

export class TemplateStore {
  constructor(private readonly db: Queryable) {}

  async list(filter: TemplateFilter): Promise<LocationTemplate[]> {
    const { rows } = await this.db.query<LocationTemplate>(
      `SELECT name, slug, description, cpo_name, cpo_slug, party_id, ocpp_version, ocpi_version,
              connector_type, body
       FROM location_templates
       WHERE ($1::boolean OR recommended)
         AND ($2::text IS NULL OR ocpp_version = $2)
         AND ($3::text IS NULL OR ocpi_version = $3)
         AND ($4::text IS NULL OR lower(connector_type) = lower($4))
       ORDER BY position`,
      [
        filter.include_all,
        filter.ocpp_version ?? null,
        filter.ocpi_version ?? null,
        filter.connector_type ?? null,
      ],
    );
    return rows;
  }
}
