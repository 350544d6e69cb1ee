// The error bodies every route answers with (interface.md "Error bodies"): `{detail}` for every
// status but 422, and the 422 list of validation issues.
import { z } from 'zod';

export const errorDetail = z
  .strictObject({ detail: z.string().meta({ description: 'A human-readable explanation' }) })
  .meta({ examples: [{ detail: "Deployment 'dep-unknown' not found" }] });

export const validationIssue = z.strictObject({
  loc: z
    .array(z.union([z.string(), z.number().int()]))
    .meta({ description: 'body, query, path or header, then the field names and list indexes' }),
  msg: z.string().meta({ description: 'English explanation of the failed rule' }),
  type: z.string().meta({ description: 'Machine code, e.g. missing, string_too_long, json_invalid' }),
  input: z.unknown().optional().meta({ description: 'The value that failed (secrets redacted)' }),
  ctx: z.record(z.string(), z.unknown()).optional().meta({ description: 'The rule, e.g. {max_length: 48}' }),
});

export const validationErrors = z.strictObject({ detail: z.array(validationIssue) }).meta({
  examples: [
    {
      detail: [
        {
          loc: ['body', 'identity'],
          msg: 'String should have at most 48 characters',
          type: 'string_too_long',
          input: 'CP-...',
          ctx: { max_length: 48 },
        },
      ],
    },
  ],
});
