import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootstrapPath, defaultDataDir, resolveConfigDir } from './paths.js';

describe('defaultDataDir', () => {
  const home = '/home/ada';

  it('prefers SVC_DATA_DIR', () => {
    expect(defaultDataDir({ SVC_DATA_DIR: '/srv/svc', XDG_DATA_HOME: '/xdg' }, home)).toBe('/srv/svc');
  });

  it('falls back to $XDG_DATA_HOME/svc', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/xdg' }, home)).toBe(path.join('/xdg', 'svc'));
  });

  it('falls back to ~/.local/share/svc', () => {
    expect(defaultDataDir({}, home)).toBe(path.join(home, '.local', 'share', 'svc'));
  });

  it('treats empty variables as unset and ignores a relative XDG_DATA_HOME', () => {
    expect(defaultDataDir({ SVC_DATA_DIR: '', XDG_DATA_HOME: 'relative' }, home)).toBe(
      path.join(home, '.local', 'share', 'svc'),
    );
  });
});

describe('bootstrapPath', () => {
  it('is bootstrap.json in the data dir', () => {
    expect(bootstrapPath('/data')).toBe(path.join('/data', 'bootstrap.json'));
  });
});

describe('resolveConfigDir', () => {
  it('takes the flag over SVC_CONFIG_DIR, else undefined', () => {
    expect(resolveConfigDir('/flag', { SVC_CONFIG_DIR: '/env' }, '/home/u', 'linux')).toBe('/flag');
    expect(resolveConfigDir(undefined, { SVC_CONFIG_DIR: '/env' }, '/home/u', 'linux')).toBe('/env');
    expect(resolveConfigDir(undefined, {}, '/home/u', 'linux')).toBe('/home/u/.config/svc');
    expect(resolveConfigDir(undefined, { XDG_CONFIG_HOME: '/x' }, '/home/u', 'linux')).toBe('/x/svc');
    expect(resolveConfigDir(undefined, {}, '/Users/u', 'darwin')).toBe('/Users/u/Library/Preferences/svc');
  });
});
