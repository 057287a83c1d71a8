import type { EndpointRef } from './endpoint.js';

// The chaos profile of the local service and the log of the faults it injected.
export const sandboxChaosEndpoints = {
  get: { method: 'GET', path: '/v1/sandbox/chaos' },
  set: { method: 'PUT', path: '/v1/sandbox/chaos' },
  log: { method: 'GET', path: '/v1/sandbox/chaos/log' },
} as const satisfies Record<string, EndpointRef>;
