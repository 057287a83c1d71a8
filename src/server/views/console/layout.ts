import { CONSOLE_PATH } from '../../../api/values/console.js';
import { html, type SafeHtml } from './html.js';

// The frame of every console page. Nothing from another origin: one stylesheet and one
// script, both served under /console/assets/; no inline script or style (the CSP allows neither).

export const ASSETS = { css: `${CONSOLE_PATH}/assets/console.css`, js: `${CONSOLE_PATH}/assets/console.js` } as const;

/** The console's sections, in the order of its navigation. */
export const SECTIONS = [
  { id: 'overview', href: `${CONSOLE_PATH}/`, label: 'Overview' },
  { id: 'messages', href: `${CONSOLE_PATH}/messages`, label: 'Messages' },
  { id: 'events', href: `${CONSOLE_PATH}/events`, label: 'Events' },
  { id: 'webhooks', href: `${CONSOLE_PATH}/webhooks`, label: 'Webhooks' },
  { id: 'numbers', href: `${CONSOLE_PATH}/numbers`, label: 'Numbers' },
  { id: 'calls', href: `${CONSOLE_PATH}/calls`, label: 'Calls' },
  { id: 'email', href: `${CONSOLE_PATH}/email`, label: 'Email' },
  { id: 'registration', href: `${CONSOLE_PATH}/registration`, label: 'Registration' },
  { id: 'billing', href: `${CONSOLE_PATH}/billing`, label: 'Billing' },
  { id: 'keys', href: `${CONSOLE_PATH}/keys`, label: 'Keys' },
  { id: 'sandbox', href: `${CONSOLE_PATH}/sandbox`, label: 'Sandbox', localOnly: true },
] as const;
export type SectionId = (typeof SECTIONS)[number]['id'];

/**
 * The console's Content-Security-Policy: everything from the service itself and nothing else; no
 * inline script or style; no plugin; not framed by anyone; forms post only to the service.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "media-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const CONSOLE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': CONSOLE_CSP,
  // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with the console's
  // own forms, and the origin check would refuse them. URLs after the login carry no secret.
  'Referrer-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // A page shows an account's data (and a new key, once): never kept by a cache.
  'Cache-Control': 'no-store',
};

export interface ConsoleFrame {
  title: string;
  section?: SectionId;
  /** Who the session acts as, shown in the header; absent on the error pages. */
  who?: { accountName: string; accountId: string; mode: string; viaSubaccount: boolean };
  /** The session's form token (the sign-out form carries it); absent on the error pages. */
  csrf?: string;
  /** The local service (sandbox routes on): the Sandbox page is listed. */
  sandbox?: boolean;
  /** The `svc` command that prints what the page shows. */
  command?: string;
  main: SafeHtml;
}

/** A command to copy: the text, and a button the console's script makes copy it. */
export const commandBox = (command: string, label = 'Command'): SafeHtml =>
  html`<div class="cmd"><span class="cmd-label">${label}</span><code>${command}</code><button type="button" class="copy" data-copy="${command}" aria-label="Copy: ${command}">Copy</button></div>`;

/** The hidden field every state-changing form carries (the session AND this token). */
export const csrfField = (csrf: string): SafeHtml => html`<input type="hidden" name="csrf" value="${csrf}">`;

export function consolePage(f: ConsoleFrame): string {
  const nav = f.who
    ? html`<nav aria-label="Console"><ul>${SECTIONS.filter((s) => f.sandbox || !('localOnly' in s)).map((s) => html`<li><a href="${s.href}"${s.id === f.section ? html` aria-current="page"` : ''}>${s.label}</a></li>`)}</ul></nav>`
    : '';
  const who = f.who
    ? html`<p class="who">${f.who.accountName} <span class="muted">${f.who.accountId}</span> <span class="badge">${f.who.mode} key</span>${f.who.viaSubaccount ? html` <span class="badge">sub-account</span>` : ''}</p>`
    : '';
  const signOut = f.csrf
    ? html`<form method="post" action="${CONSOLE_PATH}/logout" class="signout">${csrfField(f.csrf)}<button type="submit">Sign out</button></form>`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${f.title} · svc console</title>
<link rel="stylesheet" href="${ASSETS.css}">
<script src="${ASSETS.js}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><p class="brand"><a href="${CONSOLE_PATH}/">svc console</a></p>${who}${signOut}</header>
${nav}
<main id="main">
<h1>${f.title}</h1>
${f.command ? commandBox(f.command) : ''}
${f.main}
</main>
</body>
</html>
`.value;
}

/** A page that says why the console cannot answer (session ended, not found, refused). */
export const consoleErrorPage = (title: string, message: string, hint?: string): string =>
  consolePage({ title, main: html`<p>${message}</p>${hint ? commandBox(hint, 'Open it again') : ''}` });
