import { spawn } from 'node:child_process';
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { createConsoleLink } from '../../../api/resources/console.js';
import { CONSOLE_LINK_TTL_SECS } from '../../../api/values/console.js';

/** The platform's opener for a URL (issue 27): `open` on macOS, `start` on Windows, `xdg-open` elsewhere. */
export function openerFor(platform: string): { command: string; args: (url: string) => string[] } {
  if (platform === 'darwin') return { command: 'open', args: (url) => [url] };
  if (platform === 'win32') return { command: 'cmd', args: (url) => ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: (url) => [url] };
}

/** Starts the opener detached; resolves false when it cannot be started (no desktop, not installed). */
function openInBrowser(url: string, platform: string): Promise<boolean> {
  const opener = openerFor(platform);
  return new Promise((resolve) => {
    const child = spawn(opener.command, opener.args(url), { detached: true, stdio: 'ignore' });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

export interface ConsoleOptions {
  /** Open the link in the browser (the default); `--no-open` prints it instead. */
  open: boolean;
}

export async function runConsole(ctx: CliContext, opts: ConsoleOptions): Promise<void> {
  const { url } = await createConsoleLink(await ctx.client());
  const format = ctx.outputFormat;
  if (format !== undefined && format !== 'table') {
    // Machine output: the link only, never a browser (a script decides what to do with it).
    ctx.io.stdout.write(format === 'json' || format === 'ndjson' ? `${JSON.stringify({ url })}\n` : `${url}\n`);
    return;
  }
  if (opts.open && (await openInBrowser(url, ctx.environment.platform ?? process.platform))) {
    notice(ctx, `Opened the console in your browser (the link works once, within ${CONSOLE_LINK_TTL_SECS} s).`);
    return;
  }
  if (opts.open) notice(ctx, `Could not start a browser; open this link yourself (it works once, within ${CONSOLE_LINK_TTL_SECS} s):`);
  ctx.io.stdout.write(`${url}\n`);
}
