// The MCP server of one request: every tool group registered for the token's organization. The
// transport is stateless (a server per POST /mcp), so nothing of one caller outlives its request.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiDeps } from '../http/deps.ts';
import type { ToolGroup } from './tool-kit.ts';
import { catalogTools } from './catalog-tools.ts';
import { chargerTools } from './charger-tools.ts';
import { commandTools } from './command-tools.ts';
import { measurementTools } from './measurement-tools.ts';
import { scenarioTools } from './scenario-tools.ts';

export const TOOL_GROUPS: ToolGroup[] = [
  chargerTools,
  commandTools,
  measurementTools,
  scenarioTools,
  catalogTools,
];

const INSTRUCTIONS =
  'evsim simulates EV chargers (OCPP 1.6, 2.0.1, 2.1) against a central system (CSMS): the built-in one, or yours by ws_url. ' +
  'Typical flow: list_catalog for a model, deploy_charger (or deploy_location), get_charger until its stage is online, ' +
  'send_command (plug-in, present-token, ...) and get_command, read_message_log for the frames exchanged, csms_latency ' +
  "for how fast the CSMS answers, start_scenario_run + get_scenario_run for a scripted check. Everything is the token's organization's.";

export function mcpServer(deps: ApiDeps, org: string): McpServer {
  const server = new McpServer({ name: 'evsim', version: '0.1.0' }, { instructions: INSTRUCTIONS });
  for (const group of TOOL_GROUPS) group(server, { deps, org });
  return server;
}
