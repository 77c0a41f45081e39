/**
 * docker-compose.yml (repository root) runs the image the Dockerfile builds in every role the CLI
 * knows, and its workers together run every stage: a role or stage added to the CLI and forgotten
 * in the compose file fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveStages, STAGES } from '@leadstream/worker';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROLES } from './roles';

const root = join(import.meta.dirname, '..', '..', '..');

interface Service {
  image?: string;
  build?: { context?: string; dockerfile?: string };
  command?: string[];
  ports?: string[];
  environment?: Record<string, string>;
  profiles?: string[];
}

const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  include?: unknown[];
  services: Record<string, Service>;
};
/** The services that run leadstream: the ones built from the repository's Dockerfile. */
const leadstream = Object.entries(compose.services).filter(([, service]) => service.build !== undefined);

describe('docker-compose.yml', () => {
  it('runs every role of the CLI', () => {
    const roles = new Set(leadstream.map(([, service]) => service.command?.[0]));
    expect([...roles].sort()).toEqual([...ROLES].sort());
  });

  it('builds every leadstream service from the Dockerfile at the root, as one image', () => {
    expect(leadstream.length).toBeGreaterThanOrEqual(ROLES.length);
    for (const [name, service] of leadstream) {
      expect(service.build, name).toEqual({ context: '.', dockerfile: 'Dockerfile' });
      expect(service.image, name).toBe('leadstream:local');
    }
    // Every other service is a server of infra/docker-compose.yml, included rather than repeated.
    expect(compose.include).toEqual(['infra/docker-compose.yml']);
    const infra = parse(readFileSync(join(root, 'infra', 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, unknown>;
    };
    expect(Object.keys(compose.services).filter((name) => !leadstream.some(([own]) => own === name))).toEqual([]);
    expect(Object.keys(infra.services).sort()).toEqual(['clickhouse', 'kafka', 'mongodb']);
  });

  it('runs every pipeline stage in some worker', () => {
    const stages = leadstream
      .filter(([, service]) => service.command?.[0] === 'worker')
      .flatMap(([, service]) => {
        const at = service.command?.indexOf('--stages') ?? -1;
        expect(at, 'a worker without --stages').toBeGreaterThan(0);
        return resolveStages(String(service.command?.[at + 1]).split(','));
      })
      .flatMap((unit) => unit.members ?? [unit.name]);
    expect([...new Set(stages)].sort()).toEqual([...STAGES.keys()].sort());
  });

  it('points the distributed roles at the servers and gives them the shared secrets; `start` runs alone on the embedded engines', () => {
    for (const [name, service] of leadstream) {
      if (service.command?.[0] === 'start') {
        expect(service.profiles, name).toEqual(['single']);
        expect(service.environment, name).toBeUndefined();
        continue;
      }
      expect(service.environment, name).toMatchObject({
        KAFKA_BROKERS: 'kafka:9092',
        MONGODB_URI: 'mongodb://mongodb:27017/',
        CLICKHOUSE_URL: 'http://clickhouse:8123',
        JWT_SECRET: expect.stringMatching(/^\$\{JWT_SECRET:\?/) as unknown,
        CRM_CREDENTIALS_KEY: expect.stringMatching(/^\$\{CRM_CREDENTIALS_KEY:\?/) as unknown,
      });
      // Workers and the projector serve their health on OPS_PORT, which the image's HEALTHCHECK asks.
      if (service.command?.[0] === 'worker' || service.command?.[0] === 'projector')
        expect(service.environment?.['OPS_PORT'], name).toBe('9090');
    }
  });

  it('uses an image that runs the built CLI as a non-root user, with the ports and health check the services use', () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", "dist\/leadstream\.js"\]$/m);
    expect(dockerfile).toMatch(/^CMD \["start"\]$/m);
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    expect(dockerfile).toMatch(/^EXPOSE 3000 9090$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n\s+CMD .*\/healthz/m);
    expect(compose.services['api']?.ports).toEqual(['3000:3000']);
  });
});
