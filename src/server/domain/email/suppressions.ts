import type { UnitOfWork } from '../deps.js';
import type { SuppressionsRepo } from '../../storage/suppressions-repo.js';
import type { Actor } from '../actor.js';
import type { Page } from '../../../api/schemas/page.js';
import type { SuppressionReason } from '../../../api/values/email.js';
import type { SuppressionRecord } from '../../storage/suppressions-repo.js';
import { conflict, notFound } from '../../errors.js';
import { assertMayChange } from '../test-keys.js';
import type { EmailsRepo } from '../../storage/emails-repo.js';

// contract §8: the account's suppression list. Addresses are compared case-insensitively and stored
// lower-case (decision: the spec does not say). Adding happens on hard bounce, complaint and
// unsubscribe, by the mail server's steps (domain/email/delivery.ts), never through the API: the
// spec has no create operation.

export interface SuppressionDeps {
  uow: UnitOfWork;
  suppressions: SuppressionsRepo;
  emails: Pick<EmailsRepo, 'getById'>;
}

/** The key an address is suppressed under. */
export const suppressionKey = (address: string): string => address.trim().toLowerCase();

/** GET /v1/email-suppressions: newest first, `reason` narrows the list. */
export async function listSuppressions(deps: SuppressionDeps, actor: Actor, limit: number, cursor?: string, reason?: SuppressionReason): Promise<Page<SuppressionRecord>> {
  return await deps.suppressions.list(actor.account.id, limit, cursor, reason);
}

/**
 * DELETE /v1/email-suppressions/{address}: removes an address so it can receive email again.
 * spec: Email domains, email, suppressions — "addresses that complained cannot be removed" → 409.
 */
export async function removeSuppression(deps: SuppressionDeps, actor: Actor, address: string): Promise<void> {
  await deps.uow.write(async (tx) => {
    const key = suppressionKey(address);
    const found = await tx.suppressions.find(actor.account.id, key);
    if (!found) throw notFound(`suppression for ${key}`);
    if (found.reason === 'complaint') {
      throw conflict(`${key} complained about your email and cannot be removed from the suppression list; email to it stays suppressed`);
    }
    // contract §2: a suppression a live email caused protects live sending (an address that bounced or
    // unsubscribed): a live key's to remove. One with no email on record counts as live.
    const cause = found.emailId === null ? undefined : await tx.emails.getById(found.emailId);
    assertMayChange(actor, cause?.mode ?? 'live', `the suppression of ${key}`);
    await tx.suppressions.remove(actor.account.id, key);
  });
}
