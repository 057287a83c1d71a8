// Every schema module, for code that looks schemas up by export name: the response-schemas build
// step (scripts/render-response-schemas.mjs) and, as a type only, api/parsers.ts. Export names are
// unique across the modules, so the names key dist/api/response-schemas.json.
export * from './common.js';
export * from './conversations.js';
export * from './errors.js';
export * from './events.js';
export * from './keys.js';
export * from './messages.js';
export * from './numbers.js';
export * from './page.js';
export * from './routes.js';
export * from './sandbox.js';
export * from './subaccounts.js';
export * from './webhooks.js';
export * from './calls.js';
export * from './blocked-numbers.js';
export * from './softphone.js';
export * from './brands.js';
export * from './campaigns.js';
export * from './registrations.js';
export * from './ports.js';
export * from './email.js';
export * from './billing.js';
export * from './opt-outs.js';
export * from './console.js';
export * from './call-tests.js';
export * from './sinks.js';
