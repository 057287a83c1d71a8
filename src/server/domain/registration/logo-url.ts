// Decision (spec: pageConfig's inner shape is not shown; contract §7): the logo of a brand's hosted
// pages is an absolute https URL, loaded by the visitor's browser as an <img> and allowed by origin
// in the page's CSP. Checked only when a page is rendered, a `javascript:` URL or one with CR/LF
// or quotes would be stored, then silently dropped; so it is refused when saved, with the field
// named, and the page still renders a logo only when this rule holds.

/** Whitespace (CR, LF, tabs: the URL parser drops them silently), controls, quotes, angle brackets, backslash. */
const UNSAFE_URL_CHARACTERS = /[\s\u0000-\u001f\u007f"'`<>\\]/;

/** Why `raw` cannot be a logo URL, or null when it can. */
export function logoUrlProblem(raw: string): string | null {
  if (UNSAFE_URL_CHARACTERS.test(raw)) return 'must not contain spaces, line breaks or other control characters, quotes, angle brackets or backslashes';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute https URL like https://example.com/logo.png';
  }
  if (url.protocol !== 'https:') return `must be an https URL (not ${url.protocol})`;
  if (url.username || url.password) return 'must not carry credentials';
  return null;
}

/** The origin the page's CSP allows images from, or null when the URL is no logo (never rendered then). */
export function logoOrigin(raw: string | null | undefined): string | null {
  if (!raw || logoUrlProblem(raw) !== null) return null;
  return new URL(raw).origin;
}
