import { defineVerb } from '../../verb.js';
import { sandboxClockEndpoints } from '../../../api/resources/sandbox.js';

// svc clock: the sandbox clock (contract §9). `svc clock` alone shows it.
export const defaultVerb = 'show';
export const verbs = [
  defineVerb({
    name: 'show',
    summary: "Show the local service's clock",
    examples: ['svc clock show'],
    api: sandboxClockEndpoints.get,
    run: async () => (await import('./clock.run.js')).runShow,
  }),
  defineVerb({
    name: 'advance',
    summary: 'Move the sandbox clock forward; everything that falls due runs, in time order, and is listed',
    args: [{ name: 'duration', help: 'e.g. 30s, 10m, 6h, 7d' }],
    details: `The move is permanent for this data directory: service time never goes back, not even across a
restart (a new data directory, or \`svc server reset\` when it lands, starts over). On a terminal it
says what ran (carrier reports, decisions, webhook delivery attempts); -o json gives the same.`,
    examples: ['svc clock advance 30s', 'svc clock advance 3d   # carrier decisions, webhook retries, expiries'],
    changes: true,
    api: sandboxClockEndpoints.advance,
    run: async () => (await import('./clock.run.js')).runAdvanceVerb,
  }),
];
