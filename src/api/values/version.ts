// The package's version, one place: the CLI's --version and User-Agent, the OpenAPI document's
// info.version and the webhook sender's User-Agent. A test keeps it equal to package.json.
export const SVC_VERSION = '0.1.0';
