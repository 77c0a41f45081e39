/**
 * Compiled JSON Schemas. Values are checked at the edges (routes, consumers) with these; inside,
 * the code trusts the types.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import leadEventSchema from './messages/lead-event.schema.json' with { type: 'json' };

// ajv-formats is CommonJS; its default export arrives wrapped under ESM interop.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);

export const LEAD_EVENT_NAMES = leadEventSchema.properties.event.enum;
export type LeadEventName = (typeof LEAD_EVENT_NAMES)[number];

/** A domain event as it travels on `leads.events`. */
export interface LeadEventMessage {
  schema_version: 1;
  id: string;
  event: LeadEventName;
  timestamp: string;
  organization_id: string;
  environment: 'live' | 'sandbox';
  data: Record<string, unknown>;
}

export class SchemaError extends Error {
  readonly code = 'SCHEMA_INVALID' as const;
  constructor(
    readonly schema: string,
    readonly errors: ErrorObject[],
  ) {
    super(`${schema}: ${ajv.errorsText(errors)}`);
    this.name = 'SchemaError';
  }
}

function checker<T>(name: string, validate: ValidateFunction): (value: unknown) => T {
  return (value) => {
    if (!validate(value)) throw new SchemaError(name, validate.errors ?? []);
    return value as T;
  };
}

export const parseLeadEvent = checker<LeadEventMessage>('lead-event', ajv.compile(leadEventSchema));
