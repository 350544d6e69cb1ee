// The scenario document: the chargers a scenario needs, then its steps (EV and charger actions,
// waits, expectations, repeats, seeded random choices). One zod schema for the API, the CLI and
// the published JSON Schema (scenarios/scenario.schema.json, GET /scenarios/schema.json). Every
// step is an object with exactly one key naming its kind. Strings may hold `${variable}`.
import { z } from 'zod';
import { parseCrls } from '../platform/certificates/crl.ts';
import { OCPP_VERSIONS } from '../../protocols/ocpp/versions.ts';
import { GRID_EVENT_FAULTS } from '../commands/command-kinds.ts';
import { linkConditionsFields } from '../charger/link-conditions-input.ts';

const text = (max = 200) => z.string().min(1).max(max);
const seconds = z.number().positive().max(3600);
const connector = z.number().int().min(1).max(100);
/** A step's charger group (the `id` of an entry of `chargers`); default: every charger. */
const chargerRef = text(50).optional().describe('The id of an entry of `chargers`; default: all chargers');
/** Fields a frame's payload must contain (a partial deep match; arrays match element-wise). */
const fields = z.record(z.string().max(100), z.unknown()).describe('Payload fields that must match');

const target = { charger: chargerRef };
const onConnector = { ...target, connector: connector.default(1) };

const chargerGroup = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_-]{0,49}$/)
    .describe('How steps name this group'),
  count: z.number().int().min(1).max(100).default(1),
  model: text(100).default('abb-terra-ac-wallbox-22').describe('A catalog model slug'),
  ocpp_version: z.enum(OCPP_VERSIONS).default('ocpp1.6'),
  identity: text(48)
    .optional()
    .describe('Identity template; `${index}` is the charger number in the group (1..count)'),
  security: z
    .strictObject({
      profile: z.number().int().min(0).max(3),
      password: text(200).optional(),
      ca_pem: z.string().max(100_000).optional(),
      crl_pem: z
        .string()
        .max(100_000)
        .refine((pem) => typeof parseCrls(pem) !== 'string', {
          message: 'not PEM certificate revocation lists (-----BEGIN X509 CRL-----) that parse',
        })
        .optional()
        .describe('Certificate revocation lists the chargers hold (TLS and firmware signers)'),
      client_cert_pem: z.string().max(100_000).optional(),
      client_key_pem: z.string().max(100_000).optional(),
    })
    .optional(),
});

/** A conformance test case: what a suite reports the scenario as. */
const testCase = z
  .strictObject({
    id: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,49}$/)
      .describe('The official test-case id, e.g. TC_010_CSMS'),
    title: text(200),
    profile: text(50).describe('The profile (feature set) the case belongs to, e.g. Core, Reservation'),
    requirements: z
      .array(text(100))
      .max(50)
      .default([])
      .describe('The requirements the case checks (the specification section or requirement ids)'),
  })
  .describe('Conformance metadata: a suite reports the scenario as this test case');

const whoSends = z.enum(['csms', 'charger']).default('csms');
const frameType = z.enum(['CALL', 'CALLRESULT', 'CALLERROR']);

/** What a frame must be: sender, type, action, payload fields. */
const frameMatch = {
  ...target,
  action: text(100),
  from: whoSends.describe('Who sent the frame: the central system (default) or the charger'),
  type: frameType.optional().describe('Default: CALL when the CSMS sends, CALLRESULT when it answers'),
  payload: fields.optional(),
  timeout_s: seconds.default(30),
};

const meterBound = z.strictObject({
  ...onConnector,
  measurand: text(100).default('Energy.Active.Import.Register'),
  at_least: z.number().optional(),
  at_most: z.number().optional(),
  within_s: seconds.default(60),
});

/** Steps that act: each becomes a command of engine/commands/command-kinds.ts (or a restart). */
const actions = {
  plug_in: z.strictObject({
    ...onConnector,
    ev_max_power_kw: z.number().positive().max(1000).optional(),
    soc_percent: z.number().min(0).max(100).optional(),
    battery_kwh: z.number().positive().max(1000).optional(),
    bidirectional: z.boolean().optional().describe('V2X: the EV can discharge (2.1 block Q)'),
    max_discharge_kw: z.number().positive().max(1000).optional(),
    min_soc_percent: z.number().min(0).max(100).optional(),
  }),
  present_token: z.strictObject({ ...onConnector, id_tag: text(36) }),
  unplug: z.strictObject(onConnector),
  ev_stops_energy: z.strictObject(onConnector),
  fault: z.strictObject({ ...onConnector, error_code: text(50).optional() }),
  clear_fault: z.strictObject(onConnector),
  grid_frequency: z
    .strictObject({ ...target, frequency_hz: z.number().min(45).max(65) })
    .describe('The grid frequency (Hz) the V2X frequency operation modes follow'),
  grid_event: z
    .strictObject({
      ...target,
      fault: z.enum(GRID_EVENT_FAULTS),
      ended: z.boolean().optional(),
      extra_info: text(200).optional(),
    })
    .describe('A grid event (2.1 GridEventFaultEnumType) the 2.1 DER inverter detects, or its end'),
  disconnect: z.strictObject(target),
  reboot: z.strictObject(target),
  configure: z.strictObject({
    ...target,
    key: text(50).optional(),
    component: text(50).optional(),
    variable: text(50).optional(),
    value: z.union([z.string().max(1000), z.number(), z.boolean()]),
  }),
  clear_cache: z.strictObject(target),
  send: z.strictObject({ ...target, action: text(100), payload: fields.default({}) }),
  misbehave: z
    .strictObject({
      ...target,
      kind: z.enum(['raw_text', 'edit_next_call', 'wrong_message_id']),
      text: z
        .string()
        .min(1)
        .max(100_000)
        .optional()
        .describe('raw_text: written on the socket exactly as given'),
      action: text(100).optional().describe('edit_next_call: the action of the next CALL to edit'),
      payload: fields.optional().describe('edit_next_call: fields replaced (null removes one)'),
      message_id: text(100).optional().describe('wrong_message_id: the id the next answer carries'),
    })
    .describe(
      'The charger misbehaves once on purpose (docs/faults.md): invalid text, an edited CALL, an answer under a wrong message id',
    ),
  link: z
    .strictObject({
      ...target,
      ...linkConditionsFields,
      clear: z.literal(true).optional().describe('A clean link again (frames held by a latency go at once)'),
    })
    .refine((b) => !b.clear || Object.keys(b).every((k) => k === 'clear' || k === 'charger'), {
      message: 'clear: true takes no conditions beside it',
    })
    .describe(
      'Link conditions on the chargers (docs/faults.md), as PUT .../link sets them: they replace those in force; seed default: from the run’s seed',
    ),
  csms_call: z
    .strictObject({ ...target, action: text(100), payload: fields.default({}) })
    .describe(
      'The central system sends this call (built-in central system, or the --csms-hook of an external one)',
    ),
};

const waits = {
  wait: z.strictObject({ seconds }),
  wait_for_status: z.strictObject({ ...onConnector, status: text(50), timeout_s: seconds.default(30) }),
  wait_for_frame: z.strictObject({
    ...frameMatch,
    save: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), text(200))
      .optional()
      .describe('Variables set from the frame: name -> dotted path in the payload'),
  }),
};

const expectations = {
  expect_answer: z
    .strictObject({
      ...target,
      action: text(100),
      payload: fields.optional(),
      within_s: seconds.default(10),
    })
    .describe('The central system answered the charger’s call of `action` with these fields in time'),
  expect_call: z
    .strictObject({
      ...target,
      action: text(100),
      payload: fields.optional(),
      within_s: seconds.default(30),
      prompt: text(500)
        .optional()
        .describe(
          'What the operator makes the central system do ("make the CSMS send RemoteStartTransaction for connector 1"): POSTed to the --csms-hook with `send`, printed for a person',
        ),
      send: fields
        .optional()
        .describe('The call’s payload the built-in central system (or the hook) sends to fulfil the prompt'),
    })
    .describe('The central system sent a call of `action` (with these fields) in time'),
  expect_no_call: z
    .strictObject({ ...target, action: text(100), payload: fields.optional(), within_s: seconds.default(10) })
    .describe(
      'The central system sends no call of `action` (with these fields) for `within_s` from this step on',
    ),
  expect_status: z.strictObject({ ...onConnector, status: text(50), within_s: seconds.default(30) }),
  expect_meter: meterBound,
};

const one = <K extends string, S extends z.ZodType>(key: K, schema: S) =>
  z.strictObject({ [key]: schema } as { [P in K]: S });
const varName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/);

const STEP_BODIES = { ...actions, ...waits, ...expectations };
type ControlBodies = {
  repeat: { times: number; steps: Step[] };
  choose: { options: Array<{ weight: number; steps: Step[] }> };
  set: Record<string, string | { one_of: string[] } | { time_in_s: number }>;
};
type Bodies = { [K in keyof typeof STEP_BODIES]: z.output<(typeof STEP_BODIES)[K]> } & ControlBodies;
export type StepKind = keyof Bodies;
export const STEP_KINDS = [...Object.keys(STEP_BODIES), 'repeat', 'choose', 'set'] as StepKind[];
export const ACTION_KINDS = Object.keys(actions) as StepKind[];
export const EXPECTATION_KINDS = Object.keys(expectations) as StepKind[];
export type StepBody<K extends StepKind> = Bodies[K];
/** What a step may carry besides its kind: a name, how a failure counts, whether it is a precondition. */
export type StepMeta = {
  name?: string;
  /** `warning`: a failure is a compatibility warning (allowed but unusual), the run goes on. */
  severity?: 'shall' | 'warning';
  /** A failure means the case could not be tested (verdict `blocked`), not that it failed. */
  precondition?: boolean;
};
export type Step = { [K in StepKind]: { [P in K]: Bodies[P] } & StepMeta }[StepKind];
export const STEP_META_KEYS: readonly string[] = ['name', 'severity', 'precondition'];

/**
 * A place in the document as a person reads it: positions count from 1, as the report numbers
 * steps (`steps.4.present_token` is the report's step 4). `path` itself stays 0-based, as the
 * API's `loc` gives it.
 */
export const placeText = (path: ReadonlyArray<string | number>) =>
  path.length > 0 ? path.map((p) => (typeof p === 'number' ? p + 1 : p)).join('.') : 'document';

/** The step's kind: its one key besides `name`. */
export const kindOf = (step: Step): StepKind =>
  Object.keys(step).find((k) => !STEP_META_KEYS.includes(k)) as StepKind;

/**
 * The whole document, built twice from the same parts: for parsing, each step is checked against
 * the schema its key names (so a mistake is reported where it is, not as "no union member
 * matched"); for the JSON Schema, steps are a union editors can complete.
 */
function build(forEditors: boolean) {
  const stepList: z.ZodType<Step[], unknown> = z.lazy(() => z.array(stepSchema).min(1).max(500));
  const control = {
    repeat: z.strictObject({ times: z.number().int().min(1).max(1000), steps: stepList }),
    choose: z
      .strictObject({
        options: z
          .array(z.strictObject({ weight: z.number().positive().max(1000).default(1), steps: stepList }))
          .min(1)
          .max(50),
      })
      .describe('Runs one option, picked at random by weight (seeded)'),
    set: z
      .record(
        varName,
        z.union([
          text(1000),
          z.strictObject({ one_of: z.array(text(1000)).min(1).max(1000) }),
          z
            .strictObject({ time_in_s: z.number().min(-31_622_400).max(31_622_400) })
            .describe('The date-time this many seconds after the step runs (ISO 8601, UTC)'),
        ]),
      )
      .describe(
        'Variables: a value, a seeded random pick with one_of, or a date-time from now with time_in_s',
      ),
  };
  const all: Record<StepKind, z.ZodType> = { ...STEP_BODIES, ...control };
  const named = (k: StepKind) =>
    one(k, all[k]).extend({
      name: text(200).optional(),
      severity: z
        .enum(['shall', 'warning'])
        .optional()
        .describe('warning: a failure is a compatibility warning (allowed but unusual); the run goes on'),
      precondition: z
        .boolean()
        .optional()
        .describe('A failure means the case could not be tested: verdict blocked, not failed'),
    });
  const stepSchema: z.ZodType<Step, unknown> = forEditors
    ? (z.union(STEP_KINDS.map(named)) as unknown as z.ZodType<Step, unknown>)
    : (z.unknown().transform((v, ctx) => {
        const keys =
          v && typeof v === 'object' && !Array.isArray(v)
            ? Object.keys(v).filter((k) => !STEP_META_KEYS.includes(k))
            : [];
        const kind = keys[0] as StepKind;
        if (keys.length !== 1 || !STEP_KINDS.includes(kind)) {
          ctx.addIssue({
            code: 'custom',
            message:
              keys.length === 1
                ? `unknown step '${keys[0]}': one of ${STEP_KINDS.join(', ')}`
                : 'a step is an object with one key naming its kind (and optional name, severity, precondition)',
          });
          return z.NEVER;
        }
        const r = named(kind).safeParse(v);
        if (r.success) return r.data as Step;
        for (const issue of r.error.issues)
          ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path as PropertyKey[] });
        return z.NEVER;
      }) as unknown as z.ZodType<Step, unknown>);
  return z.strictObject({
    name: text(200),
    description: z.string().max(5000).optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31)
      .optional()
      .describe('Seed of the random choices (default: random, reported with the result)'),
    test_case: testCase.optional(),
    variables: z.record(varName, z.string().max(1000)).default({}),
    chargers: z.array(chargerGroup).min(1).max(20),
    steps: stepList,
  });
}

export const scenarioSchema = build(false);
const editorSchema = build(true);

export type Scenario = z.output<typeof scenarioSchema>;
export type ChargerGroup = z.output<typeof chargerGroup>;
export type TestCase = z.output<typeof testCase>;

/** The JSON Schema editors complete scenario files with. */
export function scenarioJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(editorSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}
