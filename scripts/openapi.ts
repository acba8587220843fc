// npm run openapi: write the OpenAPI document (the one GET /v1/openapi.json serves) to a file, for tools
// that read files (the linter in .ci/run, the SDK's generator). Usage: tsx scripts/openapi.ts [out] [baseUrl]
// Its servers are a fixed example host unless given, and nothing else in it depends on the configuration, so
// the SDK generated from it is the same whatever environment builds it (docs/deploy.md "Build once").
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { openApiDocument } from "@/lib/openapi/document";

const out = resolve(process.argv[2] ?? "test-results/openapi.json");
const base = process.argv[3] ?? "https://staging.pay.example.com";
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(openApiDocument(base), null, 2)}\n`);
console.log(`OpenAPI document written to ${out}`);
