/** Values read at TAB time: profile names from the config file, ids from the local service. */
export type DynamicSource = 'profiles' | 'numbers' | 'webhooks' | 'keys' | 'subaccounts' | 'subaccount-refs' | 'calls' | 'messages' | 'voicemails' | 'devices' | 'blocked-numbers' | 'domains' | 'emails' | 'suppressions' | 'brands' | 'campaigns' | 'sinks';
