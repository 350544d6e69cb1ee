// The replay CLI: plays a recorded charger against a central system and reports the answers that
// differ from the recorded ones (exit 0 when none does, 1 when one does, 2 when the options, the
// recording or the connection cannot be used); or writes the recording as a scenario.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { USAGE, parseOptions, type ReplayCliOptions } from './options.ts';
import { readRecording, type Recording } from './recording.ts';
import { replay } from './replay-session.ts';
import { jsonReport, textReport } from './report.ts';
import { scenarioYaml } from './to-scenario.ts';

export async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let o: ReplayCliOptions;
  let rec: Recording;
  try {
    o = parseOptions(argv);
    rec = readRecording(readFileSync(o.file, 'utf8'));
  } catch (err) {
    const message = (err as Error).message;
    process.stderr.write(
      `${message === USAGE ? message : `${argv.find((a) => !a.startsWith('-')) ?? 'replay'}: ${message}`}\n`,
    );
    return 2;
  }
  const identity = o.identity ?? rec.identity;
  const version = o.version ?? rec.version;
  if (!version) {
    process.stderr.write(
      `${o.file}: no subprotocol in the recording (and no BootNotification to tell it): give --ocpp\n`,
    );
    return 2;
  }
  if (o.toScenario) {
    try {
      // The identity only when asked for: a scenario's chargers are otherwise named by the run.
      writeFileSync(o.toScenario, scenarioYaml(rec, { file: o.file, identity: o.identity, version }));
    } catch (err) {
      process.stderr.write(`${o.file}: ${(err as Error).message.split('\n')[0]}\n`);
      return 2;
    }
    process.stdout.write(`${o.toScenario}: a scenario of ${o.file}\n`);
    return 0;
  }
  if (!identity) {
    process.stderr.write(`${o.file}: no charge point identity in the recording: give --identity\n`);
    return 2;
  }
  try {
    const r = await replay(rec, {
      wsUrl: o.wsUrl!,
      identity,
      version,
      password: o.password,
      speed: o.speed,
      timeoutMs: o.timeoutS * 1000,
    });
    process.stdout.write(`${o.json ? jsonReport(o.file, r) : textReport(o.file, r)}\n`);
    return r.differences.length === 0 ? 0 : 1;
  } catch (err) {
    process.stderr.write(`${o.file}: ${(err as Error).message.split('\n')[0]}\n`);
    return 2;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
      process.exit(2);
    },
  );
