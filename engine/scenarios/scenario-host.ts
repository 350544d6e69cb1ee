// Where a scenario's chargers run: the service's own deployments (rows, supervisor, snapshots),
// driven through the command bus like any API client, their frames read live from the message log
// of this process. The API and the CLI (which starts the service in-process) use this one host.
import { randomUUID } from 'node:crypto';
import type { OcppVersion } from '../../actors/charger/charger-ports.ts';
import { RemoteCaller } from '../central-system/remote-caller.ts';
import { COMMAND_KINDS, type AnyPayload, type EventType } from '../commands/command-kinds.ts';
import type { CommandsEngine } from '../commands/commands-engine.ts';
import type { DeploymentsEngine } from '../deployments/deployments-engine.ts';
import type { ChargerSecurity } from '../deployments/charger-security.ts';
import type { LinkConditions, Misbehaviour } from '../charger/link-conditions.ts';
import type { LogEntry } from '../message-log/charger-log.ts';
import type { MessageLogService } from '../message-log/message-log-service.ts';
import type { Platform } from '../platform/platform.ts';

export interface HostedScenarioCharger {
  key: string;
  identity: string;
  version: OcppVersion;
}

export interface DeployRequest {
  identity: string;
  model: string;
  version: OcppVersion;
  /** Absent: the built-in central system. */
  wsUrl?: string;
  security?: ChargerSecurity;
}

/** What the runner needs from wherever the chargers run. */
export interface ScenarioHost {
  deploy(orgId: string, req: DeployRequest): Promise<HostedScenarioCharger | { problem: string }>;
  /** Frames of the charger captured from now on (and its recent ones); returns the unsubscribe. */
  frames(key: string, listener: (entry: LogEntry) => void): () => void;
  command(
    orgId: string,
    c: HostedScenarioCharger,
    type: EventType,
    payload: unknown,
  ): Promise<string | undefined>;
  reboot(orgId: string, c: HostedScenarioCharger): Promise<void>;
  /** The charger misbehaves once on purpose (raw text, an edited CALL, a wrong message id). */
  misbehave(orgId: string, c: HostedScenarioCharger, m: Misbehaviour): Promise<string | undefined>;
  /** Sets (null: clears) the charger's link conditions, as PUT / DELETE .../link do. */
  link(
    orgId: string,
    c: HostedScenarioCharger,
    conditions: LinkConditions | null,
  ): Promise<string | undefined>;
  /** The central system calls the charger: the built-in one directly, an external one through its hook. */
  csmsCall(
    c: HostedScenarioCharger,
    action: string,
    payload: unknown,
    external: { wsUrl?: string; hookUrl?: string; prompt?: string },
  ): Promise<string | undefined>;
  remove(orgId: string, c: HostedScenarioCharger): Promise<void>;
  close(): Promise<void>;
}

export interface ServiceHostDeps {
  platform: Platform;
  deployments: DeploymentsEngine;
  commands: CommandsEngine;
  messageLog: MessageLogService;
}

export async function createServiceHost(d: ServiceHostDeps): Promise<ScenarioHost> {
  const { config, mqtt } = d.platform;
  const caller = new RemoteCaller(mqtt.client, config.mqttTopicPrefix, 30_000);
  await caller.start();
  return {
    async deploy(orgId, req) {
      if (!d.messageLog.enabled)
        return { problem: 'the OCPP message log is off (OCPP_LOG=off): scenarios read it' };
      const out = await d.deployments.service.create(orgId, {
        identity: req.identity,
        model: req.model,
        ocpp_version: req.version,
        ...(req.wsUrl ? { ws_url: req.wsUrl } : {}),
        ...(req.security ? { security: req.security } : {}),
      });
      if (out.kind === 'invalid') return { problem: out.problems.map((p) => p.msg).join('; ') };
      if (out.kind === 'conflict') return { problem: out.detail };
      return { key: out.row.id, identity: out.row.identity, version: out.row.ocpp_version };
    },
    frames(key, listener) {
      const sub = d.messageLog.messageLog.subscribe(key, listener);
      for (const entry of sub.recent) listener(entry);
      return () => sub.close();
    },
    async command(orgId, c, type, payload) {
      const parsed = COMMAND_KINDS[type].payload.safeParse(payload);
      if (!parsed.success) return `${type}: ${parsed.error.issues.map((i) => i.message).join('; ')}`;
      const out = await d.commands.producer.queue(
        orgId,
        type,
        parsed.data as AnyPayload,
        [{ id: c.key, identity: c.identity, ocpp_version: c.version }],
        [],
      );
      if (out.kind === 'mismatch') return out.problem;
      return out.result.failed[0]?.error;
    },
    async misbehave(orgId, c, m) {
      const out = await d.commands.linkConditions.misbehave(orgId, c.key, m);
      return out.kind === 'sent' ? undefined : `misbehave: the charger is ${out.kind.replace('_', ' ')}`;
    },
    async link(orgId, c, conditions) {
      const out = await d.commands.linkConditions.forDeployment(orgId, c.key, conditions);
      return out.kind === 'sent' ? undefined : `link: the charger is ${out.kind.replace('_', ' ')}`;
    },
    async reboot(orgId, c) {
      await d.deployments.service.runtimeOp(orgId, 'restart', c.key);
    },
    async csmsCall(c, action, payload, external) {
      if (!external.wsUrl) {
        const out = await caller.call(randomUUID(), c.identity, action, payload);
        return out.outcome === 'result' || out.outcome === 'error' ? undefined : `${action}: ${out.outcome}`;
      }
      if (!external.hookUrl)
        return `csms_call needs the built-in central system, or a hook of the external one (--csms-hook)`;
      const res = await fetch(external.hookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          identity: c.identity,
          action,
          payload,
          ...(external.prompt !== undefined && { prompt: external.prompt }),
        }),
        signal: AbortSignal.timeout(30_000),
      }).catch((err: Error) => err);
      if (res instanceof Error) return `csms hook: ${res.message}`;
      return res.ok ? undefined : `csms hook answered HTTP ${res.status}`;
    },
    async remove(orgId, c) {
      await d.deployments.service.delete(orgId, c.key);
    },
    close: () => caller.stop(),
  };
}
