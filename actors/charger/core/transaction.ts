// What every block may ask of the running transactions, below the blocks that run them
// (blocks/transactions.ts starts and ends them, blocks/metering.ts samples them).
import type { Step } from './step.ts';

/** Whether a transaction runs on any connector. */
export function hasTransaction(s: Step): boolean {
  return s.ctx.connectors.some((c) => c.tx);
}

/** 2.0.1 numbers every TransactionEvent of a transaction: the next one gets the next seqNo. */
export function bumpSeq(s: Step, id: number): void {
  const c = s.connector(id);
  if (c?.tx) s.putConnector({ ...c, tx: { ...c.tx, seq: c.tx.seq + 1 } });
}
