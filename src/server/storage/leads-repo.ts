
// spec: Event catalog `lead.captured`; contract §7 (hosted opt-in page). Table `leads` (migration 8).

export interface LeadRecord {
  id: string;
  accountId: string;
  brandId: string;
  firstName: string;
  lastName: string;
  email: string | null;
  /** E.164. */
  phone: string;
  /** The SMS-consent checkbox. */
  consent: boolean;
  /** The exact consent language the page showed. */
  consentText: string;
  capturedAt: number;
  createdAt: number;
}

export interface LeadsRepo {
  insert(l: LeadRecord): Promise<void>;
  /** A brand's leads, oldest first. */
  listForBrand(brandId: string): Promise<LeadRecord[]>;
}

