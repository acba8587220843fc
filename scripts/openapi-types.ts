// npm run openapi:types: regenerate lib/openapi/paygate-api.d.ts, the TypeScript types of the OpenAPI
// document (openapi-typescript), which the demo store's client (openapi-fetch) is written against.
// lib/openapi/client-types.test.ts fails when the committed file is not what the document generates.
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { generateApiTypes } from "@/lib/openapi/api-types";

const out = resolve(import.meta.dirname, "../lib/openapi/paygate-api.d.ts");
writeFileSync(out, await generateApiTypes());
console.log(`Types written to ${out}`);
