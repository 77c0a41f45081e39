/**
 * Makes the calls of the CRM connectors (libs/domain crm-connectors shapes them) through the one
 * outbound-HTTP module: https and public addresses only (after DNS), no redirects, bounded time
 * and body. Keeps OAuth access tokens per connection until they expire or a call answers 401,
 * which fetches a fresh token once; the token fetches of one connection share one request, so a
 * batch of syncs that all find the token expired (or all get a 401) asks for one.
 *
 * Salesforce refresh-token rotation: a refresh answers a new refresh token and retires the one
 * sent (sending it again is `invalid_grant`, and Salesforce may revoke the live tokens). The new
 * one is kept in memory and written to the stored connection through `refreshTokens`
 * (crm-refresh-tokens.ts: encrypted, and only if the stored one is still the one sent), and every
 * refresh first reads the stored one, which another process may have rotated since this one read
 * the connection.
 */
import {
  accessTokenRequest,
  crmRecordUrl,
  needsAccessToken,
  readAccessToken,
  readSalesforceLookup,
  readSyncResponse,
  salesforceLookupRequest,
  salesforceNeedsCreateBody,
  syncProblem,
  syncRequest,
  testRequest,
  classifyFailure,
  type CrmAccessToken,
  type CrmConnection,
  type CrmHttpRequest,
  type CrmHttpResponse,
  type CrmLead,
  type CrmOutcome,
  type CrmSyncMode,
  type CrmTarget,
  type TenantContext,
} from '@leadstream/domain';
import type { Logger } from 'pino';
import { sendOutbound, type OutboundOptions, type OutboundResult } from '../outbound-http';

/** A stored connection, by tenant and id. */
export interface CrmConnectionRef {
  tenant: TenantContext;
  id: string;
}

/** Where rotated refresh tokens are kept for every process (StoredRefreshTokens over the store). */
export interface CrmRefreshTokenStore {
  /** The refresh token stored now, or null (no such connection, or none stored). */
  current(connection: CrmConnectionRef): Promise<string | null>;
  /** Stores `next` if the stored refresh token is still `previous`; false when it changed meanwhile. */
  rotate(connection: CrmConnectionRef, previous: string, next: string): Promise<boolean>;
}

export interface CrmClientOptions {
  /** Per call (CRM_TIMEOUT_MS, default 30 s). */
  timeoutMs: number;
  allowInsecureTargets?: boolean;
  resolve?: OutboundOptions['resolve'];
  /** Epoch milliseconds (token expiry, Retry-After dates). */
  now?: () => number;
  /** Rotated Salesforce refresh tokens, stored for every process; without it they are kept in this process only. */
  refreshTokens?: CrmRefreshTokenStore;
  /** Where a refresh token that could not be read or stored is reported. */
  logger?: Pick<Logger, 'warn'>;
}

export interface CrmSyncResult {
  outcome: CrmOutcome;
  /** Where the record opens in the CRM (synced only). */
  recordUrl: string | null;
  timeMs: number;
}

export interface CrmTestResult {
  success: boolean;
  responseStatus: number | null;
  timeMs: number;
  error?: string;
}

type TokenRead = { ok: true; token: CrmAccessToken } | { ok: false; outcome: Exclude<CrmOutcome, { kind: 'synced' }> };

export function toCrmResponse(result: OutboundResult): CrmHttpResponse {
  if (result.ok) return { status: result.status, body: result.body, headers: result.headers };
  if (result.code === 'HTTP_ERROR')
    return { status: result.status, body: result.body ?? '', headers: result.headers ?? {} };
  return { status: null, body: '', headers: {}, failure: { code: result.code, message: result.error } };
}

export class CrmClient {
  private readonly tokens = new Map<string, CrmAccessToken>();
  /** Token fetches in flight, by connection version: one request for every sync that needs a token. */
  private readonly fetching = new Map<string, Promise<TokenRead>>();
  /** The newest refresh token this process got, by connection version (used when the store cannot be read). */
  private readonly refreshTokens = new Map<string, string>();
  /** A rotation this process could not store yet, by connection version: stored before the next refresh. */
  private readonly unsaved = new Map<string, { previous: string; next: string }>();
  private readonly now: () => number;

  constructor(private readonly options: CrmClientOptions) {
    this.now = options.now ?? Date.now;
  }

  private async call(request: CrmHttpRequest): Promise<{ response: CrmHttpResponse; timeMs: number }> {
    const result = await sendOutbound(
      {
        url: request.url,
        method: request.method,
        headers: request.headers,
        ...(request.rawBody !== undefined
          ? { rawBody: request.rawBody }
          : request.body !== undefined
            ? { body: request.body }
            : {}),
      },
      {
        timeoutMs: this.options.timeoutMs,
        ...(this.options.allowInsecureTargets ? { allowInsecureTargets: true } : {}),
        ...(this.options.resolve ? { resolve: this.options.resolve } : {}),
      },
    );
    return { response: toCrmResponse(result), timeMs: result.timeMs };
  }

  /** A token per connection version: changed credentials (a new connection) never reuse an old token. */
  private tokenKey(connection: CrmConnection): string {
    return `${connection.id}@${connection.updated_at}`;
  }

  /**
   * The connection's access token: the cached one unless it expired or is `refused` (the token a
   * call just answered 401 for), else the one a fetch in flight brings, else a new fetch.
   * `force` (a connection test) always asks the CRM, unless a fetch is already in flight.
   */
  private async token(
    connection: CrmConnection,
    options: { refused?: string; force?: boolean } = {},
  ): Promise<TokenRead> {
    const key = this.tokenKey(connection);
    const cached = this.tokens.get(key);
    if (cached && !options.force && cached.expiresAt > this.now() && cached.accessToken !== options.refused)
      return { ok: true, token: cached };
    const running = this.fetching.get(key);
    if (running) return running;
    const fetch = this.fetchToken(connection, key).finally(() => this.fetching.delete(key));
    this.fetching.set(key, fetch);
    return fetch;
  }

  private async fetchToken(connection: CrmConnection, key: string): Promise<TokenRead> {
    this.tokens.delete(key);
    const refreshing = connection.type === 'salesforce' && connection.settings.grant_type === 'refresh_token';
    const sent = refreshing ? await this.currentRefreshToken(connection, key) : undefined;
    const { response } = await this.call(accessTokenRequest(connection, sent));
    const read = readAccessToken(response, this.now());
    if (!read.ok) return read;
    this.tokens.set(key, read.token);
    if (sent !== undefined && read.refreshToken !== null && read.refreshToken !== sent)
      await this.keepRefreshToken(connection, key, sent, read.refreshToken);
    return { ok: true, token: read.token };
  }

  /** The refresh token to send: the stored one (another process may have rotated it), else the newest this process knows. */
  private async currentRefreshToken(connection: CrmConnection, key: string): Promise<string> {
    const known =
      this.refreshTokens.get(key) ??
      (connection.type === 'salesforce' ? connection.credentials.refresh_token : undefined) ??
      '';
    const store = this.options.refreshTokens;
    if (!store || !connection.tenant) return known;
    const ref = { tenant: connection.tenant, id: connection.id };
    try {
      const pending = this.unsaved.get(key);
      if (pending) {
        // Stored now if nobody changed the stored token since; if somebody did, theirs is newer.
        await store.rotate(ref, pending.previous, pending.next);
        this.unsaved.delete(key);
      }
      return (await store.current(ref)) ?? known;
    } catch (error) {
      this.options.logger?.warn(
        { connection_id: connection.id, err: error },
        'the stored Salesforce refresh token could not be read; refreshing with the newest this process has',
      );
      return known;
    }
  }

  private async keepRefreshToken(
    connection: CrmConnection,
    key: string,
    previous: string,
    next: string,
  ): Promise<void> {
    this.refreshTokens.set(key, next);
    const store = this.options.refreshTokens;
    if (!store || !connection.tenant) return;
    try {
      // False: the stored token changed since it was read (a new one saved with the connection): that one stays.
      await store.rotate({ tenant: connection.tenant, id: connection.id }, previous, next);
    } catch (error) {
      this.unsaved.set(key, { previous, next });
      this.options.logger?.warn(
        { connection_id: connection.id, err: error },
        'a rotated Salesforce refresh token could not be stored; stored before the next refresh',
      );
    }
  }

  /**
   * Upserts one lead; never throws for what the CRM or the network does (the outcome says it).
   * `knownCrmId`: the record the sync made before (an update sends the mapped fields only).
   */
  async sync(
    connection: CrmConnection,
    lead: CrmLead,
    target: CrmTarget,
    knownCrmId: string | null,
  ): Promise<CrmSyncResult> {
    const started = this.now();
    const elapsed = (): number => Math.max(0, this.now() - started);
    const problem = syncProblem(connection, lead, target);
    if (problem !== null)
      return { outcome: { kind: 'permanent', error: problem, status: null }, recordUrl: null, timeMs: elapsed() };
    let token: CrmAccessToken | null = null;
    if (needsAccessToken(connection)) {
      const got = await this.token(connection);
      if (!got.ok) return { outcome: got.outcome, recordUrl: null, timeMs: elapsed() };
      token = got.token;
    }
    let mode: CrmSyncMode = knownCrmId === null ? 'create' : 'update';
    let { response } = await this.call(syncRequest(connection, lead, target, token, mode));
    let outcome = readSyncResponse(connection, response, this.now(), lead._id);
    if (outcome.kind === 'unauthorized' && token) {
      // An expired or revoked session: one fresh token, one more try.
      const got = await this.token(connection, { refused: token.accessToken });
      if (!got.ok) return { outcome: got.outcome, recordUrl: null, timeMs: elapsed() };
      token = got.token;
      ({ response } = await this.call(syncRequest(connection, lead, target, token, mode)));
      outcome = readSyncResponse(connection, response, this.now(), lead._id);
    }
    if (mode === 'update' && connection.type === 'salesforce' && token && salesforceNeedsCreateBody(response)) {
      // The Lead was deleted in Salesforce: the upsert creates it, which needs the required fields.
      mode = 'create';
      ({ response } = await this.call(syncRequest(connection, lead, target, token, mode)));
      outcome = readSyncResponse(connection, response, this.now(), lead._id);
    }
    if (outcome.kind === 'unauthorized')
      outcome = { kind: 'permanent', error: `${outcome.error} (credentials refused)`, status: outcome.status };
    if (outcome.kind === 'synced' && outcome.crmId === null && connection.type === 'salesforce' && token) {
      // An update answered 204 by an older API version: the id by the external id, unless known.
      if (knownCrmId !== null) outcome = { ...outcome, crmId: knownCrmId };
      else {
        const lookup = await this.call(salesforceLookupRequest(connection, lead._id, token));
        outcome = { ...outcome, crmId: readSalesforceLookup(lookup.response) };
      }
    }
    const crmId = outcome.kind === 'synced' ? (outcome.crmId ?? knownCrmId) : null;
    return { outcome, recordUrl: crmRecordUrl(connection, crmId, token), timeMs: elapsed() };
  }

  /** Checks that the connection answers and takes its credentials, writing nothing (POST /api/crm/connections/:id/test). */
  async test(connection: CrmConnection): Promise<CrmTestResult> {
    const started = this.now();
    let token: CrmAccessToken | null = null;
    if (needsAccessToken(connection)) {
      const got = await this.token(connection, { force: true });
      if (!got.ok)
        return {
          success: false,
          responseStatus: got.outcome.status,
          timeMs: Math.max(0, this.now() - started),
          error: got.outcome.error,
        };
      token = got.token;
    }
    const { response, timeMs } = await this.call(testRequest(connection, token));
    if (response.status !== null && response.status >= 200 && response.status < 300 && !response.failure)
      return { success: true, responseStatus: response.status, timeMs };
    return {
      success: false,
      responseStatus: response.status,
      timeMs,
      error: classifyFailure(response, this.now()).error,
    };
  }
}
