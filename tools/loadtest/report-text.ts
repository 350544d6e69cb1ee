// The load test's report as text: the table printed at the end of a run (and shown in the HTML
// report). The report's figures are built in report.ts.
import type { LoadtestReport } from './report.ts';

const kb = (bytes: number | null) => (bytes === null ? 'n/a' : `${(bytes / 1024).toFixed(1)} KB`);
const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${Math.round(bytes / 1048576)} MB`);
const sec = (s: number | null) => (s === null ? 'never' : `${s.toFixed(2)} s`);
const pct = (p: number | null) => (p === null ? 'n/a' : `${p.toFixed(1)} %`);

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows
    .map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '))
    .join('\n');
}

/** What the per-charger memory figures are, in a few words. */
function memoryLabel(r: LoadtestReport): string {
  if (r.memory.method === 'not measured') return `not measured: ${r.memory.note}`;
  if (r.memory.method === 'service RSS growth, no GC')
    return 'the service: RSS when all were online minus RSS before the first, no GC';
  const nodes = r.options.nodes > 1 ? `, summed over ${r.options.nodes} engine processes` : '';
  return `marginal, after a full GC, ${r.memory.warmupChargers} warm-up chargers in the baseline${nodes}`;
}

/** The table printed at the end of a run. */
export function summaryText(r: LoadtestReport): string {
  const o = r.options;
  const lines: string[] = [];
  lines.push(
    `Load test: ${r.chargers} chargers (${o.ocpp}), ramp ${o.ramp === 0 ? 'unlimited' : `${o.ramp}/s`}, ` +
      `${o.durationSec} s, ` +
      (r.mode === 'via-api'
        ? `deployed through ${o.viaApi} (POST /evcharger/location) and followed once a second; ` +
          (o.traffic === undefined
            ? 'no sessions'
            : `the service's generated traffic (POST /traffic-runs, seed ${o.traffic} + the location's index), ` +
              `${Math.round(o.chargingShare * 100)} % charging on average`) +
          `, heartbeat as the central system answers`
        : (o.traffic === undefined
            ? `${Math.round(o.chargingShare * 100)} % charging`
            : `generated traffic (seed ${o.traffic}), ${Math.round(o.chargingShare * 100)} % charging on average`) +
          `, heartbeat ${o.heartbeatSec} s, ` +
          `meter values every ${o.meterIntervalSec} s` +
          (o.measurands ? ` (${o.measurands.split(',').length} measurands)` : '')),
  );
  lines.push(
    `Machine: ${r.machine.cores} cores (${r.machine.cpu}), ${r.machine.memoryGb} GB, Node ${r.machine.node}; ` +
      `central system: ${r.csms.builtIn ? referenceCsms(r.csms.url) : r.csms.url}`,
  );
  lines.push('');
  lines.push(
    table([
      ['online', 'first', '50 %', '99 %', '100 %', 'boot rate'],
      [
        `${r.online.reached}/${r.chargers}`,
        sec(r.online.first),
        sec(r.online.half),
        sec(r.online.p99),
        sec(r.online.all),
        `${r.online.bootRate}/s`,
      ],
    ]),
  );
  lines.push('');
  const actions = Object.entries(r.latency);
  if (actions.length > 0) {
    lines.push('Round trips at the charger side (ms):');
    lines.push(
      table([
        ['action', 'calls', 'p50', 'p95', 'p99', 'max', 'errors', 'timeouts'],
        ...actions.map(([action, a]) => [
          action,
          String(a.count),
          a.p50.toFixed(1),
          a.p95.toFixed(1),
          a.p99.toFixed(1),
          a.max.toFixed(1),
          String(a.errors),
          String(a.timeouts),
        ]),
      ]),
    );
    lines.push('');
  }
  const who = r.mode === 'via-api' ? 'service' : 'engine';
  const cs = r.centralSystem;
  const callErrors = cs ? Object.values(cs.callErrors).reduce((a, b) => a + b, 0) : null;
  lines.push(
    table([
      ['measure', 'value'],
      ['central system: CALLERRORs sent', callErrors === null ? 'n/a' : String(callErrors)],
      ['central system: schema errors', cs ? String(cs.schemaErrors) : 'n/a'],
      ['charger side: schema errors', String(r.chargerSide.schemaErrors)],
      ['charger side: CALLERRORs / timeouts received', String(r.chargerSide.callErrors)],
      ['sessions (stopped)', `${r.transactions.sessions} (${r.transactions.sessionsStopped})`],
      [
        'transactions lost / duplicated',
        r.transactions.lost === null ? 'n/a' : `${r.transactions.lost} / ${r.transactions.duplicated}`,
      ],
      ['disconnects', String(r.disconnects)],
      [
        'connection failures',
        Object.entries(r.failures)
          .map(([c, n]) => `${c} ${n}`)
          .join(', ') || '0',
      ],
      [`${who} heap per idle charger (${memoryLabel(r)})`, kb(r.memory.heapPerCharger)],
      [`${who} RSS per idle charger (${memoryLabel(r)})`, kb(r.memory.rssPerCharger)],
      [
        `${who} RSS before / idle / peak`,
        `${mb(r.memory.baselineRss)} / ${mb(r.memory.idleRss)} / ${mb(r.memory.peakRss)}`,
      ],
      ...(r.memory.endRss !== null
        ? [[`${who} RSS at the end of the run (idle since the boot)`, mb(r.memory.endRss)]]
        : []),
      [`${r.cpu.of} CPU steady state (one core)`, pct(r.cpu.steadyPercent)],
      [`${r.cpu.of} CPU whole run (one core)`, pct(r.cpu.totalPercent)],
      ...(r.traffic
        ? [
            [
              'traffic: sessions plugged in / active at steady start / at end',
              `${r.traffic.sessionsStarted} / ${r.traffic.activeAtSteady ?? 'n/a'} / ${r.traffic.activeAtEnd}`,
            ],
            [
              'traffic: faults / drops / commands failed',
              `${r.traffic.faults} / ${r.traffic.drops} / ${r.traffic.commandsFailed}`,
            ],
          ]
        : []),
      [
        'OCPP message log',
        // Through the API the chargers log as the service is configured, which is not seen from here.
        r.mode === 'via-api'
          ? "the service's own (OCPP_LOG)"
          : r.ocppLog.enabled
            ? `on, ${r.ocppLog.frames ?? '?'} frames written`
            : 'off',
      ],
      [
        'central system CPU whole run (one core)',
        cs?.processCpuMs === undefined
          ? 'n/a'
          : pct(Math.round((cs.processCpuMs / 10 / Math.max(1, r.marks.endAt)) * 10) / 10),
      ],
    ]),
  );
  lines.push('');
  for (const c of r.checks) lines.push(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`);
  return lines.join('\n');
}

/** The reference central system(s): one own process, or one per engine node with --nodes. */
const referenceCsms = (urls: string) => {
  const n = urls.split(' ').length;
  return n === 1 ? 'reference, own process' : `reference, ${n} own processes (one per engine node)`;
};
