// DataTransfer from the central system (OCPP 1.6 Core, 2.0.1 P01): the charger knows its own vendor
// (the catalog model's boot vendor, as its BootNotification names it) and the vendors listed in the
// DataTransferVendorIds setting (2.0.1 DataTransferCtrlr.VendorIds; a deployment's `config` or the
// CSMS sets it). A known vendor's message is Accepted and its data echoed; any other vendor is
// UnknownVendorId (P01.FR.03 / 1.6 4.3).
import type { Step } from '../core/step.ts';
import { getSetting } from '../core/settings.ts';

export function knowsVendor(s: Step, vendorId: string): boolean {
  if (vendorId === s.ctx.model.boot_vendor) return true;
  const listed = getSetting(s.ctx, 'DataTransferVendorIds') ?? '';
  return listed.split(',').some((v) => v.trim() === vendorId);
}

export function dataTransfer(s: Step, vendorId: string): 'Accepted' | 'UnknownVendorId' {
  return knowsVendor(s, vendorId) ? 'Accepted' : 'UnknownVendorId';
}
