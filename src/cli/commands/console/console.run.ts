import { spawn } from 'node:child_process';
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { createConsoleLink } from '../../../api/resources/console.js';
import { CONSOLE_LINK_TTL_SECS } from '../../../api/values/console.js';

/** The platform's opener for a URL: `open` on macOS, `start` on Windows, `xdg-open` elsewhere. */
export function openerFor(platform: string): { command: string; args: (url: string) => string[] } {
  if (platform === 'darwin') return { command: 'open', args: (url) => [url] };
  if (platform === 'win32') return { command: 'cmd', args: (url) => ['/c', 'start', '""', url] };
  return { command: 'xdg-open', args: (url) => [url] };
}

/**
 * How long the opener is given to say it failed. `open`, `start` and `xdg-open` without a desktop
 * answer at once; `xdg-open` may instead run a browser in the foreground and return only when it is
 * closed, so an opener still running after this long has started one and is left to it.
 */
export const OPENER_VERDICT_MS = 3_000;

/** What the opener said: opened (or still opening), or why not (its exit status and last stderr line). */
export type OpenResult = { opened: true } | { opened: false; reason: string };

/** Runs the opener detached and waits (bounded) for its verdict: a non-zero exit is a failure. */
export function openInBrowser(url: string, platform: string, env: Record<string, string | undefined>): Promise<OpenResult> {
  const opener = openerFor(platform);
  return new Promise((resolve) => {
    let stderr = '';
    let settled = false;
    const settle = (result: OpenResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const child = spawn(opener.command, opener.args(url), { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: definedOnly(env) });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-1000)));
    child.once('error', (err: NodeJS.ErrnoException) => settle({ opened: false, reason: err.code === 'ENOENT' ? `${opener.command} is not installed` : err.message }));
    child.once('exit', (code, signal) => {
      if (code === 0) return settle({ opened: true });
      const said = lastLine(stderr);
      settle({ opened: false, reason: `${opener.command} ${signal ? `was stopped by ${signal}` : `exited ${code}`}${said ? `: ${said}` : ''}` });
    });
    // Still running: a browser in the foreground. Let go of it (our exit must not wait for it, nor
    // its stderr keep our pipe open).
    const timer = setTimeout(() => {
      child.stderr.destroy();
      child.unref();
      settle({ opened: true });
    }, OPENER_VERDICT_MS);
  });
}

const definedOnly = (env: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));

const lastLine = (text: string): string => text.trim().split('\n').pop()?.trim() ?? '';

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
  if (opts.open) {
    const result = await openInBrowser(url, ctx.environment.platform ?? process.platform, ctx.env);
    if (result.opened) {
      notice(ctx, `Opened the console in your browser (the link works once, within ${CONSOLE_LINK_TTL_SECS} s).`);
      return;
    }
    // As `gh browse` does when no browser starts: say why, and give the link to open by hand.
    notice(ctx, `Could not open a browser (${result.reason}); open this link yourself (it works once, within ${CONSOLE_LINK_TTL_SECS} s):`);
  }
  ctx.io.stdout.write(`${url}\n`);
}
