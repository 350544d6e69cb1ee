// A recording as a scenario (engine/scenarios/scenario-schema.ts), as far as the language goes:
// the virtual charger boots by itself (the recorded BootNotification's answer is expected), then
// sends each of the recorded charger's calls (`send`, with a `wait` for recorded gaps over a
// second) and expects the central system's answer with the recorded status values, the same
// fields present and the same values except the ignored ones (compare.ts). Transaction ids the
// central system gives are saved and used in what the charger sends later. The central system's
// own calls become `expect_call` (the virtual charger answers them itself).
import { stringify } from 'yaml';
import type { OcppVersion } from '../../protocols/ocpp/index.ts';
import type { Step } from '../../engine/scenarios/scenario-schema.ts';
import { isIgnored } from './compare.ts';
import { answerTo, type RecordedFrame, type Recording } from './recording.ts';

const ANY = '/.*/';
const MAX_STEPS = 500;
const MAX_WAIT_S = 3600;

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** What an answer must hold: every status as recorded, every field present, values but the ignored ones. */
function expectation(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => expectation(x));
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expectation(x, k)]));
  if (typeof v === 'boolean' || v === null) return v;
  if (key !== 'status' && isIgnored(key)) return ANY;
  const s = String(v);
  // A string the scenario would read as a regex or a variable is matched by an anchored regex.
  return typeof v === 'string' && (s.includes('${') || (s.startsWith('/') && s.endsWith('/')))
    ? `/^${escapeRegex(s)}$/`
    : v;
}

/** The payload with each recorded transaction id that was saved named by its variable. */
function withVariables(v: unknown, saved: Map<string, string>): unknown {
  if (Array.isArray(v)) return v.map((x) => withVariables(x, saved));
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [
      k,
      k === 'transactionId' && saved.has(JSON.stringify(x))
        ? `\${${saved.get(JSON.stringify(x))}}`
        : withVariables(x, saved),
    ]),
  );
}

export interface ScenarioSource {
  file: string;
  identity?: string;
  version: OcppVersion;
}

/** The scenario document (the schema's input shape) of a recording; throws when it would be too long. */
export function recordingScenario(rec: Recording, src: ScenarioSource): Record<string, unknown> {
  const steps: Step[] = [];
  const saved = new Map<string, string>();
  let booted = false;
  let lastAt: number | undefined;
  const answerStep = (call: RecordedFrame, answer: RecordedFrame | undefined) => {
    if (!answer) return;
    const name = `the answer to line ${call.line}`;
    if (answer.type === 4)
      steps.push({
        wait_for_frame: { action: call.action!, type: 'CALLERROR', from: 'csms', timeout_s: 30 },
        name,
      } as Step);
    else
      steps.push({
        expect_answer: {
          action: call.action!,
          payload: expectation(answer.payload) as Record<string, unknown>,
        },
        name,
      } as Step);
    if (
      answer.type === 3 &&
      answer.payload.transactionId !== undefined &&
      call.action !== 'TransactionEvent'
    ) {
      const variable = `tx_${saved.size + 1}`;
      saved.set(JSON.stringify(answer.payload.transactionId), variable);
      steps.push({
        wait_for_frame: { action: call.action!, type: 'CALLRESULT', save: { [variable]: 'transactionId' } },
      } as Step);
    }
  };
  for (const f of rec.frames) {
    if (f.type !== 2) continue;
    if (f.from === 'csms') {
      steps.push({
        expect_call: { action: f.action! },
        name: `the central system's call of line ${f.line}`,
      } as Step);
      continue;
    }
    if (f.action === 'BootNotification' && !booted) {
      booted = true; // the virtual charger boots by itself
      lastAt = f.at;
      answerStep(f, answerTo(rec.frames, f));
      continue;
    }
    const gap = lastAt === undefined ? 0 : Math.round((f.at - lastAt) / 1000);
    if (gap >= 1) steps.push({ wait: { seconds: Math.min(gap, MAX_WAIT_S) } } as Step);
    lastAt = f.at;
    steps.push({
      send: { action: f.action!, payload: withVariables(f.payload, saved) as Record<string, unknown> },
      name: `line ${f.line}`,
    } as Step);
    answerStep(f, answerTo(rec.frames, f));
  }
  if (steps.length === 0) throw new Error('the recording holds no call of the charger to reproduce');
  if (steps.length > MAX_STEPS)
    throw new Error(`the recording makes ${steps.length} steps; a scenario holds at most ${MAX_STEPS}`);
  return {
    name: `Replay of ${src.file}`.slice(0, 200),
    description: `Made by npm run replay -- ${src.file} --to-scenario: the recorded charger's calls, the recorded answers expected.`,
    chargers: [{ id: 'cp', ocpp_version: src.version, ...(src.identity && { identity: src.identity }) }],
    steps,
  };
}

export function scenarioYaml(rec: Recording, src: ScenarioSource): string {
  return stringify(recordingScenario(rec, src), { lineWidth: 0 });
}
