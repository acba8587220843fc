import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { generateApiTypes } from "./api-types";

it("lib/openapi/paygate-api.d.ts is what the OpenAPI document generates (npm run openapi:types)", async () => {
  const committed = readFileSync(join(import.meta.dirname, "paygate-api.d.ts"), "utf8");
  expect(committed).toBe(await generateApiTypes());
});
