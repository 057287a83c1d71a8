import { iso, isoOrNull } from '../clock.js';
import type { DeviceRecord } from '../storage/devices-repo.js';
import { effectivePresence } from '../domain/voice/devices.js';
import type { Device } from '../../api/schemas/softphone.js';

// Records → API shapes for softphone devices (contract §6). `presence` is read with the staleness
// rule at `nowMs` (service clock): a device silent for 60 s reads offline whatever it last said.

export const deviceView = (d: DeviceRecord, nowMs: number): Device => ({
  id: d.id,
  userId: d.userId,
  label: d.label,
  presence: effectivePresence(d, nowMs),
  lastSeenAt: isoOrNull(d.lastSeenAt),
  createdAt: iso(d.createdAt),
});
