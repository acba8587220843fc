import type { Migration } from "kysely/migration";
import { migration as m0001 } from "./0001_foundation";
import { migration as m0002 } from "./0002_channels";
import { migration as m0003 } from "./0003_webhooks";
import { migration as m0004 } from "./0004_payment_links";
import { migration as m0005 } from "./0005_merchant_fees";
import { migration as m0006 } from "./0006_sealed_idempotent_answers";
import { migration as m0007 } from "./0007_open_checkout_expiry";
import { migration as m0008 } from "./0008_several_instances";
import { migration as m0009 } from "./0009_receipts";
import { migration as m0011 } from "./0011_refunds";
import { migration as m0012 } from "./0012_checkout_locale";
import { migration as m0013 } from "./0013_initialize_idempotency";
import { migration as m0014 } from "./0014_link_places";
import { migration as m0015 } from "./0015_partial_transfers";
import { migration as m0020 } from "./0020_paystack";
import { migration as m0021 } from "./0021_jobs";
import { migration as m0022 } from "./0022_embed_origins";
import { migration as m0023 } from "./0023_link_payment_started";
import { migration as m0026 } from "./0026_customers_and_saved_cards";
import { migration as m0030 } from "./0030_plans_and_subscriptions";
import { migration as m0031 } from "./0031_subscribe_at_checkout";
import { migration as m0035 } from "./0035_team_and_audit_log";
import { migration as m0036 } from "./0036_user_tokens";
import { migration as m0037 } from "./0037_two_factor";

/**
 * Every migration, one file each, named `NNNN_purpose.ts` and listed here under that same name, which is
 * its id in `schema_migrations`: Kysely's Migrator runs them in name order (lib/db/migrate.ts). The list is
 * static so the built server bundles every migration; `lib/db/migrations/index.test.ts` fails while a file
 * of this folder is missing here, or the other way round.
 *
 * Each uses only column types both SQLite and PostgreSQL understand (text, integer, bigint), so one list
 * serves both databases. A released migration is never edited, renamed or renumbered: databases have run
 * it under its name (`released.test.ts` holds the statements each one shipped with). A change is a new
 * migration.
 *
 * Numbers 0010 and 0016-0019 were never used: they were taken by work under way on other branches that
 * shipped without a migration of that number, and no database has run them. Gaps are never filled: Kysely
 * refuses a migration that sorts before one a database has already run, so a new migration takes the next
 * number after the highest here.
 */
export const migrations: Record<string, Migration> = {
  "0001_foundation": m0001,
  "0002_channels": m0002,
  "0003_webhooks": m0003,
  "0004_payment_links": m0004,
  "0005_merchant_fees": m0005,
  "0006_sealed_idempotent_answers": m0006,
  "0007_open_checkout_expiry": m0007,
  "0008_several_instances": m0008,
  "0009_receipts": m0009,
  "0011_refunds": m0011,
  "0012_checkout_locale": m0012,
  "0013_initialize_idempotency": m0013,
  "0014_link_places": m0014,
  "0015_partial_transfers": m0015,
  "0020_paystack": m0020,
  "0021_jobs": m0021,
  "0022_embed_origins": m0022,
  "0023_link_payment_started": m0023,
  "0026_customers_and_saved_cards": m0026,
  "0030_plans_and_subscriptions": m0030,
  "0031_subscribe_at_checkout": m0031,
  "0035_team_and_audit_log": m0035,
  "0036_user_tokens": m0036,
  "0037_two_factor": m0037,
};
