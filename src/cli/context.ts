import type { IO } from '../output/io.js';
import type { OutputFormat } from '../output/formatters.js';
import type { Settings } from '../config/resolve.js';
import type { ProfileStore } from '../config/profiles.js';
import type { ApiClient, ApiClientOptions } from '../api/client/client.js';
import { createPrompter, type Prompter } from './prompter.js';
import { CliError, DeclinedError, UsageError } from './errors.js';
import { CLI_VERSION } from './version.js';
export { CLI_VERSION };
import { defaultDataDir, resolveConfigDir } from '../config/paths.js';

/** The global flags of cli.md, as commander parsed them. */
export interface GlobalFlags {
  profile?: string;
  baseUrl?: string;
  subaccount?: string;
  output?: string;
  json?: boolean;
  color?: boolean;
  input?: boolean;
  yes?: boolean;
  verbose?: boolean;
  dryRun?: boolean;
  configDir?: string;
}

export interface CliEnvironment {
  io: IO;
  env: Record<string, string | undefined>;
  homedir: string;
  /** The working directory files named without a path are written to; default process.cwd(). */
  cwd?: string;
  /** Path of bin/svc.js, to start the local service detached. */
  binPath: string;
  /** undici Dispatcher for tests of the client's retry paths (conventions 10). */
  dispatcher?: unknown;
  now?: () => Date;
  /** process.platform, for the default config dir. */
  platform?: string;
  /** Resolves on Ctrl-C / SIGTERM: long-running commands stop cleanly. */
  waitForInterrupt?: () => Promise<void>;
  /**
   * Calls `listener` on every Ctrl-C / SIGTERM until the returned function is called, with the
   * handler installed the whole time (a re-armed one-shot leaves a moment with none, and a second
   * Ctrl-C then kills the process). Falls back to `waitForInterrupt` when absent.
   */
  onInterrupt?: (listener: () => void) => () => void;
  /**
   * Answers prompts instead of @inquirer on the terminal (conventions 4: prompts are injected), e.g. a
   * test's scripted answers. Used as given: it decides itself whether it may ask (`enabled`).
   */
  prompter?: Prompter;
  /** Told of every API call that succeeded (`svc fixtures run` runs an `svc:` step with it). */
  observe?: ApiClientOptions['observe'];
  /**
   * Settings resolved once, by `svc mcp` at its start (profile, key, base URL, sub-account): a
   * command run with them reads no profile, config or environment again, starts no local service,
   * and writes nothing on this machine (no profile, no wizard answers): one credential, pinned.
   */
  pinned?: Settings;
}

const OUTPUTS: readonly OutputFormat[] = ['table', 'json', 'yaml', 'ndjson', 'csv', 'ids'];

/**
 * What a command may use: io, prompts, config, the API client and the clock, each built lazily so
 * `--help` and `--version` never read config or load the HTTP client (conventions 2).
 */
export class CliContext {
  private storePromise?: Promise<ProfileStore>;
  private settingsPromise?: Promise<Settings>;
  private clientPromise?: Promise<ApiClient>;
  private clientInstance: ApiClient | undefined;
  private readClientPromise?: Promise<ApiClient>;
  private prompterInstance?: Prompter;

  constructor(
    readonly environment: CliEnvironment,
    readonly flags: GlobalFlags,
  ) {}

  get io(): IO {
    return this.environment.io;
  }
  /** Where a file named without a path is written (`svc calls recording` on a terminal). */
  get cwd(): string {
    return this.environment.cwd ?? process.cwd();
  }
  get env(): Record<string, string | undefined> {
    return this.environment.env;
  }
  /** The wall clock: deadlines, and the `t` of a webhook signature a receiver checks against its own. */
  now(): Date {
    return this.environment.now ? this.environment.now() : new Date();
  }

  /**
   * The service's clock, as its last response said (Service-Time): what records are stamped with,
   * so "3 minutes ago" stays true after `svc clock advance`. The wall clock before any response.
   */
  serviceNow(): Date {
    return new Date(this.now().getTime() + (this.clientInstance?.serviceClockOffsetMs ?? 0));
  }

  /** -o / --json / SVC_OUTPUT; undefined lets the output layer choose by TTY. */
  get outputFormat(): OutputFormat | undefined {
    const raw = this.flags.json ? 'json' : (this.flags.output ?? (this.env.SVC_OUTPUT || undefined));
    if (raw === undefined) return undefined;
    if (!(OUTPUTS as readonly string[]).includes(raw)) {
      throw new UsageError(`unknown output format "${raw}"; use one of ${OUTPUTS.join(', ')}`, '--output');
    }
    return raw as OutputFormat;
  }

  get verbose(): boolean {
    const d = this.env.SVC_DEBUG;
    return Boolean(this.flags.verbose) || (d !== undefined && d !== '' && !['0', 'false', 'no', 'off'].includes(d.toLowerCase()));
  }

  /** cli.md: --no-input or CI set, or no terminal to ask on: never prompt. */
  get canPrompt(): boolean {
    if (this.flags.input === false) return false;
    if (this.env.CI !== undefined && this.env.CI !== '' && this.env.CI !== 'false') return false;
    return this.io.stdinTTY && this.io.stderrTTY;
  }

  get prompter(): Prompter {
    return (this.prompterInstance ??= this.environment.prompter ?? createPrompter(this.io, this.canPrompt));
  }

  get dataDir(): string {
    return defaultDataDir(this.env, this.environment.homedir);
  }

  get configDir(): string {
    return resolveConfigDir(this.flags.configDir, this.env, this.environment.homedir, this.environment.platform ?? 'linux');
  }

  /** Settings pinned by `svc mcp`: nothing on this machine is read or written past them. */
  get pinned(): boolean {
    return this.environment.pinned !== undefined;
  }

  /** The conf-backed store, for commands that change profiles. */
  async store(): Promise<ProfileStore> {
    if (this.pinned) throw new CliError('the profiles on this machine are not changed from here: the credential is the one this server started with');
    this.storePromise ??= (async () => {
      const { openProfileStore } = await import('../config/profiles.js');
      return openProfileStore({ configDir: this.configDir, dataDir: this.dataDir });
    })();
    return this.storePromise;
  }

  /** The settings last resolved, if any: the error report reads them (where a refused key came from). */
  resolvedSettings: Settings | undefined;

  async settings(): Promise<Settings> {
    const { pinned } = this.environment;
    if (pinned) return (this.resolvedSettings = pinned);
    this.settingsPromise ??= (async () => {
      const { resolveSettings, SettingsError } = await import('../config/resolve.js');
      try {
        return (this.resolvedSettings = resolveSettings({
          flags: { profile: this.flags.profile, baseUrl: this.flags.baseUrl, subaccount: this.flags.subaccount, verbose: this.flags.verbose },
          env: this.env,
          // Reading needs no conf: settings resolve from the file directly (start-up cost).
          store: (await import('../config/profiles.js')).readProfilesFile(this.configDir),
          dataDir: this.dataDir,
        }));
      } catch (err) {
        if (err instanceof SettingsError) throw new UsageError(err.message, err.setting);
        throw err;
      }
    })();
    return this.settingsPromise;
  }

  /** Set by commands that manage the context themselves (`svc context …`): no "acting as" line. */
  quietSubaccount = false;
  private announced = false;
  private actingPromise?: Promise<ActingSubaccount | undefined>;

  /**
   * The sub-account this command acts as (--subaccount, SVC_SUBACCOUNT or the profile's context),
   * with its name when the service tells it: people know their clients by name, not by id.
   */
  async actingAs(): Promise<ActingSubaccount | undefined> {
    this.actingPromise ??= (async () => {
      const id = (await this.settings()).subaccount;
      if (!id) return undefined;
      const client = await this.clientPromise!;
      try {
        const { getSubaccount } = await import('../api/resources/subaccounts.js');
        return { id, name: (await getSubaccount(client, id)).name };
      } catch {
        return { id, name: null };
      }
    })();
    return this.actingPromise;
  }

  /** The API client for the resolved profile; starts the local service first when it is needed. */
  async client(): Promise<ApiClient> {
    const client = await this.createClient();
    // On a terminal, say which sub-account the command acts for (a context set days ago
    // and forgotten makes every list look empty).
    if (!this.announced && !this.quietSubaccount && this.io.stderrTTY && !this.flags.dryRun) {
      this.announced = true;
      const acting = await this.actingAs();
      if (acting) this.io.stderr.write(`acting as ${describeSubaccount(acting)}\n`);
    }
    return client;
  }

  /**
   * The settings a client is made from: for the built-in local profile, after the local service is
   * started if it is not running (its bootstrap.json then holds the key). Pinned settings as they are.
   */
  async serviceSettings(): Promise<Settings> {
    let settings = await this.settings();
    if (!this.pinned && settings.isLocal && settings.source.baseUrl !== 'flag' && settings.source.baseUrl !== 'env' && !this.flags.dryRun) {
      const { ensureLocalService } = await import('./local-service.js');
      const started = await ensureLocalService(this, settings.baseUrl);
      if (started) {
        this.settingsPromise = undefined;
        settings = await this.settings();
      }
    }
    return settings;
  }

  private createClient(): Promise<ApiClient> {
    this.clientPromise ??= (async () => {
      const settings = await this.serviceSettings();
      if (!settings.apiKey) {
        throw new UsageError(
          settings.isLocal
            ? 'no API key: the local service has not written bootstrap.json yet; run `svc server start`'
            : `no API key for profile "${settings.profileName}"; run \`svc login --profile ${settings.profileName}\` or set SVC_API_KEY`,
        );
      }
      const { ApiClient } = await import('../api/client/client.js');
      const io = this.io;
      return (this.clientInstance = new ApiClient({
        baseUrl: settings.baseUrl,
        apiKey: settings.apiKey,
        subaccount: settings.subaccount,
        version: CLI_VERSION,
        dryRun: this.flags.dryRun,
        dispatcher: this.environment.dispatcher as never,
        observe: this.environment.observe,
        trace: this.verbose ? (line: string) => void io.stderr.write(`${line}\n`) : undefined,
      }));
    })();
    return this.clientPromise;
  }

  /**
   * A client that sends even under --dry-run, for the reads a dry run needs to show its change
   * (`routes apply --dry-run` reads the route it would replace). Reads only: writes use client().
   */
  async readClient(): Promise<ApiClient> {
    this.readClientPromise ??= this.client().then((c) => c.withoutDryRun());
    return this.readClientPromise;
  }

  /** Releases what the command opened (the client's keep-alive sockets). */
  async close(): Promise<void> {
    const reader = this.readClientPromise;
    this.readClientPromise = undefined;
    if (reader) await (await reader.catch(() => undefined))?.close();
    const pending = this.clientPromise;
    this.clientPromise = undefined;
    if (pending) await (await pending.catch(() => undefined))?.close();
  }

  /** cli.md: -y/--yes answers confirmations; otherwise ask, or refuse naming --yes. */
  async confirm(message: string): Promise<void> {
    // --dry-run sends nothing, so there is nothing to confirm: show the request instead of asking.
    if (this.flags.yes || this.flags.dryRun) return;
    const ok = await this.prompter.confirm(message, { flag: '--yes' });
    if (!ok) throw new DeclinedError();
  }
}


export interface ActingSubaccount {
  id: string;
  /** Null when the service could not say (the id is then all there is to show). */
  name: string | null;
}

/** `sub-account "Acme Dental" (4b1c…)`, or the id alone when the name is unknown. */
export const describeSubaccount = (a: ActingSubaccount): string => (a.name ? `sub-account "${a.name}" (${a.id})` : `sub-account ${a.id}`);
