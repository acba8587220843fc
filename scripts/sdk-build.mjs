// npm run sdk:build (and `npm run build`, `prepare`): generate and compile the server SDK (sdk/node) and the
// QA kit's API types from the OpenAPI document when they are missing or stale; `--force` builds anyway.
import { ensureSdk } from "./prepare.mjs";

ensureSdk({ force: process.argv.includes("--force") });
