// MQTT topics between whoever asks for a CSMS-to-charger call (the API) and the central-system node
// holding that charger's WebSocket. Identities are URI-encoded: OCPP allows '+' in them, which is
// an MQTT wildcard.
export const callTopic = (prefix: string, chargePointId: string) =>
  `${prefix}/csms/${encodeURIComponent(chargePointId)}/call`;
export const callSubscription = (prefix: string) => `${prefix}/csms/+/call`;
export const replyTopic = (prefix: string, requesterId: string, trackingId: string) =>
  `${prefix}/csms/replies/${requesterId}/${trackingId}`;
export const replySubscription = (prefix: string, requesterId: string) =>
  `${prefix}/csms/replies/${requesterId}/+`;

/** Published on callTopic. */
export interface CallRequest {
  tracking_id: string;
  charge_point_id: string;
  action: string;
  payload: unknown;
  reply_to: string;
  timeout_ms: number;
}

/** Published on the request's reply_to by the node holding the connection. */
export type CallReply =
  | { tracking_id: string; outcome: 'result'; payload: Record<string, unknown> }
  | {
      tracking_id: string;
      outcome: 'error';
      code: string;
      description: string;
      /** The CALLERROR's details (absent from replies of nodes older than this field). */
      details?: Record<string, unknown>;
    }
  | { tracking_id: string; outcome: 'timeout' }
  | { tracking_id: string; outcome: 'closed' };
