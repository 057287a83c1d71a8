// Sandbox facts as plain values (no zod). contract §9: the local service's clock.
export const CLOCK_MODES = ['system', 'manual'] as const;
