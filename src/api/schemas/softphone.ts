import { z } from 'zod';
import { DisplayName, E164, NullableTimestamp, Timestamp } from './common.js';
import { ListQuerySchema, pageOf } from './page.js';
import { DEVICE_LABEL_MAX, DEVICE_PRESENCES, DEVICE_USER_ID_MAX } from '../values/calls.js';

// spec: Softphone; contract §6 (Softphone).

export const DevicePresence = z.enum(DEVICE_PRESENCES);

export const DeviceSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    label: z.string(),
    presence: DevicePresence.describe('`online` only while heartbeats arrive; a device silent for 60 s reads `offline`'),
    lastSeenAt: NullableTimestamp,
    createdAt: Timestamp,
  })
  .meta({ id: 'Device' });
export type Device = z.infer<typeof DeviceSchema>;
export const DevicePage = pageOf(DeviceSchema);
export const ListDevicesQuery = ListQuerySchema;

export const RegisterDeviceBody = z
  .strictObject({
    userId: z.string().min(1).max(DEVICE_USER_ID_MAX).describe('your user this device belongs to'),
    label: DisplayName(z.string().min(1).max(DEVICE_LABEL_MAX)).describe('unique per user; registering the same label again returns the same device'),
  })
  .meta({ id: 'RegisterDeviceBody' });
export type RegisterDeviceBody = z.infer<typeof RegisterDeviceBody>;

export const DeviceTokenSchema = z
  .object({ token: z.string(), expiresAt: Timestamp })
  .meta({ id: 'DeviceToken' });
export type DeviceToken = z.infer<typeof DeviceTokenSchema>;

export const DevicePresenceBody = z.strictObject({ status: DevicePresence }).meta({ id: 'DevicePresenceBody' });
export type DevicePresenceBody = z.infer<typeof DevicePresenceBody>;

export const SoftphoneCallBody = z
  .strictObject({
    deviceId: z.string().min(1).max(200).describe('the device that places the call (rung and auto-answered first)'),
    from: E164.describe('one of the account\'s voice numbers'),
    to: E164.describe('the callee'),
  })
  .meta({ id: 'SoftphoneCallBody' });
export type SoftphoneCallBody = z.infer<typeof SoftphoneCallBody>;
