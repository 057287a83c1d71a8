// Flags → typed options, without running a verb: each command factory takes a run function (the
// GitHub CLI's runF), so these tests parse argv and look at the options object the verb would get.
// A renamed flag or a broken mapping fails here even when the end-to-end tests do not exercise it.
import { describe, expect, it } from 'vitest';
import { verbs as messageVerbs } from '../src/cli/commands/messages/index.js';
import { sendOptionsOf, type SendFlags } from '../src/cli/commands/messages/send-options.js';
import { optionsOf as verbOptionsOf, verbNamed } from './helpers/verb-flags.js';
import { verbs as numberVerbs } from '../src/cli/commands/numbers/index.js';
import { buyOptionsOf, searchOptionsOf, updateOptionsOf, type UpdateFlags } from '../src/cli/commands/numbers/options.js';
import { verbs as webhookVerbs } from '../src/cli/commands/webhooks/index.js';
import { createWebhookOptionsOf, type ListDeliveriesOptions } from '../src/cli/commands/webhooks/options.js';

describe('flags become typed options', () => {
  it('messages send', async () => {
    const argv = ['--to', '+14155550123', '--from', '+14155550100', '--body', 'hi', '--media', 'https://e.x/a.jpg', '--media', 'https://e.x/b.png', '--idempotency-key', 'order-1', '--wait', '--wait-timeout', '2m'];
    const send = verbNamed(messageVerbs, 'send');
    const given = await verbOptionsOf<SendFlags>(send, argv);
    // --wait-timeout is the old name of --timeout: the same value, under the new key.
    expect(given).toEqual(await verbOptionsOf<SendFlags>(send, argv.map((a) => (a === '--wait-timeout' ? '--timeout' : a))));
    expect(sendOptionsOf(given)).toEqual({
      to: '+14155550123',
      from: '+14155550100',
      body: 'hi',
      bodyFile: undefined,
      media: ['https://e.x/a.jpg', 'https://e.x/b.png'],
      idempotencyKey: 'order-1',
      wait: true,
      waitTimeoutSecs: 120,
    });
    const defaults = sendOptionsOf(await verbOptionsOf<SendFlags>(send, ['--to', '+1', '--from', '+2', '--body-file', '-']));
    expect(defaults).toMatchObject({ bodyFile: '-', body: undefined, media: [], wait: false, waitTimeoutSecs: 60 });
  });

  it('numbers buy', async () => {
    expect(buyOptionsOf(await verbOptionsOf(verbNamed(numberVerbs, 'buy'), ['+14155550123']))).toEqual({ phoneNumber: '+14155550123' });
  });

  it('numbers update: every emergency flag lands in its address field', async () => {
    const argv = ['num_1', '--label', 'Desk', '--caller-id-name', 'ACME', '--emergency-street', '1 Market St', '--emergency-street2', 'Fl 2', '--emergency-city', 'SF', '--emergency-state', 'CA', '--emergency-zip', '94105'];
    expect(updateOptionsOf(await verbOptionsOf<UpdateFlags>(verbNamed(numberVerbs, 'update'), argv))).toEqual({
      number: 'num_1',
      label: 'Desk',
      clearLabel: false,
      callerIdName: 'ACME',
      clearCallerIdName: false,
      emergency: undefined,
      address: { street: '1 Market St', street2: 'Fl 2', city: 'SF', state: 'CA', zip: '94105' },
    });
    expect(updateOptionsOf(await verbOptionsOf<UpdateFlags>(verbNamed(numberVerbs, 'update'), ['num_1', '--no-emergency', '--clear-label']))).toMatchObject({ emergency: false, clearLabel: true });
  });

  it('numbers search: --capability repeats into capabilities', async () => {
    const opts = searchOptionsOf(await verbOptionsOf<Parameters<typeof searchOptionsOf>[0]>(verbNamed(numberVerbs, 'search'), ['--area-code', '415', '--capability', 'mms', '--capability', 'voice', '--type', 'local', '--contains', '77', '--limit', '5']));
    expect(opts).toEqual({ areaCode: '415', locality: undefined, type: 'local', contains: '77', capabilities: ['mms', 'voice'], limit: '5' });
  });

  it('webhooks create: --events is split and trimmed', async () => {
    const opts = createWebhookOptionsOf(await verbOptionsOf(verbNamed(webhookVerbs, 'create'), ['--url', 'https://example.com/hook', '--events', 'message.*, call.completed', '--description', 'SMS']));
    expect(opts).toEqual({ url: 'https://example.com/hook', events: ['message.*', 'call.completed'], description: 'SMS' });
  });

  it('webhooks deliveries: the endpoint id and the list flags', async () => {
    const opts = await verbOptionsOf<ListDeliveriesOptions>(verbNamed(webhookVerbs, 'deliveries'), ['we_1', '--status', 'failed', '--limit', '5', '--all']);
    expect(opts).toEqual({ id: 'we_1', status: 'failed', limit: '5', all: true });
  });

  it('a value outside the API list is refused by commander before any run', async () => {
    await expect(verbOptionsOf<ListDeliveriesOptions>(verbNamed(webhookVerbs, 'deliveries'), ['we_1', '--status', 'lost'])).rejects.toThrow(/lost/);
  });
});
