import { describe, it, expect, afterEach } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, symlinkSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileMediaStore } from './media-store.js';

// The media folder serves only names the database records, each only as a regular
// file of its own (never through a symbolic link, never a FIFO, a directory or a device).

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function mediaDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-media-'));
  dirs.push(root);
  const dir = join(root, 'media');
  mkdirSync(dir);
  return dir;
}

describe('FileMediaStore', () => {
  it('serves the names the database records and those it writes, not other files in its folder', async () => {
    const dir = mediaDir();
    writeFileSync(join(dir, 'greeting_recorded.mp3'), 'recorded');
    writeFileSync(join(dir, 'greeting_stray.mp3'), 'in the folder, named by no row');
    const store = new FileMediaStore(dir, ['greeting_recorded.mp3']);
    expect((await store.get('greeting_recorded.mp3'))?.toString()).toBe('recorded');
    expect(await store.get('greeting_stray.mp3')).toBeUndefined();

    await store.put('greeting_new.wav', Buffer.from('new'));
    expect((await store.get('greeting_new.wav'))?.toString()).toBe('new');
    await store.delete('greeting_recorded.mp3');
    expect(await store.get('greeting_recorded.mp3')).toBeUndefined();
    // Written again under a deleted name: served again (the domain never reuses one, but the set follows the writes).
    await store.put('greeting_recorded.mp3', Buffer.from('again'));
    expect((await store.get('greeting_recorded.mp3'))?.toString()).toBe('again');
  });

  it('never follows a symbolic link, even under a recorded name', async () => {
    const dir = mediaDir();
    const secret = join(dir, '..', 'bootstrap.json');
    writeFileSync(secret, '{"liveKey":"sk_live_secret"}');
    symlinkSync(secret, join(dir, 'greeting_link.wav'));
    symlinkSync('/etc/passwd', join(dir, 'greeting_passwd.wav'));
    const store = new FileMediaStore(dir, ['greeting_link.wav', 'greeting_passwd.wav']);
    expect(await store.get('greeting_link.wav')).toBeUndefined();
    expect(await store.get('greeting_passwd.wav')).toBeUndefined();
  });

  it('serves no FIFO (without blocking on it) and no directory under a recorded name', async () => {
    const dir = mediaDir();
    execFileSync('mkfifo', [join(dir, 'greeting_fifo.wav')]);
    mkdirSync(join(dir, 'greeting_dir.wav'));
    const store = new FileMediaStore(dir, ['greeting_fifo.wav', 'greeting_dir.wav']);
    expect(await store.get('greeting_fifo.wav')).toBeUndefined();
    expect(await store.get('greeting_dir.wav')).toBeUndefined();
  });
});
