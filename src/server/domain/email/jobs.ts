// The email family's durable scheduler jobs (registered in compose.ts through the family's
// register functions). Named once here so the accept path and the mail server agree.

/** Hand an accepted email's recipients to the simulated mail server; payload `{ emailId }`. */
export const EMAIL_DELIVER_JOB = 'email.deliver';

/**
 * One due step of the simulated mail server's script for one recipient (domain/email/delivery.ts);
 * payload `{ emailId, seq, step, sentAt }`: the recipient row, the step's index in its script, and
 * the handover time the script's delays count from.
 */
export const EMAIL_STEP_JOB = 'email.step';
