// The CLI's version: the package's one version constant. bin/svc.js reads it before loading anything
// else; a test keeps it equal to package.json's version.
export { SVC_VERSION as CLI_VERSION } from '../api/values/version.js';
