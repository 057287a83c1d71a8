// Columns of voicemails, shared by the voicemails verbs.
export const VOICEMAIL_LIST_COLUMNS = ['id', 'from', 'to', 'durationSeconds', 'transcriptStatus', 'transcript', 'receivedAt'];
export const VOICEMAIL_COLUMNS = ['id', 'callId', 'numberId', 'from', 'to', 'durationSeconds', 'transcriptStatus', 'transcript', 'recordingUrl', 'receivedAt'];
