// The CLI's version, one place; bin/svc.js reads it before loading anything else. A test keeps it
// equal to package.json's version.
export const CLI_VERSION = '0.1.0';
