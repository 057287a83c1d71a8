import { defineVerb } from '../../verb.js';
import { LIST_FLAGS } from '../../list-flags.js';
import { suppressionEndpoints, suppressionList } from '../../../api/resources/suppressions.js';
import { SUPPRESSION_REASONS } from '../../../api/values/email.js';

// svc suppressions: contract §8 (email suppressions).
export const verbs = [
  defineVerb({
    name: 'list',
    summary: 'List the addresses email is no longer sent to, newest first',
    flags: [...LIST_FLAGS, { flags: '--reason <reason>', help: SUPPRESSION_REASONS.join(', '), choices: SUPPRESSION_REASONS }],
    examples: ['svc suppressions list', 'svc suppressions list --reason hard_bounce --all'],
    api: { method: 'GET', path: suppressionList.path },
    run: async () => (await import('./suppressions.run.js')).runListSuppressions,
  }),
  defineVerb({
    name: 'delete',
    aliases: ['remove'],
    summary: 'Send to a suppressed address again (asks first; complaints cannot be deleted)',
    args: [{ name: 'address', help: 'the suppressed address', complete: 'suppressions' }],
    details: `Hard bounces and unsubscribes can be deleted; a complaint cannot (exit 5). Without a terminal, pass
--yes (otherwise exit 2, nothing deleted).`,
    examples: ['svc suppressions delete ada@example.org', 'svc suppressions delete ada@example.org --yes'],
    prompts: true,
    changes: true,
    api: suppressionEndpoints.delete,
    run: async () => (await import('./suppressions.run.js')).runDeleteSuppression,
  }),
];
