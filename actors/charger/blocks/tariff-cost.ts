// Tariff and cost (OCPP 2.0.1 block I): I02 CostUpdated, the running cost of a transaction as the
// central system computes it, kept for the transaction while it runs (the detail view shows it on
// its connector). A CostUpdated for a transaction the charger does not run changes nothing (the
// message has no status to refuse it with).
import type { Step } from '../core/step.ts';

declare module '../core/context.ts' {
  interface ChargerContext {
    /** I02: the last total cost the CSMS sent, by local transaction ref, and when. */
    costs?: Record<string, { total: number; at: number }>;
  }
}

/** I02: the transaction's running cost (ref: the local transaction; undefined when unknown). */
export function costUpdated(s: Step, ref: number | undefined, total: number): void {
  if (ref === undefined) return;
  const running = new Set(s.ctx.connectors.flatMap((c) => (c.tx ? [String(c.tx.ref)] : [])));
  const kept: Record<string, { total: number; at: number }> = {};
  for (const [k, v] of Object.entries(s.ctx.costs ?? {})) if (running.has(k)) kept[k] = v;
  kept[String(ref)] = { total, at: s.now };
  s.patch({ costs: kept });
}

/** The running cost of a connector's transaction, if the CSMS sent one (pure: for the detail view). */
export function costOf(
  ctx: { costs?: Record<string, { total: number; at: number }> },
  c: { tx?: { ref: number } },
): { total: number; at: number } | undefined {
  return c.tx ? ctx.costs?.[String(c.tx.ref)] : undefined;
}
