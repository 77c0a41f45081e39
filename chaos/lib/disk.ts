/**
 * A small filesystem for the embedded half's DATA_DIR, so the disk can really fill up: a tmpfs of
 * a fixed size (`mount -t tmpfs -o size=...`), or, where tmpfs cannot be mounted, a loop-mounted
 * ext4 image of that size. Neither is faked in code: the service meets ENOSPC / SQLITE_FULL from
 * the kernel. Filling writes one file until the kernel refuses a single byte more; freeing deletes it.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface SmallDisk {
  kind: 'tmpfs' | 'loop-mounted ext4';
  dir: string;
  sizeMb: number;
  /** Unmounts it (lazily when busy); a second call does nothing. */
  unmount(): void;
}

function run(command: string, args: string[]): void {
  execFileSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
}

export function mountSmallDisk(dir: string, sizeMb: number): SmallDisk {
  mkdirSync(dir, { recursive: true });
  let mounted = true;
  const unmount = (): void => {
    if (!mounted) return;
    try {
      run('umount', [dir]);
    } catch {
      run('umount', ['-l', dir]); // busy: detach now, freed when the last user goes
    }
    mounted = false;
  };
  let tmpfsError: string;
  try {
    run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0755`, 'tmpfs', dir]);
    return { kind: 'tmpfs', dir, sizeMb, unmount };
  } catch (error) {
    tmpfsError = describe(error);
  }
  const image = `${dir}.img`;
  try {
    run('truncate', ['-s', `${sizeMb}M`, image]);
    run('mkfs.ext4', ['-q', '-F', image]);
    run('mount', ['-o', 'loop', image, dir]);
    return {
      kind: 'loop-mounted ext4',
      dir,
      sizeMb,
      unmount: () => {
        unmount();
        rmSync(image, { force: true });
      },
    };
  } catch (error) {
    rmSync(image, { force: true });
    throw new Error(
      `could not mount a small filesystem at ${dir}: tmpfs: ${tmpfsError}; loop-mounted ext4: ${describe(error)}`,
    );
  }
}

function describe(error: unknown): string {
  const stderr = (error as { stderr?: Buffer }).stderr?.toString('utf8').trim();
  return stderr || (error instanceof Error ? error.message : String(error));
}

export function freeBytes(dir: string): number {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
}

/** Writes `dir/chaos-filler` until the filesystem refuses even one more byte; returns the file and its size. */
export function fillDisk(dir: string): { file: string; bytes: number } {
  const file = join(dir, 'chaos-filler');
  const fd = openSync(file, 'w');
  let bytes = 0;
  try {
    for (const size of [1 << 20, 1 << 16, 1 << 12, 1 << 9, 1]) {
      const chunk = Buffer.alloc(size, 0x5a);
      for (;;) {
        try {
          const written = writeSync(fd, chunk);
          bytes += written;
          if (written < size) break;
        } catch (error) {
          if ((error as { code?: string }).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return { file, bytes };
}
