/** How PIPELINE_SPLIT cuts the intake stages into units, and which unit a worker's --stages picks. */
import { describe, expect, it } from 'vitest';
import { intakeChains, PipelineSplitError, resolveStages, UnknownStageError } from './stages';

const membersOf = (units: ReturnType<typeof intakeChains>) => units.map((unit) => unit.members ?? [unit.name]);

describe('intake chains', () => {
  it('run validate, dedup, enrich and route as one chain by default', () => {
    expect(membersOf(intakeChains([]))).toEqual([['validate', 'dedup', 'enrich', 'route']]);
  });

  it('start a new chain at each stage PIPELINE_SPLIT names, or at every stage with "all"', () => {
    expect(membersOf(intakeChains(['enrich']))).toEqual([
      ['validate', 'dedup'],
      ['enrich', 'route'],
    ]);
    expect(membersOf(intakeChains(['route', 'dedup']))).toEqual([['validate'], ['dedup', 'enrich'], ['route']]);
    expect(membersOf(intakeChains(['all']))).toEqual([['validate'], ['dedup'], ['enrich'], ['route']]);
  });

  it('refuse a split at the head or at a stage outside the intake', () => {
    expect(() => intakeChains(['validate'])).toThrow(PipelineSplitError);
    expect(() => intakeChains(['notify'])).toThrow(PipelineSplitError);
  });
});

describe('resolveStages', () => {
  it('gives `start` every unit once: the intake chain, then every other stage', () => {
    const names = resolveStages(undefined).map((unit) => unit.name);
    expect(names[0]).toBe('validate');
    expect(names).not.toContain('dedup');
    expect(names).toEqual(
      expect.arrayContaining(['crm-sync', 'notify', 'deliver', 'activity', 'export', 'rule-webhook', 'recalculate']),
    );
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives a worker the unit holding each stage it names, once', () => {
    expect(membersOf(resolveStages(['dedup', 'route']))).toEqual([['validate', 'dedup', 'enrich', 'route']]);
    expect(membersOf(resolveStages(['dedup', 'notify'], ['enrich']))).toEqual([['validate', 'dedup'], ['notify']]);
    expect(() => resolveStages(['dedupe'])).toThrow(UnknownStageError);
  });
});
