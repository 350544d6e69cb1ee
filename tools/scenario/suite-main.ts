// `npm run scenario -- --suite FILE|DIR`: loads every case (and checks each against the run before
// anything is deployed), starts the service in this process, runs the suite there, prints a line
// per case and the summary table, writes the reports. Exit 0 only when no case failed (1: one
// failed, 2: the suite could not be run).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../../api/server.ts';
import { loadSuite } from '../../engine/conformance/load-suite.ts';
import { runSuite, type SuiteResult } from '../../engine/conformance/suite-runner.ts';
import { loadConfig } from '../../engine/platform/config/config.ts';
import { createLogger } from '../../engine/platform/log/logger.ts';
import { problemText } from '../../engine/scenarios/load-scenario.ts';
import { createServiceHost } from '../../engine/scenarios/scenario-host.ts';
import { preflight } from '../../engine/scenarios/scenario-preflight.ts';
import type { ScenarioCliOptions } from './options.ts';
import { caseLine, suiteHtml, suiteJunit, summaryTable } from './suite-reports.ts';

const out = (line: string) => process.stdout.write(line + '\n');

export async function runSuiteCli(o: ScenarioCliOptions): Promise<number> {
  const suite = loadSuite(o.suite!);
  const problems =
    'problems' in suite
      ? suite.problems
      : suite.cases.flatMap((c) =>
          preflight(c.scenario, { wsUrl: o.wsUrl, csmsHook: o.csmsHook, variables: o.variables }).map(
            (p) => `${c.file}: ${problemText(p)}`,
          ),
        );
  if ('problems' in suite || problems.length > 0) {
    process.stderr.write(`${o.suite}: not a suite that can run\n${problems.join('\n')}\n`);
    return 2;
  }
  const profiles = o.profiles ?? suite.profiles;
  out(`${suite.name}: ${suite.cases.length} case(s)${profiles ? `, profiles claimed: ${profiles.join(', ')}` : ''}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'evsim-suite-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
  });
  let result: SuiteResult;
  try {
    const service = await startService(config, createLogger(config));
    try {
      const host = await createServiceHost(service.deps);
      try {
        result = await runSuite(host, {
          orgId: 'conformance',
          name: suite.name,
          cases: suite.cases,
          profiles,
          wsUrl: o.wsUrl,
          csmsHook: o.csmsHook,
          variables: o.variables,
          concurrency: o.concurrency ?? suite.concurrency,
          onCase: (c) => {
            if (c.verdict !== 'running' && c.verdict !== 'pending') out(caseLine(c));
          },
        });
      } finally {
        await host.close();
      }
    } finally {
      await service.close();
    }
  } catch (err) {
    process.stderr.write(`${o.suite}: ${(err as Error).message.split('\n')[0]}\n`);
    return 2;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (o.junit) writeFileSync(o.junit, suiteJunit(result));
  if (o.html) writeFileSync(o.html, suiteHtml(result));
  if (o.json) writeFileSync(o.json, JSON.stringify(result, null, 2) + '\n');
  const seconds = (Date.parse(result.finished_at!) - Date.parse(result.started_at)) / 1000;
  out(summaryTable(result));
  out(`${result.cases.some((c) => c.verdict === 'failed') ? 'FAILED' : 'PASSED'} in ${seconds.toFixed(1)} s`);
  return result.cases.some((c) => c.verdict === 'failed') ? 1 : 0;
}
