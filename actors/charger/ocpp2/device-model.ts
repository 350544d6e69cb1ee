// The 2.x device model over the charger's settings: Get/SetVariables and the reports
// (NotifyReport) that GetBaseReport and GetReport ask for. The settings are core/settings.ts's
// table; each names the component/variable it is in 2.x.
import type { ChargerContext } from '../core/context.ts';
import { availabilityOf } from '../blocks/monitoring.ts';
import type { OutboundCall } from '../core/wire.ts';
import type { CsmsCall } from '../core/csms-calls.ts';
import type { OcppRequest } from '../../../protocols/ocpp/ocpp-types.ts';
import { SETTINGS, getSetting, isKnownComponent, keyForVariable, settingKeysOf } from '../core/settings.ts';
import { changeSetting } from '../blocks/configuration.ts';
import { call, iso } from '../wire/basics.ts';

/** 2.x connector statuses are coarser than the charger's (as monitors see them too). */
export const connectorStatus = availabilityOf;

/** 2.0.1 mutability the settings table does not say: a password is WriteOnly, the profile ReadOnly. */
const WRITE_ONLY = new Set(['AuthorizationKey']);
const READ_ONLY_2 = new Set(['SecurityProfile']);

/** The settings 2.x has. */
export const SETTINGS_2 = settingKeysOf('ocpp2');

const DATA_TYPE = { int: 'integer', bool: 'boolean', string: 'string', csl: 'MemberList' } as const;

/** One variable of a GetVariables / SetVariables request (the fields both have). */
type VariableData = OcppRequest<'ocpp2.0.1', 'GetVariables'>['getVariableData'][number];
/** One variable of a NotifyReport. */
type ReportData = NonNullable<OcppRequest<'ocpp2.0.1', 'NotifyReport'>['reportData']>[number];

/** The device model as NotifyReport reportData: the settings, plus each EVSE's availability. */
function reportData(ctx: ChargerContext, onlyWritable: boolean) {
  const data: ReportData[] = [];
  for (const key of SETTINGS_2) {
    const d = SETTINGS[key];
    if (onlyWritable && d.readonly) continue;
    data.push({
      component: { name: d.component },
      variable: { name: d.variable },
      variableAttribute: [
        WRITE_ONLY.has(key)
          ? { type: 'Actual', mutability: 'WriteOnly' }
          : {
              type: 'Actual',
              value: getSetting(ctx, key)!.slice(0, 2500),
              mutability: d.readonly || READ_ONLY_2.has(key) ? 'ReadOnly' : 'ReadWrite',
            },
      ],
      variableCharacteristics: { dataType: DATA_TYPE[d.kind], supportsMonitoring: false },
    });
  }
  if (!onlyWritable)
    for (const c of ctx.connectors)
      data.push({
        component: { name: 'EVSE', evse: { id: c.id } },
        variable: { name: 'AvailabilityState' },
        variableAttribute: [{ type: 'Actual', value: connectorStatus(c.status), mutability: 'ReadOnly' }],
        // Monitored by blocks/monitoring.ts (Delta, periodic).
        variableCharacteristics: { dataType: 'OptionList', supportsMonitoring: true },
      });
  return data;
}

const REPORT_CHUNK = 20;

function notifyReports(requestId: number, data: ReportData[], now: number): OutboundCall[] {
  const out: OutboundCall[] = [];
  for (let i = 0, seqNo = 0; i < data.length; i += REPORT_CHUNK, seqNo++) {
    const last = i + REPORT_CHUNK >= data.length;
    out.push(
      call('NotifyReport', {
        requestId,
        generatedAt: iso(now),
        seqNo,
        tbc: !last,
        reportData: data.slice(i, i + REPORT_CHUNK),
      }),
    );
  }
  return out;
}

function variableOf(p: VariableData): {
  key?: string;
  status: 'Accepted' | 'NotSupportedAttributeType' | 'UnknownVariable' | 'UnknownComponent';
} {
  const component = p.component?.name;
  const variable = p.variable?.name;
  if (p.attributeType && p.attributeType !== 'Actual') return { status: 'NotSupportedAttributeType' };
  const key = keyForVariable(component, variable);
  if (key && SETTINGS_2.includes(key)) return { key, status: 'Accepted' };
  if (component === 'EVSE' || isKnownComponent(component)) return { status: 'UnknownVariable' };
  return { status: 'UnknownComponent' };
}

/** B06. */
export const getVariables: CsmsCall<'ocpp2.0.1', 'GetVariables'> = (p, s) => ({
  getVariableResult: (p.getVariableData ?? []).map((d) => {
    const found = variableOf(d);
    const v: { key?: string; status: (typeof found)['status'] | 'Rejected' } =
      found.key && WRITE_ONLY.has(found.key) ? { status: 'Rejected' } : found;
    if (d.component?.name === 'EVSE' && d.variable?.name === 'AvailabilityState' && d.component.evse?.id) {
      const c = s.connector(d.component.evse.id);
      if (c)
        return {
          attributeStatus: 'Accepted',
          attributeType: 'Actual',
          attributeValue: connectorStatus(c.status),
          component: d.component,
          variable: d.variable,
        };
    }
    return {
      attributeStatus: v.status,
      ...(d.attributeType ? { attributeType: d.attributeType } : {}),
      ...(v.key ? { attributeValue: getSetting(s.ctx, v.key)!.slice(0, 2500) } : {}),
      component: d.component,
      variable: d.variable,
    };
  }),
});

/** B05. */
export const setVariables: CsmsCall<'ocpp2.0.1', 'SetVariables'> = (p, s) => ({
  setVariableResult: (p.setVariableData ?? []).map((d) => {
    const v = variableOf(d);
    const status =
      v.key && READ_ONLY_2.has(v.key)
        ? 'Rejected'
        : v.key
          ? changeSetting(s, v.key, String(d.attributeValue)) === 'Accepted'
            ? 'Accepted'
            : 'Rejected'
          : v.status;
    return {
      attributeStatus: status,
      ...(d.attributeType ? { attributeType: d.attributeType } : {}),
      component: d.component,
      variable: d.variable,
    };
  }),
});

/** B07: the report follows the answer as NotifyReport messages. */
export const getBaseReport: CsmsCall<'ocpp2.0.1', 'GetBaseReport'> = (p, s) => {
  const data = reportData(s.ctx, p.reportBase === 'ConfigurationInventory');
  for (const c of notifyReports(p.requestId, data, s.now)) s.call(c);
  return { status: 'Accepted' };
};

/** B08. */
export const getReport: CsmsCall<'ocpp2.0.1', 'GetReport'> = (p, s) => {
  const asked = p.componentVariable ?? [];
  const data = reportData(s.ctx, false).filter(
    (d) =>
      asked.length === 0 ||
      asked.some(
        (a) =>
          a.component?.name === d.component.name &&
          (!a.variable?.name || a.variable.name === d.variable.name),
      ),
  );
  if (data.length === 0) return { status: 'EmptyResultSet' };
  for (const c of notifyReports(p.requestId, data, s.now)) s.call(c);
  return { status: 'Accepted' };
};
