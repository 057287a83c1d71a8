// The kit's requests over node:http rather than fetch: a test file runs in a fresh process, where
// the first fetch loads Node's bundled HTTP client, which cost more than the rest of connecting a
// file to the suite's service (hundreds of milliseconds on a busy machine). Loopback only: the
// service the kit started or was handed.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  text: string;
  headers: IncomingHttpHeaders;
}

/** A request of a handle with its account's live key (or `key`): status, parsed body, headers as node:http gives them (no `Headers` built). */
export type RawRequest = (method: string, path: string, body?: unknown, key?: string) => Promise<{ status: number; body: any; headers: IncomingHttpHeaders }>;

export function send(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, baseUrl), { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The answer's headers as a `Headers` (made on first read: building one loads the fetch client too). */
export function headersOf(raw: IncomingHttpHeaders): () => Headers {
  let made: Headers | undefined;
  return () => {
    if (!made) {
      made = new Headers();
      for (const [name, value] of Object.entries(raw)) {
        for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) made.append(name, v);
      }
    }
    return made;
  };
}
