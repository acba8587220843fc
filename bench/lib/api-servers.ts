// The servers `npm run bench:api` (bench/api.ts) loads: the built app on one process or every core, and
// bench/bare-server.ts. Each is recorded in `running`, which the bench stops at the end or on a signal.
import { type ServerProcess, startServer } from "../../scripts/lib/server-process";

const APP_SECRET = "bench-app-secret-0123456789abcdefghijklmnopqrstuvwxyz";
/** The secret key rate limit, lifted: the load comes from one key. */
const UNLIMITED_KEY = { RATE_LIMIT_KEY_BURST: "100000000", RATE_LIMIT_KEY_PER_SECOND: "100000000" };

/** A process the bench started: a server of scripts/lib/server-process.ts, or the bare server. */
export type Running = {
  name: string;
  pid: number;
  output: () => string;
  alive: () => boolean;
  stop: () => Promise<void>;
};

/** Every process started so far, in order. */
export const running: Running[] = [];

function tracked(server: ServerProcess): Running {
  const r: Running = {
    name: server.name,
    pid: server.pid,
    output: server.output,
    alive: () => server.child.exitCode === null && server.child.signalCode === null,
    stop: server.stop,
  };
  running.push(r);
  return r;
}

/** How the bench runs its servers. */
export type ServerOptions = {
  /** The app's build directory (NEXT_DIST_DIR). */
  distDir: string;
  /** Echo the servers' output. */
  verbose: boolean;
};

const echo = (name: string, verbose: boolean) => (text: string) =>
  verbose && process.stderr.write(`[${name}] ${text}`);

/** The built app on a fresh SQLite file, with `workers` processes; the secret key cap is lifted. */
export async function startNext(
  name: string,
  dbFile: string,
  workers: number,
  nodeArgs: string[],
  options: ServerOptions,
  /** More environment for this server (a bench variant's switches). */
  extraEnv: Record<string, string> = {},
) {
  const server = await startServer({
    name,
    nodeArgs,
    timeoutMs: 90_000,
    env: {
      NEXT_DIST_DIR: options.distDir,
      DATABASE_URL: `file:${dbFile}`,
      APP_SECRET,
      SEED_DEMO: "0",
      LOG_LEVEL: "error",
      WEB_CONCURRENCY: String(workers),
      ...UNLIMITED_KEY,
      ...extraEnv,
    },
    onOutput: echo(name, options.verbose),
  });
  const r = tracked(server);
  if (workers > 1) await waitForWorkers(r, workers);
  return { running: r, url: server.url };
}

/** A cluster answers as soon as its first worker listens; measure it only once every worker does. */
async function waitForWorkers(r: Running, workers: number) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const listening = r.output().match(/"msg":"listening"/g)?.length ?? 0;
    if (listening >= workers) return;
    if (!r.alive()) throw new Error(`${r.name} exited during start-up:\n${r.output().slice(-4_000)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`${r.name}: not every worker listened within 90 s:\n${r.output().slice(-4_000)}`);
}

/**
 * bench/bare-server.ts on a fresh SQLite file; it signs up its own merchant and prints its test secret key
 * on the line that says it is ready.
 */
export async function startBare(dbFile: string, nodeArgs: string[], options: Pick<ServerOptions, "verbose">) {
  const server = await startServer({
    name: "bare",
    nodeArgs,
    script: ["--import", "tsx", "bench/bare-server.ts"],
    env: {
      DATABASE_URL: `file:${dbFile}`,
      APP_SECRET,
      SEED_DEMO: "0",
      LOG_LEVEL: "error",
      ...UNLIMITED_KEY,
    },
    onOutput: echo("bare", options.verbose),
  });
  const r = tracked(server);
  // The ready line is written as the server starts listening: it is there by the time /v1/ping answers, or
  // follows at once.
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    for (const line of r.output().split("\n")) {
      if (!line.startsWith('{"benchReady"')) continue;
      const ready = JSON.parse(line) as { secretKey: string };
      return { running: r, url: server.url, secretKey: ready.secretKey };
    }
    if (!r.alive()) break;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`the bare server did not print its ready line:\n${r.output().slice(-4_000)}`);
}
