import type { ApiClient, StreamResponse } from '../client/client.js';
import type { Voicemail } from '../schemas/calls.js';
import { listEndpoint } from './list.js';
import { endpoint, pathOf, readOne, type EndpointRef } from './endpoint.js';

// conventions 7: one function or list descriptor per endpoint. contract §6 (Voicemail).
export const voicemailEndpoints = {
  get: endpoint({ method: 'GET', path: '/v1/voicemails/{id}', schema: 'VoicemailSchema' }),
  audio: { method: 'GET', path: '/v1/voicemails/{id}/audio' },
} as const satisfies Record<string, EndpointRef>;

/** GET /v1/voicemails, newest first. */
export const voicemailList = listEndpoint<Voicemail>({ path: '/v1/voicemails', row: 'VoicemailSchema' });

export async function getVoicemail(client: ApiClient, id: string): Promise<Voicemail> {
  return readOne(client, voicemailEndpoints.get, { id });
}

/** GET /v1/voicemails/{id}/audio: the recording as captured (`audio/wav`), streamed. */
export async function getVoicemailAudio(client: ApiClient, id: string): Promise<StreamResponse> {
  return client.requestStream({ method: 'GET', path: pathOf(voicemailEndpoints.audio, { id }) });
}
