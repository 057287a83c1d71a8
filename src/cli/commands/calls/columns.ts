// Columns of calls, shared by the calls verbs (and softphone call).
// The status first: a narrow terminal drops columns from the right.
export const CALL_LIST_COLUMNS = ['id', 'status', 'from', 'to', 'direction', 'outcome', 'durationSeconds', 'startedAt', 'answeredBy'];
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
