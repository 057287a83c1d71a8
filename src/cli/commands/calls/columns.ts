import type { ColumnDef } from '../../../output/columns.js';

// Columns of calls, shared by the calls verbs (and softphone call).
// A list's positions stay as they were (tab-separated rows are read by position); `keep` says what a
// narrow terminal keeps longest (output/table.ts GIVE_WAY): who called, when and for how long, then
// the number called; the direction, outcome and who answered go first.
export const CALL_LIST_COLUMNS: ColumnDef[] = [
  'id',
  'status',
  { field: 'from', keep: 48 },
  { field: 'to', keep: 44 },
  { field: 'direction', keep: 12 },
  { field: 'outcome', keep: 15 },
  { field: 'durationSeconds', header: 'secs', keep: 45, fit: 'whole' },
  { field: 'startedAt', keep: 46 },
  { field: 'answeredBy', keep: 11 },
];
export const CALL_COLUMNS = [
  'id',
  'numberId',
  'direction',
  'from',
  'to',
  'status',
  'outcome',
  'startedAt',
  'answeredAt',
  'endedAt',
  'durationSeconds',
  'answeredBy',
  'answeredDevice',
  'recordingId',
  'voicemailId',
];
