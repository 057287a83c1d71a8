// contract §4: the carrier's outcome is decided by the destination. `+15005550001` fails,
// `+15005550004` is undelivered; an ordinary number (here one of the 555-01XX numbers reserved for
// fiction, never a real phone) is delivered. Read by the trigger's help and by its run module.
import type { MESSAGE_OUTCOMES } from '../../../api/values/messages.js';

export const OUTCOME_DESTINATIONS: Readonly<Record<(typeof MESSAGE_OUTCOMES)[number], string>> = {
  delivered: '+14155550100',
  failed: '+15005550001',
  undelivered: '+15005550004',
};
