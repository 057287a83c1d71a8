// Webhook facts as plain values (no zod). spec: Delivery; contract §10.
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'abandoned'] as const;
/** spec: Delivery — a delivery in these states is never attempted again. */
export const FINAL_DELIVERY_STATUSES: ReadonlySet<string> = new Set<(typeof DELIVERY_STATUSES)[number]>(['succeeded', 'abandoned']);
/** spec: Global conventions 5 — webhook signing secrets start with `whsec_`. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
