import { UsageError } from '../../errors.js';

/**
 * `--url`, checked before anything is sent: an absolute http(s) URL. The service's own rules (https
 * except loopback; no private, link-local or metadata addresses) come back as validation_error on
 * body.url (exit 2 too).
 */
export function requireHttpUrl(raw: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError(`${flag}: "${raw}" is not a URL; give an absolute https URL (http only for localhost)`, flag);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError(`${flag}: "${raw}" is not an http(s) URL`, flag);
  return raw.trim();
}
