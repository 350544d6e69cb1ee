// What a scenario run reports while it runs and once it is over: the API's run body, the CLI's
// progress lines and its JUnit / HTML reports are all made from this.

/** `warning`: a step of `severity: warning` that failed (a compatibility warning; the run went on). */
export type StepStatus = 'running' | 'passed' | 'failed' | 'warning' | 'done' | 'skipped';

export interface ProofFrame {
  /** The charger's identity. */
  charger: string;
  /** The message log item (id, at, direction, type, message_id, action, frame, error). */
  item: unknown;
}

export interface StepResult {
  /** Position in the document: `3`, or `4.2.1` inside a repeat (step 4, round 2, step 1). */
  path: string;
  kind: string;
  name: string;
  /** Expectations pass or fail; other steps are done (or fail when they cannot be carried out). */
  expectation: boolean;
  /** A precondition: its failure means the case could not be tested (blocked), not that it failed. */
  precondition?: boolean;
  status: StepStatus;
  started_at: string;
  finished_at: string | null;
  /** Why it failed, or what it found. */
  message: string | null;
  /** The frames that proved the expectation, or the closest ones seen when it failed. */
  frames: ProofFrame[];
}

export interface RunChargerInfo {
  group: string;
  identity: string;
  deployment_id: string;
  ocpp_version: string;
}

export interface RunResult {
  run_id: string;
  scenario: string;
  status: 'running' | 'passed' | 'failed' | 'error';
  seed: number;
  started_at: string;
  finished_at: string | null;
  chargers: RunChargerInfo[];
  steps: StepResult[];
  expectations: { passed: number; failed: number };
  /** Steps of `severity: warning` that failed: compatibility warnings, kept apart from failures. */
  warnings: number;
  /** Set when the run could not be carried out (a charger not deployed, a step not possible). */
  error: string | null;
}

export type RunEvent =
  | { type: 'step'; step: StepResult }
  | { type: 'charger'; charger: RunChargerInfo }
  /** An expect_call's prompt for a person (an external central system without a hook). */
  | { type: 'prompt'; charger: string; prompt: string }
  | { type: 'end'; result: RunResult };
