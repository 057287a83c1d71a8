import { describe, expect, it } from 'vitest';
import { aggregateEmailStatus } from './status.js';

// contract §8: the status aggregation table.
describe('aggregateEmailStatus', () => {
  it.each([
    [['suppressed', 'suppressed'], 'failed'],
    [['queued', 'sent'], 'queued'],
    [['queued', 'suppressed'], 'queued'],
    [['sent', 'delivered'], 'sent'],
    [['deferred', 'delivered'], 'sent'],
    [['delivered', 'delivered', 'suppressed'], 'delivered'],
    [['bounced', 'bounced'], 'bounced'],
    [['failed', 'suppressed'], 'failed'],
    [['delivered', 'bounced'], 'partially_delivered'],
    [['bounced', 'failed'], 'partially_delivered'],
    [['delivered', 'failed', 'suppressed'], 'partially_delivered'],
  ] as const)('%j → %s', (recipients, status) => {
    expect(aggregateEmailStatus(recipients)).toBe(status);
  });
});
