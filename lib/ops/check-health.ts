import { sql } from "kysely";
import { AppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { isDraining } from "./lifecycle";

/** How long the database may take to answer before the instance counts as unhealthy. */
const DATABASE_TIMEOUT_MS = 2_000;

/**
 * GET /v1/health: whether this instance can serve, for a load balancer or an orchestrator. 503
 * `service_unavailable` when it is shutting down or cannot reach its database within 2 s; otherwise the
 * database's round trip.
 */
export async function checkHealth() {
  if (isDraining()) {
    throw new AppError("service_unavailable", "This instance is shutting down; send requests elsewhere.", {
      "retry-after": "1",
    });
  }
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      sql`select 1`.execute(db()),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${DATABASE_TIMEOUT_MS} ms`)),
          DATABASE_TIMEOUT_MS,
        );
      }),
    ]);
  } catch (err) {
    log.warn("health check: database unreachable", {
      error: err instanceof Error ? err.message : String(err),
    });
    throw new AppError("service_unavailable", "The database is not reachable from this instance.", {
      "retry-after": "2",
    });
  } finally {
    clearTimeout(timer);
  }
  return { database: "reachable", databaseMs: Math.round((performance.now() - started) * 10) / 10 };
}
