import { describe, expect, it } from 'vitest';
import { addonMismatchHelp, NODE_24_FIXED_IN, unsupportedNodeReason } from './node-runtime.js';

describe('the Node the local service refuses', () => {
  it('is Node 24 before the release that stopped aborting on a freed better-sqlite3 object', () => {
    for (const version of ['24.0.0', '24.9.0', '24.18.1', '24.19.0', '24.21.0', 'v24.21.9']) {
      const reason = unsupportedNodeReason(version);
      expect(reason, version).toContain(`Node ${version.replace(/^v/, '')} aborts the local service`);
      expect(reason).toContain(`upgrade Node to ${NODE_24_FIXED_IN} or later, or use Node 22`);
      expect(reason).not.toContain('\n');
    }
    for (const version of ['24.22.0', '24.22.3', '24.30.1', '22.0.0', '22.23.5', '20.18.1', '20.20.2']) {
      expect(unsupportedNodeReason(version), version).toBeUndefined();
    }
  });
});

describe('a native addon built for another Node', () => {
  // Node's own error, as dlopen raises it (code and message as of Node 20 to 24).
  const dlopen = (file: string) =>
    Object.assign(
      new Error(
        `The module '${file}'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 137. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`,
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );

  it('names both versions and the rebuild to run, in the directory the package is installed in', () => {
    const help = addonMismatchHelp(dlopen('/home/ana/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'));
    expect(help).toContain('NODE_MODULE_VERSION 115');
    expect(help).toContain('needs 137');
    expect(help).toContain('Run `npm rebuild better-sqlite3` in /home/ana/app,');
    expect(help).not.toContain('\n');
    // A scoped package, and the nearest node_modules (a nested install).
    expect(addonMismatchHelp(dlopen('/usr/lib/node_modules/svc/node_modules/@x/y/build/y.node'))).toContain('Run `npm rebuild @x/y` in /usr/lib/node_modules/svc,');
  });

  it('leaves any other error alone', () => {
    expect(addonMismatchHelp(new Error('boom'))).toBeUndefined();
    expect(addonMismatchHelp(Object.assign(new Error('libfoo.so: cannot open shared object file'), { code: 'ERR_DLOPEN_FAILED' }))).toBeUndefined();
    expect(addonMismatchHelp(null)).toBeUndefined();
  });
});
