import { AppError, isAppError } from "@/lib/core/errors";
import { db } from "@/lib/db/client";
import { SEALED_SINCE_KEY } from "@/lib/db/migrations/0006_sealed_idempotent_answers";
import type { Mode } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { pepper } from "@/lib/security/pepper";
import { seal, unseal } from "@/lib/security/seal";

/**
 * `Idempotency-Key` (docs/decisions/005-idempotency.md). The first request with a key inserts an `in_flight` row (the primary key
 * makes that a race exactly one request wins), runs, and stores its answer; later ones with the same key and
 * body replay that answer, with a different body get 422, and while the first still runs get 409.
 * Validation failures and unexpected errors are not stored: the row is removed so the key can be used again.
 *
 * Stored answers are sealed (AES-256-GCM under a key derived from the pepper, bound to the key's scope): an
 * answer can hold a credential shown once (a rolled secret key, a webhook secret) or a customer's details,
 * and a copy of the database alone must not reveal them. A replay still returns the answer itself, so a
 * client that lost the response to a key roll gets the key it rolled to instead of being locked out.
 */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,255}$/;

export type Scope = { merchantId: string; mode: Mode; method: string; path: string; key: string };
export type StoredAnswer = { status: number; body: unknown; replayed: boolean };

export function checkIdempotencyKey(key: string): void {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new AppError(
      "validation_error",
      "Idempotency-Key header must be 1-255 characters of A-Z a-z 0-9 _ . : -.",
    );
  }
}

const where = (scope: Scope) =>
  db()
    .selectFrom("idempotency_keys")
    .where("merchant_id", "=", scope.merchantId)
    .where("mode", "=", scope.mode)
    .where("method", "=", scope.method)
    .where("path", "=", scope.path)
    .where("idempotency_key", "=", scope.key);

export async function runIdempotent(
  scope: Scope,
  requestHash: string,
  run: () => Promise<{ status: number; body: unknown }>,
): Promise<StoredAnswer> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = Date.now();
    const inserted = await db()
      .insertInto("idempotency_keys")
      .values({
        merchant_id: scope.merchantId,
        mode: scope.mode,
        method: scope.method,
        path: scope.path,
        idempotency_key: scope.key,
        request_hash: requestHash,
        state: "in_flight",
        response_status: null,
        response_body: null,
        created_at: now,
        expires_at: now + env().IDEMPOTENCY_TTL_SECONDS * 1000,
      })
      .onConflict((oc) =>
        oc.columns(["merchant_id", "mode", "method", "path", "idempotency_key"]).doNothing(),
      )
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return runAndStore(scope, now, run);

    const existing = await where(scope).selectAll().executeTakeFirst();
    if (!existing) continue; // removed between our insert and read: try to claim it again
    const createdAt = Number(existing.created_at);
    const stale =
      Number(existing.expires_at) <= now ||
      (existing.state === "in_flight" && createdAt <= now - env().IDEMPOTENCY_LOCK_SECONDS * 1000);
    if (stale) {
      await removeClaim(scope, createdAt);
      continue;
    }
    if (existing.request_hash !== requestHash) {
      throw new AppError(
        "idempotency_key_reused",
        "This Idempotency-Key was already used with a different request body; use a new key for a new request.",
      );
    }
    if (existing.state !== "done" || existing.response_status === null || existing.response_body === null) {
      throw new AppError(
        "idempotency_in_progress",
        "A request with this Idempotency-Key is still being processed; retry shortly to get its result.",
        { "retry-after": "1" },
      );
    }
    return {
      status: existing.response_status,
      body: await openAnswer(scope, existing.response_body, createdAt),
      replayed: true,
    };
  }
  throw new AppError("idempotency_in_progress", "This Idempotency-Key is contended; retry shortly.", {
    "retry-after": "1",
  });
}

async function removeClaim(scope: Scope, createdAt: number) {
  await db()
    .deleteFrom("idempotency_keys")
    .where("merchant_id", "=", scope.merchantId)
    .where("mode", "=", scope.mode)
    .where("method", "=", scope.method)
    .where("path", "=", scope.path)
    .where("idempotency_key", "=", scope.key)
    .where("created_at", "=", createdAt)
    .execute();
}

async function runAndStore(
  scope: Scope,
  createdAt: number,
  run: () => Promise<{ status: number; body: unknown }>,
): Promise<StoredAnswer> {
  let answer: { status: number; body: unknown };
  try {
    answer = await run();
  } catch (err) {
    // A refusal that depends only on the request (4xx other than validation) is part of the key's answer;
    // validation failures and crashes are not, so the client may fix the request or retry with the same key.
    if (isAppError(err) && err.status < 500 && err.code !== "validation_error" && err.status !== 429) {
      await store(scope, createdAt, err.status, { status: "failed", error: err.code, message: err.message });
    } else {
      await removeClaim(scope, createdAt).catch(() => {});
    }
    throw err;
  }
  await store(scope, createdAt, answer.status, answer.body);
  return { ...answer, replayed: false };
}

const SEAL_PURPOSE = "idempotent-answer";

/** What a stored answer's seal is bound to: the whole scope of its key. */
function sealContext(scope: Scope): string {
  return JSON.stringify([scope.merchantId, scope.mode, scope.method, scope.path, scope.key]);
}

let sealedSince: Promise<number> | undefined;

/** When this database's answers began to be sealed (migration 0006); read once. */
function answersSealedSince(): Promise<number> {
  sealedSince ??= db()
    .selectFrom("app_meta")
    .select("value")
    .where("key", "=", SEALED_SINCE_KEY)
    .executeTakeFirst()
    .then((row) => Number(row?.value ?? 0));
  return sealedSince;
}

async function openAnswer(scope: Scope, stored: string, createdAt: number): Promise<unknown> {
  // Only an answer stored before sealing began may be plain JSON (such rows expire within
  // IDEMPOTENCY_TTL_SECONDS); a plain one written since is not ours, and is refused like a broken seal.
  if (stored.startsWith("{")) {
    if (createdAt < (await answersSealedSince())) return JSON.parse(stored);
    throw new Error("idempotency: an unsealed answer stored after sealing began");
  }
  return JSON.parse(unseal(await pepper(), stored, { purpose: SEAL_PURPOSE, context: sealContext(scope) }));
}

async function store(scope: Scope, createdAt: number, status: number, body: unknown) {
  const sealed = seal(await pepper(), JSON.stringify(body), {
    purpose: SEAL_PURPOSE,
    context: sealContext(scope),
  });
  await db()
    .updateTable("idempotency_keys")
    .set({ state: "done", response_status: status, response_body: sealed })
    .where("merchant_id", "=", scope.merchantId)
    .where("mode", "=", scope.mode)
    .where("method", "=", scope.method)
    .where("path", "=", scope.path)
    .where("idempotency_key", "=", scope.key)
    .where("created_at", "=", createdAt)
    .execute();
}
