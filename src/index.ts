// The package as a library: receivers written in Node verify svc webhooks with the same code the
// service signs with. (The CLI and the local service are reached through `bin/svc.js`.)
export { verifyWebhookSignature, verifyWebhookSignatureDetailed, signWebhookPayload, parseSignatureHeader } from './webhooks/verify.js';
