/**
 * Where stages read an organization's configuration (validation settings, custom fields, dedup
 * settings, vendors). The runtime's ConfigCache fits: entries are kept until a change of the
 * organization's configuration is known, and a command stamped with a newer configuration
 * version reloads them first, so the lead after a change is decided on the change.
 */
export interface ConfigSource {
  get<T>(organizationId: string, kind: string, load: () => Promise<T>, minVersion?: number): Promise<T>;
  /** Drops one kept entry, for a change learned from the pipeline itself (a webhook the deliver stage disabled). */
  forget?(organizationId: string, kind: string): void;
}

/**
 * The header of a lead event stating the configuration version of the command that produced it
 * (the intake chain stamps its events): notify then reads the tenant's webhooks through the cache
 * no older than that version. Events without it are decided on the webhooks as stored.
 */
export const CONFIG_VERSION_HEADER = 'x-config-version';

/** The stamped version of an event's record, or undefined. */
export function stampedConfigVersion(headers: Readonly<Record<string, string>>): number | undefined {
  const value = headers[CONFIG_VERSION_HEADER];
  if (value === undefined || !/^\d{1,15}$/.test(value)) return undefined;
  return Number(value);
}

/** Reads the store every time (tests of one stage, tools). */
export const uncachedConfig: ConfigSource = {
  get: (_organizationId, _kind, load) => load(),
};

/** The newest configuration version stamped on any of the commands, per organization. */
export function newestConfigVersions(
  messages: ReadonlyArray<{ organization_id: string; config_version?: number }>,
): Map<string, number | undefined> {
  const versions = new Map<string, number | undefined>();
  for (const message of messages) {
    const current = versions.get(message.organization_id);
    const stamped = message.config_version;
    versions.set(message.organization_id, stamped === undefined ? current : Math.max(current ?? 0, stamped));
  }
  return versions;
}
