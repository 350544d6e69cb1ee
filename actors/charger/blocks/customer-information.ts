// Customer information (OCPP 2.0.1 N09 report, N10 clear): what the charger holds about a customer,
// named by a token, a customer certificate or a customer identifier. It holds a token in its
// authorization cache, its local list, its reservations and its running transactions; it keeps no
// customer certificates (no ISO 15118 contracts) and knows no customer identifiers. The report goes
// in NotifyCustomerInformation after the answer, cut into 512-character parts (seqNo from 0, tbc
// until the last); a clear forgets the token in the cache and the local list (a running transaction
// and a reservation stay: they are the CSMS's to stop or cancel) and says what it cleared.
import type { Step } from '../core/step.ts';
import type { OutboundCall } from '../core/wire.ts';

/** The most a NotifyCustomerInformation's `data` holds (the schema's maxLength). */
export const CUSTOMER_DATA_MAX = 512;

export interface CustomerQuery {
  report: boolean;
  clear: boolean;
  idTag?: string;
  certificate?: boolean;
  customerId?: string;
}

/**
 * N09/N10: Invalid without a customer to look for; Accepted otherwise, the report (or what was
 * cleared) following as parts the version writes (`part(data, seqNo, more)`).
 */
export function customerInformation(
  s: Step,
  q: CustomerQuery,
  part: (data: string, seqNo: number, more: boolean) => OutboundCall,
): 'Accepted' | 'Invalid' {
  if (q.idTag === undefined && !q.certificate && q.customerId === undefined) return 'Invalid';
  const lines: string[] = [];
  if (q.report) lines.push(...reportOf(s, q));
  if (q.clear) lines.push(clearOf(s, q));
  if (!lines.length) return 'Accepted';
  const text = lines.join('\n');
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += CUSTOMER_DATA_MAX) parts.push(text.slice(i, i + CUSTOMER_DATA_MAX));
  parts.forEach((data, n) => s.call(part(data, n, n < parts.length - 1)));
  return 'Accepted';
}

function reportOf(s: Step, q: CustomerQuery): string[] {
  const lines: string[] = [];
  const tag = q.idTag;
  if (tag !== undefined) {
    const listed = s.ctx.localList.tags[tag];
    if (listed) {
      const group = s.ctx.localList.groups?.[tag];
      lines.push(`idToken ${tag}: local list ${listed}${group ? `, group ${group}` : ''}`);
    }
    const cached = s.ctx.authCache[tag];
    if (cached) lines.push(`idToken ${tag}: authorization cache ${cached}`);
    for (const r of s.ctx.reservations ?? [])
      if (r.idTag === tag) lines.push(`idToken ${tag}: reservation ${r.id} until ${s.iso(r.expiresAt)}`);
    for (const c of s.ctx.connectors)
      if (c.tx?.idTag === tag) {
        const id = s.wire.transactionIdOf(s.ctx, c);
        const evse = s.wire.evseOf(c.id);
        lines.push(
          `idToken ${tag}: transaction ${id ?? '(not yet numbered)'} on ${evse === null ? `connector ${c.id}` : `EVSE ${evse}`} since ${s.iso(c.tx.startedAt)}, ${Math.floor(c.meterWh - c.tx.startWh)} Wh`,
        );
      }
  }
  if (q.certificate) lines.push('customerCertificate: the charger keeps no customer certificates');
  if (q.customerId !== undefined) lines.push(`customerIdentifier ${q.customerId}: not known to the charger`);
  if (tag !== undefined && lines.length === 0) lines.push(`idToken ${tag}: no information held`);
  return lines;
}

function clearOf(s: Step, q: CustomerQuery): string {
  const tag = q.idTag;
  if (tag === undefined) return 'cleared: nothing held';
  const cleared: string[] = [];
  if (s.ctx.authCache[tag]) {
    const authCache = { ...s.ctx.authCache };
    delete authCache[tag];
    s.patch({ authCache });
    cleared.push('authorization cache');
  }
  if (s.ctx.localList.tags[tag]) {
    const tags = { ...s.ctx.localList.tags };
    delete tags[tag];
    const groups = s.ctx.localList.groups ? { ...s.ctx.localList.groups } : undefined;
    if (groups) delete groups[tag];
    s.patch({ localList: { ...s.ctx.localList, tags, ...(groups ? { groups } : {}) } });
    cleared.push('local list');
  }
  return `idToken ${tag} cleared from: ${cleared.length ? cleared.join(', ') : 'nothing held'}`;
}
