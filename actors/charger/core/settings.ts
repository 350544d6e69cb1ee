// Charger configuration: one table of settings keyed by their OCPP 1.6 name, with the 2.0.1
// device-model component/variable each maps to. Context stores only values that differ from the
// defaults, so an untouched charger carries no configuration at all.
import type { ChargerContext, ChargerModel } from './context.ts';

export type SettingKind = 'int' | 'bool' | 'string' | 'csl';

export interface SettingDef {
  kind: SettingKind;
  readonly: boolean;
  default: (model: ChargerModel, ctx: ChargerContext) => string;
  /** 2.0.1 device model location. */
  component: string;
  variable: string;
  /** Lower bound for ints. */
  min?: number;
  /** The members a csl may hold (a value with any other member is Rejected). */
  values?: readonly string[];
  /** A setting only one version has (2.0.1's own device-model variables); absent: both. */
  only?: 'ocpp1.6' | 'ocpp2';
}

/** The measurands the charger reads (meter values): a list naming any other is Rejected. */
export const READABLE_MEASURANDS = [
  'Energy.Active.Import.Register',
  'Power.Active.Import',
  'Power.Offered',
  'Current.Import',
  'Current.Offered',
  'Voltage',
  'SoC',
  'Temperature',
  // V2X: what a bidirectional EV gives back (0 while it only charges).
  'Power.Active.Export',
  'Energy.Active.Export.Register',
] as const;
export type Measurand = (typeof READABLE_MEASURANDS)[number];

/**
 * The measurands this model can read, of those its version carries: an AC charger (IEC 61851, no
 * ISO 15118 in the catalog's models) learns nothing of the EV's battery, so it has no SoC.
 */
export function readableMeasurands(model: ChargerModel, carried: readonly Measurand[]): readonly Measurand[] {
  return model.current_type === 'AC' ? carried.filter((m) => m !== 'SoC') : carried;
}

/** A measurand list setting: a csl whose members are READABLE_MEASURANDS (the version may carry fewer). */
const measurands = (...args: Parameters<typeof def>): SettingDef => ({
  ...def(...args),
  values: READABLE_MEASURANDS,
});

const MEASURANDS = 'Energy.Active.Import.Register,Power.Active.Import';
const SAMPLED = (m: ChargerModel) => (m.current_type === 'DC' ? `${MEASURANDS},SoC` : MEASURANDS);

/** A setting of one version only. */
const only = (version: 'ocpp1.6' | 'ocpp2', d: SettingDef): SettingDef => ({ ...d, only: version });

const def = (
  kind: SettingKind,
  readonly: boolean,
  value: string | ((model: ChargerModel, ctx: ChargerContext) => string),
  component: string,
  variable: string,
  min?: number,
): SettingDef => ({
  kind,
  readonly,
  default: typeof value === 'function' ? value : () => value,
  component,
  variable,
  min,
});

export const SETTINGS: Record<string, SettingDef> = {
  HeartbeatInterval: def('int', false, '300', 'OCPPCommCtrlr', 'HeartbeatInterval', 0),
  MeterValueSampleInterval: def('int', false, '60', 'SampledDataCtrlr', 'TxUpdatedInterval', 0),
  ClockAlignedDataInterval: def('int', false, '0', 'AlignedDataCtrlr', 'Interval', 0),
  MeterValuesSampledData: measurands('csl', false, SAMPLED, 'SampledDataCtrlr', 'TxUpdatedMeasurands'),
  StopTxnSampledData: measurands(
    'csl',
    false,
    'Energy.Active.Import.Register',
    'SampledDataCtrlr',
    'TxEndedMeasurands',
  ),
  ConnectionTimeOut: def('int', false, '60', 'TxCtrlr', 'EVConnectionTimeOut', 0),
  NumberOfConnectors: def(
    'int',
    true,
    (m) => String(m.connector_count),
    'ChargingStation',
    'NumberOfConnectors',
  ),
  AuthorizationCacheEnabled: def('bool', false, 'true', 'AuthCacheCtrlr', 'Enabled'),
  LocalAuthListEnabled: def('bool', false, 'true', 'LocalAuthListCtrlr', 'Enabled'),
  LocalPreAuthorize: def('bool', false, 'false', 'AuthCtrlr', 'LocalPreAuthorize'),
  LocalAuthorizeOffline: def('bool', false, 'true', 'AuthCtrlr', 'LocalAuthorizeOffline'),
  AllowOfflineTxForUnknownId: def('bool', false, 'false', 'AuthCtrlr', 'OfflineTxForUnknownIdEnabled'),
  AuthorizeRemoteTxRequests: def('bool', false, 'false', 'AuthCtrlr', 'AuthorizeRemoteStart'),
  StopTransactionOnEVSideDisconnect: def('bool', true, 'true', 'TxCtrlr', 'StopTxOnEVSideDisconnect'),
  UnlockConnectorOnEVSideDisconnect: def('bool', false, 'true', 'ConnectorPlugRetentionLock', 'Enabled'),
  TransactionMessageAttempts: def('int', false, '3', 'OCPPCommCtrlr', 'MessageAttempts', 1),
  TransactionMessageRetryInterval: def('int', false, '60', 'OCPPCommCtrlr', 'MessageAttemptInterval', 0),
  // Real chargers keep their link alive by default; 0 turns the pings off.
  WebSocketPingInterval: def('int', false, '60', 'OCPPCommCtrlr', 'WebSocketPingInterval', 0),
  ResetRetries: def('int', false, '1', 'OCPPCommCtrlr', 'ResetRetries', 0),
  SupportedFeatureProfiles: def(
    'csl',
    true,
    'Core,FirmwareManagement,LocalAuthListManagement,RemoteTrigger,Reservation,SmartCharging',
    'ChargingStation',
    'SupportedFeatureProfiles',
  ),
  LocalAuthListMaxLength: def('int', true, '1000', 'LocalAuthListCtrlr', 'Entries'),
  SendLocalListMaxLength: def('int', true, '250', 'LocalAuthListCtrlr', 'ItemsPerMessage'),
  ChargeProfileMaxStackLevel: def('int', true, '10', 'SmartChargingCtrlr', 'ProfileStackLevel'),
  ChargingScheduleAllowedChargingRateUnit: def(
    'csl',
    true,
    'Current,Power',
    'SmartChargingCtrlr',
    'RateUnit',
  ),
  ChargingScheduleMaxPeriods: def('int', true, '24', 'SmartChargingCtrlr', 'PeriodsPerSchedule'),
  MaxChargingProfilesInstalled: def('int', true, '10', 'SmartChargingCtrlr', 'Entries'),
  GetConfigurationMaxKeys: def('int', true, '50', 'DeviceDataCtrlr', 'ItemsPerMessage'),
  ChargePointVendor: def('string', true, (m) => m.boot_vendor, 'ChargingStation', 'VendorName'),
  ChargePointModel: def('string', true, (m) => m.boot_model, 'ChargingStation', 'Model'),
  Identity: def('string', true, (_m, ctx) => ctx.identity, 'SecurityCtrlr', 'Identity'),
  // Reservations (blocks/reservation.ts): reservations of connector 0 / of no particular EVSE.
  ReserveConnectorZeroSupported: def('bool', false, 'true', 'ReservationCtrlr', 'NonEvseSpecific'),
  // Meter values (metering): clock-aligned readings.
  MeterValuesAlignedData: measurands(
    'csl',
    false,
    'Energy.Active.Import.Register',
    'AlignedDataCtrlr',
    'Measurands',
  ),
  // Meter values a transaction's start and end messages carry (blocks/metering.ts). 1.6 takes the
  // end message's samples every MeterValueSampleInterval / ClockAlignedDataInterval, 2.0.1 at its
  // own TxEndedInterval variables (0: only the reading at the end).
  StopTxnAlignedData: measurands('csl', false, '', 'AlignedDataCtrlr', 'TxEndedMeasurands'),
  TxStartedMeasurands: only(
    'ocpp2',
    measurands('csl', false, SAMPLED, 'SampledDataCtrlr', 'TxStartedMeasurands'),
  ),
  SampledDataTxEndedInterval: only('ocpp2', def('int', false, '0', 'SampledDataCtrlr', 'TxEndedInterval', 0)),
  AlignedDataTxEndedInterval: only('ocpp2', def('int', false, '0', 'AlignedDataCtrlr', 'TxEndedInterval', 0)),
  // 2.0.1: no clock-aligned meter values while a transaction runs.
  AlignedDataSendDuringIdle: only('ocpp2', def('bool', false, 'false', 'AlignedDataCtrlr', 'SendDuringIdle')),
  // Security (blocks/security.ts): the password is never stored in the context (the engine seals
  // it) and reads as empty; the profile is the one the open connection used; 2.0.1 picks its
  // network profile by NetworkConfigurationPriority (slot 0: the connection as deployed).
  AuthorizationKey: def('string', false, '', 'SecurityCtrlr', 'BasicAuthPassword'),
  SecurityProfile: def(
    'int',
    false,
    (_m, ctx) => String(ctx.security?.profile ?? 0),
    'SecurityCtrlr',
    'SecurityProfile',
    0,
  ),
  NetworkConfigurationPriority: def('csl', false, '0', 'OCPPCommCtrlr', 'NetworkConfigurationPriority'),
  // 2.x display messages (blocks/display-messages.ts) and monitoring (blocks/monitoring.ts): what they offer.
  DisplayMessageAvailable: only('ocpp2', def('bool', true, 'true', 'DisplayMessageCtrlr', 'Available')),
  DisplayMessageSupportedFormats: only(
    'ocpp2',
    def('csl', true, 'ASCII,UTF8', 'DisplayMessageCtrlr', 'SupportedFormats'),
  ),
  DisplayMessageSupportedPriorities: only(
    'ocpp2',
    def('csl', true, 'AlwaysFront,InFront,NormalCycle', 'DisplayMessageCtrlr', 'SupportedPriorities'),
  ),
  MonitoringAvailable: only('ocpp2', def('bool', true, 'true', 'MonitoringCtrlr', 'Available')),
  // DataTransfer (blocks/data-transfer.ts): vendors the charger knows besides its own boot vendor.
  DataTransferVendorIds: def('csl', false, '', 'DataTransferCtrlr', 'VendorIds'),
};

export const SETTING_KEYS = Object.keys(SETTINGS);

/** The settings a version has (its adapter's `settings`). */
export const settingKeysOf = (version: 'ocpp1.6' | 'ocpp2'): readonly string[] =>
  SETTING_KEYS.filter((k) => (SETTINGS[k].only ?? version) === version);

export function getSetting(ctx: ChargerContext, key: string): string | undefined {
  const d = SETTINGS[key];
  if (!d) return undefined;
  return ctx.settings[key] ?? d.default(ctx.model, ctx);
}

export function intSetting(ctx: ChargerContext, key: string): number {
  return Number(getSetting(ctx, key) ?? 0);
}

export function boolSetting(ctx: ChargerContext, key: string): boolean {
  return getSetting(ctx, key) === 'true';
}

export function keyForVariable(component: string, variable: string): string | undefined {
  return SETTING_KEYS.find((k) => SETTINGS[k].component === component && SETTINGS[k].variable === variable);
}

export function isKnownComponent(component: string): boolean {
  return SETTING_KEYS.some((k) => SETTINGS[k].component === component);
}

export type ChangeOutcome = 'Accepted' | 'Rejected' | 'NotSupported';

/** Checks a new value (a measurand list against the version's `measurands`); returns the normalized value or why it is refused. */
export function checkSetting(
  key: string,
  value: string,
  measurands?: readonly string[],
): { ok: true; value: string } | { ok: false; status: ChangeOutcome } {
  const d = SETTINGS[key];
  if (!d) return { ok: false, status: 'NotSupported' };
  if (d.readonly) return { ok: false, status: 'Rejected' };
  if (d.kind === 'int') {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || (d.min !== undefined && n < d.min))
      return { ok: false, status: 'Rejected' };
    return { ok: true, value: String(n) };
  }
  if (d.kind === 'bool') {
    const v = value.trim().toLowerCase();
    if (v !== 'true' && v !== 'false') return { ok: false, status: 'Rejected' };
    return { ok: true, value: v };
  }
  const allowed = d.values && (measurands ?? d.values);
  if (allowed && value.split(',').some((m) => m.trim() !== '' && !allowed.includes(m.trim())))
    return { ok: false, status: 'Rejected' };
  return { ok: true, value };
}

/** The overrides after setting key to value (dropping it when it equals the default). */
export function withSetting(ctx: ChargerContext, key: string, value: string): Record<string, string> {
  const next = { ...ctx.settings };
  if (SETTINGS[key].default(ctx.model, ctx) === value) delete next[key];
  else next[key] = value;
  return next;
}
