// Request shapes of the conformance runs (POST /conformance-runs ...).
import { z } from 'zod';
import { CONFORMANCE_VERSIONS, PROFILES_16 } from '../../engine/conformance/conformance-runs.ts';
import { wsUrl } from './deployments.ts';

const httpUrl = z.url({ protocol: /^https?$/ }).max(2048);

export const startConformanceBody = z.strictObject({
  version: z
    .enum(Object.keys(CONFORMANCE_VERSIONS) as [keyof typeof CONFORMANCE_VERSIONS])
    .describe('The OCPP version whose ready conformance cases run'),
  profiles: z
    .array(z.enum(PROFILES_16))
    .min(1)
    .max(PROFILES_16.length)
    .describe('The profiles the central system claims: the cases of the others are not applicable'),
  ws_url: wsUrl.optional().describe('The central system to test; default: the built-in one'),
  csms_hook: httpUrl
    .optional()
    .describe(
      'Receives `{identity, action, payload, prompt}` when a case needs the central system to send a call',
    ),
});

export const conformanceRunPath = z.object({ run_id: z.string().min(1).max(100) });

const caseView = z.object({
  id: z.string(),
  title: z.string(),
  profile: z.string(),
  verdict: z
    .enum(['pending', 'running', 'passed', 'failed', 'not applicable', 'blocked'])
    .describe('not applicable: the profile is not claimed; blocked: a precondition failed'),
  message: z.string().nullable(),
});

export const conformanceRunView = z.object({
  run_id: z.string(),
  version: z.string(),
  profiles: z.array(z.string()),
  status: z.enum(['running', 'finished']),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  cases: z.array(caseView),
});
