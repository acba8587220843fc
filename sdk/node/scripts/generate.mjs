// Generates src/generated/ (types, one function per operation, and the fetch client they use) from the
// OpenAPI document with @hey-api/openapi-ts. The document is `openapi.json` next to this package's
// package.json (the repository's `npm run sdk:build` writes it from lib/openapi), or the file or URL in
// PAYGATE_OPENAPI. Nothing generated is committed: it is made again on every build.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// The generator is this package's build tool: a clone that has not installed it is told the one command that does.
let createClient;
try {
  ({ createClient } = await import("@hey-api/openapi-ts"));
} catch {
  console.error(
    "The SDK's build tools are not installed here. From the repository's root, `npm run sdk:pack` installs them, builds the SDK and packs it (or `npm install` in sdk/node, then `npm pack`).",
  );
  process.exit(1);
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const input = process.env.PAYGATE_OPENAPI ?? resolve(root, "openapi.json");
// Inside the Paygate repository, the document is built from its zod schemas when it is not there yet.
const repo = resolve(root, "../..");
if (!process.env.PAYGATE_OPENAPI && !existsSync(input) && existsSync(resolve(repo, "scripts/openapi.ts"))) {
  const tsx = resolve(repo, "node_modules/tsx/dist/cli.mjs");
  spawnSync(process.execPath, [tsx, "scripts/openapi.ts", input], { cwd: repo, stdio: "inherit" });
}
if (!/^https?:/.test(input) && !existsSync(input)) {
  console.error(
    `No OpenAPI document at ${input}: from the repository's root, \`npm run sdk:pack\` (or \`npm run sdk:build\`) writes it and builds the SDK; or set PAYGATE_OPENAPI to a document's file or URL.`,
  );
  process.exit(1);
}
const output = resolve(root, "src/generated");
rmSync(output, { recursive: true, force: true });
// The compiled output is made again from it (tsc -p tsconfig.build.json, the build's next step).
rmSync(resolve(root, "dist"), { recursive: true, force: true });
await createClient({
  input,
  // No entry file (generated/index): the facade imports the generated modules it uses by name, and the package
  // exports only the facade, so an entry file would be shipped and never read.
  output: { path: output, importFileExtension: ".js", clean: true, entryFile: false },
  logs: { level: "silent" },
  plugins: [
    "@hey-api/typescript",
    { name: "@hey-api/sdk" },
    { name: "@hey-api/client-fetch", throwOnError: false },
  ],
});
console.log(`@paygate/node: generated ${output} from ${input}`);
