// OCPP 2.0.1 and 2.1 charging-station-initiated actions answered by the built-in central system
// (typed by 2.0.1's schemas: 2.1 keeps these messages, and a 2.1 payload is read through them).
import { acknowledge, type Handlers } from './handler-types.ts';
import { idTagStatus } from './id-tag-status.ts';
import { energyWh } from './meter-energy.ts';

export const OCPP2_HANDLERS: Handlers<'ocpp2.0.1'> = {
  async BootNotification(conn, p, { store, heartbeatIntervalSeconds }) {
    const station = p.chargingStation;
    await store.boot(conn.pk, conn.version, {
      vendor: station.vendorName,
      model: station.model,
      chargePointSerialNumber: station.serialNumber,
      firmwareVersion: station.firmwareVersion,
      iccid: station.modem?.iccid,
      imsi: station.modem?.imsi,
    });
    return { status: 'Accepted', currentTime: new Date().toISOString(), interval: heartbeatIntervalSeconds };
  },

  Heartbeat(conn, _p, { writer }) {
    const now = new Date();
    writer.heartbeat(conn.pk, now);
    return { currentTime: now.toISOString() };
  },

  StatusNotification(conn, p, { writer }) {
    writer.status({
      pk: conn.pk,
      evse: p.evseId,
      connector: p.connectorId,
      status: p.connectorStatus,
      errorCode: null,
      at: new Date(p.timestamp),
    });
    return {};
  },

  Authorize: (_conn, p) => ({ idTokenInfo: { status: idTagStatus(p.idToken?.idToken) } }),

  async TransactionEvent(conn, p, { store }) {
    await store.updateTransaction(conn.pk, {
      transactionId: p.transactionInfo.transactionId,
      ended: p.eventType === 'Ended',
      evseId: p.evse?.id,
      connectorId: p.evse?.connectorId,
      idTag: p.idToken?.idToken,
      meterWh: energyWh(p.meterValue),
      at: new Date(p.timestamp),
      stopReason: p.eventType === 'Ended' ? (p.transactionInfo.stoppedReason ?? 'Local') : undefined,
    });
    return p.idToken ? { idTokenInfo: { status: idTagStatus(p.idToken.idToken) } } : {};
  },

  MeterValues: acknowledge,
  DataTransfer: () => ({ status: 'UnknownVendorId' }),
  NotifyReport: acknowledge,
  NotifyEvent: acknowledge,
  NotifyMonitoringReport: acknowledge,
  SecurityEventNotification: acknowledge,
  FirmwareStatusNotification: acknowledge,
  LogStatusNotification: acknowledge,
  NotifyChargingLimit: acknowledge,
  ClearedChargingLimit: acknowledge,
  ReportChargingProfiles: acknowledge,
  NotifyDisplayMessages: acknowledge,
  NotifyCustomerInformation: acknowledge,
  ReservationStatusUpdate: acknowledge,
  // K15 (2.0.1) / Q01 (2.1, with the V2X parameters): the EV's needs are taken note of.
  NotifyEVChargingNeeds: () => ({ status: 'Accepted' }),
};
