import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBootstrap, writeBootstrap, type Bootstrap } from './bootstrap.js';

const sample: Bootstrap = {
  accountId: 'acc_1',
  baseUrl: 'http://127.0.0.1:4999',
  liveKey: 'sk_live_abc',
  testKey: 'sk_test_def',
};

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bootstrap-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('bootstrap.json', () => {
  it('is undefined when missing', () => {
    expect(readBootstrap(tmp)).toBeUndefined();
    expect(readBootstrap(path.join(tmp, 'no', 'such', 'dir'))).toBeUndefined();
  });

  it('round-trips through writeBootstrap, creating the dir 0700 and the file 0600', () => {
    const dataDir = path.join(tmp, 'nested', 'data');
    writeBootstrap(dataDir, sample);
    expect(readBootstrap(dataDir)).toEqual(sample);
    expect(fs.statSync(path.join(dataDir, 'bootstrap.json')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(dataDir)).toEqual(['bootstrap.json']);
  });

  it('enforces 0600 on a file that existed with a wider mode', () => {
    const file = path.join(tmp, 'bootstrap.json');
    fs.writeFileSync(file, '{}', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    writeBootstrap(tmp, sample);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readBootstrap(tmp)).toEqual(sample);
  });

  it('names the file when it is malformed', () => {
    const file = path.join(tmp, 'bootstrap.json');
    fs.writeFileSync(file, '{not json');
    expect(() => readBootstrap(tmp)).toThrow(file);
    fs.writeFileSync(file, JSON.stringify({ ...sample, liveKey: 42 }));
    expect(() => readBootstrap(tmp)).toThrow(/bootstrap\.json.*liveKey/);
    fs.writeFileSync(file, '[]');
    expect(() => readBootstrap(tmp)).toThrow(file);
  });
});
