// The shape of the charger's variable monitors (block N), in the charger's terms: what the wire
// adapters write (core/wire.ts) and what blocks/monitoring.ts keeps and checks.
export type MonitorType = 'UpperThreshold' | 'LowerThreshold' | 'Delta' | 'Periodic' | 'PeriodicClockAligned';
/** What a monitor watches, in the charger's terms: a connector's (EVSE's) power or availability. */
export type MonitorTarget = { what: 'power' | 'state'; connectorId: number };

export interface Monitor {
  id: number;
  target: MonitorTarget;
  type: MonitorType;
  value: number;
  severity: number;
  /** Only while a transaction runs on the target's connector. */
  transaction: boolean;
  /** Thresholds: whether the value is past it now (an event was raised, not cleared yet). */
  tripped?: boolean;
  /** Delta: the value at the last event (or when the monitor was set). */
  reference?: number | string;
  /** Periodic: the next report. */
  dueAt?: number;
}

export interface MonitorEvent {
  eventId: number;
  monitor: Monitor;
  trigger: 'Alerting' | 'Delta' | 'Periodic';
  actualValue: string;
  cleared?: boolean;
}
