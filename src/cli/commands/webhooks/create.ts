import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { parseTypeList } from '../events/types-flag.js';
import { requireHttpUrl } from './url-flag.js';

export interface CreateWebhookOptions {
  url: string;
  events?: string[];
  description?: string;
}

export function createCommand(parent: Command, ctx: CliContext, runF?: RunF<CreateWebhookOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./create.run.js')).runCreate(ctx, opts));
  return parent
    .command('create')
    .description('Create a webhook endpoint; its signing secret is printed once')
    .requiredOption('--url <url>', 'where events are POSTed: https (http only for localhost / 127.0.0.1)')
    .option('--events <types>', 'event types, comma-separated; <family>.* patterns accepted (default: every event)')
    .option('--description <text>', 'a note to recognise it by')
    .addHelpText(
      'after',
      `
The signing secret (whsec_…) is in the output this one time; save it to verify the
X-Service-Signature header of each delivery (verifyWebhookSignature from svc/webhooks).
A URL the service refuses (not https, a private or metadata address): exit 2 naming body.url.

Examples:
  $ svc webhooks create --url https://example.com/hooks/svc
  $ svc webhooks create --url https://example.com/sms --events 'message.*' --description "SMS handler"
  $ svc webhooks create --url http://localhost:3000/hook -o json | jq -r .secret`,
    )
    .action(async (o: { url: string; events?: string; description?: string }) =>
      run({ url: requireHttpUrl(o.url, '--url'), events: parseTypeList(o.events, '--events'), description: o.description }),
    );
}
