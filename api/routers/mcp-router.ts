// POST /mcp: the MCP server (streamable HTTP, stateless: one server and transport per request,
// answers as JSON), behind the API's bearer authentication; its tools act for the token's
// organization (api/mcp/). GET and DELETE are 405: there is no session and no server-sent stream.
import Router from '@koa/router';
import { z } from 'zod';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { orgOf } from '../http/auth.ts';
import type { ApiDeps } from '../http/deps.ts';
import { apiDoc } from '../openapi/route-doc.ts';
import { mcpServer } from '../mcp/mcp-server.ts';

/** What the API description says of the body (the SDK's transport reads and checks it). */
const jsonRpc = z.looseObject({ jsonrpc: z.literal('2.0'), method: z.string().max(128).optional() });

export function mcpRouter(deps: ApiDeps): Router {
  const router = new Router();
  router.post(
    '/mcp',
    apiDoc({
      summary: 'MCP server (Model Context Protocol, streamable HTTP): tools on the organization’s chargers',
      description:
        'JSON-RPC 2.0 messages of MCP (initialize, tools/list, tools/call); send `Accept: application/json, text/event-stream`. ' +
        'Stateless: no session id. Tools and how to connect a client: docs/mcp.md.',
      tags: ['mcp'],
      body: z.union([jsonRpc, z.array(jsonRpc).max(100)]),
      responses: { 200: { description: 'The JSON-RPC answer', schema: z.unknown() } },
    }),
    async (ctx) => {
      const server = mcpServer(deps, orgOf(ctx));
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      ctx.res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      // The transport writes the answer itself; the body was already read by the API's JSON parser.
      ctx.respond = false;
      await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
    },
  );
  return router;
}
