// E19 tariffs CPO partners published to the organization, kept in OCPI 2.2.1 shape.
import type { Queryable } from '../platform/db/database.ts';
import type { OcpiTariff, TariffBody } from '../../protocols/ocpi/tariff.ts';

const OPTIONAL_FIELDS = [
  'type',
  'tariff_alt_text',
  'tariff_alt_url',
  'min_price',
  'max_price',
  'elements',
  'start_date_time',
  'end_date_time',
  'energy_mix',
] as const;

export class TariffStore {
  constructor(
    private readonly db: Queryable,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates or replaces the tariff; last_updated is the partner's when it sent one. */
  async put(orgId: string, tariffId: string, body: TariffBody): Promise<OcpiTariff> {
    const lastUpdated = body.last_updated ? new Date(body.last_updated) : this.now();
    const tariff: OcpiTariff = {
      country_code: body.country_code,
      party_id: body.party_id,
      id: tariffId,
      currency: body.currency,
      ...Object.fromEntries(OPTIONAL_FIELDS.map((f) => [f, body[f] ?? null])),
      last_updated: lastUpdated.toISOString(),
    };
    await this.db.query(
      `INSERT INTO emsp_tariffs (organization_id, country_code, party_id, tariff_id, tariff, last_updated)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (organization_id, country_code, party_id, tariff_id)
       DO UPDATE SET tariff = EXCLUDED.tariff, last_updated = EXCLUDED.last_updated`,
      [orgId, tariff.country_code, tariff.party_id, tariffId, JSON.stringify(tariff), lastUpdated],
    );
    return tariff;
  }

  async get(
    orgId: string,
    tariffId: string,
    countryCode: string,
    partyId: string,
  ): Promise<OcpiTariff | undefined> {
    const { rows } = await this.db.query<{ tariff: OcpiTariff }>(
      `SELECT tariff FROM emsp_tariffs
       WHERE organization_id = $1 AND tariff_id = $2 AND country_code = $3 AND party_id = $4`,
      [orgId, tariffId, countryCode, partyId],
    );
    return rows[0]?.tariff;
  }
}
