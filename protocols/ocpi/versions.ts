// OCPI versions this service speaks to partners, and their path segments (221 -> 2.2.1).
// 2.1.1 has no charging-profiles module, so it is not offered.
export const OCPI_VERSIONS = ['2.2.1', '2.3.0'] as const;
export type OcpiVersion = (typeof OCPI_VERSIONS)[number];

export const OCPI_VERSION_SEGMENTS = { '221': '2.2.1', '230': '2.3.0' } as const satisfies Record<
  string,
  OcpiVersion
>;
export type OcpiVersionSegment = keyof typeof OCPI_VERSION_SEGMENTS;
