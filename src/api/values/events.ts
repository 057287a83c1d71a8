// Events feed facts as plain values (no zod). contract §10.
export const FEED_ORDERS = ['asc', 'desc'] as const;
