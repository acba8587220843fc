// npm run db:migrate - bring the database of DATABASE_URL to the latest schema and exit.
import { database } from "@/lib/db/client";
import { migrateToLatest } from "@/lib/db/migrate";

const { db, dialect } = database();
try {
  const applied = await migrateToLatest(db);
  console.log(
    applied.length
      ? `Applied on ${dialect}: ${applied.join(", ")}`
      : `The ${dialect} database is up to date.`,
  );
} catch (err) {
  console.error(`Migration failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
