// OCPP 1.6 charger-initiated actions answered by the built-in central system.
import { acknowledge, type Handlers } from './handler-types.ts';
import { idTagStatus } from './id-tag-status.ts';
import { energyWh } from './meter-energy.ts';

export const OCPP16_HANDLERS: Handlers<'ocpp1.6'> = {
  async BootNotification(conn, p, { store, heartbeatIntervalSeconds }) {
    await store.boot(conn.pk, conn.version, {
      vendor: p.chargePointVendor,
      model: p.chargePointModel,
      chargePointSerialNumber: p.chargePointSerialNumber,
      chargeBoxSerialNumber: p.chargeBoxSerialNumber,
      firmwareVersion: p.firmwareVersion,
      iccid: p.iccid,
      imsi: p.imsi,
      meterType: p.meterType,
      meterSerialNumber: p.meterSerialNumber,
    });
    return { status: 'Accepted', currentTime: new Date().toISOString(), interval: heartbeatIntervalSeconds };
  },

  Heartbeat(conn, _p, { writer }) {
    const now = new Date();
    writer.heartbeat(conn.pk, now);
    return { currentTime: now.toISOString() };
  },

  StatusNotification(conn, p, { writer }) {
    const connectorId: number = p.connectorId;
    const write = {
      pk: conn.pk,
      // 1.6 connector N is EVSE N, connector 1 in 2.x terms; connector 0 is the whole charge point.
      evse: connectorId,
      connector: connectorId > 0 ? 1 : 0,
      status: p.status,
      errorCode: p.errorCode ?? null,
      at: p.timestamp ? new Date(p.timestamp) : new Date(),
    };
    const fanOut = connectorId === 0 && conn.useStatusNotification0 ? (conn.connectorCount ?? 0) : undefined;
    writer.status(write, fanOut);
    return {};
  },

  Authorize: (_conn, p) => ({ idTagInfo: { status: idTagStatus(p.idTag) } }),

  async StartTransaction(conn, p, { store }) {
    const transactionId = await store.startTransaction(
      conn.pk,
      p.connectorId,
      p.idTag,
      p.meterStart,
      new Date(p.timestamp),
    );
    return { transactionId, idTagInfo: { status: idTagStatus(p.idTag) } };
  },

  async StopTransaction(conn, p, { store }) {
    await store.updateTransaction(conn.pk, {
      transactionId: String(p.transactionId),
      ended: true,
      idTag: p.idTag,
      meterWh: energyWh(p.transactionData) ?? p.meterStop,
      at: new Date(p.timestamp),
      stopReason: p.reason ?? 'Local',
    });
    return p.idTag ? { idTagInfo: { status: idTagStatus(p.idTag) } } : {};
  },

  async MeterValues(conn, p, { store }) {
    const wh = energyWh(p.meterValue);
    if (p.transactionId !== undefined && wh !== undefined)
      await store.meterValue(conn.pk, String(p.transactionId), wh);
    return {};
  },

  DataTransfer: () => ({ status: 'UnknownVendorId' }),
  FirmwareStatusNotification: acknowledge,
  DiagnosticsStatusNotification: acknowledge,
  // The security extension's notifications (OCPP 1.6 security whitepaper): acknowledged.
  SecurityEventNotification: acknowledge,
  LogStatusNotification: acknowledge,
  SignedFirmwareStatusNotification: acknowledge,
};
