import { defineVerb } from '../../verb.js';
import { plainGet, plainList } from '../../plain-verbs.js';
import { voicemailEndpoints, voicemailList } from '../../../api/resources/voicemails.js';
import { VOICEMAIL_COLUMNS, VOICEMAIL_LIST_COLUMNS } from './columns.js';

// svc voicemails: contract §6 (Voicemail).
export const verbs = [
  plainList({
    summary: 'List captured voicemails with their transcripts, newest first',
    endpoint: voicemailList,
    noun: 'voicemails',
    columns: VOICEMAIL_LIST_COLUMNS,
    examples: ['svc voicemails list', 'svc voicemails list --all -o csv > voicemails.csv'],
  }),
  plainGet({
    summary: 'Show one voicemail: caller, length, transcript and the audio URL',
    arg: { name: 'id', help: 'voicemail id', complete: 'voicemails' },
    endpoint: voicemailEndpoints.get,
    columns: VOICEMAIL_COLUMNS,
    examples: ['svc voicemails get vm_4UNrKGnBlaqRLtuFvN23', 'svc voicemails get vm_4UNrKGnBlaqRLtuFvN23 -o json'],
  }),
  defineVerb({
    name: 'audio',
    summary: "Download a voicemail's audio (WAV)",
    args: [{ name: 'id', help: 'voicemail id', complete: 'voicemails' }],
    flags: [{ flags: '-O, --out <file>', help: 'write the audio to this file (- for stdout)', local: {} }],
    details: `Without -O the audio goes to stdout when stdout is not a terminal (a pipe or a redirect); on a
terminal it is written to <id>.wav in the current directory, and the path is printed on stderr.`,
    examples: ['svc voicemails audio vm_4UNrKGnBlaqRLtuFvN23 -O message.wav', 'svc voicemails audio vm_4UNrKGnBlaqRLtuFvN23 | aplay'],
    // Bytes, not JSON: a file is written.
    changes: true,
    api: voicemailEndpoints.audio,
    run: async () => (await import('./audio.run.js')).runVoicemailAudio,
  }),
];
