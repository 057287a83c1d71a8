// Columns of calls, shared by the calls verbs (and softphone call).
export const CALL_LIST_COLUMNS = ['id', 'direction', 'from', 'to', 'status', 'outcome', 'durationSeconds', 'answeredBy', 'startedAt'];
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
