// Metering: the meter values that do not follow a transaction's own events. OCPP 1.6 Core
// clock-aligned data (ClockAlignedDataInterval, MeterValuesAlignedData); 2.0.1 block J: J01
// clock-aligned meter values (AlignedDataCtrlr), and the moments the power changes with no
// event to say so (a profile's next period, a DC battery filling up): 2.0.1 reports them at once
// (TransactionEvent Updated ChargingRateChanged / ChargingStateChanged), 1.6 by StatusNotification.
// Both are deadlines in ctx.timers: no timer of their own.
import type { Step } from '../core/step.ts';
import { integrate, nextPowerChangeAt } from '../core/power.ts';
import { intSetting } from '../core/settings.ts';
import { bumpSeq, refreshAllCharging } from './transactions.ts';

declare module '../core/context.ts' {
  interface ChargerTimers {
    /** The next clock-aligned sample (a multiple of ClockAlignedDataInterval since midnight UTC). */
    aligned?: number;
    /** The next moment the power changes by itself (profile period, full battery). */
    powerChange?: number;
  }
}

/** The next clock-aligned sample, on the interval's boundary (none while the interval is 0 or offline). */
export function scheduleAligned(s: Step): void {
  const interval = intSetting(s.ctx, 'ClockAlignedDataInterval') * 1000;
  if (interval > 0 && s.online) s.setTimer('aligned', (Math.floor(s.now / interval) + 1) * interval);
  else s.clearTimer('aligned');
}

/**
 * Timer `aligned`: every connector's clock-aligned reading, stamped with the boundary it is for
 * (the timer may fire a little late); a transaction's goes with the transaction.
 */
export function alignedDue(s: Step): void {
  const interval = intSetting(s.ctx, 'ClockAlignedDataInterval') * 1000;
  const at = interval > 0 ? Math.floor(s.now / interval) * interval : s.now;
  for (const c0 of s.ctx.connectors) {
    if (!c0.tx) {
      s.call(s.wire.meterValues(s.ctx, c0, at, 'clock'));
      continue;
    }
    const c = integrate(s.ctx, c0, s.now);
    s.putConnector(c);
    const call = s.wire.txUpdated(s.ctx, c, 'clock', at);
    if (call) {
      s.call(call, { tx: c.tx!.ref });
      bumpSeq(s, c.id);
    }
  }
  scheduleAligned(s);
}

/** Sets (or clears) the deadline of the next change of power nothing else announces. */
export function schedulePowerChange(s: Step): void {
  const at = nextPowerChangeAt(s.ctx, s.now);
  if (at === undefined) s.clearTimer('powerChange');
  else s.setTimer('powerChange', at);
}

/** Timer `powerChange`: the limit or the battery changed the power: take it and say so. */
export function powerChangeDue(s: Step): void {
  refreshAllCharging(s);
}
