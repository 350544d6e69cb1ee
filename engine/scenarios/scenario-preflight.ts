// What can be known wrong about a run before any charger is deployed: a variable no one gives or
// sets before the step that uses it, a status the charger's OCPP version does not have, a
// csms_call against an external central system without a hook. Each problem names its step.
import type { OcppVersion } from '../../protocols/ocpp/versions.ts';
import type { OcppRequest } from '../../protocols/ocpp/ocpp-types.ts';
import type { ScenarioProblem } from './load-scenario.ts';
import { kindOf, type Scenario, type Step, type StepBody } from './scenario-schema.ts';

/** Every value of a union of strings, listed once (the compiler checks the list is whole). */
const every = <T extends string>(all: Record<T, true>) => Object.keys(all);

type Status16 = OcppRequest<'ocpp1.6', 'StatusNotification'>['status'];
type Connector2 = OcppRequest<'ocpp2.0.1', 'StatusNotification'>['connectorStatus'];
type Charging2 = NonNullable<
  OcppRequest<'ocpp2.0.1', 'TransactionEvent'>['transactionInfo']['chargingState']
>;
type Connector21 = OcppRequest<'ocpp2.1', 'StatusNotification'>['connectorStatus'];
type Charging21 = NonNullable<OcppRequest<'ocpp2.1', 'TransactionEvent'>['transactionInfo']['chargingState']>;

/** The statuses expect_status / wait_for_status can see: 2.x's connector status and charging state. */
const STATUSES: Record<OcppVersion, string[]> = {
  'ocpp1.6': every<Status16>({
    Available: true,
    Preparing: true,
    Charging: true,
    SuspendedEVSE: true,
    SuspendedEV: true,
    Finishing: true,
    Reserved: true,
    Unavailable: true,
    Faulted: true,
  }),
  'ocpp2.0.1': [
    ...every<Connector2>({
      Available: true,
      Occupied: true,
      Reserved: true,
      Unavailable: true,
      Faulted: true,
    }),
    ...every<Charging2>({
      Charging: true,
      EVConnected: true,
      SuspendedEV: true,
      SuspendedEVSE: true,
      Idle: true,
    }),
  ],
  'ocpp2.1': [
    ...every<Connector21>({
      Available: true,
      Occupied: true,
      Reserved: true,
      Unavailable: true,
      Faulted: true,
    }),
    ...every<Charging21>({
      Charging: true,
      EVConnected: true,
      SuspendedEV: true,
      SuspendedEVSE: true,
      Idle: true,
    }),
  ],
};

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The variables a value names, in every string it holds. */
function namesIn(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') for (const m of value.matchAll(VAR)) into.push(m[1]);
  else if (Array.isArray(value)) for (const v of value) namesIn(v, into);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) namesIn(v, into);
  return into;
}

export interface PreflightRun {
  /** An external central system; absent: the built-in one. */
  wsUrl?: string;
  csmsHook?: string;
  variables?: Record<string, string>;
}

export function preflight(s: Scenario, run: PreflightRun): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  const versionsOf = (group: string | undefined) =>
    new Set(
      s.chargers
        .filter((g) => group === undefined || g.id === group)
        .map((g) => g.ocpp_version as OcppVersion),
    );
  const unknown = (names: string[], known: Set<string>) => [...new Set(names.filter((n) => !known.has(n)))];
  const given = new Set([...Object.keys(s.variables), ...Object.keys(run.variables ?? {}), 'run_id']);
  s.chargers.forEach((g, i) => {
    for (const n of unknown(namesIn(g.identity), new Set([...given, 'index'])))
      problems.push({ path: ['chargers', i, 'identity'], message: `unknown variable \${${n}}` });
  });

  /** Visits steps in order; returns the variables known after them. */
  const visit = (steps: Step[], path: Array<string | number>, known: Set<string>): Set<string> => {
    steps.forEach((step, i) => {
      const kind = kindOf(step);
      const body = (step as Record<string, unknown>)[kind];
      const at = [...path, i, kind];
      if (kind === 'repeat') {
        const r = body as StepBody<'repeat'>;
        known = visit(r.steps, [...at, 'steps'], new Set([...known, 'round']));
        return;
      }
      if (kind === 'choose') {
        const after = new Set(known);
        (body as StepBody<'choose'>).options.forEach((o, j) => {
          // Set in any option: known after the choice (which one runs is drawn at run time).
          for (const n of visit(o.steps, [...at, 'options', j, 'steps'], new Set(known))) after.add(n);
        });
        known = after;
        return;
      }
      for (const n of unknown(namesIn(body), known))
        problems.push({
          path: at,
          message: `unknown variable \${${n}}: not in variables or --var, nor set or saved by an earlier step`,
        });
      if (kind === 'set') for (const n of Object.keys(body as object)) known.add(n);
      const b = body as { status?: string; charger?: string; save?: Record<string, string> };
      if (b.save) for (const n of Object.keys(b.save)) known.add(n);
      if ((kind === 'expect_status' || kind === 'wait_for_status') && b.status && !b.status.includes('${'))
        for (const v of versionsOf(b.charger?.includes('${') ? undefined : b.charger))
          if (!STATUSES[v].includes(b.status))
            problems.push({
              path: [...at, 'status'],
              message: `'${b.status}' is not a status of ${v} (one of ${STATUSES[v].join(', ')})`,
            });
      const call = body as { prompt?: string; send?: unknown };
      if (kind === 'expect_call' && call.prompt !== undefined && call.send === undefined && !run.wsUrl)
        problems.push({
          path: at,
          message:
            'expect_call with a prompt needs `send` (the payload) for the built-in central system to send',
        });
      if (kind === 'csms_call' && run.wsUrl && !run.csmsHook)
        problems.push({
          path: at,
          message:
            'csms_call against an external central system needs a hook that makes it send the call: --csms-hook URL (API: csms_hook)',
        });
    });
    return known;
  };
  visit(s.steps, ['steps'], given);
  return problems;
}
