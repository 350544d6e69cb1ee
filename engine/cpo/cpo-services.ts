// The CPO area's engine services and the built-in central system, started together on the
// platform: what api/server.ts puts in ApiDeps.cpo and attaches to the HTTP server's upgrades.
import { CentralSystem } from '../central-system/central-system.ts';
import { RemoteCaller } from '../central-system/remote-caller.ts';
import type { Platform } from '../platform/platform.ts';
import type { FrameObserver } from '../../protocols/ocpp/index.ts';
import { ChargePointOperations } from './charge-point-operations.ts';
import { ChargePointRegistry } from './charge-point-registry.ts';
import { ChargePointStore } from './charge-point-store.ts';
import { LocationStore } from './location-store.ts';
import { OperationStore } from './operation-store.ts';
import { SigningKeyStore } from './signing-key-store.ts';
import { TokenGroupStore } from './token-group-store.ts';
import { VoucherGroupStore } from './voucher-group-store.ts';

export interface CpoServices {
  locations: LocationStore;
  tokenGroups: TokenGroupStore;
  voucherGroups: VoucherGroupStore;
  signingKeys: SigningKeyStore;
  chargePoints: ChargePointStore;
  /** E22 registration: the charge point and its location rule. */
  registry: ChargePointRegistry;
  operations: OperationStore;
  chargePointOperations: ChargePointOperations;
  centralSystem: CentralSystem;
  close(): Promise<void>;
}

export async function startCpoServices(
  platform: Platform,
  opts: { frames?: (chargePointPk: string) => FrameObserver | undefined } = {},
): Promise<CpoServices> {
  const { db, config, log } = platform;
  const { callTimeoutMs, heartbeatIntervalSeconds } = config.centralSystem;
  const operations = new OperationStore(db);
  const caller = new RemoteCaller(platform.mqtt.client, config.mqttTopicPrefix, callTimeoutMs);
  const centralSystem = new CentralSystem({
    db,
    mqtt: platform.mqtt.client,
    log,
    topicPrefix: config.mqttTopicPrefix,
    heartbeatIntervalSeconds,
    callTimeoutMs,
    frames: opts.frames,
    nodeId: platform.node.tag,
  });
  await Promise.all([caller.start(), centralSystem.start()]);
  const locations = new LocationStore(db);
  const chargePoints = new ChargePointStore(db);
  return {
    locations,
    tokenGroups: new TokenGroupStore(db),
    voucherGroups: new VoucherGroupStore(db, config.voucherDeleteMax),
    signingKeys: new SigningKeyStore(db, platform.secrets),
    chargePoints,
    registry: new ChargePointRegistry(locations, chargePoints),
    operations,
    chargePointOperations: new ChargePointOperations(db, operations, caller, callTimeoutMs),
    centralSystem,
    async close() {
      await centralSystem.close();
      await caller.stop();
    },
  };
}
