// Metering: the meter values that do not follow a transaction's own events. OCPP 1.6 Core
// clock-aligned data (ClockAlignedDataInterval, MeterValuesAlignedData); 2.0.1 block J: J01
// clock-aligned meter values (AlignedDataCtrlr), and the moments the power changes with no
// event to say so (a profile's next period, a DC battery filling up): 2.0.1 reports them at once
// (TransactionEvent Updated ChargingRateChanged / ChargingStateChanged), 1.6 by StatusNotification;
// the moment is found here (schedulePowerChange), and its timer runs the transactions block's
// refreshAllCharging, which reports it.
// And the readings a transaction's end message carries besides the end's: 1.6 StopTxnSampledData
// every MeterValueSampleInterval from the start and StopTxnAlignedData on the clock; 2.0.1
// SampledDataCtrlr.TxEndedMeasurands every TxEndedInterval and AlignedDataCtrlr.TxEndedMeasurands
// on the clock of its TxEndedInterval. They are kept as numbers (END_SAMPLE_WIDTH a reading, at
// most MAX_END_SAMPLES, the oldest dropped first) and written only when the transaction ends.
// All are deadlines in ctx.timers: no timer of their own.
import type { Connector } from '../core/context.ts';
import type { Step } from '../core/step.ts';
import { integrate, nextPowerChangeAt } from '../core/power.ts';
import { boolSetting, getSetting, intSetting } from '../core/settings.ts';
import { END_SAMPLE_WIDTH } from '../wire/sampled-values.ts';
import { bumpSeq, hasTransaction } from '../core/transaction.ts';

declare module '../core/context.ts' {
  interface ChargerTimers {
    /** The next clock-aligned sample (a multiple of ClockAlignedDataInterval since midnight UTC). */
    aligned?: number;
    /** The next moment the power changes by itself (profile period, full battery). */
    powerChange?: number;
    /** The next reading kept for a transaction's end message: every interval from its start / on the clock. */
    endSampled?: number;
    endAligned?: number;
  }
  interface Transaction {
    /** Readings for the end message, END_SAMPLE_WIDTH numbers each, oldest first. */
    endSamples?: number[];
    /** When the next sampled one is due (absent: one interval after the start). */
    endSampleAt?: number;
  }
}

/** Readings kept per transaction for its end message (a long session keeps its latest). */
export const MAX_END_SAMPLES = 48;

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
  // 2.0.1 AlignedDataCtrlr.SendDuringIdle: none while a transaction runs.
  if (boolSetting(s.ctx, 'AlignedDataSendDuringIdle') && hasTransaction(s)) return scheduleAligned(s);
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
  s.call(s.wire.mainMeterValues(s.ctx, at));
  scheduleAligned(s);
}

const secondsOf = (s: Step, key: string) => intSetting(s.ctx, key) * 1000;
const listed = (s: Step, key: string) => (getSetting(s.ctx, key) ?? '') !== '';

/**
 * The deadlines of the readings kept for the end messages: the earliest sampled one of the
 * running transactions, the next clock boundary (none without a transaction, an interval or a list).
 */
export function scheduleEndSamples(s: Step): void {
  const { sampled, aligned } = s.wire.txEndedIntervals;
  const every = listed(s, 'StopTxnSampledData') ? secondsOf(s, sampled) : 0;
  const clock = listed(s, 'StopTxnAlignedData') ? secondsOf(s, aligned) : 0;
  let next: number | undefined;
  if (every > 0)
    for (const c of s.ctx.connectors) {
      if (!c.tx) continue;
      const at = Math.max(c.tx.endSampleAt ?? c.tx.startedAt + every, s.now);
      if (next === undefined || at < next) next = at;
    }
  if (next === undefined) s.clearTimer('endSampled');
  else s.setTimer('endSampled', next);
  if (clock > 0 && hasTransaction(s)) s.setTimer('endAligned', (Math.floor(s.now / clock) + 1) * clock);
  else s.clearTimer('endAligned');
}

/** Timer `endSampled`: each transaction whose sampled reading is due keeps one. */
export function endSampledDue(s: Step): void {
  const every = secondsOf(s, s.wire.txEndedIntervals.sampled);
  if (every > 0)
    for (const c of s.ctx.connectors) {
      if (!c.tx) continue;
      const due = c.tx.endSampleAt ?? c.tx.startedAt + every;
      if (due > s.now) continue;
      // One reading for the latest moment due (a charger restored after a while skips the rest).
      const at = due + Math.floor((s.now - due) / every) * every;
      const kept = keep(s, c, 0, at);
      s.putConnector({ ...kept, tx: { ...kept.tx!, endSampleAt: at + every } });
    }
  scheduleEndSamples(s);
}

/** Timer `endAligned`: every running transaction keeps a reading for the clock boundary. */
export function endAlignedDue(s: Step): void {
  const clock = secondsOf(s, s.wire.txEndedIntervals.aligned);
  if (clock > 0) {
    const at = Math.floor(s.now / clock) * clock;
    for (const c of s.ctx.connectors) if (c.tx && c.tx.startedAt < at) s.putConnector(keep(s, c, 1, at));
  }
  scheduleEndSamples(s);
}

/** The connector, integrated to now, with one more reading kept (the oldest goes past the bound). */
function keep(s: Step, c0: Connector, kind: 0 | 1, at: number): Connector {
  const c = integrate(s.ctx, c0, s.now);
  const before = c.tx!.endSamples ?? [];
  const from = before.length >= MAX_END_SAMPLES * END_SAMPLE_WIDTH ? END_SAMPLE_WIDTH : 0;
  const reading = [kind, at, Math.floor(c.meterWh), Math.round(c.powerW), c.soc ?? -1];
  return { ...c, tx: { ...c.tx!, endSamples: [...before.slice(from), ...reading] } };
}

/** Sets (or clears) the deadline of the next change of power nothing else announces. */
export function schedulePowerChange(s: Step): void {
  const at = nextPowerChangeAt(s.ctx, s.now);
  if (at === undefined) s.clearTimer('powerChange');
  else s.setTimer('powerChange', at);
}
