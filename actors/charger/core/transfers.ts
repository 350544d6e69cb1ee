// The `transfers` port: file transfers that leave the process (a firmware download, a log upload).
// Per attempt, the machine spawns a `transfers` actor (the engine provides the real one:
// engine/charger/transfers.ts) with the command as its input and the command's id as its id; it
// answers exactly one `transfer.result` with that id, and is stopped then. Nothing exists while no
// transfer runs (an idle charger pays nothing). The blocks keep the retries, the deadlines and the
// statuses; the engine only moves the bytes (and checks a signature, which needs the bytes). An
// answer whose id the block no longer waits for is ignored.

/** Machine -> transfers: the input of the actor spawned for the attempt. */
export type TransferCommand =
  | {
      type: 'transfer.download';
      id: string;
      url: string;
      /** Signed firmware: base64 signature over the downloaded bytes, by the key of this PEM certificate. */
      verify?: { signature: string; certificate: string };
    }
  | {
      type: 'transfer.upload';
      id: string;
      /** The charger whose log goes up. */
      identity: string;
      url: string;
      fileName: string;
      /** Which log: every OCPP frame, or the security events only. */
      log: 'diagnostics' | 'security';
      /** Only frames at or after / at or before these epoch ms. */
      from?: number;
      to?: number;
    };

/** What a failed transfer was: `unsupported` (a scheme the charger cannot speak) is not retried. */
export type TransferFailure = 'failed' | 'unsupported';

/** Transfers -> machine. */
export interface TransferResult {
  type: 'transfer.result';
  id: string;
  ok: boolean;
  error?: TransferFailure;
  /** Why, for the log and the CSMS's techInfo (short). */
  detail?: string;
  /** Download: the firmware version the image carries (header, content or file name), if any. */
  firmwareVersion?: string;
  /** Download with `verify`: whether the signature and its certificate held. */
  signature?: 'valid' | 'invalid' | 'invalid-certificate';
}
