// Columns of phone numbers, shared by the numbers verbs.
export const NUMBER_LIST_COLUMNS = ['id', 'phoneNumber', 'type', 'status', 'label', 'locality', 'region', 'campaignName', 'tfvStatus', 'createdAt'];
export const NUMBER_COLUMNS = ['id', 'phoneNumber', 'type', 'status', 'label', 'capabilities', 'campaignId', 'campaignName', 'callerIdName', 'emergency', 'tfvStatus', 'tfvRejectionReason', 'releasedAt'];

/** 115 → "$1.15" (spec: money is integer cents). */
export function dollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
