// Columns of voicemails, shared by the voicemails verbs.
export const VOICEMAIL_LIST_COLUMNS = ['id', 'from', 'to', 'receivedAt', 'durationSeconds', 'transcriptStatus', 'transcript'];
export const VOICEMAIL_COLUMNS = ['id', 'callId', 'numberId', 'from', 'to', 'durationSeconds', 'transcriptStatus', 'transcript', 'recordingUrl', 'receivedAt'];
