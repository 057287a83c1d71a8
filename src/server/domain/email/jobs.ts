// The email family's durable scheduler jobs (registered in compose.ts through the family's
// register functions). Named once here so the accept path and the mail server agree.

/** Hand an accepted email's recipients to the simulated mail server; payload `{ emailId }`. */
export const EMAIL_DELIVER_JOB = 'email.deliver';
