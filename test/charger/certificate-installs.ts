// The engine's part of InstallCertificate for the charger e2e suites, as its credentials store
// answers (the store itself is tested in test/security).
import { certificateHashData } from '../../engine/platform/certificates/x509.ts';
import type { ChargerRuntimeOptions } from '../../engine/charger/charger-runtime.ts';

export const installs: Partial<ChargerRuntimeOptions> = {
  onSecurityRequest: (_key, request, reply) => {
    if (request.op === 'install')
      reply({
        type: 'security.installed',
        certificateType: request.certificateType,
        hashData: certificateHashData(request.pem),
      });
  },
};
