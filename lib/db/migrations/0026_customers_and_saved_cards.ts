import { randomBytes } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { Migration } from "kysely/migration";

/** Crockford's base32 (no I, L, O, U): the alphabet of customer codes (lib/customers/codes.ts makes them). */
const BASE32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

function customerCode(): string {
  // 20 characters of 5 bits each from 20 random bytes (the low 5 bits of each: uniform, 32 divides 256).
  return `CUS_${[...randomBytes(20)].map((b) => BASE32[b & 31]).join("")}`;
}

/**
 * Customers and saved cards (docs/customers.md): a merchant's customers per mode (one per email), the cards
 * they saved with their consent, each consent as it was given, and on every transaction its customer and the
 * saved card it saved or charged. Transactions that already have an email get their customer here.
 * Released: never edit it (lib/db/migrations/index.ts).
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    // One customer per email, merchant and mode: `email_key` is the email as compared (trimmed, lower case),
    // unique, so two first payments of a new email on two instances at once make one customer.
    await db.schema
      .createTable("customers")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("merchant_id", "text", (c) => c.notNull())
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("email_key", "text", (c) => c.notNull())
      .addColumn("name", "text")
      .addColumn("phone", "text")
      .addColumn("metadata", "text")
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addUniqueConstraint("customers_merchant_mode_email", ["merchant_id", "mode", "email_key"])
      .execute();
    await db.schema
      .createIndex("customers_list")
      .on("customers")
      .columns(["merchant_id", "mode", "created_at", "id"])
      .execute();

    // A saved card: what the card's rail gave to charge it again (its token, sealed), what is shown of it,
    // and a keyed fingerprint of its number (never the number) so the same card saved again by the same
    // customer is the same authorization. `active_fingerprint` is the fingerprint while the authorization can
    // still be charged and null once deactivated: unique per customer where set, so a deactivated card saved
    // again is a new authorization, and an active one is found again.
    await db.schema
      .createTable("card_authorizations")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("merchant_id", "text", (c) => c.notNull())
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("customer_id", "text", (c) => c.notNull())
      .addColumn("fingerprint", "text", (c) => c.notNull())
      .addColumn("active_fingerprint", "text")
      .addColumn("rail", "text", (c) => c.notNull())
      .addColumn("key_source", "text")
      .addColumn("token_sealed", "text", (c) => c.notNull())
      .addColumn("brand", "text", (c) => c.notNull())
      .addColumn("last4", "text", (c) => c.notNull())
      .addColumn("exp_month", "integer", (c) => c.notNull())
      .addColumn("exp_year", "integer", (c) => c.notNull())
      .addColumn("bank", "text")
      .addColumn("status", "text", (c) => c.notNull())
      // Test mode's clock of this authorization (POST /v1/sandbox/clock/advance): how far it has been moved.
      .addColumn("clock_offset_ms", "bigint", (c) => c.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("updated_at", "bigint", (c) => c.notNull())
      .addColumn("last_used_at", "bigint")
      .addColumn("deactivated_at", "bigint")
      .addUniqueConstraint("card_authorizations_active_card", ["customer_id", "active_fingerprint"])
      .execute();
    await db.schema
      .createIndex("card_authorizations_customer")
      .on("card_authorizations")
      .columns(["customer_id", "created_at"])
      .execute();

    // Each consent to keep a card, as it was given: the words shown, in which language, when, from which
    // client address, on which payment.
    await db.schema
      .createTable("card_consents")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("authorization_id", "text", (c) => c.notNull())
      .addColumn("merchant_id", "text", (c) => c.notNull())
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("transaction_id", "text", (c) => c.notNull())
      .addColumn("kind", "text", (c) => c.notNull())
      .addColumn("text", "text", (c) => c.notNull())
      .addColumn("locale", "text", (c) => c.notNull())
      .addColumn("client_address", "text", (c) => c.notNull())
      .addColumn("given_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("card_consents_authorization")
      .on("card_consents")
      .columns(["authorization_id", "given_at"])
      .execute();

    // The sandbox card network's reusable tokens (test mode): how each one answers a charge (never a number).
    await db.schema
      .createTable("sandbox_card_tokens")
      .addColumn("token", "text", (c) => c.primaryKey())
      .addColumn("behaviour", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .execute();

    // On a transaction: its customer; initialize's `saveCard`; the saved card it saved or charged; and
    // whether it is a charge of a saved card with the customer away (POST /v1/payment/charge-authorization).
    await db.schema.alterTable("transactions").addColumn("customer_id", "text").execute();
    await db.schema.alterTable("transactions").addColumn("save_card", "text").execute();
    await db.schema.alterTable("transactions").addColumn("authorization_id", "text").execute();
    await db.schema
      .alterTable("transactions")
      .addColumn("merchant_initiated", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex("transactions_customer")
      .on("transactions")
      .columns(["customer_id", "created_at"])
      .execute();

    // Transactions that already have an email belong to that email's customer, made now.
    const emails = await sql<{
      merchant_id: string;
      mode: string;
      email_key: string;
      email: string;
      at: unknown;
    }>`
      select merchant_id, mode, lower(trim(email)) as email_key, min(trim(email)) as email, min(created_at) as at
      from transactions where email is not null
      group by merchant_id, mode, lower(trim(email))`.execute(db);
    for (const row of emails.rows) {
      const id = customerCode();
      const at = Number(row.at);
      await sql`insert into customers (id, merchant_id, mode, email, email_key, name, phone, metadata, created_at, updated_at)
        values (${id}, ${row.merchant_id}, ${row.mode}, ${row.email}, ${row.email_key}, null, null, null, ${at}, ${at})`.execute(
        db,
      );
      await sql`update transactions set customer_id = ${id}
        where merchant_id = ${row.merchant_id} and mode = ${row.mode} and lower(trim(email)) = ${row.email_key}`.execute(
        db,
      );
    }
  },
};
