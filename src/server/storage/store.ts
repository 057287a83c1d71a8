import type { MediaStore } from './media-store.js';
import type { AccountsRepo } from './accounts-repo.js';
import type { BlockedNumbersRepo } from './blocked-numbers-repo.js';
import type { BrandsRepo } from './brands-repo.js';
import type { CallsRepo } from './calls-repo.js';
import type { CampaignsRepo } from './campaigns-repo.js';
import type { ConsoleSessionsRepo } from './console-sessions-repo.js';
import type { DevicesRepo } from './devices-repo.js';
import type { EmailsRepo } from './emails-repo.js';
import type { EventsRepo } from './events-repo.js';
import type { HoldsRepo } from './holds-repo.js';
import type { IdempotencyRepo } from './idempotency-repo.js';
import type { JobsRepo } from './jobs-repo.js';
import type { KeysRepo } from './keys-repo.js';
import type { LeadsRepo } from './leads-repo.js';
import type { LedgerRepo } from './ledger-repo.js';
import type { MailboxRepo } from './mailbox-repo.js';
import type { MessagesRepo } from './messages-repo.js';
import type { NumbersRepo } from './numbers-repo.js';
import type { OptOutsRepo } from './opt-outs-repo.js';
import type { PortsRepo } from './ports-repo.js';
import type { RoutesRepo } from './routes-repo.js';
import type { SandboxDnsRepo } from './sandbox-dns-repo.js';
import type { SendingDomainsRepo } from './sending-domains-repo.js';
import type { SinksRepo } from './sinks-repo.js';
import type { ServiceStateRepo } from './service-state-repo.js';
import type { SuppressionsRepo } from './suppressions-repo.js';
import type { UsageStatsRepo } from './usage-stats-repo.js';
import type { VoicemailsRepo } from './voicemails-repo.js';
import type { WalletsRepo } from './wallets-repo.js';
import type { WebhookDeliveriesRepo } from './webhook-deliveries-repo.js';
import type { WebhookEndpointsRepo } from './webhooks-repo.js';

// The storage seam. The domain sees these interfaces and nothing else of storage: every
// repository is asynchronous and reached only through a transaction the store hands out, so no
// domain code can touch storage outside one, and an engine other than SQLite (PostgreSQL)
// plugs in by implementing `Store` and the repositories (storage/sqlite/ is the SQLite engine).

/** Every repository, as one transaction sees them. */
export interface Repositories {
  accounts: AccountsRepo;
  keys: KeysRepo;
  idempotency: IdempotencyRepo;
  eventsRepo: EventsRepo;
  jobs: JobsRepo;
  numbers: NumbersRepo;
  messages: MessagesRepo;
  campaigns: CampaignsRepo;
  /** contract §4: consumers who texted a stop word to one of the account's numbers. */
  optOuts: OptOutsRepo;
  /** spec: Brand (10DLC). */
  brands: BrandsRepo;
  /** Call routes and voicemail greetings, one row per number (spec: Call route). */
  routes: RoutesRepo;
  /** spec: Blocked number — the account's blocklist (confirmed entries and suggestions). */
  blockedNumbers: BlockedNumbersRepo;
  /** contract §6: softphone devices. */
  devices: DevicesRepo;
  /** contract §6: calls (with the runner's state and the trace) and voicemails. */
  calls: CallsRepo;
  voicemails: VoicemailsRepo;
  /** contract §7: leads from the hosted opt-in pages. */
  leads: LeadsRepo;
  /** contract §7: port requests and their documents (the PIN is never stored). */
  ports: PortsRepo;
  /** contract §8: sending domains (one account per domain name). */
  sendingDomains: SendingDomainsRepo;
  /** contract §8: emails, their recipients and the per-recipient timeline. */
  emails: EmailsRepo;
  /** contract §8: the account's suppressed addresses. */
  suppressions: SuppressionsRepo;
  /** contract §11: wallets (balance and billing settings), the append-only ledger, holds. */
  wallets: WalletsRepo;
  ledger: LedgerRepo;
  holds: HoldsRepo;
  /** contract §9: the sandbox DNS table (the names and records the local service's DNS answers). */
  sandboxDns: SandboxDnsRepo;
  /** contract §8 (extension): the mail sandbox, every message delivered for a live email. */
  mailbox: MailboxRepo;
  webhookEndpoints: WebhookEndpointsRepo;
  webhookDeliveries: WebhookDeliveriesRepo;
  /** contract §10 (extension, local service only): sinks and the requests they keep. */
  sinks: SinksRepo;
  usageStats: UsageStatsRepo;
  /** Console one-time links and sessions. */
  consoleSessions: ConsoleSessionsRepo;
  /** What the service keeps about itself (the saved clock). */
  serviceState: ServiceStateRepo;
}

/** A write transaction: the repositories, plus what runs once it has committed. */
export interface Transaction extends Repositories {
  /**
   * Runs `fn` after this transaction commits, never if it rolls back (a savepoint's hooks run when
   * the outermost transaction commits): how long polls and workers hear of a change only once it is
   * durable and visible to every reader.
   */
  afterCommit(fn: () => void): void;
  /**
   * A nested write: `fn` in a savepoint of this transaction; a throw rolls back its writes only.
   * Nested writes of one transaction run one at a time, in the order they were asked for.
   */
  savepoint<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
}

/**
 * The engine: hands out transactions. Each `write` commits atomically; writes asked for in the same
 * turn of the event loop may share one commit (group commit: each in its own savepoint, so one that
 * throws rolls back alone) and each promise settles only after that commit, so an answer sent on it
 * is durable. A `read` sees only committed data. Nothing outside the process may be called while a
 * transaction is open (a payment, DNS, the carrier, the mail server, a webhook): read, commit, call
 * the outside world, then write its outcome in a new transaction.
 */
/** What a committed event's notification says: enough to wake who waits for it, not its body. */
export interface EventHint {
  id: string;
  accountId: string;
  type: string;
  /** A `message.status` event's move, when the hint carries it (a live page sets it in place, no fetch). */
  move?: MessageMove;
}

/** What a `message.status` event moves: the message, its new status and the reason given. */
export interface MessageMove {
  messageId: string;
  status: string;
  reason: string | null;
}

/**
 * A change that is no event (a call's trace, a message's status, a request a sink kept), told to the
 * other processes.
 */
export interface ChangeHint {
  accountId: string;
  kind: 'call' | 'message' | 'sink';
  id: string;
  status?: string;
}

/**
 * The other processes sharing a database (PostgreSQL replicas), as one process sees them:
 * what they committed that this one may be waiting for, and how many there are. A process alone on
 * its database (SQLite: one process owns its file) has itself only (process-alone.ts): nothing heard,
 * every barrier passed, a count of 1.
 */
export interface StorePeers {
  /**
   * Whether other processes share the database as equals (replicas: each runs jobs and makes
   * attempts, so work is claimed under each one's name and what one commits is heard by
   * notification). False: this process is alone on it (a `--role api` process beside a SQLite worker
   * serves and reads only, and hears the worker through `StoreNotices`).
   */
  readonly shared: boolean;
  /** This process's name among them (claims are taken under it). */
  readonly processId: string;
  /** An event another process committed (after its commit). */
  onEvent(fn: (hint: EventHint) => void): void;
  /**
   * A `service_state` key another process wrote (the clock), after its commit. What `fn` returns is
   * waited for by a `sync` another process asks for after that commit.
   */
  onState(fn: (key: string) => void | Promise<unknown>): void;
  /** A change that is no event another process committed (`tellChange`), after its commit. */
  onChange(fn: (hint: ChangeHint) => void): void;
  /** Tells the others of a change this process committed (call after the commit; a hint, not durable). */
  tellChange(hint: ChangeHint): void;
  /** Notifications may have been missed (the listening connection was lost and is back): re-read. */
  onResync(fn: () => void): void;
  /** The processes alive on this database, this one included (at least 1). */
  count(): number;
  /**
   * Resolves once every other live process has handled what this one committed before the call
   * (the state it wrote followed): a read-your-writes barrier for a change kept in memory on each
   * (the service clock), so the caller's next request finds it on whichever process it lands.
   * Bounded: a process that stays silent (dead, not yet counted gone) is not waited for past it.
   */
  sync(): Promise<void>;
  /**
   * What this process must finish when another is about to advance the clock (its webhook attempts
   * in flight: their retries are scheduled from when they really ended), asked for by `quiesce`.
   */
  onQuiesce(fn: () => Promise<void>): void;
  /**
   * Resolves once every other live process has finished what its `onQuiesce` hooks wait for (after
   * handling what this one committed before, as `sync`). Bounded by `boundMs`.
   */
  quiesce(boundMs: number): Promise<void>;
}

/** What a notice left in the database stands for (the kinds of `ProcessNotice`, as stored). */
export const PROCESS_NOTICE_KINDS = ['event', 'message', 'call'] as const;

/** A hint one process leaves in the database for another: an event it committed, or a change that is no event. */
export type ProcessNotice = { event: EventHint } | { change: ChangeHint };

/**
 * Processes sharing a SQLite file (`--role api` beside `--role worker`) have no NOTIFY: what
 * one commits that the other's live pages show (an event, a change that is no event) is left as a
 * row in the same transaction, and the other reads the rows it has not seen yet when it sees that the
 * file moved (`otherWritersSeen`). PostgreSQL hears through `peers` instead: its notices are none
 * (`NO_NOTICES`, process-alone.ts).
 */
export interface StoreNotices {
  /**
   * Inside a write: leaves `notice` for the other process, committed (or rolled back) with the
   * write's own rows. Synchronous: the change's code calls it where it is, with no await to add.
   */
  leave(tx: Transaction, notice: ProcessNotice): void;
  /**
   * The notices left since the last call, oldest first (the first call: those left since this store
   * opened). `missed`: some were dropped before this process read them (it fell far behind): re-read.
   */
  heard(): Promise<{ notices: ProcessNotice[]; missed: boolean }>;
}

/** How a write may be run. */
export interface WriteOptions {
  /**
   * Every statement of the write is correct on its own among concurrent writers, so an
   * engine may run it at READ COMMITTED rather than SERIALIZABLE (PostgreSQL; SQLite runs one write at
   * a time whatever this says). For a claim taken with `FOR UPDATE SKIP LOCKED`, an UPDATE whose WHERE
   * re-checks the row's state (PostgreSQL re-evaluates it on the row's latest version before writing)
   * and counters written as `n = n + 1`; never for a read-check-write the domain does in code (a
   * balance, a limit, a lookup before an insert). Why: the webhook worker's claims, renewals and
   * records, batches of neighbouring rows, held SERIALIZABLE's predicate locks (promoted to whole
   * pages past two rows a page), and three replicas aborted each other's 5,152 times for 2,000 sends
   * (bench/replicas), a renewal and a record failing 30 times in a row: a claim ran out under its
   * live holder and its delivery was sent twice.
   */
  rowGuarded?: boolean;
}

/** How a read may be run. */
export interface ReadOptions {
  /**
   * The read sends one statement at most: an engine may run it with no transaction around it, a
   * single statement being its own consistent snapshot (PostgreSQL then spends one round
   * trip, not a BEGIN and a COMMIT besides). A second statement under it is an error.
   */
  oneStatement?: boolean;
}

export interface Store {
  /** The processes sharing the database; this one alone when none may (process-alone.ts). */
  readonly peers: StorePeers;
  /** Notices for another process on the same file (SQLite); none where peers hear by notification. */
  readonly notices: StoreNotices;
  write<T>(fn: (tx: Transaction) => Promise<T>, opts?: WriteOptions): Promise<T>;
  read<T>(fn: (tx: Repositories) => Promise<T>, opts?: ReadOptions): Promise<T>;
  /**
   * Throws when called from inside an open transaction (only when the store was opened with
   * `guardOutsideCalls`, as tests do): the simulated outside world calls it before every act.
   */
  assertNoTransaction(what: string): void;
  /** Waits for the writes under way, then closes the database. */
  close(): Promise<void>;
  /**
   * Whether the database answered when last asked (PostgreSQL, a server that may be stopped or cut
   * off: the readiness check reads it). SQLite: always (a file this process opened).
   */
  databaseReachable(): boolean;
  /**
   * How many times this engine has seen commits made by another process so far (SQLite:
   * the data_version pragma), so a worker beside an API process polls for new work only when there is
   * some. Undefined: the engine cannot tell (PostgreSQL), so a poller looks every time.
   */
  otherWritersSeen(): number | undefined;

  /**
   * Each read is a round trip to a database server (PostgreSQL), so requests that read the
   * same row at about the same time may share one read made once all of them have asked (http/auth.ts,
   * the request's key). False: reads are served in the process (SQLite, its caches).
   */
  readonly readsAreRoundTrips: boolean;

  /**
   * Where the engine keeps media: PostgreSQL in the database, for every replica to serve (`files`
   * unused); SQLite in the data directory's `files.dir` (in memory without one: tests), the greeting
   * media names recorded (`files.greetings`) being the ones it serves.
   */
  mediaStore(files: { dir?: string; greetings: Iterable<string> }): MediaStore;
}
