import { defineVerb } from '../../verb.js';

// svc agency: agency-wide views (contract §3).
export const verbs = [
  defineVerb({
    name: 'summary',
    summary: 'Numbers, messages and spend this month for every sub-account',
    examples: ['svc agency summary', 'svc agency summary -o csv > summary.csv'],
    run: async () => (await import('./summary.run.js')).runSummary,
  }),
];
