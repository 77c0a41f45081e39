/**
 * The suite's own private servers (infra/up.sh and infra/down.sh with another run directory and
 * other ports, so the servers other test runs share are never touched), and the crash of one of
 * them: SIGKILL of the server process (for PostgreSQL, the postmaster and every backend it forked,
 * as when the machine's PostgreSQL dies), a few seconds away, then the same command line started
 * again as the same user, in the same directory, with the same environment, on the same data. Not
 * `up.sh`: it wipes a server's data on a fresh start, and a crash must keep it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './roles';

export interface PrivateInfraOptions {
  runDir: string;
  kafkaPort: number;
  ferretdbPort: number;
  postgresPort: number;
  clickhousePort: number;
}

export interface InfraEnv {
  KAFKA_BROKERS: string;
  MONGODB_URI: string;
  CLICKHOUSE_URL: string;
}

export type ServerName = 'kafka' | 'postgres' | 'clickhouse' | 'ferretdb';

function infraEnv(options: PrivateInfraOptions): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    LEADSTREAM_RUN_DIR: options.runDir,
    LEADSTREAM_KAFKA_PORT: String(options.kafkaPort),
    LEADSTREAM_KAFKA_CONTROLLER_PORT: String(options.kafkaPort + 1),
    LEADSTREAM_FERRETDB_PORT: String(options.ferretdbPort),
    LEADSTREAM_POSTGRES_PORT: String(options.postgresPort),
    LEADSTREAM_CLICKHOUSE_PORT: String(options.clickhousePort),
    LEADSTREAM_STOP_TIMEOUT: '10',
  };
}

function runScript(
  script: string,
  options: PrivateInfraOptions,
  args: string[] = [],
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [join(ROOT, 'infra', script), ...args], {
      cwd: ROOT,
      env: infraEnv(options),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** Starts (or finds running) the private servers; resolves with their addresses. */
export async function privateInfraUp(options: PrivateInfraOptions): Promise<InfraEnv> {
  const { code, output } = await runScript('up.sh', options);
  if (code !== 0) throw new Error(`infra/up.sh failed (exit ${code}):\n${output.split('\n').slice(-40).join('\n')}`);
  const env: Record<string, string> = {};
  for (const line of readFileSync(join(options.runDir, 'infra.env'), 'utf8').split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
  }
  if (!env['KAFKA_BROKERS'] || !env['MONGODB_URI'] || !env['CLICKHOUSE_URL'])
    throw new Error(`infra/up.sh wrote an incomplete ${options.runDir}/infra.env`);
  return {
    KAFKA_BROKERS: env['KAFKA_BROKERS'],
    MONGODB_URI: env['MONGODB_URI'],
    CLICKHOUSE_URL: env['CLICKHOUSE_URL'],
  };
}

/** Stops the private servers (only the processes recorded in this run directory). */
export async function privateInfraDown(options: PrivateInfraOptions): Promise<void> {
  if (!existsSync(options.runDir)) return;
  const { code, output } = await runScript('down.sh', options);
  if (code !== 0) throw new Error(`infra/down.sh failed (exit ${code}):\n${output}`);
}

/** The same, synchronously: for the hard timeout, when the event loop may not get another turn. */
export function privateInfraDownSync(options: PrivateInfraOptions): void {
  if (!existsSync(options.runDir)) return;
  spawnSync('bash', [join(ROOT, 'infra', 'down.sh')], {
    cwd: ROOT,
    env: infraEnv(options),
    stdio: 'ignore',
    timeout: 60_000,
  });
}

/** Where up.sh sends each server's output, and a text its command line must hold (as up.sh checks). */
const SERVERS: Record<ServerName, { logFile: (runDir: string) => string; pattern: string }> = {
  kafka: { logFile: (runDir) => join(runDir, 'kafka', 'logs', 'stdout.log'), pattern: 'kafka.Kafka' },
  postgres: { logFile: (runDir) => join(runDir, 'postgres', 'postgres.log'), pattern: '/postgres/data' },
  clickhouse: { logFile: (runDir) => join(runDir, 'clickhouse', 'clickhouse.log'), pattern: 'chdb-http/server.py' },
  ferretdb: { logFile: (runDir) => join(runDir, 'ferretdb', 'ferretdb.log'), pattern: 'ferretdb' },
};

interface ProcessImage {
  pid: number;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  uid: number;
  gid: number;
}

function alive(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return !/^State:\s*Z/m.test(status);
  } catch {
    return false;
  }
}

function imageOf(pid: number): ProcessImage {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .split('\0')
    .filter((part, index, all) => part !== '' || index < all.length - 1);
  const env: Record<string, string> = {};
  for (const entry of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const at = entry.indexOf('=');
    if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const uid = Number(/^Uid:\s*(\d+)/m.exec(status)?.[1]);
  const gid = Number(/^Gid:\s*(\d+)/m.exec(status)?.[1]);
  return { pid, argv, cwd: readlinkSync(`/proc/${pid}/cwd`), env, uid, gid };
}

/** The processes whose parent is `pid` (PostgreSQL's backends and auxiliary processes). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

export function serverPid(runDir: string, name: ServerName): number {
  const pid = Number(readFileSync(join(runDir, `${name}.pid`), 'utf8').trim());
  if (!Number.isInteger(pid) || !alive(pid))
    throw new Error(`${name} (pid file ${join(runDir, `${name}.pid`)}) is not running`);
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  if (!cmdline.includes(SERVERS[name].pattern) || !cmdline.includes(runDir))
    throw new Error(`pid ${pid} is not the private ${name} of ${runDir}: ${cmdline}`);
  return pid;
}

async function waitGone(pids: number[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(alive)) {
    if (Date.now() > deadline)
      throw new Error(`processes ${pids.filter(alive).join(', ')} still alive ${timeoutMs} ms after SIGKILL`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A crashed server, to be started again by `restart`. */
export interface CrashedServer {
  name: ServerName;
  image: ProcessImage;
  killedAt: number;
  restart(): number;
}

/**
 * SIGKILLs the private server `name` (and, for PostgreSQL, every process its postmaster forked).
 * Resolves once all of them are gone, with a `restart` that starts the same command again.
 * SIGQUIT instead stops a Go server (FerretDB) with a dump of its goroutines in its log.
 */
export async function crashServer(
  runDir: string,
  name: ServerName,
  signal: 'SIGKILL' | 'SIGQUIT' = 'SIGKILL',
): Promise<CrashedServer> {
  const pid = serverPid(runDir, name);
  const image = imageOf(pid);
  const victims = [pid, ...(name === 'postgres' ? childrenOf(pid) : [])];
  for (const victim of victims) {
    try {
      process.kill(victim, signal);
    } catch {
      // already gone
    }
  }
  const killedAt = Date.now();
  await waitGone(victims, 10_000).catch(async (error: unknown) => {
    if (signal === 'SIGKILL') throw error;
    for (const victim of victims.filter(alive)) process.kill(victim, 'SIGKILL');
    await waitGone(victims, 10_000);
  });
  return {
    name,
    image,
    killedAt,
    restart: () => {
      const logFile = SERVERS[name].logFile(runDir);
      const fd = openSync(logFile, 'a');
      try {
        // detached: a session of its own, as up.sh's setsid gives it.
        const child = spawn(image.argv[0]!, image.argv.slice(1), {
          cwd: image.cwd,
          env: image.env,
          uid: image.uid,
          gid: image.gid,
          detached: true,
          stdio: ['ignore', fd, fd],
        });
        child.unref();
        if (child.pid === undefined) throw new Error(`could not start ${name} again`);
        writeFileSync(join(runDir, `${name}.pid`), `${child.pid}\n`);
        return child.pid;
      } finally {
        closeSync(fd);
      }
    },
  };
}
