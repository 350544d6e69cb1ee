import { VERSION_PROFILES, type OcppVersion } from './versions.ts';

/** OCPP-J message type numbers; SEND and CALLRESULTERROR exist where the version's profile says (2.1). */
export const MessageType = { CALL: 2, CALLRESULT: 3, CALLERROR: 4, CALLRESULTERROR: 5, SEND: 6 } as const;

export type Payload = Record<string, unknown>;

export type CallFrame = { type: 2; id: string; action: string; payload: Payload };
export type CallResultFrame = { type: 3; id: string; payload: Payload };
export type CallErrorFrame = { type: 4; id: string; code: string; description: string; details: Payload };
/** OCPP 2.1: an error about a CALLRESULT we sent; never answered. */
export type CallResultErrorFrame = {
  type: 5;
  id: string;
  code: string;
  description: string;
  details: Payload;
};
/** OCPP 2.1: an unconfirmed CALL; never answered. */
export type SendFrame = { type: 6; id: string; action: string; payload: Payload };
/**
 * A frame we could not accept. `problem` is the generic error code to answer with (spell it per
 * version with `errorCodeFor`); `id` is null when no message id could be read.
 */
export type BadFrame = {
  type: 0;
  id: string | null;
  problem: 'FormatViolation' | 'MessageTypeNotSupported' | 'RpcFrameworkError';
  message: string;
};

export type RpcFrame =
  CallFrame | CallResultFrame | CallErrorFrame | CallResultErrorFrame | SendFrame | BadFrame;

function isObject(value: unknown): value is Payload {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bad(id: string | null, problem: BadFrame['problem'], message: string): BadFrame {
  return { type: 0, id, problem, message };
}

/** Reads one OCPP-J frame. Never throws: anything unusable comes back as a BadFrame. */
export function parseFrame(text: string, version: OcppVersion): RpcFrame {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return bad(null, 'RpcFrameworkError', 'message is not JSON');
  }
  if (!Array.isArray(data)) return bad(null, 'RpcFrameworkError', 'message is not a JSON array');
  const [type, id] = data;
  if (typeof id !== 'string' || id.length === 0) {
    return bad(null, 'RpcFrameworkError', 'message id is missing or not a string');
  }
  switch (type) {
    case MessageType.CALL:
    case MessageType.SEND: {
      if (type === MessageType.SEND && !VERSION_PROFILES[version].send) break;
      const [, , action, payload] = data;
      if (data.length !== 4 || typeof action !== 'string' || !isObject(payload)) {
        return bad(id, 'FormatViolation', 'a CALL is [2, id, action, {payload}]');
      }
      return { type, id, action, payload };
    }
    case MessageType.CALLRESULT: {
      const payload = data[2];
      if (data.length !== 3 || !isObject(payload)) {
        return bad(id, 'FormatViolation', 'a CALLRESULT is [3, id, {payload}]');
      }
      return { type, id, payload };
    }
    case MessageType.CALLERROR:
    case MessageType.CALLRESULTERROR: {
      if (type === MessageType.CALLRESULTERROR && !VERSION_PROFILES[version].callResultError) break;
      // Lenient on purpose: central systems in the field omit the description or details, and
      // the code is what the caller needs.
      const [, , code, description, details] = data;
      if (typeof code !== 'string' || data.length > 5) {
        return bad(id, 'FormatViolation', 'a CALLERROR is [4, id, code, description, {details}]');
      }
      return {
        type,
        id,
        code,
        description: typeof description === 'string' ? description : '',
        details: isObject(details) ? details : {},
      };
    }
  }
  return bad(id, 'MessageTypeNotSupported', `message type ${JSON.stringify(type)} is not supported`);
}

export function serializeCall(id: string, action: string, payload: unknown): string {
  return JSON.stringify([MessageType.CALL, id, action, payload]);
}

export function serializeResult(id: string, payload: unknown): string {
  return JSON.stringify([MessageType.CALLRESULT, id, payload]);
}

/** OCPP-J limits the error description to 255 characters. */
export function serializeError(
  id: string,
  code: string,
  description = '',
  details: Record<string, unknown> = {},
): string {
  const text = description.length > 255 ? description.slice(0, 255) : description;
  return JSON.stringify([MessageType.CALLERROR, id, code, text, details]);
}
