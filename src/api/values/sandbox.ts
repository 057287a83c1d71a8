// Sandbox facts as plain values (no zod). contract §9: the local service's clock.
export const CLOCK_MODES = ['system', 'manual'] as const;

/** Response header carrying the service clock's time (our extension; see the OpenAPI description). */
export const SERVICE_TIME_HEADER = 'Service-Time';
