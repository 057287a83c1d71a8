/** The channels replicas notify each other on; payloads start with the sender's id. */
export const EVENTS_CHANNEL = 'svc_events';
export const STATE_CHANNEL = 'svc_state';
export const CHANGES_CHANNEL = 'svc_changes';
/** `sync`'s channel: a request (`<asker> <token>`) and each other replica's answer (`<replier> <token> done`). */
export const SYNC_CHANNEL = 'svc_sync';
