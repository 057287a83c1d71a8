import { iso, isoOrNull } from '../clock.js';
import type { NumberRecord } from '../storage/numbers-repo.js';
import type { AvailableNumber, PhoneNumber } from '../../api/schemas/numbers.js';
import type { RouteSummary } from '../../api/schemas/routes.js';
import type { AvailableNumber as InventoryNumber } from '../world/number-inventory.js';

// Records → API shapes for numbers (spec: Phone number, Available number). Every spec field is
// always present. Rules for reads: views/README.md.

/** `campaignNames`: by campaign id, from the domain (numbers.campaignNames), one lookup per page. */
/** `routeSummaries`: by number id, from the domain (voice/routes.routeSummaries); absent means no route. */
export const numberView = (
  n: NumberRecord,
  campaignNames: ReadonlyMap<string, string>,
  routeSummaries: ReadonlyMap<string, RouteSummary>,
): PhoneNumber => ({
  id: n.id,
  phoneNumber: n.phoneNumber,
  label: n.label,
  route: routeSummaries.get(n.id) ?? null,
  status: n.status,
  type: n.type,
  capabilities: { ...n.capabilities },
  campaignId: n.campaignId,
  campaignName: n.campaignId ? (campaignNames.get(n.campaignId) ?? null) : null,
  callerIdName: { name: n.callerIdName, status: n.callerIdStatus },
  emergency: { enabled: n.emergencyEnabled, address: n.emergencyAddress, status: n.emergencyStatus },
  tfvStatus: n.tfvStatus,
  tfvRejectionReason: n.tfvRejectionReason,
  releasedAt: isoOrNull(n.releasedAt),
  locality: n.locality,
  region: n.region,
  createdAt: iso(n.createdAt),
});

export const availableNumberView = (n: InventoryNumber): AvailableNumber => ({
  phoneNumber: n.phoneNumber,
  type: n.type,
  capabilities: { ...n.capabilities },
  monthlyPriceCents: n.monthlyPriceCents,
  locality: n.locality,
  region: n.region,
});
