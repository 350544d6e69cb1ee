import type { OCPP16_ERROR_CODES, OCPP20_ERROR_CODES } from './versions.ts';
import { VERSION_PROFILES, perVersion, type OcppVersion } from './versions.ts';

// The codes and how each version spells them are part of the version's profile (versions.ts).
export type Ocpp16ErrorCode = (typeof OCPP16_ERROR_CODES)[number];
export type Ocpp20ErrorCode = (typeof OCPP20_ERROR_CODES)[number];
/** Any code of any version; `errorCodeFor` turns it into the spelling of one version. */
export type RpcErrorCode = Ocpp16ErrorCode | Ocpp20ErrorCode;

export const ERROR_CODES: Readonly<Record<OcppVersion, ReadonlySet<string>>> = perVersion(
  (p) => new Set(p.errors.codes),
);

/**
 * The code `version` uses for `code` (any version's spelling accepted);
 * `GenericError` for a code the version does not know.
 */
export function errorCodeFor(version: OcppVersion, code: string): string {
  if (ERROR_CODES[version].has(code)) return code;
  const renamed = VERSION_PROFILES[version].errors.renamed;
  return (Object.hasOwn(renamed, code) ? renamed[code] : undefined) ?? 'GenericError';
}
