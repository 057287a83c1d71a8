import { Command, CommanderError, Option } from './commander.js';
import type { Command as CommandType } from 'commander';
type Command = CommandType;
import { CliContext, CLI_VERSION, type CliEnvironment } from './context.js';
import { GROUPS } from './groups.js';
import { provideCliHost } from './host.js';
import { loadRegistry } from './registry.js';
import { CancelledError, CliError, DeclinedError, ExitStatus, UsageError } from './errors.js';
import { EXIT, exitCodeForApiError } from './exit-codes.js';
import { environmentHelp } from './environment.js';
import { detailLines } from './error-details.js';
import { paymentHint } from './payment-hint.js';
import { addonMismatchHelp } from '../api/values/node-runtime.js';
import { refusalOriginHint } from './key-mode-hint.js';
import type { ApiErrorText } from './api-path-commands.js';
import { addGroupExamples } from './help-examples.js';
import { configureVerb, registerVerbs } from './wire-verb.js';
import { HELP_WIDTH, reflowHelp } from './help-text.js';
import { ApiError, DryRunSignal, NetworkError, ResponseShapeError, formatRequestDescription } from '../api/client/errors.js';
import { createProcessIO, type ProcessLike } from '../output/io.js';

/** Global options whose next argv word is their value (to find the command word in argv). */
const VALUE_OPTIONS = new Set(['--profile', '--base-url', '--subaccount', '-o', '--output', '--config-dir']);

export function buildProgram(ctx: CliContext): Command {
  const io = ctx.io;
  const helpWidth = (): number => io.stdoutColumns ?? HELP_WIDTH;
  const program = new Command('svc')
    .description('The svc command line: texting, numbers, voice routing, 10DLC, ports, email, webhooks and events.')
    .version(CLI_VERSION, '--version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addHelpCommand('help [command]', 'show help for a command')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      // Commander writes help (and the version) here: its prose fits the terminal.
      writeOut: (s) => void io.stdout.write(reflowHelp(s, helpWidth())),
      writeErr: (s) => void io.stderr.write(s),
      outputError: (s, write) => write(s),
      getOutHelpWidth: helpWidth,
      getErrHelpWidth: helpWidth,
    })
    // A verb is listed by its name and arguments: ` [options]` after each one left the summaries no
    // room to wrap at 80 columns (commander wraps only with 40 columns to spare).
    .configureHelp({ subcommandTerm: (cmd) => [cmd.name(), ...cmd.registeredArguments.map((a) => (a.required ? `<${a.name()}>` : `[${a.name()}]`))].join(' ') })
    .option('--profile <name>', 'profile to use (env SVC_PROFILE)')
    .option('--base-url <url>', 'override the profile base URL (env SVC_BASE_URL)')
    .option('--subaccount <id>', 'act as this sub-account (env SVC_SUBACCOUNT)')
    .addOption(new Option('-o, --output <format>', 'table, json, yaml, ndjson, csv or ids (env SVC_OUTPUT)'))
    .option('--json', 'same as -o json')
    .option('--no-color', 'no colour (env NO_COLOR)')
    .option('--no-input', 'never prompt; a missing value is an error naming its flag (also when CI is set)')
    .option('-y, --yes', 'answer yes to confirmations')
    .option('-v, --verbose', 'HTTP trace on stderr, secrets redacted (env SVC_DEBUG)')
    .option('--dry-run', 'print the request that would be sent and send nothing')
    .option('--config-dir <dir>', 'where profiles live (env SVC_CONFIG_DIR)')
    .addHelpText(
      'after',
      `
Examples:
  $ svc keys list
  $ svc messages send --to +14155550123 --from +14155550100 --body "hello"
  $ svc api GET /v1/numbers --paginate -o ndjson
  $ svc help keys

${environmentHelp()}`,
    );
  program.hook('preAction', (_root, action) => {
    Object.assign(ctx.flags, action.optsWithGlobals());
  });
  return program;
}

/** The first word of argv that is not a global option or its value: the command group. */
export function commandWord(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return argv[i + 1];
    if (a.startsWith('-')) {
      if (VALUE_OPTIONS.has(a)) i++;
      continue;
    }
    return a;
  }
  return undefined;
}

/**
 * `svc help numbers buy` → `svc numbers buy --help`: commander's help command reads only its first
 * word (it would show the whole `numbers` group). `svc help` and `svc help <group>` stay as they are.
 */
export function helpArgv(argv: string[]): string[] {
  const at = argv.indexOf('help');
  const rest = argv.slice(at + 1);
  const words = rest.filter((a) => !a.startsWith('-'));
  if (words.length < 2 || rest.includes('--')) return argv;
  return [...argv.slice(0, at), ...rest, '--help'];
}

/** Registers every group, loading the modules of `load` (or all, for completions and man pages). */
export async function registerGroups(program: Command, ctx: CliContext, load: 'all' | string | undefined): Promise<void> {
  for (const [name, entry] of Object.entries(GROUPS)) {
    const cmd = program.command(name).description(entry.summary);
    if (load === 'all' || load === name) {
      const group = await entry.load();
      if ('command' in group && group.command) configureVerb(cmd, ctx, group.command);
      if ('verbs' in group) registerVerbs(cmd, ctx, group.verbs, group.subgroups, group.defaultVerb);
      if ('register' in group) group.register(cmd, ctx);
      if (cmd.commands.length) addGroupExamples(cmd);
    }
  }
}

export async function runCli(argv: string[], environment: CliEnvironment): Promise<number> {
  const ctx = new CliContext(environment, {});
  const program = buildProgram(ctx);
  let word = commandWord(argv);
  if (word === 'help') {
    word = commandWord(argv.slice(argv.indexOf('help') + 1));
    argv = helpArgv(argv);
  }
  try {
    await registerGroups(program, ctx, word);
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (err) {
    return reportError(err, ctx, await apiErrorWords(err, ctx, word));
  } finally {
    await ctx.close();
  }
}

/** -o json asked for (an unknown -o value is no reason to fail while reporting another error). */
function wantsJson(ctx: CliContext): boolean {
  try {
    return ctx.outputFormat === 'json';
  } catch {
    return false;
  }
}

/**
 * An API error as a person reads it: the endpoints its message names become the commands that make
 * those calls. `svc api` speaks the API's own terms, and -o json keeps the API's envelope as sent.
 */
async function apiErrorWords(err: unknown, ctx: CliContext, word: string | undefined): Promise<ApiErrorText | undefined> {
  if (!(err instanceof ApiError) || word === 'api' || wantsJson(ctx)) return undefined;
  const { apiErrorInCliTerms } = await import('./api-path-commands.js');
  return await apiErrorInCliTerms(err);
}

/**
 * The ONE place errors become messages and exit codes (cli.md: exit codes). `words`: an API error's
 * message and details as the command line says them (`apiErrorWords`).
 */
export function reportError(err: unknown, ctx: CliContext, words?: ApiErrorText): number {
  const io = ctx.io;
  const say = (line: string) => void io.stderr.write(`${line}\n`);
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
    // `svc help`, `svc help numbers` ask for help (stdout, exit 0). `svc numbers` with no verb (or a
    // bare `svc`) is an incomplete command: commander prints the help on stderr with exit code 1;
    // cli.md makes that a usage error (2), not a success.
    if (err.code === 'commander.help') return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    // commander already printed its message through configureOutput; say why keys are no flags.
    if (err.code === 'commander.unknownOption' && /'--api-key(?:[=']|$)/.test(err.message)) {
      say('API keys are never flags: a command line shows in the process list and the shell history.');
      say('Pipe the key in with --api-key-stdin (svc login --api-key-stdin < key.txt), or set SVC_API_KEY.');
    }
    return EXIT.usage;
  }
  if (err instanceof ExitStatus) return err.code;
  if (err instanceof DryRunSignal) {
    io.stdout.write(`${formatRequestDescription(err.request)}\n`);
    return EXIT.ok;
  }
  if (err instanceof ApiError) {
    if (wantsJson(ctx)) {
      io.stderr.write(`${JSON.stringify({ ...err.envelope, requestId: err.requestId ?? null })}\n`);
    } else {
      const message = words?.message ?? err.message;
      say(`error: ${err.code}: ${message}`);
      for (const line of detailLines(message, words ? words.details : err.details)) say(`  ${line}`);
      // cli.md exit 7: whatever the command, a 402 names the billing verb that lifts it.
      const hint = err.hint ?? paymentHint(err.code);
      if (hint) say(hint);
      // A refusal the key's mode caused says which profile (or SVC_API_KEY) chose that key.
      const origin = refusalOriginHint(err, ctx.resolvedSettings);
      if (origin) say(origin);
      if (err.requestId) say(`request id: ${err.requestId}`);
    }
    return exitCodeForApiError(err.code);
  }
  if (err instanceof UsageError) {
    // -o json: the same envelope an API validation error has, so a script reads one shape.
    if (wantsJson(ctx)) {
      const detail = err.flag ? [{ path: [err.flag], message: err.message.replace(`${err.flag}: `, '') }] : undefined;
      io.stderr.write(`${JSON.stringify({ error: { code: 'validation_error', message: err.message, ...(detail ? { details: detail } : {}) }, requestId: null })}\n`);
    } else {
      say(`error: ${err.message}`);
    }
    return EXIT.usage;
  }
  // Settings resolution (context.ts) met a --profile / SVC_PROFILE / current profile that does not
  // exist (or is not a valid name): a usage error naming the setting to fix. Matched by name so
  // this module need not load config/ (start-up cost).
  if (err instanceof Error && err.name === 'ProfileNotFoundError') {
    const profile = (err as Error & { profile?: string }).profile;
    if (ctx.flags.profile !== undefined && ctx.flags.profile === profile) {
      say(`error: --profile: ${err.message}`);
    } else if (ctx.env.SVC_PROFILE !== undefined && ctx.env.SVC_PROFILE === profile) {
      say(`error: SVC_PROFILE: ${err.message}; pick another with --profile NAME or unset SVC_PROFILE`);
    } else {
      say(`error: ${err.message}; pick one with --profile NAME or \`svc profiles use NAME\``);
    }
    return EXIT.usage;
  }
  if (err instanceof CancelledError) {
    say(err.message);
    return EXIT.interrupted;
  }
  if (err instanceof DeclinedError) {
    say(err.message);
    return EXIT.failure;
  }
  if (err instanceof NetworkError) {
    say(`error: ${err.message}`);
    return EXIT.unavailable;
  }
  if (err instanceof ResponseShapeError || err instanceof CliError) {
    say(`error: ${err.message}`);
    return (err instanceof CliError ? err.exitCode : undefined) ?? EXIT.failure;
  }
  // A Node switched without a rebuild: the cause and the fix, in one line (a detached service's
  // reason reaches the terminal as its log's `error:` line).
  const mismatch = addonMismatchHelp(err);
  if (mismatch) {
    say(`error: ${mismatch}`);
    return EXIT.failure;
  }
  const e = err as Error;
  say(`error: ${e?.message ?? String(err)}`);
  if (ctx.verbose && e?.stack) say(e.stack);
  return EXIT.failure;
}

/** Entry point for bin/svc.js: the only place besides bin/ that touches `process`. */
export async function main(proc: NodeJS.Process, binPath: string): Promise<number> {
  const argv = proc.argv.slice(2);
  const noColor = argv.includes('--no-color');
  const io = createProcessIO(proc as unknown as ProcessLike, { noColor });
  const { homedir } = await import('node:os');
  // `svc … | head` closes the pipe early: that is the reader's choice, not a failure.
  proc.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') proc.exit(proc.exitCode ?? 0);
  });
  const waitForInterrupt = () =>
    new Promise<void>((resolve) => {
      proc.once('SIGINT', resolve);
      proc.once('SIGTERM', resolve);
    });
  const onInterrupt = (listener: () => void) => {
    proc.on('SIGINT', listener);
    proc.on('SIGTERM', listener);
    return () => {
      proc.off('SIGINT', listener);
      proc.off('SIGTERM', listener);
    };
  };
  return runCli(argv, { io, env: proc.env, homedir: homedir(), platform: proc.platform, binPath, waitForInterrupt, onInterrupt });
}

// The commands that work on the CLI itself (svc mcp, svc fixtures run) are lent it from
// here, the root, instead of importing it (host.ts says why).
provideCliHost({ runCli, buildProgram, registerGroups, commandWord, reportError, isGroup: (name) => name in GROUPS, loadRegistry });
