// What the chargers of a chaos run saw, summed up: when each came back online with its boot
// accepted, the BootNotification answers by status, the answers that came later than the call
// timeout, the CALLERRORs by code, the connections per second. Fed by the chargers' link watches
// (in this process or, in a cluster, from the nodes holding them: chaos-bus.ts); every time is
// milliseconds since the run started.
import type { CallOutcome } from '../../protocols/ocpp/index.ts';

export type Observation =
  | { kind: 'connected'; at: number }
  | { kind: 'connect_failed'; at: number; code: string }
  | { kind: 'answered'; at: number; action: string; outcome: CallOutcome; status?: string };

export interface Spread {
  min: number;
  p50: number;
  p90: number;
  max: number;
}

export interface ChaosReport {
  /** Chargers the run touched. */
  affected: number;
  /** Of those that lost power or network or were rebooted: how many are back online, boot accepted. */
  back: number | null;
  all_back: boolean | null;
  /** From the first charger's power (network, reboot) back to the last charger back, in seconds. */
  all_back_s: number | null;
  /** The last charger back, in seconds since the run started. */
  last_back_at_s: number | null;
  /** Each charger's own time from its power (network, reboot) back to back online: the backoff's spread. */
  back_s: Spread | null;
  boot_answers: Record<string, number>;
  /** The chargers' CALLs not answered within their call timeout. */
  late_answers: number;
  /** CALLERRORs the chargers got, by code. */
  callerrors: Record<string, number>;
  /** Connections opened, and attempts that failed (refused, unreachable, no power). */
  connections: number;
  connect_failures: number;
  busiest_second: { at_s: number; connections: number } | null;
  /** Identities of chargers not back yet (at most 100). */
  not_back: string[];
}

const NONE = -1;
const KEEP_NOT_BACK = 100;

export class ChaosRecorder {
  readonly #fault: Float64Array;
  readonly #restored: Float64Array;
  readonly #back: Float64Array;
  /** A connection opened since the fault: coming back takes an accepted boot. */
  readonly #reconnected: Uint8Array;
  #expected = 0;
  #back_count = 0;
  #firstRestore = Infinity;
  #lastBack = NONE;
  readonly #boots: Record<string, number> = {};
  readonly #errors: Record<string, number> = {};
  #late = 0;
  #connections = 0;
  #failures = 0;
  readonly #perSecond = new Map<number, number>();

  /** `identities`: the chargers of the run, by place; only `affected` of them are watched. */
  constructor(
    readonly identities: readonly string[],
    readonly affected: number,
  ) {
    const n = identities.length;
    this.#fault = new Float64Array(n).fill(NONE);
    this.#restored = new Float64Array(n).fill(NONE);
    this.#back = new Float64Array(n).fill(NONE);
    this.#reconnected = new Uint8Array(n);
  }

  fault(i: number, at: number): void {
    if (this.#fault[i] === NONE) this.#fault[i] = at;
  }

  /** Its power or network is back, or it was rebooted: it should come back from here. */
  restored(i: number, at: number): void {
    if (this.#restored[i] === NONE) this.#expected++;
    else if (this.#back[i] !== NONE) return; // back already (a reboot's second restore counts once)
    this.#restored[i] = at;
    this.#firstRestore = Math.min(this.#firstRestore, at);
  }

  observe(i: number, o: Observation): void {
    switch (o.kind) {
      case 'connected': {
        this.#connections++;
        const s = Math.floor(o.at / 1000);
        this.#perSecond.set(s, (this.#perSecond.get(s) ?? 0) + 1);
        if (this.#fault[i] !== NONE) this.#reconnected[i] = 1;
        return;
      }
      case 'connect_failed':
        this.#failures++;
        return;
      case 'answered':
        if (o.outcome === 'timeout') this.#late++;
        else if (o.outcome === 'error')
          this.#errors[o.status ?? 'unknown'] = (this.#errors[o.status ?? 'unknown'] ?? 0) + 1;
        else if (o.action === 'BootNotification')
          this.#boots[o.status ?? 'unknown'] = (this.#boots[o.status ?? 'unknown'] ?? 0) + 1;
        if (o.outcome !== 'result' || this.#restored[i] === NONE || this.#back[i] !== NONE) return;
        // Back: its boot accepted after a new connection, or any answer on a connection that lived through.
        if (this.#reconnected[i] ? o.action === 'BootNotification' && o.status === 'Accepted' : true) {
          this.#back[i] = o.at;
          this.#back_count++;
          this.#lastBack = Math.max(this.#lastBack, o.at);
        }
    }
  }

  /** Every charger that should come back is back (true when none should). */
  allBack(): boolean {
    return this.#back_count === this.#expected;
  }

  report(): ChaosReport {
    const expected = this.#expected;
    const times: number[] = [];
    const notBack: string[] = [];
    for (let i = 0; i < this.identities.length; i++) {
      if (this.#restored[i] === NONE) continue;
      if (this.#back[i] !== NONE) times.push(this.#back[i] - this.#restored[i]);
      else if (notBack.length < KEEP_NOT_BACK) notBack.push(this.identities[i]);
    }
    times.sort((a, b) => a - b);
    const s = (ms: number) => Math.round(ms) / 1000;
    const at = (q: number) => s(times[Math.min(times.length - 1, Math.floor(q * times.length))]);
    let busiest: ChaosReport['busiest_second'] = null;
    for (const [second, connections] of this.#perSecond)
      if (!busiest || connections > busiest.connections) busiest = { at_s: second, connections };
    const all = expected > 0 && this.allBack();
    return {
      affected: this.affected,
      back: expected > 0 ? this.#back_count : null,
      all_back: expected > 0 ? all : null,
      all_back_s: all ? s(this.#lastBack - this.#firstRestore) : null,
      last_back_at_s: all ? s(this.#lastBack) : null,
      back_s:
        times.length > 0 ? { min: s(times[0]), p50: at(0.5), p90: at(0.9), max: s(times.at(-1)!) } : null,
      boot_answers: { ...this.#boots },
      late_answers: this.#late,
      callerrors: { ...this.#errors },
      connections: this.#connections,
      connect_failures: this.#failures,
      busiest_second: busiest,
      not_back: notBack,
    };
  }
}
