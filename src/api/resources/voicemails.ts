import type { ApiClient, StreamResponse } from '../client/client.js';
import type { Voicemail } from '../schemas/calls.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';

// conventions 7: one function or list descriptor per endpoint. contract §6 (Voicemail).
const voicemailParser = responseParser('VoicemailSchema');

const voicemailPath = (id: string, tail = ''): string => `/v1/voicemails/${encodeURIComponent(id)}${tail}`;

/** GET /v1/voicemails, newest first. */
export const voicemailList = listEndpoint<Voicemail>({ path: '/v1/voicemails', row: 'VoicemailSchema' });

export async function getVoicemail(client: ApiClient, id: string): Promise<Voicemail> {
  return (await client.request({ method: 'GET', path: voicemailPath(id), schema: voicemailParser })).data;
}

/** GET /v1/voicemails/{id}/audio: the recording as captured (`audio/wav`), streamed. */
export async function getVoicemailAudio(client: ApiClient, id: string): Promise<StreamResponse> {
  return client.requestStream({ method: 'GET', path: voicemailPath(id, '/audio') });
}
