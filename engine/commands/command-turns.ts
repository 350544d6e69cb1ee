// One command per charger on its way at a time: a charger is handed its next command only once
// the outcome of the one before is recorded. Handed over all at once, a burst waits in the
// charger's CALL queue (OCPP-J: one CALL in flight) while the database already says `sent`, and a
// crash then leaves every one of them `interrupted`, although most never left and the answers of
// others were only in memory. One at a time, the command `sent` at a crash is the one on the wire
// (or answered within the last batch), the outcomes before it are recorded, and those behind it
// are still `received`: the next run carries them out. docs/commands.md, "Across a crash".
import type { CommandMessage } from './command-topics.ts';

export class ChargerTurns {
  /** Commands this run holds (received) for chargers that are back, oldest first, per charger. */
  readonly #lines = new Map<string, CommandMessage[]>();
  /** The command each charger was handed whose outcome is not recorded yet, by charger. */
  readonly #busy = new Map<string, string>();
  /** The charger of each command in #busy. */
  readonly #chargerOf = new Map<string, string>();

  /** Nothing on its way to the charger and nothing waiting for it: a new command can go now. */
  isFree(deploymentId: string): boolean {
    return !this.#busy.has(deploymentId) && !this.#lines.get(deploymentId)?.length;
  }

  /** Waits for its charger's turn, behind what waits already (once per command). */
  enqueue(m: CommandMessage): void {
    const line = this.#lines.get(m.deployment_id);
    if (!line) this.#lines.set(m.deployment_id, [m]);
    else if (!line.some((x) => x.id === m.id)) line.push(m);
  }

  /** Whether some charger is free and has a command waiting. */
  hasTurn(): boolean {
    for (const [id, line] of this.#lines) if (line.length > 0 && !this.#busy.has(id)) return true;
    return false;
  }

  /** The oldest waiting command of every free charger; each charger is now busy with it. */
  next(): CommandMessage[] {
    const out: CommandMessage[] = [];
    for (const [id, line] of this.#lines) {
      if (this.#busy.has(id) || line.length === 0) continue;
      const m = line.shift()!;
      if (line.length === 0) this.#lines.delete(id);
      this.take(m);
      out.push(m);
    }
    return out;
  }

  /** The charger is busy with this command until its outcome is recorded. */
  take(m: CommandMessage): void {
    this.#busy.set(m.deployment_id, m.id);
    this.#chargerOf.set(m.id, m.deployment_id);
  }

  /** The command's outcome is recorded (or it was never handed over): its charger is free. */
  release(commandId: string): void {
    const deploymentId = this.#chargerOf.get(commandId);
    if (deploymentId === undefined) return;
    this.#chargerOf.delete(commandId);
    if (this.#busy.get(deploymentId) === commandId) this.#busy.delete(deploymentId);
  }

  /** The charger went offline or stopped: what it was handed may never report, so it is free. */
  releaseCharger(deploymentId: string): boolean {
    const id = this.#busy.get(deploymentId);
    if (id === undefined) return false;
    this.release(id);
    return true;
  }

  /** A hand-over that could not be written: the commands are first in line again, chargers free. */
  putBack(ms: CommandMessage[]): void {
    for (const m of ms) {
      this.release(m.id);
      this.#lines.set(m.deployment_id, [m, ...(this.#lines.get(m.deployment_id) ?? [])]);
    }
  }

  /** The charger left this node: what waits stays received for its next holder. */
  forget(deploymentId: string): void {
    this.#lines.delete(deploymentId);
    this.releaseCharger(deploymentId);
  }

  /** Every charger with a command waiting or on its way. */
  chargers(): string[] {
    return [...new Set([...this.#lines.keys(), ...this.#busy.keys()])];
  }

  clear(): void {
    this.#lines.clear();
    this.#busy.clear();
    this.#chargerOf.clear();
  }
}
