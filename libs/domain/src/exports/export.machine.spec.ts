import { describe, expect, it } from 'vitest';
import { advanceExport, exportCan, exportStatusOf, IllegalExportTransition, startExport } from './export.machine';

const completed = {
  type: 'COMPLETED',
  rowCount: 7,
  completedAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-02T00:00:00.000Z',
} as const;

describe('export machine', () => {
  it('goes requested → processing → completed → expired, keeping what completion tells', () => {
    const requested = startExport('export_1');
    expect(requested).toEqual({
      state: 'requested',
      context: { exportId: 'export_1', attempts: 0, rowCount: null, completedAt: null, expiresAt: null, error: null },
    });
    const processing = advanceExport(requested, { type: 'START' });
    expect(processing.state).toBe('processing');
    const done = advanceExport(processing, completed);
    expect(done).toMatchObject({
      state: 'completed',
      context: { rowCount: 7, expiresAt: '2026-01-02T00:00:00.000Z', attempts: 1 },
    });
    expect(advanceExport(done, { type: 'EXPIRED' }).state).toBe('expired');
  });

  it('restarts processing after a crash and counts attempts', () => {
    const again = advanceExport(advanceExport(startExport('export_2'), { type: 'START' }), { type: 'START' });
    expect(again).toMatchObject({ state: 'processing', context: { attempts: 2 } });
  });

  it('fails from requested or processing, with the error', () => {
    expect(advanceExport(startExport('export_3'), { type: 'FAILED', error: 'queue down' })).toMatchObject({
      state: 'failed',
      context: { error: 'queue down' },
    });
    const processing = advanceExport(startExport('export_3'), { type: 'START' });
    expect(advanceExport(processing, { type: 'FAILED', error: 'disk full' }).state).toBe('failed');
  });

  it('refuses what its state does not accept: a finished export never starts again', () => {
    const done = advanceExport(advanceExport(startExport('export_4'), { type: 'START' }), completed);
    expect(exportCan(done, { type: 'START' })).toBe(false);
    expect(() => advanceExport(done, { type: 'START' })).toThrow(IllegalExportTransition);
    expect(() => advanceExport(startExport('export_4'), { type: 'EXPIRED' })).toThrow(IllegalExportTransition);
    const failed = advanceExport(startExport('export_4'), { type: 'FAILED', error: 'x' });
    expect(exportCan(failed, { type: 'START' })).toBe(false);
  });

  it('shows requested as processing, as the export status documents it', () => {
    expect(exportStatusOf('requested')).toBe('processing');
    expect(exportStatusOf('completed')).toBe('completed');
  });
});
