// A step's fields as the runner reads them (loosely: each kind reads its own, the schema checked
// them), its time limit, and its default name in reports.

/** Any step's fields, loosely: each kind reads its own (the schema checked them). */
export interface Fields {
  charger?: string;
  connector: number;
  action: string;
  payload?: Record<string, unknown>;
  status: string;
  seconds: number;
  timeout_s?: number;
  within_s?: number;
  from?: 'csms' | 'charger';
  type?: string;
  save?: Record<string, string>;
  measurand: string;
  at_least?: number;
  at_most?: number;
  id_tag: string;
  error_code?: string;
  key?: string;
  component?: string;
  variable?: string;
  value: unknown;
  ev_max_power_kw?: number;
  soc_percent?: number;
  battery_kwh?: number;
  bidirectional?: boolean;
  max_discharge_kw?: number;
  min_soc_percent?: number;
  frequency_hz: number;
  fault?: string;
  ended?: boolean;
  extra_info?: string;
  prompt?: string;
  kind?: string;
  text?: string;
  message_id?: string;
  send?: Record<string, unknown>;
  clear?: boolean;
}

/** A wait's or expectation's time limit in seconds (the schema gives each its default). */
export const limitOf = (b: Fields): number => b.timeout_s ?? b.within_s ?? 30;

/** A step's default name: its kind and what it names. */
export function describe(kind: string, b: Fields): string {
  const parts = [kind];
  for (const key of ['action', 'status', 'id_tag', 'measurand', 'seconds', 'frequency_hz'])
    if ((b as unknown as Record<string, unknown>)[key] !== undefined)
      parts.push(String((b as unknown as Record<string, unknown>)[key]));
  if (b.connector !== undefined) parts.push(`connector ${b.connector}`);
  if (b.charger) parts.push(`on ${b.charger}`);
  return parts.join(' ');
}
