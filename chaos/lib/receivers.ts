/**
 * The loopback ends of a run, each in its own process: the webhook receiver (which the suite
 * pauses with SIGSTOP) and the CRM. The suite reads what they recorded over HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { ROOT } from './roles';

interface Started {
  child: ChildProcess;
  hello: Record<string, string>;
}

async function startReceiverProcess(file: string, env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'chaos', 'receivers', file)], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const first = await Promise.race([
    once(lines, 'line') as Promise<[string]>,
    once(child, 'exit').then(([code]) => {
      throw new Error(`${file} exited (${String(code)}) before it listened`);
    }),
  ]);
  lines.close();
  child.stdout.resume();
  return { child, hello: JSON.parse(first[0]) as Record<string, string> };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export interface ReceivedDelivery {
  path: string;
  id: string;
  event: string;
  organizationId: string;
  leadId: string | null;
  problems: string[];
}

export class WebhookReceiverProcess {
  private constructor(
    private readonly started: Started,
    readonly url: string,
    private readonly control: string,
  ) {}

  static async start(): Promise<WebhookReceiverProcess> {
    const started = await startReceiverProcess('webhook-receiver.main.ts', {});
    return new WebhookReceiverProcess(started, String(started.hello['url']), String(started.hello['control']));
  }

  async setSecret(path: string, secret: string): Promise<void> {
    const response = await fetch(`${this.control}/secret`, { method: 'POST', body: JSON.stringify({ path, secret }) });
    if (response.status !== 204) throw new Error(`the webhook receiver refused the secret: ${response.status}`);
  }

  /** What arrived: everything, or one lead's deliveries. */
  async received(leadId?: string): Promise<ReceivedDelivery[]> {
    const query = leadId === undefined ? '' : `?lead=${encodeURIComponent(leadId)}`;
    return (await (
      await fetch(`${this.control}/received${query}`, { signal: AbortSignal.timeout(10_000) })
    ).json()) as ReceivedDelivery[];
  }

  /** SIGSTOP: the process keeps its sockets but answers nothing, as a hung receiver. */
  pause(): void {
    this.started.child.kill('SIGSTOP');
  }

  resume(): void {
    this.started.child.kill('SIGCONT');
  }

  stop(): Promise<void> {
    return stopChild(this.started.child);
  }

  /** The last resort, synchronous. */
  killNow(): void {
    this.started.child.kill('SIGKILL');
  }
}

export interface CrmRecord {
  id: string;
  externalId: string;
  email: string;
  calls: number;
}

export class CrmProcess {
  private constructor(
    private readonly started: Started,
    readonly url: string,
  ) {}

  static async start(auth: string): Promise<CrmProcess> {
    const started = await startReceiverProcess('crm.main.ts', { AUTH: auth });
    return new CrmProcess(started, String(started.hello['url']));
  }

  /** The counts: every record, or the one of an external id. */
  async records(externalId?: string): Promise<{ calls: number; refused: number; records: CrmRecord[] }> {
    const query = externalId === undefined ? '' : `?external_id=${encodeURIComponent(externalId)}`;
    return (await (
      await fetch(`${this.url.replace(/\/crm$/, '/_records')}${query}`, { signal: AbortSignal.timeout(10_000) })
    ).json()) as { calls: number; refused: number; records: CrmRecord[] };
  }

  stop(): Promise<void> {
    return stopChild(this.started.child);
  }

  /** The last resort, synchronous. */
  killNow(): void {
    this.started.child.kill('SIGKILL');
  }
}
