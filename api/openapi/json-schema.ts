// The one place zod becomes JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1): requests as
// their input (what a client sends), answers as their output (what the service writes).
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    // Refinements and transforms say nothing JSON Schema can: the shape before them is documented.
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def as { type: string; defaultValue?: unknown };
      // zod leaves defaults out of input schemas; a client wants to see them.
      if ((def.type === 'default' || def.type === 'prefault') && jsonSchema.default === undefined) {
        const value = def.defaultValue;
        if (value !== undefined && typeof value !== 'function') jsonSchema.default = value;
      }
    },
  }) as JsonSchema;
  delete out.$schema;
  return out;
}
