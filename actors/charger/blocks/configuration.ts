// Configuration: the charger's settings, read and changed by the CSMS or an operator. OCPP 1.6
// Core Get/ChangeConfiguration; 2.0.1 block B: B05-B06 Set/GetVariables, B07-B08 Get(Base)Report.
// The settings table itself (names, defaults, checks) is core/settings.ts; how each version
// names and reports a setting is its adapter's.
import type { CommandOf } from '../core/events.ts';
import type { Step } from '../core/step.ts';
import {
  SETTINGS,
  checkSetting,
  keyForVariable,
  readableMeasurands,
  withSetting,
  type ChangeOutcome,
} from '../core/settings.ts';
import { scheduleHeartbeat } from './availability.ts';
import { hasTransaction } from '../core/transaction.ts';
import { scheduleAligned, scheduleEndSamples } from './metering.ts';
import { securitySetting } from './security.ts';

/** Settings that pace the samples of a transaction's end message. */
const ENDED_SAMPLING = new Set([
  'MeterValueSampleInterval',
  'ClockAlignedDataInterval',
  'StopTxnSampledData',
  'StopTxnAlignedData',
  'SampledDataTxEndedInterval',
  'AlignedDataTxEndedInterval',
]);

/** Changes a setting; what depends on it follows at once (the heartbeat, the meter, the cache). */
export function changeSetting(s: Step, key: string, value: string): ChangeOutcome {
  if (!s.wire.settings.includes(key)) return 'NotSupported';
  // A list naming a measurand the model cannot read is refused, and the previous list stays.
  const checked = checkSetting(key, value, readableMeasurands(s.ctx.model, s.wire.measurands));
  if (!checked.ok) return checked.status;
  // Credentials and profiles are the security block's (never stored here in clear).
  const secured = securitySetting(s, key, checked.value);
  if (secured) return secured;
  s.patch({ settings: withSetting(s.ctx, key, checked.value) });
  if (key === 'HeartbeatInterval') scheduleHeartbeat(s);
  if (key === 'ClockAlignedDataInterval') scheduleAligned(s);
  if (key === 'MeterValueSampleInterval' && hasTransaction(s))
    s.setTimer('meter', s.now + Math.max(1, Number(checked.value)) * 1000);
  if (key === 'AuthorizationCacheEnabled' && checked.value === 'false') s.patch({ authCache: {} });
  if (ENDED_SAMPLING.has(key)) scheduleEndSamples(s);
  return 'Accepted';
}

/** The setting an operator's configuration command names: a 1.6 key, or a 2.0.1 component/variable. */
export function settingOf(
  e: CommandOf<'CHANGE_CONFIGURATION'> | CommandOf<'SET_VARIABLE'>,
): string | undefined {
  const key =
    e.type === 'CHANGE_CONFIGURATION'
      ? e.key
      : (keyForVariable(e.component, e.variable) ?? (SETTINGS[e.variable] ? e.variable : undefined));
  return key && SETTINGS[key] ? key : undefined;
}
