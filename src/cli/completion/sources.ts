import type { DynamicSource } from './tree.js';
import { apiKeyList } from '../../api/resources/keys.js';
import { blockedNumberList } from '../../api/resources/blocked-numbers.js';
import { callList } from '../../api/resources/calls.js';
import { deviceList } from '../../api/resources/softphone.js';
import { domainList } from '../../api/resources/domains.js';
import { brandList } from '../../api/resources/brands.js';
import { campaignList } from '../../api/resources/campaigns.js';
import { emailList } from '../../api/resources/emails.js';
import { messageList } from '../../api/resources/messages.js';
import { numberList } from '../../api/resources/numbers.js';
import { subaccountList } from '../../api/resources/subaccounts.js';
import { suppressionList } from '../../api/resources/suppressions.js';
import { voicemailList } from '../../api/resources/voicemails.js';
import { webhookListPath } from '../../api/resources/webhooks.js';
import { sinkListPath } from '../../api/resources/sinks.js';

// Build time only (scripts/render-completion-tree.mjs): the list each id source reads at TAB time,
// its path from `api/resources` (a path is written once), written into the completion
// tree so a TAB press loads no resource module.

export interface LookupList {
  path: string;
  /** Sub-account context applies (agency-level routes refuse `Service-Subaccount`). */
  scoped: boolean;
  /** Asks for a full page (`limit=100`); a bounded list takes no limit. */
  paged: boolean;
}

const paged = (e: { path: string; agencyLevel?: boolean }): LookupList => ({ path: e.path, scoped: !e.agencyLevel, paged: true });

export const LOOKUP_LISTS: Record<Exclude<DynamicSource, 'profiles'>, LookupList> = {
  numbers: paged(numberList),
  webhooks: { path: webhookListPath, scoped: true, paged: false },
  keys: paged(apiKeyList),
  subaccounts: paged(subaccountList),
  'subaccount-refs': paged(subaccountList),
  calls: paged(callList),
  messages: paged(messageList),
  voicemails: paged(voicemailList),
  devices: paged(deviceList),
  'blocked-numbers': paged(blockedNumberList),
  domains: paged(domainList),
  emails: paged(emailList),
  suppressions: paged(suppressionList),
  brands: paged(brandList),
  campaigns: paged(campaignList),
  sinks: { path: sinkListPath, scoped: true, paged: false },
};
