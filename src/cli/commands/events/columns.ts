// The events verbs' columns, shared by their definitions and run modules.

/** `events list`: table and tab-separated columns; json, yaml and ndjson print the events whole. */
export const EVENT_LIST_COLUMNS = ['createdAt', 'type', 'id', 'summary'];

/** `events follow`: one line per event. */
export const FOLLOW_COLUMNS = ['createdAt', 'type', 'id', 'summary'];
