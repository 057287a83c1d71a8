// How an API error's `details` read to a person: validation paths, a suggested address. Zod-free
// and small: main.ts prints every error (conventions 5) and loads this on the start-up path.

export interface AddressLike {
  street: string;
  street2?: string | null;
  city: string;
  state: string;
  zip: string;
}

/** `1 Market St, Floor 3, San Francisco, CA 94105`. */
export function formatAddress(a: AddressLike): string {
  return `${a.street}${a.street2 ? `, ${a.street2}` : ''}, ${a.city}, ${a.state} ${a.zip}`;
}

const isAddress = (v: unknown): v is AddressLike =>
  !!v && typeof v === 'object' && ['street', 'city', 'state', 'zip'].every((k) => typeof (v as Record<string, unknown>)[k] === 'string');

const scalar = (v: unknown): string => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));

/**
 * The lines printed under `error: CODE: MESSAGE`. A detail that only repeats the message (a
 * domain rule's single `path: message`) is left out; a suggested address is written as an address.
 */
export function detailLines(message: string, details: unknown): string[] {
  if (Array.isArray(details)) {
    // A detail with an empty path is about the whole request: the service's last detail when it
    // left some out ("and 9900 more problems not listed"), printed as its message alone.
    const lines = details.map((d: { path?: unknown; message?: unknown }) =>
      Array.isArray(d?.path) && d.path.length === 0 ? `${d?.message ?? ''}` : `${Array.isArray(d?.path) ? d.path.join('.') : '?'}: ${d?.message ?? ''}`,
    );
    return lines.length === 1 && lines[0] === message ? [] : lines;
  }
  if (details && typeof details === 'object') {
    return Object.entries(details as Record<string, unknown>).map(([key, value]) =>
      key === 'suggested' && isAddress(value) ? `suggested address: ${formatAddress(value)}` : `${key}: ${scalar(value)}`,
    );
  }
  return [];
}
