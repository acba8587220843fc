import type { Kysely } from "kysely";
import { db } from "@/lib/db/client";
import type { Database } from "@/lib/db/schema";
import { type InvoiceRow, presentSubscription, type SubscriptionRow } from "./present";

/** The invoice of a subscription still to be charged (pending, being charged, or waiting for its payment). */
export async function dueInvoiceOf(
  executor: Kysely<Database>,
  subscriptionId: string,
): Promise<InvoiceRow | null> {
  const row = await executor
    .selectFrom("invoices")
    .selectAll()
    .where("subscription_id", "=", subscriptionId)
    .where("status", "in", ["pending", "charging", "waiting"])
    .orderBy("period_index", "asc")
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/** A subscription as merchants see it, from its row (its plan, customer, card and due invoice read here). */
export async function presentSubscriptionRow(row: SubscriptionRow, executor: Kysely<Database> = db()) {
  const [plan, customer, authorization, due] = await Promise.all([
    executor.selectFrom("plans").selectAll().where("id", "=", row.plan_id).executeTakeFirstOrThrow(),
    executor
      .selectFrom("customers")
      .select(["id", "email"])
      .where("id", "=", row.customer_id)
      .executeTakeFirstOrThrow(),
    row.authorization_id
      ? executor
          .selectFrom("card_authorizations")
          .selectAll()
          .where("id", "=", row.authorization_id)
          .executeTakeFirst()
      : Promise.resolve(undefined),
    dueInvoiceOf(executor, row.id),
  ]);
  return presentSubscription({ row, plan, customer, authorization: authorization ?? null, due });
}
