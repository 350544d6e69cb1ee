// What a charger to deploy must be, checked against the catalog: E5 answers a problem as a 422,
// E7 records it as the charger's failure (a code and a hint) and deploys the others.
import type { ChargerModel, OcppVersion } from '../../actors/charger/charger-ports.ts';
import type { CatalogModel } from '../catalog/catalog-store.ts';
import type { ChargerSecurity, SealedSecurity } from './charger-security.ts';
import type { NewDeployment } from './deployment-store.ts';

/** One charger to deploy, as E5 or one entry of E7 names it. */
export interface ChargerSpec {
  identity: string;
  model: string;
  ocpp_version?: OcppVersion;
  ws_url?: string;
  charger_name?: string;
  brand_slug?: string;
  connector_type?: string;
  /** Checked against ws_url by the request schema; sealed here before it is stored anywhere. */
  security?: ChargerSecurity;
}

/** Why a charger cannot be deployed: the code of its `failed` stage event (E7) and E5's answer. */
export type DeployFailureCode =
  | 'UNKNOWN_MODEL'
  | 'BRAND_MISMATCH'
  | 'OCPP_VERSION_UNSUPPORTED'
  | 'IDENTITY_TAKEN'
  | 'IDENTITY_REGISTERED_ELSEWHERE'
  | 'DEPLOY_FAILED';

/** A request that is well-formed but names what the catalog does not have. */
export interface Problem {
  /** The field below the body: ['model'] or ['brand_slug']. */
  loc: Array<string | number>;
  msg: string;
  input: unknown;
  code: DeployFailureCode;
}

/** Models by slug; E7 shares one lookup per model among its chargers. */
export type FindModel = (slug: string) => Promise<CatalogModel | undefined>;

/** Seals a charger's secrets for its identity (a location job keeps its targets as JSON). */
export type SealSecurity = (identity: string, security: ChargerSecurity) => SealedSecurity;

export async function resolveCharger(
  spec: ChargerSpec,
  findModel: FindModel,
  seal: SealSecurity,
): Promise<{ target: NewDeployment } | { problems: Problem[] }> {
  const model = await findModel(spec.model);
  if (!model)
    return {
      problems: [
        {
          loc: ['model'],
          msg: `Unknown model '${spec.model}': use a model slug of GET /evcharger/catalog/{brand_slug}/models`,
          input: spec.model,
          code: 'UNKNOWN_MODEL',
        },
      ],
    };
  const problems: Problem[] = [];
  if (spec.brand_slug !== undefined && spec.brand_slug !== model.brand_slug)
    problems.push({
      loc: ['brand_slug'],
      msg: `Model '${model.slug}' belongs to brand '${model.brand_slug}', not '${spec.brand_slug}'`,
      input: spec.brand_slug,
      code: 'BRAND_MISMATCH',
    });
  const version = spec.ocpp_version ?? (model.ocpp_versions[0] as OcppVersion);
  if (!model.ocpp_versions.includes(version))
    problems.push({
      loc: ['model'],
      msg: `Model '${model.slug}' does not speak ${version} (it supports ${model.ocpp_versions.join(', ')})`,
      input: spec.model,
      code: 'OCPP_VERSION_UNSUPPORTED',
    });
  if (problems.length > 0) return { problems };
  const target: NewDeployment = {
    identity: spec.identity,
    model: model.slug,
    charger_model: chargerModelOf(model),
    ocpp_version: version,
  };
  if (spec.ws_url) target.ws_url = spec.ws_url;
  if (spec.charger_name) target.charger_name = spec.charger_name;
  if (spec.brand_slug) target.brand_slug = spec.brand_slug;
  if (spec.connector_type) target.connector_type = spec.connector_type;
  if (spec.security) target.security = seal(spec.identity, spec.security);
  return { target };
}

function chargerModelOf(m: CatalogModel): ChargerModel {
  const model: ChargerModel = {
    boot_vendor: m.boot_vendor,
    boot_model: m.boot_model,
    connector_count: m.connector_count,
    max_power_kw: m.max_power_kw,
    current_type: m.current_type === 'DC' ? 'DC' : 'AC',
    connector_types: m.connector_types,
  };
  if (m.firmware_version) model.firmware_version = m.firmware_version;
  return model;
}

export const identityTaken = (identity: string) => ({
  code: 'IDENTITY_TAKEN' as const,
  detail: `A deployment of charger identity '${identity}' already exists in this organization`,
});

export const registeredElsewhere = (identity: string) => ({
  code: 'IDENTITY_REGISTERED_ELSEWHERE' as const,
  detail:
    `Charger identity '${identity}' is registered at the built-in central system by another ` +
    'organization; give the charger another identity, or a ws_url of your own central system',
});
