/**
 * Makes the calls of the CRM connectors (libs/domain crm-connectors shapes them) through the one
 * outbound-HTTP module: https and public addresses only (after DNS), no redirects, bounded time
 * and body. Keeps OAuth access tokens per connection until they expire or a call answers 401,
 * which fetches a fresh token once.
 */
import {
  accessTokenRequest,
  crmRecordUrl,
  needsAccessToken,
  readAccessToken,
  readSalesforceLookup,
  readSyncResponse,
  salesforceLookupRequest,
  syncRequest,
  testRequest,
  classifyFailure,
  type CrmAccessToken,
  type CrmConnection,
  type CrmHttpRequest,
  type CrmHttpResponse,
  type CrmLead,
  type CrmOutcome,
  type CrmTarget,
} from '@leadstream/domain';
import { sendOutbound, type OutboundOptions, type OutboundResult } from '../outbound-http';

export interface CrmClientOptions {
  /** Per call (CRM_TIMEOUT_MS, default 30 s). */
  timeoutMs: number;
  allowInsecureTargets?: boolean;
  resolve?: OutboundOptions['resolve'];
  /** Epoch milliseconds (token expiry, Retry-After dates). */
  now?: () => number;
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

export function toCrmResponse(result: OutboundResult): CrmHttpResponse {
  if (result.ok) return { status: result.status, body: result.body, headers: result.headers };
  if (result.code === 'HTTP_ERROR') return { status: result.status, body: result.body ?? '', headers: result.headers ?? {} };
  return { status: null, body: '', headers: {}, failure: { code: result.code, message: result.error } };
}

export class CrmClient {
  private readonly tokens = new Map<string, CrmAccessToken>();
  private readonly now: () => number;

  constructor(private readonly options: CrmClientOptions) {
    this.now = options.now ?? Date.now;
  }

  private async call(request: CrmHttpRequest): Promise<{ response: CrmHttpResponse; timeMs: number }> {
    const result = await sendOutbound(
      { url: request.url, method: request.method, headers: request.headers, ...(request.rawBody !== undefined ? { rawBody: request.rawBody } : request.body !== undefined ? { body: request.body } : {}) },
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

  private async token(connection: CrmConnection, fresh: boolean): Promise<{ ok: true; token: CrmAccessToken } | { ok: false; outcome: Exclude<CrmOutcome, { kind: 'synced' }> }> {
    const key = this.tokenKey(connection);
    const cached = this.tokens.get(key);
    if (cached && !fresh && cached.expiresAt > this.now()) return { ok: true, token: cached };
    this.tokens.delete(key);
    const { response } = await this.call(accessTokenRequest(connection));
    const read = readAccessToken(response, this.now());
    if (read.ok) this.tokens.set(key, read.token);
    return read;
  }

  /** Upserts one lead; never throws for what the CRM or the network does (the outcome says it). */
  async sync(connection: CrmConnection, lead: CrmLead, target: CrmTarget, knownCrmId: string | null): Promise<CrmSyncResult> {
    const started = this.now();
    const elapsed = (): number => Math.max(0, this.now() - started);
    let token: CrmAccessToken | null = null;
    if (needsAccessToken(connection)) {
      const got = await this.token(connection, false);
      if (!got.ok) return { outcome: got.outcome, recordUrl: null, timeMs: elapsed() };
      token = got.token;
    }
    let { response } = await this.call(syncRequest(connection, lead, target, token));
    let outcome = readSyncResponse(connection, response, this.now());
    if (outcome.kind === 'unauthorized' && token) {
      // An expired or revoked session: one fresh token, one more try.
      const got = await this.token(connection, true);
      if (!got.ok) return { outcome: got.outcome, recordUrl: null, timeMs: elapsed() };
      token = got.token;
      ({ response } = await this.call(syncRequest(connection, lead, target, token)));
      outcome = readSyncResponse(connection, response, this.now());
    }
    if (outcome.kind === 'unauthorized') outcome = { kind: 'permanent', error: `${outcome.error} (credentials refused)`, status: outcome.status };
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
      const got = await this.token(connection, true);
      if (!got.ok) return { success: false, responseStatus: got.outcome.status, timeMs: Math.max(0, this.now() - started), error: got.outcome.error };
      token = got.token;
    }
    const { response, timeMs } = await this.call(testRequest(connection, token));
    if (response.status !== null && response.status >= 200 && response.status < 300 && !response.failure) return { success: true, responseStatus: response.status, timeMs };
    return { success: false, responseStatus: response.status, timeMs, error: classifyFailure(response, this.now()).error };
  }
}
