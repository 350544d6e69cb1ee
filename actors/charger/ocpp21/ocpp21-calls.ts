// The CSMS's OCPP 2.1 calls: 2.0.1's table (2.1 keeps those messages; the link validated each
// payload against the 2.1 schema, which for them 2.0.1's handlers read as they are), then what 2.1
// adds, each block's handlers in its own file here. A 2.1 action the charger recognizes but has
// no behaviour for yet is answered NotSupported (OCPP-J: "recognized but not supported"), as a
// 2.1 station without that feature answers; an action of no version stays NotImplemented.
// Blocks added later go after NOT_SUPPORTED_21, so their entries replace its refusals.
import type { CsmsCallTable } from '../core/csms-calls.ts';
import { RpcError } from '../../../protocols/ocpp/rpc-error.ts';
import { OCPP2_CALLS } from '../ocpp2/ocpp2-calls.ts';
import { monitoringReport } from '../ocpp2/ocpp2-monitoring.ts';
import { TARIFF_21_CALLS } from './tariffs.ts';
import { V2X_CALLS } from './v2x.ts';
import { DER_CALLS } from './der-control.ts';

const notSupported = (what: string) => (): never => {
  throw new RpcError('NotSupported', `this charging station has no ${what}`);
};

/** The CSMS's 2.1 calls this charger has no feature for (yet), by action. */
export const NOT_SUPPORTED_21: CsmsCallTable = {
  // Q: aFRR (NotifyAllowedEnergyTransfer is v2x.ts's)
  AFRRSignal: notSupported('aFRR support'),
  // K: 2.1 smart charging
  UpdateDynamicSchedule: notSupported('dynamic charging profiles'),
  UsePriorityCharging: notSupported('priority charging'),
  // N: periodic event streams
  AdjustPeriodicEventStream: notSupported('periodic event streams'),
  GetPeriodicEventStream: notSupported('periodic event streams'),
  // 2.1 payment and battery swap: a charging station without a payment terminal or swap station
  NotifyWebPaymentStarted: notSupported('web payment'),
  RequestBatterySwap: notSupported('battery swap station'),
};

// Each table as any version's (CsmsCallTable): spread as their own types, the two versions'
// tables make a union too large for the compiler.
const CALLS_2: CsmsCallTable = OCPP2_CALLS;
const TARIFFS: CsmsCallTable = TARIFF_21_CALLS;
const V2X: CsmsCallTable = V2X_CALLS;
const DER: CsmsCallTable = DER_CALLS;
const MONITORING_REPORT: CsmsCallTable[string] = monitoringReport('CustomMonitor');

export const OCPP21_CALLS: CsmsCallTable = {
  ...CALLS_2,
  // N02: 2.1 names each reported monitor's kind
  GetMonitoringReport: MONITORING_REPORT,
  ...NOT_SUPPORTED_21,
  // I07, I09-I11 (tariffs.ts)
  ...TARIFFS,
  // Q: bidirectional charging, 2.1 charging profiles (v2x.ts)
  ...V2X,
  // R01-R03: DER control (der-control.ts)
  ...DER,
};
