// npm run merchant:fees -- <merchant id or email> [changes as JSON | reset]
//
// The operator's tool for a merchant's own fee rules (docs/api.md: the default schedule is configurable per
// merchant). Fees are what the gateway charges, so no merchant credential can set them; merchants see them
// in GET /v1/merchants/settings. Works on the database of DATABASE_URL (migrating it first, as start does).
//
//   npm run merchant:fees -- shop@example.com                     the schedule as it is
//   npm run merchant:fees -- shop@example.com '{"NGN": {"card": {"percent": "2.5", "flat": "50.00",
//       "flatWaivedBelow": "1000.00", "cap": "5000.00"}}}'       replace NGN's card rule, keep the rest
//   npm run merchant:fees -- shop@example.com '{"NGN": {"card": null}}'   NGN card back to the default
//   npm run merchant:fees -- shop@example.com '{"USD": null}'     USD back to the default
//   npm run merchant:fees -- shop@example.com reset               every currency back to the default
//
// Prints the merchant and every currency's rules as JSON; exits 1 with a message naming the field and the
// rule when the changes are not valid (nothing is written then).

import { isAppError } from "@/lib/core/errors";
import { parseOrThrow } from "@/lib/core/validation";
import { database } from "@/lib/db/client";
import { migrateToLatest } from "@/lib/db/migrate";
import { FeesBody } from "@/lib/merchants/schemas";
import { setMerchantFees } from "@/lib/merchants/set-merchant-fees";

const USAGE = "usage: npm run merchant:fees -- <merchant id or email> [changes as JSON | reset]";

async function main(args: string[]): Promise<number> {
  const [merchant, changes, ...extra] = args;
  if (!merchant || extra.length > 0) {
    console.error(USAGE);
    return 2;
  }
  let fees: Parameters<typeof setMerchantFees>[0]["fees"];
  if (changes === "reset") fees = null;
  else if (changes !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(changes);
    } catch (err) {
      console.error(`The changes are not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
    fees = parseOrThrow(FeesBody, json, "fees");
  }
  // Opened only once the input is good: a refused input touches no database.
  opened = true;
  await migrateToLatest(database().db);
  const result = await setMerchantFees({ merchant, fees });
  console.log(JSON.stringify(result, null, 2));
  return 0;
}

let opened = false;
let code = 1;
try {
  code = await main(process.argv.slice(2));
} catch (err) {
  console.error(
    isAppError(err) ? err.message : `Failed: ${err instanceof Error ? err.message : String(err)}`,
  );
} finally {
  if (opened) await database().db.destroy();
}
process.exitCode = code;
