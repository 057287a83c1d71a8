import { createHash } from 'node:crypto';
import { accessibleAccent, PAGE_BACKGROUND } from './contrast.js';
import { logoOrigin } from '../../domain/registration/logo-url.js';

// The frame of every hosted page (contract §7): one document, no script at all, one inline style
// block allowed by its hash, and nothing loaded from elsewhere but an https logo.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values alike. */
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** A brand's long text (privacy policy, terms, intro) as paragraphs: blank lines separate them. */
export const paragraphs = (text: string): string =>
  text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${esc(p).replace(/\r?\n/g, '<br>')}</p>`)
    .join('\n');

export interface RenderedPage {
  html: string;
  headers: Record<string, string>;
}

export interface FrameInput {
  title: string;
  brandName: string;
  accent: string | null | undefined;
  logoUrl?: string | null;
  /** The page's main content, already escaped. */
  main: string;
  /** Footer links to the brand's other pages, or none (the 404 page). */
  nav?: Array<{ href: string; text: string; current: boolean }>;
}

const css = (accent: string): string => `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1f2328;background:${PAGE_BACKGROUND}}
header,main,footer{max-width:40rem;margin:0 auto;padding:1rem}
header img{max-height:4rem;max-width:12rem}
h1{font-size:1.75rem;line-height:1.25;margin:.5rem 0 1rem}
h2{font-size:1.25rem}
a{color:${accent}}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input[type=text],input[type=email],input[type=tel]{display:block;width:100%;padding:.5rem;font:inherit;color:#1f2328;border:2px solid #5c6670;border-radius:4px;background:#fff}
input[aria-invalid=true]{border-color:#b3261e}
.hint{margin:0 0 .25rem;color:#4a525a}
.field-error{color:#b3261e;font-weight:600;margin:.25rem 0 0}
.consent{display:flex;gap:.75rem;align-items:flex-start;margin:1.5rem 0}
.consent input{width:1.5rem;height:1.5rem;margin:.2rem 0 0;flex:none}
.consent label{font-weight:400;margin:0}
button{font:inherit;font-weight:600;color:#fff;background:${accent};border:0;border-radius:4px;padding:.75rem 1.5rem;cursor:pointer}
:focus-visible{outline:3px solid #1f2328;outline-offset:3px;box-shadow:0 0 0 6px #fff}
.error-summary{border:3px solid #b3261e;padding:0 1rem 1rem;margin-bottom:1rem}
footer nav a{margin-right:1rem}
`;

/**
 * A whole page and its security headers. CSP: nothing by default; the one style block by its
 * SHA-256 (no `unsafe-inline`, so an injected style attribute or block would not apply either); no
 * script source at all; images only from the logo's https origin; the form posts only to the
 * service itself; no framing (clickjacking a consent box).
 */
export function renderFrame(input: FrameInput): RenderedPage {
  const accent = accessibleAccent(input.accent);
  const style = css(accent);
  const styleHash = createHash('sha256').update(style, 'utf8').digest('base64');
  // The render-time check (kept): a logo saved before the save-time check is still dropped.
  const origin = logoOrigin(input.logoUrl);
  const logo = origin ? `<header><img src="${esc(input.logoUrl!)}" alt="${esc(input.brandName)}"></header>` : '';
  const nav = input.nav?.length
    ? `<footer><nav aria-label="${esc(input.brandName)} pages">${input.nav
        .map((l) => `<a href="${esc(l.href)}"${l.current ? ' aria-current="page"' : ''}>${esc(l.text)}</a>`)
        .join('')}</nav></footer>`
    : '';
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(input.title)}</title>
<style>${style}</style>
</head>
<body>
${logo}
<main id="main">
${input.main}
</main>
${nav}
</body>
</html>
`;
  const csp = [
    "default-src 'none'",
    `style-src 'sha256-${styleHash}'`,
    origin ? `img-src ${origin}` : "img-src 'none'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    html,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': csp,
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      // A page may carry what the visitor typed (a re-rendered form): never cached.
      'Cache-Control': 'no-store',
    },
  };
}
