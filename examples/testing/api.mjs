// The app's one way to the platform: plain fetch with the key from the environment. A 429 is retried
// after its Retry-After, a 502 after a short pause; anything else is the caller's to handle.
const MAX_TRIES = 5;

export async function api(env, method, path, body) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${env.SVC_BASE_URL}${path}`, {
      method,
      headers: { authorization: `Bearer ${env.SVC_API_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const retryable = res.status === 429 || res.status === 502;
    if (!retryable || attempt === MAX_TRIES) {
      const json = await res.json();
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json.error?.message}`);
      return json;
    }
    const waitSecs = Number(res.headers.get('retry-after') ?? 0.05);
    await res.body?.cancel();
    await new Promise((r) => setTimeout(r, waitSecs * 1000));
  }
}
