// Live inspection of chosen chargers (INSPECT, INSPECT_URL): the XState inspector is attached to
// the root actors of those identities only, so one charger among thousands can be watched at no cost
// to the others (inspecting every actor serializes every event). Inspection off costs nothing: no
// inspector is created and attach() is never called.
import { createWebSocketInspector } from '@statelyai/inspect';
import type { AnyActorRef } from 'xstate';
import { maskSecretValues } from '../../protocols/ocpp/secret-values.ts';
import type { Logger } from '../platform/log/logger.ts';

export interface InspectConfig {
  /** '*' for every charger, else the identities to watch. */
  identities: '*' | string[];
  /** WebSocket URL of the receiver the inspection events are sent to. */
  url: string;
}

export interface ChargerInspector {
  /** Attaches the inspector to this root actor when its identity is watched; call before start(). */
  attach(identity: string, actor: AnyActorRef): boolean;
  close(): void;
}

export function createChargerInspector(config: InspectConfig, log: Logger): ChargerInspector {
  const watched = config.identities === '*' ? undefined : new Set(config.identities);
  // What leaves the process is masked: a command's AuthorizationKey, a context's password setting.
  const inspector = createWebSocketInspector({
    url: config.url,
    sanitizeEvent: (event) => maskSecretValues(event).value as typeof event,
    sanitizeContext: (context) => maskSecretValues(context).value as typeof context,
  });
  log.info({ url: config.url, identities: config.identities }, 'XState inspection on');
  return {
    attach(identity, actor) {
      if (watched && !watched.has(identity)) return false;
      // Each charger is its own root with its own system: this observes that charger alone.
      actor.system.inspect(inspector.inspect);
      return true;
    },
    close() {
      inspector.stop();
    },
  };
}
