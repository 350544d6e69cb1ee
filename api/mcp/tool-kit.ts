// How a tool is declared: a name, what it does (for an agent with no docs), a zod input schema
// (the API's own where the API has one, so both accept the same), and a function of the parsed
// input that calls the engine for the token's organization. Errors come back as MCP tool errors
// (`isError`) carrying the API's message: an ApiError's detail, a 422's `{detail: [...]}` list.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { ApiError, ValidationError, databaseUnavailable, internalError } from '../http/errors.ts';
import { isDatabaseUnavailable } from '../../engine/platform/db/database.ts';
import type { ApiDeps } from '../http/deps.ts';

/** Whom the tools act for: the engine's services and the token's organization. */
export interface ToolScope {
  deps: ApiDeps;
  org: string;
}

export interface ToolSpec<S extends z.ZodObject> {
  title: string;
  description: string;
  input: S;
  /** Reads only: an agent may call it freely. */
  readOnly?: boolean;
  /** May delete or stop what the organization runs. */
  destructive?: boolean;
}

/** A group of tools (chargers, commands, ...), registered on one server for one scope. */
export type ToolGroup = (server: McpServer, scope: ToolScope) => void;

const text = (value: string, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: value }],
  ...(isError ? { isError } : {}),
});

/** The tool's answer as JSON text, or a tool error in the API's words. */
export async function act(
  scope: ToolScope,
  tool: string,
  run: () => Promise<unknown>,
): Promise<CallToolResult> {
  try {
    return text(JSON.stringify(await run()));
  } catch (thrown) {
    // The same mapping as the HTTP error middleware (api/http/errors.ts).
    if (thrown instanceof ValidationError) return text(JSON.stringify({ detail: thrown.issues }), true);
    let err = thrown;
    if (!(err instanceof ApiError && err.status < 500) && isDatabaseUnavailable(err))
      err = databaseUnavailable(err instanceof ApiError ? err.cause : err);
    if (!(err instanceof ApiError)) err = internalError(err);
    const { status, detail, cause } = err as ApiError;
    if (status >= 500)
      scope.deps.platform.log[status === 503 ? 'warn' : 'error']({ err: cause ?? detail, tool }, detail);
    return text(detail, true);
  }
}

export function defineTool<S extends z.ZodObject>(
  server: McpServer,
  scope: ToolScope,
  name: string,
  spec: ToolSpec<S>,
  run: (input: z.output<S>) => Promise<unknown>,
): void {
  server.registerTool(
    name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: spec.input,
      annotations: {
        title: spec.title,
        readOnlyHint: spec.readOnly ?? false,
        destructiveHint: spec.destructive ?? false,
        openWorldHint: false,
      },
    },
    // The SDK parsed the arguments with `spec.input` before calling this.
    ((input: unknown) => act(scope, name, () => run(input as z.output<S>))) as never,
  );
}
