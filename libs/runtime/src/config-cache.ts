/**
 * Configuration that is never stale (docs/decisions.md "Configuration freshness"): each process
 * caches an organization's configuration (API keys, vendors, settings, custom fields, dedup
 * settings...) and drops it when the configuration changes, never on a timer.
 *
 * - Every configuration write is followed by `changed(org, what)`: the organization's version in
 *   the store (`config_versions`, `_id` = organization id) goes up by one, this process drops its
 *   entries at once, and `config.changed {organization_id, version}` tells every other process,
 *   each of which drops the organization's entries when the version is newer than the one it knows.
 * - Commands carry the version their producer knew (`config_version`); a stage passes it to
 *   `get` as `minVersion` and reloads first when it is newer than what it knows, so a lead is never
 *   decided with configuration older than the api saw when it accepted the lead, even when the
 *   topic has not reached the stage yet.
 * - Entries are cached only while this process is subscribed to config.changed: before `start`,
 *   after `stop`, or once the subscription has crashed, `get` loads every time (never stale).
 *
 * - At most `maxOrganizations` organizations are held (default 10,000), the least recently used
 *   dropped first: a dropped organization's entries and known version are simply read again, as
 *   on first use, so dropping never serves anything stale. A change of an organization this
 *   process holds nothing of adds nothing.
 *
 * On MongoDB the version's `$inc` is atomic. FerretDB 1.24 may lose one of two concurrent
 * increments (docs/store.md); two changes can then publish the same version, so a process also
 * drops its entries on a message of the version it knows when another process sent it.
 */
import { randomUUID } from 'node:crypto';
import { type Batch, type Collection, type Consumer, type DocumentStore, type EventLog } from '@leadstream/ports';
import { type ConfigChangedMessage, parseConfigChanged } from '@leadstream/schemas';
import type { Logger } from 'pino';
import { LruMap } from './lru-map';
import { TOPICS } from './topics';

export interface ConfigCacheOptions {
  log: EventLog;
  store: DocumentStore;
  logger: Logger;
  /** Organizations held at once (default DEFAULT_CONFIG_CACHE_ORGANIZATIONS). */
  maxOrganizations?: number;
}

export const DEFAULT_CONFIG_CACHE_ORGANIZATIONS = 10_000;

export const CONFIG_CHANGED_TOPIC = TOPICS.configChanged;
/** One document per organization: `{_id: organization id, version, what, changed_at}`. */
export const CONFIG_VERSIONS_COLLECTION = 'config_versions';

/** The header naming the process that published a change (its own messages teach it nothing). */
const SOURCE_HEADER = 'config-cache-instance';

interface ConfigVersionDocument {
  _id: string;
  version: number;
  what: string;
  changed_at: Date;
}

/**
 * Raises the organization's configuration version in the store by one and returns the new one.
 * `ConfigCache.changed` does this and then tells the processes; a writer that cannot reach the
 * log (the admin CLI beside a server on the embedded engines) does only this.
 */
export async function bumpConfigVersion(
  store: DocumentStore,
  organizationId: string,
  what: string,
  now = new Date(),
): Promise<number> {
  const versions = store.collection<ConfigVersionDocument>(CONFIG_VERSIONS_COLLECTION);
  // Two first changes of an organization may both try to insert: the store's upsert settles it.
  const doc = await versions.findOneAndUpdate(
    { _id: organizationId },
    { $inc: { version: 1 }, $set: { what, changed_at: now } },
    { upsert: true, returnDocument: 'after' },
  );
  if (!doc) throw new Error(`config version of ${organizationId} was not returned after an upsert`);
  return doc.version;
}

interface OrganizationEntries {
  /** The newest version this process knows (0 until one is learned). */
  version: number;
  /** Replaced, never cleared, on a change: a load still in flight lands in the dropped map. */
  entries: Map<string, Promise<unknown>>;
  /** The one read of the stored version, once `version()` was asked. */
  stored?: Promise<void>;
}

export class ConfigCache {
  private readonly instanceId = randomUUID().slice(0, 12);
  private readonly versions: Collection<ConfigVersionDocument>;
  private readonly organizations: LruMap<string, OrganizationEntries>;
  private consumer: Consumer | undefined;
  /** Entries are kept only while config.changed is being consumed. */
  private listening = false;

  constructor(private readonly options: ConfigCacheOptions) {
    this.versions = options.store.collection<ConfigVersionDocument>(CONFIG_VERSIONS_COLLECTION);
    this.organizations = new LruMap(options.maxOrganizations ?? DEFAULT_CONFIG_CACHE_ORGANIZATIONS);
  }

  /** How many organizations this process holds entries or a version of. */
  get organizationCount(): number {
    return this.organizations.size;
  }

  /** Subscribes to config.changed (a consumer group unique to this process, starting at the end). */
  async start(): Promise<void> {
    if (this.consumer) throw new Error('ConfigCache was already started');
    const { log, logger } = this.options;
    // Boot creates it with the pipeline's partition count (pipelineTopics); this only fills a gap.
    await log.ensureTopics([{ topic: CONFIG_CHANGED_TOPIC, partitions: 1 }]);
    const consumer = log.consumer({
      groupId: `config-cache.${this.instanceId}`,
      topics: [CONFIG_CHANGED_TOPIC],
      fromBeginning: false,
      commitOffsets: false,
    });
    this.consumer = consumer;
    await consumer.start(async (batch) => this.consume(batch));
    this.listening = true;
    consumer.done.then(
      () => this.deafen(),
      (error: unknown) => {
        this.deafen();
        logger.error(
          { err: error, group: `config-cache.${this.instanceId}` },
          'config.changed subscription crashed: configuration is read from the store on every use',
        );
      },
    );
  }

  async stop(): Promise<void> {
    this.deafen();
    await this.consumer?.stop();
  }

  /**
   * The value of `kind` for the organization, loaded once and kept until a configuration change of
   * that organization newer than it is known. When `minVersion` (stamped on a pipeline message) is
   * newer than what this process knows, the organization's entries are reloaded first.
   * A failed load is not kept.
   */
  async get<T>(organizationId: string, kind: string, load: () => Promise<T>, minVersion?: number): Promise<T> {
    if (!this.listening) return load();
    if (minVersion !== undefined) this.advance(organizationId, minVersion);
    const { entries } = this.entriesOf(organizationId);
    let entry = entries.get(kind) as Promise<T> | undefined;
    if (!entry) {
      const loading = load();
      entry = loading;
      entries.set(kind, loading);
      loading.catch(() => {
        if (entries.get(kind) === loading) entries.delete(kind);
      });
    }
    return entry;
  }

  /**
   * Drops one entry of the organization, for a change this process learned without a version (the
   * deliver stage's automatic disabling of a webhook, seen as its webhook.disabled event).
   */
  forget(organizationId: string, kind: string): void {
    this.organizations.peek(organizationId)?.entries.delete(kind);
  }

  /** The newest configuration version this process knows for the organization (0 when none was ever recorded). */
  async version(organizationId: string): Promise<number> {
    if (!this.listening) return this.readVersion(organizationId);
    const organization = this.entriesOf(organizationId);
    if (!organization.stored) {
      const reading = this.readVersion(organizationId).then((stored) => {
        if (stored > organization.version) this.dropEntries(organization, stored);
      });
      organization.stored = reading;
      reading.catch(() => {
        if (organization.stored === reading) delete organization.stored;
      });
    }
    await organization.stored;
    // This object, not a lookup again: the organization may have been dropped from the cache meanwhile.
    return organization.version;
  }

  /**
   * Call after every configuration write: bumps the organization's version in the store, drops
   * this process's entries at once, publishes config.changed {organization_id, version}. Returns
   * the new version.
   */
  async changed(organizationId: string, what: string): Promise<number> {
    const now = new Date();
    const version = await bumpConfigVersion(this.options.store, organizationId, what, now);
    this.drop(organizationId, version);
    const message: ConfigChangedMessage = parseConfigChanged({
      schema_version: 1,
      organization_id: organizationId,
      version,
      what,
      changed_at: now.toISOString(),
    });
    await this.options.log.produce(CONFIG_CHANGED_TOPIC, [
      { key: organizationId, value: JSON.stringify(message), headers: { [SOURCE_HEADER]: this.instanceId } },
    ]);
    this.options.logger.debug({ organizationId, version, what }, 'configuration changed');
    return version;
  }

  private async consume(batch: Batch): Promise<void> {
    for (const record of batch.records) {
      let message: ConfigChangedMessage;
      try {
        message = parseConfigChanged(JSON.parse(record.value));
      } catch (error) {
        this.options.logger.warn(
          { err: error, offset: record.offset, partition: record.partition },
          'config.changed: unreadable message skipped',
        );
        continue;
      }
      // An organization this process holds nothing of has nothing to drop: it is read fresh on first use.
      const organization = this.organizations.peek(message.organization_id);
      if (!organization) continue;
      const fromElsewhere = record.headers[SOURCE_HEADER] !== this.instanceId;
      if (message.version > organization.version || (fromElsewhere && message.version === organization.version))
        this.dropEntries(organization, message.version);
    }
  }

  /** Learns a version; entries are dropped only when it is newer than the one known. */
  private advance(organizationId: string, version: number): void {
    if (version > this.entriesOf(organizationId).version) this.drop(organizationId, version);
  }

  private drop(organizationId: string, version: number): void {
    this.dropEntries(this.entriesOf(organizationId), version);
  }

  private dropEntries(organization: OrganizationEntries, version: number): void {
    organization.version = Math.max(organization.version, version);
    organization.entries = new Map();
  }

  /** The organization's entries, now its most recently used; created when not held. */
  private entriesOf(organizationId: string): OrganizationEntries {
    let organization = this.organizations.get(organizationId);
    if (!organization) {
      organization = { version: 0, entries: new Map() };
      this.organizations.set(organizationId, organization);
    }
    return organization;
  }

  private async readVersion(organizationId: string): Promise<number> {
    return (await this.versions.findOne({ _id: organizationId }))?.version ?? 0;
  }

  /** No more invalidations can reach this process: forget everything and stop caching. */
  private deafen(): void {
    this.listening = false;
    this.organizations.clear();
  }
}
