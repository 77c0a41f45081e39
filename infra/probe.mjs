// Readiness probe used by infra/up.sh. Exit 0 when the server answers, 1 when it does not.
//
//   node infra/probe.mjs kafka   127.0.0.1:19092 [--warm]
//   node infra/probe.mjs mongodb mongodb://127.0.0.1:27018/
//
// kafka: kafkajs admin().listTopics(); with --warm also asks for a consumer group's coordinator,
//        which makes the broker create __consumer_offsets now rather than in the first test.
// mongodb: the official driver's { ping: 1 }, then { listDatabases: 1 }, which FerretDB answers from
//          its backend (PostgreSQL), so a FerretDB whose backend is down does not count as up.
// Falls back to a bare TCP connect (with a warning) when node_modules is not installed yet.
import net from 'node:net';

const [kind, target, ...flags] = process.argv.slice(2);
const timeoutMs = Number(process.env.PROBE_TIMEOUT_MS ?? 5000);

function tcpCheck(host, port) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port: Number(port) });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`TCP connect to ${host}:${port} timed out`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.end();
      resolve();
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

async function tryImport(name) {
  try {
    return await import(name);
  } catch (err) {
    if (err && (err.code === 'ERR_MODULE_NOT_FOUND' || err.code === 'MODULE_NOT_FOUND')) {
      console.error(`probe: '${name}' is not installed (run npm ci); falling back to a TCP check`);
      return undefined;
    }
    throw err;
  }
}

async function probeKafka(brokers) {
  const mod = await tryImport('kafkajs');
  if (!mod) {
    const [host, port] = brokers.split(',')[0].split(':');
    return tcpCheck(host, port);
  }
  const { Kafka, logLevel } = mod.default ?? mod;
  const kafka = new Kafka({
    clientId: 'leadstream-infra-probe',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
    connectionTimeout: timeoutMs,
    requestTimeout: timeoutMs,
    retry: { retries: 0 },
  });
  const admin = kafka.admin({ retry: { retries: 0 } });
  await admin.connect();
  try {
    await admin.listTopics();
    if (flags.includes('--warm')) {
      // Coordinator lookup: retried here because the broker answers COORDINATOR_NOT_AVAILABLE
      // while it creates and loads __consumer_offsets.
      const deadline = Date.now() + 60_000;
      for (;;) {
        try {
          await admin.describeGroups(['leadstream-infra-probe']);
          break;
        } catch (err) {
          if (Date.now() > deadline) throw err;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    }
  } finally {
    await admin.disconnect();
  }
}

async function probeMongo(uri) {
  const mod = await tryImport('mongodb');
  if (!mod) {
    const u = new URL(uri);
    return tcpCheck(u.hostname, u.port || 27017);
  }
  const client = new mod.MongoClient(uri, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    directConnection: true,
  });
  try {
    await client.connect();
    await client.db('admin').command({ ping: 1 });
    await client.db('admin').command({ listDatabases: 1, nameOnly: true });
  } finally {
    await client.close();
  }
}

try {
  if (kind === 'kafka') await probeKafka(target);
  else if (kind === 'mongodb') await probeMongo(target);
  else throw new Error(`usage: probe.mjs kafka|mongodb <target> [--warm]`);
  process.exit(0);
} catch (err) {
  if (process.env.PROBE_VERBOSE) console.error(`probe ${kind} ${target}: ${err?.message ?? err}`);
  process.exit(1);
}
