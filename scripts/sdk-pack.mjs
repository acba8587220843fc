// npm run sdk:pack: the server SDK (sdk/node, @paygate/node) as the tarball merchants install, from a fresh clone
// with nothing running: installs what is missing (the repository's dependencies, the SDK's build tools), builds
// the SDK from the OpenAPI document (scripts/sdk-build.mjs) and packs it into sdk/node (git-ignored).
// `npm install ./sdk/node/paygate-node-<version>.tgz` in the merchant's project then installs it.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { ensureInstalled, ensureSdk, root, run } from "./prepare.mjs";

ensureInstalled();
ensureSdk();
const sdk = join(root, "sdk/node");
// Built just now (or already current): prepack would build it again.
run("npm", ["pack", "--ignore-scripts", "--loglevel=warn", "--pack-destination", sdk], {
  cwd: sdk,
  stdio: ["ignore", "ignore", "inherit"],
});
const { name, version } = JSON.parse(readFileSync(join(sdk, "package.json"), "utf8"));
const tarball = join(sdk, `${name.replace("@", "").replace("/", "-")}-${version}.tgz`);
console.log(`Packed ${name}@${version}: ${relative(process.cwd(), tarball)}`);
