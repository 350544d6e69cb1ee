// E22: registering a charge point at the built-in central system, with the rule that spans two
// stores (its location, when given, is one of the organization's), so the router calls one thing.
import type { ChargePoint, ChargePointInput, ChargePointStore } from './charge-point-store.ts';
import type { LocationStore } from './location-store.ts';

export type Registration =
  | { kind: 'created'; chargePoint: ChargePoint }
  | { kind: 'location_not_found' }
  /** The identity is registered already (in any organization: the OCPP URL names no organization). */
  | { kind: 'identity_taken' };

export class ChargePointRegistry {
  constructor(
    private readonly locations: LocationStore,
    private readonly chargePoints: ChargePointStore,
  ) {}

  async register(orgId: string, body: ChargePointInput): Promise<Registration> {
    if (
      body.location_id !== undefined &&
      (await this.locations.existingIds(orgId, [body.location_id])).size === 0
    )
      return { kind: 'location_not_found' };
    const chargePoint = await this.chargePoints.create(orgId, body);
    return chargePoint ? { kind: 'created', chargePoint } : { kind: 'identity_taken' };
  }
}
