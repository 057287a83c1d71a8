import { z } from 'zod';

// The console's one-time link (POST /v1/console/sessions).
export const ConsoleLinkSchema = z.object({
  url: z.string().describe('Open it in a browser within `expiresAt`; it names the account and key and asks; confirmed, it works once, sets the session cookie and redirects to the console'),
  expiresAt: z.string().describe('ISO 8601 (service clock): when the link stops working if unused'),
});
export type ConsoleLink = z.infer<typeof ConsoleLinkSchema>;
