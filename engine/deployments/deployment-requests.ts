// What the deployment service takes from the API routers (E5-E9) and what it answers them.
import type { OcppVersion } from '../../actors/charger/charger-ports.ts';
import type { ChargerSpec, DeployFailureCode, Problem } from './charger-resolution.ts';
import type { DeploymentRow } from './deployment-store.ts';
import type { ChargerGroupSpec } from './location-plan.ts';

export const RUNTIME_ACTIONS = ['stop', 'start', 'restart', 'delete'] as const;
export type RuntimeAction = (typeof RUNTIME_ACTIONS)[number];

export type CreateOutcome =
  | { kind: 'created'; row: DeploymentRow }
  | { kind: 'invalid'; problems: Problem[] }
  | { kind: 'conflict'; code: DeployFailureCode; detail: string };

/** E7 as the API hands it over. */
export interface LocationRequest {
  name: string;
  /** The body as posted, kept with the location. */
  body: unknown;
  chargers: ChargerSpec[];
  groups: ChargerGroupSpec[];
  /** Default for chargers that do not name their own. */
  ocppVersion?: OcppVersion;
}

export interface AcceptedLocation {
  locationId: string;
  /** Chargers being deployed in the background. */
  deploying: number;
  /** Chargers that cannot be deployed, known at acceptance (others may fail later: see the list). */
  failed: Array<{ identity: string; code: string; hint: string }>;
}

export interface RuntimeOpResult {
  action: RuntimeAction;
  target_type: 'deployment';
  location_id: string | null;
  accepted_count: number;
  failed_count: number;
  results: Array<{
    deployment_id: string;
    status: 'accepted';
    response: { action: RuntimeAction; status: 'PENDING' };
  }>;
}
