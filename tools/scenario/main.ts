// The scenario CLI a CI job calls: runs one scenario document against a central system and exits
// 0 only when every expectation held (1: one failed, 2: the run could not be carried out, or bad
// options). By default it starts the service in this process (embedded database and broker in a
// temporary directory) and runs the scenario there, like any client of the engine; with --api it
// runs it on a running service instead. Progress goes to the terminal; reports to the given files.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService } from '../../api/server.ts';
import { loadConfig } from '../../engine/platform/config/config.ts';
import { createLogger } from '../../engine/platform/log/logger.ts';
import type { RunEvent, RunResult } from '../../engine/scenarios/scenario-result.ts';
import { USAGE, parseOptions, type ScenarioCliOptions } from './options.ts';
import { htmlReport, junitXml, progressLine } from './reports.ts';
import { runViaApi } from './via-api.ts';

const out = (line: string) => process.stdout.write(line + '\n');

export function onProgress(e: RunEvent): void {
  if (e.type === 'charger') out(`  + ${e.charger.identity} (${e.charger.ocpp_version}, ${e.charger.group})`);
  else if (e.type === 'step' && e.step.status !== 'running') out(progressLine(e.step));
}

/** Starts the service in this process (embedded database and broker, a temporary directory) and runs there. */
async function runInProcess(o: ScenarioCliOptions, text: string): Promise<RunResult | string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'evsim-scenario-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
  });
  const service = await startService(config, createLogger(config));
  try {
    const token = await service.platform.tokens.sign!('scenario');
    return await runViaApi({ ...o, api: { url: service.url, token } }, text, onProgress, false);
  } finally {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function main(argv: string[]): Promise<number> {
  let o: ScenarioCliOptions;
  let text: string;
  // Asked for: the usage on stdout and success (without a FILE it is bad input: stderr, exit 2).
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    o = parseOptions(argv);
    text = readFileSync(o.file, 'utf8');
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  let result: RunResult | string;
  try {
    result = o.api ? await runViaApi(o, text, onProgress) : await runInProcess(o, text);
  } catch (err) {
    // The run could not be carried out (a refused token, a service out of reach): one line, no stack.
    process.stderr.write(`${o.file}: ${(err as Error).message.split('\n')[0]}\n`);
    return 2;
  }
  if (typeof result === 'string') {
    process.stderr.write(`${o.file}: not a valid scenario\n${result}\n`);
    return 2;
  }
  if (o.junit) writeFileSync(o.junit, junitXml(result));
  if (o.html) writeFileSync(o.html, htmlReport(result));
  if (o.json) writeFileSync(o.json, JSON.stringify(result, null, 2) + '\n');
  const { passed, failed } = result.expectations;
  out(
    `${result.status.toUpperCase()}: ${passed} expectation(s) held, ${failed} failed (run ${result.run_id}, seed ${result.seed})` +
      (result.error ? `\n  error: ${result.error}` : ''),
  );
  return result.status === 'passed' ? 0 : result.status === 'failed' ? 1 : 2;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
      process.exit(2);
    },
  );
